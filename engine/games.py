"""The registry of every game the box referees. A game is one folder, `games/<name>/`, with every part of it
inside: its declaration, rules, OLED pages, phone script and style, catalogs, player rules pages and rulings.
The folder's `__init__.py` makes its descriptor (`GAME`, a `Game`) with `one_folder`, and `games/__init__.py`
lists every game, in the order the box's menu shows them (`ALL`). Whoever starts a program hands that list to
`register` — the composition root (`device/cli.py`, for the box and every `arbitro` command), the tests' root
`conftest.py`, a bench — so the engine never imports a game, and a new game is a new folder plus its line in
that list.

A descriptor reaches each part of its game through a loader, a small function of the game's own folder whose
plain import the type checker and import-linter see: `load_rules` imports its rules (called when a game of it is
first played or replayed: a box keeps in memory the rules of the games played on it, not of all five),
`load_oled` its OLED pages (called by `device/`), `phone.load_data` its phone data (called by `web_companion/`).
The engine only calls them, never names a module of a higher layer, so the layers still import only downward.

A descriptor carries what the box's menu and the host page show of every game before one is chosen (its
`declaration`: name, title, seats, options, pad labels).
"""
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from .rules.options import Option
from .rules.protocol import JSON, Action, Actors, Outcomes, Prompt, Result, View, Viewer, refuse

LOCALE = Path(__file__).parent / "locale"  # the box's own catalogs; a game keeps its own in its folder


S = TypeVar("S")  # a game's state: its own immutable data, opaque to everything but its rules


class Named(Protocol):
    """What names a game and its table: its log name, title, seat counts and options (module constants, read
    here as read-only properties)."""
    @property
    def NAME(self) -> str: ...
    @property
    def TITLE(self) -> str: ...
    @property
    def SEATS(self) -> tuple[int, int]: ...
    @property
    def OPTIONS(self) -> tuple[Option, ...]: ...


class Declaration(Named, Protocol):
    """What the box's menu and the host page show of a game before one is chosen (its `declaration.py`)."""
    @property
    def PAD_LABELS(self) -> tuple[str, ...]: ...


class Rules(Named, Protocol[S]):
    """The pure rules of a game: the contract `engine/rules/protocol.py` describes in words. A game's rules module
    is checked against it by the type checker (`make types`), from the game's descriptor."""
    def setup(self, seats: JSON, options: JSON) -> S: ...
    def current_actors(self, state: S) -> Actors: ...
    def chance_outcomes(self, state: S) -> Outcomes: ...
    def legal_actions(self, state: S, actor: int | str) -> list[Action]: ...
    def apply(self, state: S, action: JSON) -> S: ...
    def prompt(self, state: S, seat: int) -> Prompt | None: ...
    def view(self, state: S, viewer: Viewer) -> View: ...
    def result(self, state: S) -> Result | None: ...


# The names the contract asks for, checked when a game's rules are first imported (the type checker checks the
# rest): typing lists a protocol's members only from Python 3.12 on (`__protocol_attrs__`).
CONTRACT = tuple(name for protocol in (Named, Rules) for name, member in vars(protocol).items()
                 if not name.startswith("_") and (callable(member) or isinstance(member, property)))


@dataclass(frozen=True)
class Rulebook(Generic[S]):
    """A game's rules and what they can do beyond the contract, typed on the game's state: what its `load_rules`
    returns. Each capability is optional:

    - `public_lines(steps)`: what a log exported mid-game keeps, from the (state before, line) steps played
      (None: revealed picks only, `engine/rules/picks.py`);
    - `secret_draw(state)`: the seats a chance outcome due now is a secret of (None: everyone may see it)."""
    rules: Rules[S]
    public_lines: Callable[[Sequence[tuple[S, Action]]], list[Action]] | None = None
    secret_draw: Callable[[S], tuple[int, ...] | None] | None = None


@dataclass(frozen=True)
class Phone:
    """A game's parts on the phone: its panels' script and stylesheet (paths under `folder`, served by the box),
    and the loader of the `DATA` its panels need beside their words (None: words only)."""
    folder: Path
    script: str | None = None
    style: str | None = None
    load_data: Callable[[], Mapping[str, Any]] | None = None


@dataclass(frozen=True)
class Game:
    """One game: its declaration and how each layer reaches the rest.

    - `declaration`: a module with the game's `NAME`, `TITLE`, `SEATS`, `OPTIONS` (its rules hold the same) and
      `PAD_LABELS` (the words printed on a pad's strip, button 1 first; empty: the pads follow the prompt).
    - `load_rules`: imports its rules, with their capabilities (a `Rulebook`); called on first use (`rules`).
    - `load_oled`: imports its OLED pages (`live`, `chapters`, `result`, `summary`), see device/games.py.
    - `phone`: its phone parts; `rules_pages`: the folder of its player rules pages (`<name>.<lang>.md`).
    - `locale`: the folder of its catalogs (`<lang>/LC_MESSAGES/<name>.po`).
    - `draws`: the box draws something — dice, cards — so there is a seal worth showing at the start.

    `one_folder` makes it from a game's folder, where every part has its place.
    """
    declaration: Declaration
    load_rules: Callable[[], Rulebook[Any]]
    load_oled: Callable[[], ModuleType]
    phone: Phone
    rules_pages: Path
    locale: Path
    draws: bool = False

    @property
    def name(self) -> str:
        return self.declaration.NAME

    @property
    def title(self) -> str:
        return self.declaration.TITLE

    @property
    def seats(self) -> tuple[int, int]:
        return self.declaration.SEATS

    @property
    def options(self) -> tuple[Option, ...]:
        return self.declaration.OPTIONS

    @property
    def pad_labels(self) -> tuple[str, ...]:
        return self.declaration.PAD_LABELS

    @cached_property
    def rulebook(self) -> Rulebook[Any]:  # the engine holds a game's states without looking into them
        """Its rules and their capabilities, imported the first time they are asked for; refused when the rules
        break the contract."""
        book = self.load_rules()
        missing = [name for name in CONTRACT if not hasattr(book.rules, name)]
        if missing:
            raise TypeError(f"{book.rules!r} does not follow the rules contract (missing: {', '.join(missing)})")
        return book

    @property
    def rules(self) -> Rules[Any]:
        return self.rulebook.rules

    @property
    def public_lines(self) -> Callable[[Sequence[tuple[Any, Action]]], list[Action]] | None:
        return self.rulebook.public_lines

    @property
    def secret_draw(self) -> Callable[[Any], tuple[int, ...] | None] | None:
        return self.rulebook.secret_draw


def one_folder(folder: Path, declaration: Declaration, load_rules: Callable[[], Rulebook[Any]],
               load_oled: Callable[[], ModuleType], load_phone: Callable[[], Mapping[str, Any]] | None = None, *,
               draws: bool = False) -> Game:
    """The game whose folder (a package) is `folder`, reached through its loaders, each other part where a game's
    folder keeps it: `static/<name>.js` and `.css`, `pages/<name>.<lang>.md`, `locale/<lang>/LC_MESSAGES/<name>.po`
    (`load_phone`: when its panels need data beside their words, its `phone.py`)."""
    if not (folder / "__init__.py").is_file():
        raise TypeError(f"no game folder {str(folder)!r}")
    name, static = declaration.NAME, folder / "static"
    phone = Phone(static, script=f"{name}.js" if (static / f"{name}.js").exists() else None,
                  style=f"{name}.css" if (static / f"{name}.css").exists() else None, load_data=load_phone)
    return Game(declaration, load_rules, load_oled, phone, rules_pages=folder / "pages", locale=folder / "locale",
                draws=draws)


GAMES: dict[str, Game] = {}  # log name -> Game, in the order the box's menu lists them


DECLARED = ("NAME", "TITLE", "SEATS", "OPTIONS", "PAD_LABELS")  # what a descriptor's declaration holds


def register(games: Iterable[Game]) -> None:
    """Add `games` to the registry, in their order (the box's menu lists them so; one registered again keeps its
    place), or none of them when a declaration lacks a name of DECLARED; the rules are checked against the contract
    when first imported."""
    listed = list(games)
    for game in listed:
        missing = [name for name in DECLARED if not hasattr(game.declaration, name)]
        if missing:
            raise TypeError(f"{game.declaration!r} does not declare a game (missing: {', '.join(missing)})")
    GAMES.update((game.name, game) for game in listed)


def unregister(name: str) -> None:
    GAMES.pop(name, None)


def game(name: JSON) -> Game:
    """The registered game called `name`; refused by name when there is none."""
    if not isinstance(name, str) or name not in GAMES:
        raise refuse("unknown_game", game=name, games=", ".join(sorted(GAMES)))
    return GAMES[name]

"""The registry of every game the box referees. A game is one folder, `games/<name>/` (a package holding `GAME`,
a `Game`), with every part of it inside: its declaration, rules, OLED pages, phone script and style, catalogs,
player rules pages and rulings. The registry finds the games by scanning that one package: adding a game adds a
folder and touches no shared module. Every layer finds a game's parts through its descriptor: the engine its
rules, the box its OLED pages (a module path, imported by `device/`), the web side its phone parts (static files
and a data module, resolved by `web_companion/`), the words their catalog folder. Parts of a higher layer are
named by path, never imported here, so the layers still import only downward.

A descriptor carries what the box's menu and the host page show of every game before one is chosen (its
`declaration`: name, title, seats, options, pad labels); its rules are a module path, imported when a game of it
is first played or replayed: a box keeps in memory the rules of the games played on it, not of all five.
"""
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from .rules.options import Option
from .rules.protocol import JSON, Action, Actors, Outcomes, Prompt, Result, View, Viewer, refuse

LOCALE = Path(__file__).parent / "locale"  # the box's own catalogs; a game keeps its own in its folder
GAMES_PACKAGE = "games"  # where the registry finds every game, one folder (package) each


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


PublicLines = Callable[[Sequence[tuple[Any, Action]]], list[Action]]  # (state before, line) -> lines kept
SecretDraw = Callable[[Any], tuple[int, ...] | None]  # a state -> the seats its due outcome is a secret of


@dataclass(frozen=True)
class Phone:
    """A game's parts on the phone: its panels' script and stylesheet (paths under `folder`, served by the box),
    and the module whose `DATA` its panels need beside their words (None: words only)."""
    folder: Path
    script: str | None = None
    style: str | None = None
    data: str | None = None


@dataclass(frozen=True)
class Game:
    """One game: its declaration, its rules and where each layer finds the rest.

    - `declaration`: a module with the game's `NAME`, `TITLE`, `SEATS`, `OPTIONS` (its rules hold the same) and
      `PAD_LABELS` (the words printed on a pad's strip, button 1 first; empty: the pads follow the prompt).
    - `rules_module`: the module of its rules, imported on first use (`rules`).
    - `oled`: the module of its OLED pages (`live`, `chapters`, `result`, `summary`), see device/games.py.
    - `phone`: its phone parts; `rules_pages`: the folder of its player rules pages (`<name>.<lang>.md`).
    - `locale`: the folder of its catalogs (`<lang>/LC_MESSAGES/<name>.po`).
    - Capabilities, each optional: `capabilities` names the functions of its rules it has among
      `public_lines(steps)` (what a log exported mid-game keeps; default: revealed picks only) and
      `secret_draw(state)` (the seats a chance outcome due now is a secret of); `secret_options` (table options
      under which chance deals secrets), `open_information` (nothing is ever secret), `draws` (the box draws
      something — dice, cards — so there is a seal worth showing at the start).

    `one_folder` makes it from a game's folder, where every part has its place.
    """
    declaration: Declaration
    rules_module: str
    oled: str
    phone: Phone
    rules_pages: Path
    locale: Path
    order: int = 100  # where the box's menu lists it, lowest first
    capabilities: tuple[str, ...] = ()
    secret_options: dict[str, JSON] | None = None
    open_information: bool = False
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
    def rules(self) -> Rules[Any]:  # the engine holds a game's states without looking into them
        """Its rules, imported the first time they are asked for; refused when they break the contract."""
        rules = importlib.import_module(self.rules_module)
        missing = [name for name in CONTRACT if not hasattr(rules, name)]
        if missing:
            raise TypeError(f"{rules!r} does not follow the rules contract (missing: {', '.join(missing)})")
        return cast(Rules[Any], rules)

    @property
    def public_lines(self) -> PublicLines | None:
        return cast(PublicLines | None, self._capability("public_lines"))

    @property
    def secret_draw(self) -> SecretDraw | None:
        return cast(SecretDraw | None, self._capability("secret_draw"))

    def _capability(self, name: str) -> object:
        return getattr(self.rules, name) if name in self.capabilities else None


def one_folder(package: str, declaration: Declaration, **parts: Any) -> Game:
    """The game in the folder of `package` (its dotted name), each part where a game's folder keeps it:
    `rules.py`, `oled.py`, `phone.py` (when its panels need data beside their words), `static/<name>.js` and
    `.css`, `pages/<name>.<lang>.md`, `locale/<lang>/LC_MESSAGES/<name>.po`."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise TypeError(f"no game folder {package!r}")
    here, name = Path(next(iter(spec.submodule_search_locations))), declaration.NAME
    static = here / "static"
    phone = Phone(static, script=f"{name}.js" if (static / f"{name}.js").exists() else None,
                  style=f"{name}.css" if (static / f"{name}.css").exists() else None,
                  data=f"{package}.phone" if (here / "phone.py").exists() else None)
    return Game(declaration, f"{package}.rules", oled=f"{package}.oled", phone=phone, rules_pages=here / "pages",
                locale=here / "locale", **parts)


GAMES: dict[str, Game] = {}  # log name -> Game, in the order the box's menu lists them


DECLARED = ("NAME", "TITLE", "SEATS", "OPTIONS", "PAD_LABELS")  # what a descriptor's declaration holds


def register(game: Game) -> Game:
    """Add `game` (a Game) to the registry, in its menu place. Its declaration must hold every name of DECLARED
    and its rules module must exist; the rules themselves are checked against the contract when first imported."""
    missing = [name for name in DECLARED if not hasattr(game.declaration, name)]
    if missing:
        raise TypeError(f"{game.declaration!r} does not declare a game (missing: {', '.join(missing)})")
    if importlib.util.find_spec(game.rules_module) is None:
        raise TypeError(f"no rules module {game.rules_module!r} for {game.name!r}")
    listed = sorted([*(g for g in GAMES.values() if g.name != game.name), game], key=lambda g: g.order)
    GAMES.clear()
    GAMES.update((g.name, g) for g in listed)
    return game


def unregister(name: str) -> None:
    GAMES.pop(name, None)


def game(name: JSON) -> Game:
    """The registered game called `name`; refused by name when there is none."""
    if not isinstance(name, str) or name not in GAMES:
        raise refuse("unknown_game", game=name, games=", ".join(sorted(GAMES)))
    return GAMES[name]


def _found() -> None:
    """Import every game folder of the `games` package: each registers its `GAME` as it is made (a folder imported
    before the registry, as a rules test does, registers itself once this scan is over)."""
    folders = importlib.import_module(GAMES_PACKAGE)
    for module in pkgutil.iter_modules(folders.__path__):
        if module.ispkg:
            importlib.import_module(f"{GAMES_PACKAGE}.{module.name}")


_found()

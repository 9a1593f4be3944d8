"""The game contract: what every game module provides, and the names they share.

A game module (``games/<name>/rules.py``, declared with the rest of its game in ``games/<name>/__init__.py``, typed
there as ``Rules``) exposes:

- ``NAME`` (its log name), ``TITLE`` (as printed on the box), ``SEATS`` (fewest, most) and ``OPTIONS``
  (a tuple of ``options.Option``: the typed table options, their defaults and checks).
- ``setup(seats, options) -> state``: raises ``Rejected`` naming the bad seat count or option.
- ``current_actors(state)``: the seats that may act now, ``CHANCE`` when a chance outcome is due, or
  ``TERMINAL`` when the game is over.
- ``chance_outcomes(state) -> [(action, probability)]``: the possible outcomes of the chance node the game is
  at (``[]`` elsewhere). Rules never sample randomness and never read a clock: the caller picks an outcome.
- ``legal_actions(state, actor) -> [action]``: every action ``actor`` (a seat or ``CHANCE``) may take now. A game
  may share an action between its lists (one made once, listed turn after turn): callers never change one.
- ``apply(state, action) -> state``: the next state, or ``Rejected`` with a message safe to show the whole
  table. Never a silent no-op.
- ``prompt(state, seat) -> Prompt | None``: what the seat may do now, as data; every input surface (the pad,
  the phone, the host) is drawn from it. It depends only on what the seat itself may see.
- ``view(state, viewer) -> dict``: what ``viewer`` (a seat, ``PUBLIC`` or ``HOST``) may see. Every public view
  has ``game``, ``over`` and ``result`` (``None`` until over, then winners, losers and draw).
- ``result(state)``: ``None`` until over.
Its optional capabilities (``public_lines``, ``secret_draw``) are typed fields of the ``engine.games.Rulebook`` its
descriptor's loader returns, its pad labels are in its declaration: none is looked up by name.

States and actions are plain data; actions have the shape of a game-log line (see docs/log-format.md).
Seats count from 0 in actions, states and logs; messages people read count from 1 and carry no rule codes.
"""
from __future__ import annotations  # TypeIs is the type checker's alone (typing has it from 3.13)

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, NotRequired, ParamSpec, TypeAlias, TypedDict, TypeVar, Union, cast

if TYPE_CHECKING:
    from typing_extensions import TypeIs

CHANCE = "chance"
TERMINAL = "terminal"
PUBLIC = "public"
HOST = "host"

# What a line of a log (an action), a body of a request and a view are made of: JSON values.
JSON: TypeAlias = Union[None, bool, int, float, str, list["JSON"], dict[str, "JSON"]]
Action: TypeAlias = dict[str, JSON]  # a game-log line: a seat's pick or choice, a chance outcome
Viewer: TypeAlias = int | str  # a seat, PUBLIC or HOST
Actors: TypeAlias = tuple[int, ...] | str  # the seats that may act, CHANCE or TERMINAL
View: TypeAlias = dict[str, object]  # what a viewer may see: JSON-ready data (tuples are lists there)
Outcomes: TypeAlias = list[tuple[Action, float]]  # a chance node's outcomes and their probabilities


class Standing(TypedDict):
    """One line of a race's classification: whose (`seat`, `what`: a word of the game, a rider), its `place`
    from 1 (None: out of the race) and how far `behind` the first it is, as the rulebook counts (None: out)."""
    seat: int
    what: str
    place: int | None
    behind: int | None


class Result(TypedDict):
    """A finished game's result: who won, and who lost as the rulebook names losers ([] where it names only
    winners); a game that ranks everyone adds its classification, best first (`standings`)."""
    winners: list[int]
    losers: list[int]
    draw: bool
    standings: NotRequired[list[Standing]]


# Prompt kinds
PICK = "pick"  # a secret pick, revealed with the others of its round
CHOOSE = "choose"  # an open decision


@dataclass(frozen=True)
class Message:
    """Words the rules hand to people, not yet in any language: a message id of `domain`'s catalog (context
    `context`) and its parameters. A parameter may itself be a Message (a rider's type, the reason a move
    cannot go), worded in the same language. Each surface words it in its own (engine/words.py `render`)."""
    domain: str
    key: str
    params: dict[str, "Param"] = field(default_factory=dict)
    context: str = "refusal"

    def as_data(self) -> dict[str, JSON]:
        """The message as a view carries it (plain data; phones word it in their language)."""
        return {"domain": self.domain, "context": self.context, "key": self.key,
                "params": {k: v.as_data() if isinstance(v, Message) else v for k, v in self.params.items()}}


Param: TypeAlias = Union[JSON, Message]  # a message's parameter: a value, or words of their own


LABEL = "label"  # a Message's context for a game's word as a form labels it: its `phone` word, else its `box` word


class Rejected(ValueError):
    """An action the rules do not allow: a Message safe to show to the table (seats counted from 1, no rule
    code), worded in the language of whoever reads it; `str()` is English, for logs and `arbitro replay`.
    `rule` names the ruling (R-n) for logs and `arbitro replay`."""

    def __init__(self, message: Message, rule: str | None = None) -> None:
        super().__init__(message.key)
        self.message = message
        self.rule = rule

    @property
    def code(self) -> str:
        return self.message.key

    def __str__(self) -> str:
        from engine.words import render  # the catalogs are read on the first refusal worded, not at import
        return render("en", self.message)


def refusals(domain: str) -> Callable[..., Rejected]:
    """`refuse(key, rule=None, **params)`: the Rejected of one catalog's refusal message."""
    def refuse(key: str, rule: str | None = None, /, **params: Param) -> Rejected:
        return Rejected(Message(domain, key, params), rule)
    return refuse


def words_of(domain: str) -> Callable[..., Message]:
    """`word(key, **params)`: a Message of `domain`'s `box` words (a type, a colour) to put in a refusal."""
    def word(key: str, context: str = "box", /, **params: Param) -> Message:
        return Message(domain, key, params, context)
    return word


SHARED = "arbitro"
refuse = refusals(SHARED)


@dataclass(frozen=True)
class Choice:
    """One thing a seat may do: what people read, and the log line it makes."""
    label: str
    action: Action
    group: str | None = None  # two-step choices: the first step picks the group (a village, a boat)
    # A choice that names what only its seat knows (a supply tile the box holds for it): offered on the seat's
    # phone, never on the pad's cursor, which the public OLED draws
    private: bool = False
    confirm: bool = False  # costly to slip on (a tile spent, the finish marked): the phone asks before it sends

    def as_data(self) -> dict[str, JSON]:
        return {"label": self.label, "action": self.action, "group": self.group,
                **({"confirm": True} if self.confirm else {})}


@dataclass(frozen=True)
class Prompt:
    """What a seat may do now. ``title`` is a text key the game's presentation words. ``pad`` is the fixed
    layout of a secret pick: a Choice per button (8, ``None`` for an unused one), the same whatever anyone
    holds, so a press reveals nothing; a choice there that the rules refuse now is refused when pressed. A
    ``secret`` prompt is one whose answer no public channel shows until the rules reveal it (the seat's phone
    says so). A prompt without ``pad`` is driven on the pad by a cursor; choices that name the seat's secrets
    are ``private`` (secret prompt or not): the cursor runs over the others."""
    kind: str
    title: str
    choices: tuple[Choice, ...]
    secret: bool = False
    pad: tuple[Choice | None, ...] | None = None
    current: Action | None = None  # the seat's locked-in pick, if any
    keys: tuple[str | None, ...] = ()  # a cursor prompt's groups or choices (labels) buttons 3–6 reach at once

    def as_data(self) -> dict[str, JSON]:
        return {"kind": self.kind, "title": self.title, "secret": self.secret,
                "choices": [c.as_data() for c in self.choices],
                "pad": None if self.pad is None else [None if c is None else c.label for c in self.pad],
                "current": self.current, "keys": list(self.keys)}

    @property
    def is_private(self) -> bool:
        """Whether the seat's refusals here are its own, never shown to the table: a secret prompt, or one that
        offers the seat's private choices (a refusal could name what it holds)."""
        return self.secret or any(c.private for c in self.choices)

    def on_cursor(self) -> "Prompt | None":
        """The prompt as the pad's cursor may run over it, on the public OLED: without its private choices; None
        when nothing of it may be shown there (the seat answers on its phone)."""
        shown = tuple(c for c in self.choices if not c.private)
        if not shown:
            return None
        if len(shown) == len(self.choices):
            return self
        keys = tuple(k if any(k in (c.label, c.group) for c in shown) else None for k in self.keys)
        return replace(self, choices=shown, keys=keys)


PICK_LINE, CHOOSE_LINE = frozenset({"seat", "pick"}), frozenset({"seat", "choose"})


def line_kind(action: JSON, game: str) -> Literal["pick", "choose"]:
    """"pick" or "choose": the shape of a seat's line, or Rejected naming what is wrong with it (`game` is the
    game's title in the message)."""
    if not isinstance(action, dict):
        raise refuse("not_an_object")
    keys = set(action)
    shape = PICK_LINE if "pick" in keys else CHOOSE_LINE if "choose" in keys else None
    if shape is None:
        raise refuse("not_an_action", game=game, keys=sorted(keys))
    if keys != shape:
        extra = sorted(keys - shape)
        raise refuse("unknown_key", key=extra[0]) if extra else refuse("missing_key", key=sorted(shape - keys)[0])
    return "pick" if shape == PICK_LINE else "choose"


def shown_seat(seat: object) -> int | str:
    """A seat as people count it (from 1), or as it was written when it is no seat number."""
    return seat + 1 if type(seat) is int else repr(seat)


def is_seat(value: object, seats: int) -> TypeIs[int]:
    return type(value) is int and 0 <= value < seats  # a bool is an int, never a seat


def check_seats(seats: object, low: int, high: int) -> int:
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise refuse("seat_count", low=low, high=high, seats=seats)
    return seats


def check_viewer(viewer: object, seats: int) -> None:
    if viewer in (PUBLIC, HOST):
        return
    if not is_seat(viewer, seats):
        raise refuse("no_viewer", viewer=viewer)


_FIELD_INDEX: dict[type, dict[str, int]] = {}
T = TypeVar("T", bound=tuple[object, ...])  # a NamedTuple


def evolve(value: T, **changes: object) -> T:
    """A copy of the NamedTuple `value` with `changes`: NamedTuple._replace, three times faster (the rules
    copy states on every action)."""
    cls = type(value)
    index = _FIELD_INDEX.get(cls)
    if index is None:
        index = _FIELD_INDEX[cls] = {name: i for i, name in enumerate(getattr(cls, "_fields"))}
    values = list(value)
    for name, new in changes.items():
        values[index[name]] = new
    return tuple.__new__(cls, values)


A = TypeVar("A")
P = ParamSpec("P")


def last_answer(ask: Callable[P, A]) -> Callable[P, A]:
    """`ask(state, *args)` remembering its last answer: the table, the prompts and the players ask the same state
    the same question several times an action. A state never changes, so the one it was asked of (kept, so
    its identity is not reused) is recognised by identity. Answers must not be changed by callers (tuples)."""
    last: list[tuple[object, tuple[object, ...], object]] = [(None, (), None)]
    call: Callable[..., A] = ask

    def answer(state: object, *args: object) -> object:  # positional, as the rules ask: no slicing on the way
        asked, asked_args, said = last[0]  # one read: another thread replaces the entry whole
        if asked is state and asked_args == args:
            return said
        said = call(state, *args)
        last[0] = (state, args, said)
        return said
    return cast(Callable[P, A], functools.wraps(ask)(answer))

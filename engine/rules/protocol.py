"""The game contract: what every game module provides, and the names they share.

A game module (``engine/rules/<name>.py``, declared with the rest of its game in ``engine/games/<name>.py``, typed
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
Its optional capabilities (``public_lines``, ``secret_draw``, open information, pad labels) are declared in its
``engine.games.Game`` descriptor, never looked up by name.

States and actions are plain data; actions have the shape of a game-log line (see docs/log-format.md).
Seats count from 0 in actions, states and logs; messages people read count from 1 and carry no rule codes.
"""
from dataclasses import dataclass, field

CHANCE = "chance"
TERMINAL = "terminal"
PUBLIC = "public"
HOST = "host"

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
    params: dict = field(default_factory=dict)
    context: str = "refusal"

    def as_data(self):
        """The message as a view carries it (plain data; phones word it in their language)."""
        return {"domain": self.domain, "context": self.context, "key": self.key,
                "params": {k: v.as_data() if isinstance(v, Message) else v for k, v in self.params.items()}}


class Rejected(ValueError):
    """An action the rules do not allow: a Message safe to show to the table (seats counted from 1, no rule
    code), worded in the language of whoever reads it; `str()` is English, for logs and `arbitro replay`.
    `rule` names the ruling (R-n) for logs and `arbitro replay`."""

    def __init__(self, message, rule=None):
        super().__init__(message.key)
        self.message = message
        self.rule = rule

    @property
    def code(self):
        return self.message.key

    def __str__(self):
        from engine.words import render  # the catalogs are read on the first refusal worded, not at import
        return render("en", self.message)


def refusals(domain):
    """`refuse(key, rule=None, **params)`: the Rejected of one catalog's refusal message."""
    def refuse(key, rule=None, /, **params):
        return Rejected(Message(domain, key, params), rule)
    return refuse


def words_of(domain):
    """`word(key, **params)`: a Message of `domain`'s `box` words (a type, a colour) to put in a refusal."""
    def word(key, context="box", /, **params):
        return Message(domain, key, params, context)
    return word


SHARED = "arbitro"
refuse = refusals(SHARED)


@dataclass(frozen=True)
class Choice:
    """One thing a seat may do: what people read, and the log line it makes."""
    label: str
    action: dict
    group: str | None = None  # two-step choices: the first step picks the group (a village, a boat)

    def as_data(self):
        return {"label": self.label, "action": self.action, "group": self.group}


@dataclass(frozen=True)
class Prompt:
    """What a seat may do now. ``title`` is a text key the game's presentation words. ``pad`` is the fixed
    layout of a secret pick: a Choice per button (8, ``None`` for an unused one), the same whatever anyone
    holds, so a press reveals nothing; a choice there that the rules refuse now is refused when pressed. A
    prompt without ``pad`` is driven on the pad by a cursor."""
    kind: str
    title: str
    choices: tuple
    secret: bool = False
    pad: tuple | None = None
    current: dict | None = None  # the seat's locked-in pick, if any
    keys: tuple = ()  # a cursor prompt's groups or choices (labels) the pad's spare buttons 3–6 reach at once

    def as_data(self):
        return {"kind": self.kind, "title": self.title, "secret": self.secret,
                "choices": [c.as_data() for c in self.choices],
                "pad": None if self.pad is None else [c and c.label for c in self.pad],
                "current": self.current, "keys": list(self.keys)}


PICK_LINE, CHOOSE_LINE = frozenset({"seat", "pick"}), frozenset({"seat", "choose"})


def line_kind(action, game):
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


def shown_seat(seat):
    """A seat as people count it (from 1), or as it was written when it is no seat number."""
    return seat + 1 if type(seat) is int else repr(seat)


def is_seat(value, seats):
    return type(value) is int and 0 <= value < seats  # a bool is an int, never a seat


def check_seats(seats, low, high):
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise refuse("seat_count", low=low, high=high, seats=seats)


def check_viewer(viewer, seats):
    if viewer in (PUBLIC, HOST):
        return
    if not is_seat(viewer, seats):
        raise refuse("no_viewer", viewer=viewer)


_FIELD_INDEX = {}


def evolve(value, **changes):
    """A copy of the NamedTuple `value` with `changes`: NamedTuple._replace, three times faster (the rules
    copy states on every action)."""
    cls = type(value)
    index = _FIELD_INDEX.get(cls)
    if index is None:
        index = _FIELD_INDEX[cls] = {name: i for i, name in enumerate(cls._fields)}
    values = list(value)
    for name, new in changes.items():
        values[index[name]] = new
    return tuple.__new__(cls, values)


def last_answer(ask):
    """`ask(state, *args)` remembering its last answer: the table, the prompts and the players ask the same state
    the same question several times an action. A state never changes, so the one it was asked of (kept, so
    its identity is not reused) is recognised by identity. Answers must not be changed by callers (tuples)."""
    last = [(None, None, None)]

    def answer(state, *args):
        asked, asked_args, said = last[0]  # one read: another thread replaces the entry whole
        if asked is state and asked_args == args:
            return said
        said = ask(state, *args)
        last[0] = (state, args, said)
        return said
    answer.__doc__, answer.__name__, answer.__wrapped__ = ask.__doc__, ask.__name__, ask
    return answer

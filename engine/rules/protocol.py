"""What every game module provides, and the names they share.

A game module exposes ``NAME``, ``setup(seats, options)``, ``legal_actions(state, actor)``,
``apply(state, action)``, ``current_actors(state)``, ``chance_outcomes(state)``,
``view(state, viewer)``, ``result(state)`` and ``pad_action(state, seat, button)``.
States and actions are plain data; actions have the shape of a game-log line (see replay-format.md).
"""

CHANCE = "chance"
TERMINAL = "terminal"
PUBLIC = "public"
HOST = "host"


class Rejected(ValueError):
    """An action the rules do not allow. The message is safe to show to the table."""


def check_seats(seats, low, high):
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise Rejected(f"this game takes {low} to {high} seats, not {seats!r}")


def check_options(options, defaults):
    """Fill in defaults; an unknown option is an error, not ignored."""
    if not isinstance(options, dict):
        raise Rejected("options must be an object")
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise Rejected(f"unknown option {unknown[0]!r}")
    return {**defaults, **options}


def check_viewer(viewer, seats):
    if viewer in (PUBLIC, HOST):
        return
    if not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < seats:
        raise Rejected(f"no such viewer: {viewer!r}")


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

"""Secret simultaneous picks, shared by every game that has them.

A round names the seats that must pick. A seat may pick and change its pick while the round is open;
the round is complete (and revealed) when the last seat has picked. Until then, other viewers learn
only *who* has locked in, never *what*.
"""
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, TypeVar, cast

from .protocol import JSON, Action, evolve, refuse

S = TypeVar("S", bound=tuple[object, ...])  # a game's state that keeps its open round in `picks`


class Picks(NamedTuple):
    seats: tuple[int, ...]  # seats that pick in this round, in seat order
    chosen: tuple[JSON, ...]  # one entry per seat in `seats`: its pick, or None

    @property
    def is_complete(self) -> bool:
        return None not in self.chosen

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple([s for s, c in zip(self.seats, self.chosen) if c is None])

    @property
    def locked(self) -> tuple[int, ...]:
        return tuple([s for s, c in zip(self.seats, self.chosen) if c is not None])

    def pick_of(self, seat: int) -> JSON:
        return self.chosen[self.seats.index(seat)]

    def revealed(self) -> dict[int, JSON]:
        """seat -> pick, only once the round is complete."""
        if not self.is_complete:
            raise refuse("picks_secret")
        return dict(zip(self.seats, self.chosen))


def open_round(seats: Iterable[int]) -> Picks:
    picking = tuple(seats)
    return Picks(picking, (None,) * len(picking))


def pick(round_: Picks, seat: int, choice: JSON) -> Picks:
    """Lock in (or change) `seat`'s pick."""
    if seat not in round_.seats:
        raise refuse("no_pick_now", player=seat + 1)
    chosen = list(round_.chosen)
    chosen[round_.seats.index(seat)] = choice
    return tuple.__new__(Picks, (round_.seats, tuple(chosen)))  # Picks(…) without its keyword handling: every pick


def view(round_: Picks, viewer: object) -> dict[str, JSON]:
    """What `viewer` may know of an open round: who is locked in, and its own pick."""
    shown: dict[str, JSON] = {"picking": list(round_.seats), "locked": list(round_.locked)}
    if isinstance(viewer, int) and viewer in round_.seats:
        shown["my_pick"] = round_.pick_of(viewer)
    return shown


def completes_round(state: object, action: JSON) -> bool:
    """True when `action` is the pick of the last seat the open round waits for. Games with secret picks
    keep their open round in `state.picks`."""
    round_ = getattr(state, "picks", None)
    return (isinstance(round_, Picks) and isinstance(action, dict) and is_pick(action)
            and round_.waiting == (action["seat"],))


def is_pick(line: JSON) -> bool:
    return isinstance(line, dict) and set(line) == {"seat", "pick"}


Hidden = Callable[[S, Action], bool]


def public_lines(steps: Sequence[tuple[S, Action]], hidden: Hidden[S] = lambda before, line: False) -> list[Action]:
    """The lines of a game under way that every player may know: `steps` is [(state before, line)] of the
    lines in effect. A pick is kept once its round is revealed, and only each seat's final pick of the round
    (a changed mind was never shown); lines `hidden(state before, line)` says are secret (a private deal, a
    pick the rules never reveal) are left out. The order is kept, so the lines replay to the same public
    view."""
    kept: list[int] = []
    open_picks: dict[JSON, int] = {}
    for index, (before, line) in enumerate(steps):
        if hidden(before, line):
            continue
        if is_pick(line):
            open_picks[line["seat"]] = index
            if completes_round(before, line):
                kept += open_picks.values()
                open_picks = {}
        else:
            kept.append(index)
    return [steps[index][1] for index in sorted(kept)]


def hold(state: S, action: Action) -> S:
    """`state` with `action`'s pick locked in but not revealed: the round stays open while the table
    waits out its reveal delay."""
    seat = cast(int, action["seat"])  # a held pick is one the rules took
    return evolve(state, picks=pick(getattr(state, "picks"), seat, action["pick"]))

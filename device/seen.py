"""All the box's face may know of the table: a moment's public view, and for each seat a pad wires what its pad
may do now, without the seat's secrets. Everything the OLED shows, sounds or asks for is a function of this, so
no screen, sound or effect can depend on a secret (tests/test_face.py forks two tables to prove it)."""
from dataclasses import dataclass, replace
from typing import Any

@dataclass(frozen=True)
class OnPhone:
    """The seat answers a choice of its own on its phone: the table sees only that it is choosing (and whether
    the prompt is a secret one, as every phone says)."""
    secret: bool


@dataclass(frozen=True, eq=False)
class Seen:
    view: dict  # the public view, its version included
    game_id: int | None
    seats: int
    fault: str | None  # "full" or "failing" while the journal takes no writes
    pads: tuple = ()  # per wired seat at the table: pad_prompt(its prompt)

    @property
    def version(self):
        return self.view["version"]

    @property
    def game(self):
        return self.view.get("game")

    @property
    def over(self):
        return bool(self.view.get("over"))

    def pad(self, seat):
        return self.pads[seat] if seat < len(self.pads) else None


NOTHING = Seen({"game": None, "over": False, "result": None, "version": 0}, None, 0, None)


def pad_prompt(prompt):
    """What a pad and the public OLED may know of `prompt`: a fixed layout (a secret pick's) without the choices
    the seat has or the pick it holds; the choices a cursor may run over (never a private one); OnPhone when
    nothing of it may be shown; None when the seat has nothing to do."""
    if prompt is None:
        return None
    if prompt.pad is not None:
        return replace(prompt, choices=(), current=None)
    return prompt.on_cursor() or OnPhone(prompt.secret)


def seen(moment: Any, wired_seats: int) -> Seen:
    """What the face may know of `moment` (engine/moment.py), for a box whose pads wire `wired_seats` seats."""
    seats = moment.seats
    return Seen(moment.view("public"), moment.game_id, seats, moment.fault,
                tuple(pad_prompt(moment.prompt(seat)) for seat in range(min(wired_seats, seats))))

"""Leader 1's coloured d12 and its energy tables, as data (rules/leader1.md R-1, R-2): what a face is, what a
roll means on each rung of the risk ladder, and what a move costs."""
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeAlias, cast

from engine.rules.protocol import JSON, refusals

Face: TypeAlias = tuple[int, str]  # a face of the d12: its value and its colour

refuse = refusals("leader1")

VALUES = (3, 4, 5)
COLOURS = ("plain", "red", "orange", "blue")
# the default face table; a table may give its own (the `die` option).
DEFAULT_DIE: tuple[Face, ...] = (
    ((3, "plain"),) * 4 + ((4, "plain"), (4, "red"), (4, "orange"), (4, "blue")) + ((5, "plain"),) * 4)

TYPES = ("passista", "leader", "scalatore")
TERRAINS = ("pianura", "collina", "montagna", "discesa")
# free spaces by start terrain and rider type.
FREE = {"pianura": (3, 2, 1), "collina": (2, 2, 2), "montagna": (1, 2, 3), "discesa": (4, 4, 4)}
COST = (0, 1, 3, 5, 8, 11, 15)  # energy for 0–6 paid spaces (fig. 12)
MAX_PAID = len(COST) - 1


def check_die(value: list[JSON], seats: int | None = None) -> list[JSON]:
    """The `die` option: 12 faces as [value, colour], with the faces punctures and the 3rd risk rung need."""
    if len(value) != 12:
        raise refuse("die_faces", n=len(value))
    faces: list[Face] = []
    for n, face in enumerate(value, start=1):
        if (not isinstance(face, list) or len(face) != 2 or face[0] not in VALUES or isinstance(face[0], bool)
                or face[1] not in COLOURS):
            raise refuse("die_face", face=n, colours=", ".join(COLOURS), value=face)
        if face[1] != "plain" and face[0] != 4:
            raise refuse("die_colour", face=n)
        faces.append((cast(int, face[0]), face[1]))
    if (4, "red") not in faces:
        raise refuse("die_red")
    if (4, "orange") not in faces and (4, "blue") not in faces:
        raise refuse("die_orange_blue")
    return value


def risk_succeeds(face: Face, rung: int) -> bool:
    """The risk ladder: the 1st risk succeeds on more than 3, the 2nd on more than 4, the 3rd and later only
    on an orange or blue 4. `rung` counts from 1."""
    value, colour = face
    if rung == 1:
        return value > 3
    if rung == 2:
        return value > 4
    return value == 4 and colour in ("orange", "blue")


def cobble_effect(face: Face) -> str | None:
    """One roll on a damaged cobble space: a crash on an orange or blue 4, a puncture on the red 4."""
    value, colour = face
    if value == 4 and colour in ("orange", "blue"):
        return "crash"
    if value == 4 and colour == "red":
        return "puncture"
    return None


def is_puncture(face: Face) -> bool:
    return tuple(face) == (4, "red")


def success_rate(die: Sequence[Face], rung: int) -> Fraction:
    """The exact chance that a risk on `rung` succeeds with this die."""
    return Fraction(sum(risk_succeeds(face, rung) for face in die), len(die))


def free_spaces(terrain: str, rider_type: str, *, draft: bool = False, bonus: bool = False) -> int:
    """R-2 free spaces, +1 with the draft, +1 for a quality that applies (discesista, velocista)."""
    return FREE[terrain][TYPES.index(rider_type)] + draft + bonus


def move_cost(spaces: int, free: int, *, blocked: int = 0, wind: int = 0) -> tuple[int, int, int]:
    """(paid spaces, energy it costs, energy recovered) of a move of `spaces` with `free` free spaces:
    +1 per occupied space crossed on a blocked road, `wind` added (head wind) or taken off (tail wind,
    never below nothing); unused free spaces give back 1 each."""
    paid = max(0, spaces - free)
    if paid > MAX_PAID:
        raise refuse("max_paid", most=MAX_PAID, paid=paid)
    return paid, max(0, COST[paid] + blocked + wind), max(0, free - spaces)

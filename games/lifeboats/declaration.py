"""Rette sich wer kann as the box's menu and the host page show it before a game is chosen: its name, seats,
options (with their checks) and the words printed on its pads. The rules (lifeboats.py) read them from here."""
from engine.rules.options import INTEGER, LIST, SEAT, Option, number, one_of, rows
from engine.rules.protocol import JSON, refusals, words_of

NAME = "lifeboats"
TITLE = "Rette sich wer kann"
refuse, word = refusals(NAME), words_of(NAME)
SEATS = (3, 6)

PLAYER_COLOURS = ("rosso", "giallo", "verde", "viola", "arancione", "bianco")
FIVE_SAILORS = PLAYER_COLOURS[:4]  # the box has 4 sailors in arancione and bianco
BLACK, HAT = "nero", "cappello"
PAD_LABELS = PLAYER_COLOURS + (BLACK, HAT)  # pad buttons 1–8, printed as the rulebook names them
LANES = 7


def _check_colours(value: list[JSON], seats: int) -> list[JSON]:
    if len(value) != seats or not all(c in PLAYER_COLOURS for c in value) or len(set(value)) != seats:
        raise refuse("colours", seats=seats, colours=", ".join(PLAYER_COLOURS))
    short = [c for c in value if c not in FIVE_SAILORS]
    if seats <= 4 and short:
        raise refuse("four_sailors", colour=word(short[0], "phone"), seats=seats)
    return value


def _check_lanes(value: list[JSON], seats: int) -> list[JSON]:
    if len(value) != LANES or not all(_is_count(i) for i in value):
        raise refuse("lanes", lanes=LANES)
    return value


def _check_islands(value: list[JSON], seats: int) -> list[JSON]:
    if not value or not all(isinstance(p, list) and len(p) == 2 and all(map(_is_count, p)) for p in value):
        raise refuse("islands")
    return value


def _is_count(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99


OPTIONS = (
    Option("start", SEAT, 0),
    Option("colours", LIST, lambda seats: list(PLAYER_COLOURS[:seats]), check=_check_colours,
           shape=rows(one_of(PLAYER_COLOURS), count=lambda seats: seats, flat=True)),
    Option("boat_seats", INTEGER, 7, low=4, high=10),
    Option("moves_to_island", INTEGER, 3, low=1, high=9),
    Option("lanes", LIST, [0, 0, 1, 1, 2, 2, 2], check=_check_lanes,
           shape=rows(number(0, 9, from_one=True), count=LANES, flat=True)),
    Option("islands", LIST, [[8, 6], [6, 4], [7, 5]], check=_check_islands,
           shape=rows(number(0, 30), number(0, 30))),
)

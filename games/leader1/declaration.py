"""Leader 1 as the box's menu and the host page show it before a game is chosen: its name, seats and options
(with their checks; its pads follow the prompt: nothing printed on them). The rules (leader1.py) read them from
here."""
from typing import cast

from engine.rules.options import CHOICE, INTEGER, LIST, Option, a_seat, how_many_of, number, one_of, rows, some_of
from engine.rules.protocol import JSON, refusals

from .die import COLOURS, DEFAULT_DIE, TYPES, VALUES, check_die

NAME = "leader1"
TITLE = "Leader 1"
refuse = refusals(NAME)
SEATS = (2, 4)
PAD_LABELS: tuple[str, ...] = ()

DEFAULT_TILES: list[JSON] = [[2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]] * 3  # per colour (green, yellow, red)
TILE_VALUES = (2, 3, 4, 5)  # the values a supply tile may have
MAX_CHASES = 6  # chase tokens a team holds at most


def _check_riders(value: list[JSON], seats: int) -> list[JSON]:
    if len(value) != seats:
        raise refuse("riders_per_team", seats=seats, n=len(value))
    for n, team in enumerate(value, start=1):
        if not isinstance(team, list) or not 1 <= len(team) <= 3 or len(set(map(str, team))) != len(team) \
                or any(t not in TYPES for t in team):
            raise refuse("team_riders", team=n, types=", ".join(TYPES), value=team)
    return value


def _check_order(value: list[JSON], seats: int) -> list[JSON]:
    if any(type(s) is not int for s in value) or sorted(cast(list[int], value)) != list(range(seats)):
        raise refuse("order", last=seats - 1, value=value)
    return value


def _check_tiles(value: list[JSON], seats: int) -> list[JSON]:
    if len(value) != 3:
        raise refuse("three_decks")
    for deck in value:
        if not isinstance(deck, list) or not deck or any(v not in TILE_VALUES or isinstance(v, bool) for v in deck):
            raise refuse("deck_values", value=deck)
    return value


def _check_stage_energy(value: list[JSON], seats: int) -> list[JSON]:
    if any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 500 for v in value):
        raise refuse("stage_energy_values", value=value)
    return value


OPTIONS = (
    Option("die", LIST, [[*face] for face in DEFAULT_DIE], check=check_die,
           shape=rows(one_of(VALUES), one_of(COLOURS), count=12)),
    Option("energy", INTEGER, 60, low=1, high=500),
    Option("chases", INTEGER, 6, low=0, high=MAX_CHASES),
    Option("riders", LIST, lambda seats: [list(TYPES) for _ in range(seats)], check=_check_riders,
           shape=rows(some_of(TYPES), count=lambda seats: seats, flat=True)),
    Option("order", LIST, lambda seats: list(range(seats)), check=_check_order,
           shape=rows(a_seat(), count=lambda seats: seats, flat=True)),
    Option("race", CHOICE, "classica", choices=("classica", "tappe")),
    Option("stages", INTEGER, 1, low=1, high=10),
    Option("stage_energy", LIST, [], check=_check_stage_energy, shape=rows(number(1, 500), flat=True)),
    Option("supply", CHOICE, "table", choices=("table", "box")),
    Option("tiles", LIST, DEFAULT_TILES, check=_check_tiles,
           shape=rows(how_many_of(TILE_VALUES), count=3, flat=True)),
    Option("punctures", CHOICE, "each", choices=("each", "all")),
)

"""Moneta: every seat calls the coin secretly (pad button 1 heads, 2 tails), then the box tosses it."""
from typing import NamedTuple

from engine.rules import picks as secret
from engine.rules.options import Option, resolve
from engine.rules.protocol import (CHANCE, JSON, PICK, PUBLIC, TERMINAL, Action, Actors, Choice, Outcomes, Prompt,
                                   Result, View, Viewer, check_seats, check_viewer, evolve, is_seat, refusals,
                                   shown_seat)
from engine.rules.protocol import refuse as shared

NAME, TITLE, SEATS = "moneta", "Moneta", (2, 3)
OPTIONS: tuple[Option, ...] = ()
FACES = ("testa", "croce")
PAD_LABELS = FACES + ("",) * 6
refuse = refusals(NAME)


class State(NamedTuple):
    seats: int
    picks: secret.Picks | None
    calls: tuple[JSON, ...] | None
    coin: str | None


def setup(seats: JSON, options: JSON = None) -> State:
    count = check_seats(seats, *SEATS)
    resolve(OPTIONS, count, {} if options is None else options, NAME)  # it has none: any given is refused by name
    return State(count, secret.open_round(range(count)), None, None)


def current_actors(state: State) -> Actors:
    if state.coin is not None:
        return TERMINAL
    if state.picks is None:
        return CHANCE
    return state.picks.seats


def chance_outcomes(state: State) -> Outcomes:
    return [({"chance": "coin", "outcome": f}, 0.5) for f in FACES] if current_actors(state) == CHANCE else []


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if actor == CHANCE:
        return [a for a, _ in chance_outcomes(state)]
    if state.picks is None or actor not in state.picks.seats:
        return []
    return [{"seat": actor, "pick": f} for f in FACES]


def apply(state: State, action: JSON) -> State:
    if not isinstance(action, dict):
        raise shared("not_an_object")
    if "chance" in action:
        if current_actors(state) != CHANCE or action.get("outcome") not in FACES:
            raise refuse("no_toss")
        return evolve(state, coin=action["outcome"])
    seat, face = action.get("seat"), action.get("pick")
    if set(action) != {"seat", "pick"} or not is_seat(seat, state.seats):
        raise shared("no_seat", player=shown_seat(seat))
    if state.picks is None:
        raise shared("no_pick_now", player=seat + 1)
    if face not in FACES:
        raise refuse("no_face")
    picks = secret.pick(state.picks, seat, face)
    if picks.is_complete:
        return evolve(state, picks=None, calls=tuple(picks.chosen))
    return evolve(state, picks=picks)


def prompt(state: State, seat: int) -> Prompt | None:
    if state.picks is None or seat not in state.picks.seats:
        return None
    choices = tuple(Choice(f, {"seat": seat, "pick": f}) for f in FACES)
    mine = state.picks.pick_of(seat)
    return Prompt(PICK, "call", choices, secret=True, pad=choices + (None,) * 6,
                  current=None if mine is None else {"seat": seat, "pick": mine})


def result(state: State) -> Result | None:
    if state.coin is None or state.calls is None:
        return None
    winners = [s for s, c in enumerate(state.calls) if c == state.coin]
    return {"winners": winners, "losers": [s for s in range(state.seats) if s not in winners],
            "draw": not winners}


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    check_viewer(viewer, state.seats)
    shown: View = {"game": NAME, "over": state.coin is not None, "result": result(state), "seats": state.seats,
             "coin": state.coin, "calls": list(state.calls) if state.calls else None}
    if state.picks is not None:
        shown.update(secret.view(state.picks, viewer))
    return shown

"""Moneta: every seat calls the coin secretly (pad button 1 heads, 2 tails), then the box tosses it."""
from typing import NamedTuple

from engine.rules import picks as secret
from engine.rules.protocol import (CHANCE, PICK, PUBLIC, TERMINAL, Choice, Prompt, check_seats, check_viewer,
                                   evolve, is_seat, refusals)
from engine.rules.protocol import refuse as shared

NAME, TITLE, SEATS, OPTIONS = "moneta", "Moneta", (2, 3), ()
FACES = ("testa", "croce")
PAD_LABELS = FACES + ("",) * 6
refuse = refusals(NAME)


class State(NamedTuple):
    seats: int
    picks: secret.Picks | None
    calls: tuple | None
    coin: str | None


def setup(seats, options):
    check_seats(seats, *SEATS)
    if options:
        raise shared("option_unknown", option=sorted(options)[0])
    return State(seats, secret.open_round(range(seats)), None, None)


def current_actors(state):
    if state.coin is not None:
        return TERMINAL
    return CHANCE if state.calls is not None else state.picks.seats


def chance_outcomes(state):
    return [({"chance": "coin", "outcome": f}, 0.5) for f in FACES] if current_actors(state) == CHANCE else []


def legal_actions(state, actor):
    if actor == CHANCE:
        return [a for a, _ in chance_outcomes(state)]
    if state.picks is None or actor not in state.picks.seats:
        return []
    return [{"seat": actor, "pick": f} for f in FACES]


def apply(state, action):
    if not isinstance(action, dict):
        raise shared("not_an_object")
    if "chance" in action:
        if current_actors(state) != CHANCE or action.get("outcome") not in FACES:
            raise refuse("no_toss")
        return evolve(state, coin=action["outcome"])
    seat, face = action.get("seat"), action.get("pick")
    if set(action) != {"seat", "pick"} or not is_seat(seat, state.seats):
        raise shared("no_seat", player=seat if not is_seat(seat, 99) else seat + 1)
    if state.picks is None:
        raise shared("no_pick_now", player=seat + 1)
    if face not in FACES:
        raise refuse("no_face")
    picks = secret.pick(state.picks, seat, face)
    if picks.is_complete:
        return evolve(state, picks=None, calls=tuple(picks.chosen))
    return evolve(state, picks=picks)


def prompt(state, seat):
    if state.picks is None or seat not in state.picks.seats:
        return None
    pad = tuple(Choice(f, {"seat": seat, "pick": f}) for f in FACES) + (None,) * 6
    mine = state.picks.pick_of(seat)
    return Prompt(PICK, "call", pad[:2], secret=True, pad=pad,
                  current=None if mine is None else {"seat": seat, "pick": mine})


def result(state):
    if state.coin is None:
        return None
    winners = [s for s, c in enumerate(state.calls) if c == state.coin]
    return {"winners": winners, "losers": [s for s in range(state.seats) if s not in winners],
            "draw": not winners}


def view(state, viewer=PUBLIC):
    check_viewer(viewer, state.seats)
    shown = {"game": NAME, "over": state.coin is not None, "result": result(state), "seats": state.seats,
             "coin": state.coin, "calls": list(state.calls) if state.calls else None}
    if state.picks is not None:
        shown.update(secret.view(state.picks, viewer))
    return shown

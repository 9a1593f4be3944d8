"""Biglietti, prego! — rules as in this folder's rulings.md (R-1 … R-9).

One seat is the controller; the others are travellers, seated in seat order. The cards stay physical: the box
learns what the table tells it (a ticket shown, a card played in the help round, a control card's value) and
keeps the rest. Help-round cards and the Pol.Fer. round are secret picks; a control card's value and a
give-back are secret decisions, seen by the controller and that traveller only until the end.
"""
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeAlias, cast

from engine.rules import picks as secret
from engine.rules.options import resolve
from engine.rules.protocol import (CHOOSE, JSON, PICK as PICK_PROMPT, PUBLIC, TERMINAL, Action, Actors, Choice, Message,
                                   Outcomes, Prompt, Result, View, Viewer, check_seats, check_viewer, evolve, is_seat,
                                   line_kind, refusals, shown_seat, words_of)
from engine.rules.protocol import refuse as shared

from . import declaration as declared
from .declaration import ACCUSA, BIGLIETTO, CARDS, IMPARZIALE, NASCONDITI, NO, POLFER, SCUSA, YES

NAME, TITLE, SEATS, OPTIONS = declared.NAME, declared.TITLE, declared.SEATS, declared.OPTIONS
refuse, word = refusals(NAME), words_of(NAME)

NONE = "none"  # the Pol.Fer. round: "I do not hold it"
LINKS = (SCUSA, IMPARZIALE)  # the cards a chain runs through
VALUES = range(5)  # a control card's points

# Traveller cards in play, in CARDS order, and the control cards used, by player count (rules page table)
TABLE = {5: (1, 4, 4, 5, 5, 1, 18), 6: (1, 5, 5, 7, 6, 1, 20), 7: (2, 6, 6, 8, 7, 1, 22),
         8: (2, 7, 7, 9, 9, 1, 24), 9: (2, 8, 8, 11, 10, 1, 26), 10: (3, 9, 9, 12, 11, 1, 28),
         11: (3, 10, 10, 13, 13, 1, 30), 12: (3, 11, 11, 15, 14, 1, 32)}
TO_WIN = {"andata": 8, "ritorno": 9}  # the controller wins when a traveller's points reach these

ANDATA, RITORNO = HALVES = ("andata", "ritorno")
# What the table waits for (State.step)
CHECK, TICKET, HELP, VALUE, DISCARD, ELIMINATE, POLFER_ROUND, OVER = (
    "check", "ticket", "help", "value", "discard", "eliminate", "polfer", "over")
# The four cases of a check
HID_NO_TICKET, HID_TICKET, SHOWN_TICKET, HELP_ROUND = "hid_no_ticket", "hid_ticket", "ticket", "help"

Record: TypeAlias = dict[str, Any]  # a public record of a turn, a half or the game's end (plain data)
Button: TypeAlias = tuple[str, JSON] | None  # a fixed pad's button: (label, value), or unused


class State(NamedTuple):
    seats: int
    options: dict[str, Any]  # checked by their schema (engine/rules/options.py)
    controller: int
    line: tuple[int, ...]  # the travellers around the table, from the controller's left: the chain's ring
    phase: str  # ANDATA or RITORNO
    step: str
    turn: int
    pile: int  # control cards left in the current half's pile
    in_play: tuple[int, ...]  # traveller cards of each kind still in the game, in CARDS order
    held: tuple[tuple[int, ...], ...]  # per seat: the values of the control cards it holds, sorted (secret)
    hiders: tuple[int, ...]  # travellers whose Nasconditi stands for the next check
    checked: int | None
    values_due: int  # VALUE: control-card values still to enter this turn
    picks: secret.Picks | None
    retried: bool  # the Pol.Fer. round of this half has been taken again once
    holder: int | None  # the Pol.Fer. holder the last round found (secret until it matters)
    winner: Record | None  # how the game was won, once over
    turns: tuple[Record, ...]  # one public record (a dict, never changed once replaced) per turn
    halves: tuple[Record, ...]  # the public record of each half's end


def _pile_size(seats: int) -> int:
    return TABLE[seats][-1] // 2


def setup(seats: JSON, options: JSON = None) -> State:
    seats = check_seats(seats, *SEATS)
    opts = resolve(OPTIONS, seats, options or {}, NAME)
    controller = opts["controller"]
    return State(seats=seats, options=opts, controller=controller,
                 line=tuple((controller + k) % seats for k in range(1, seats)), phase=ANDATA, step=CHECK,
                 turn=1, pile=_pile_size(seats), in_play=TABLE[seats][:len(CARDS)], held=((),) * seats,
                 hiders=(), checked=None, values_due=0, picks=None, retried=False, holder=None, winner=None,
                 turns=(), halves=())


# -- who may be checked ---------------------------------------------------------------------------------
def travellers(state: State) -> tuple[int, ...]:
    return tuple(sorted(state.line))


def checkable(state: State) -> tuple[int, ...]:
    """None hid → anyone; half or more of the travellers hid → only they; fewer → anyone but them."""
    everyone = travellers(state)
    if not state.hiders:
        return everyone
    if 2 * len(state.hiders) >= len(everyone):
        return tuple(state.hiders)
    return tuple(t for t in everyone if t not in state.hiders)


def tickets(state: State) -> int:
    return state.in_play[CARDS.index(BIGLIETTO)]


def _has(state: State, card: str) -> bool:
    return state.in_play[CARDS.index(card)] > 0


def points(state: State, seat: int) -> int:
    return sum(state.held[seat])


# -- the turn record ------------------------------------------------------------------------------------
def _record(state: State, **changes: object) -> State:
    """`state` with the current turn's public record updated (a new dict: states never share a changed one)."""
    return evolve(state, turns=state.turns[:-1] + ({**state.turns[-1], **changes},))


def _check(state: State, seat: int) -> State:
    hid = seat in state.hiders
    state = evolve(state, checked=seat, hiders=(), pile=state.pile - 1, step=TICKET)
    return evolve(state, turns=state.turns + ({
        "turn": state.turn, "phase": state.phase, "checked": seat, "hid": hid, "ticket": None, "case": None,
        "cards": None, "chain": [], "counted": [], "scusa": 0, "accusa": 0, "again": [], "outcome": None,
        "delivered": 0, "discarded": None, "eliminated": None, "tickets_left": None, "hiders": [], "exchange": []},))


def _ticket(state: State, has_ticket: bool) -> State:
    hid = state.turns[-1]["hid"]
    case = (HID_TICKET if has_ticket else HID_NO_TICKET) if hid else (SHOWN_TICKET if has_ticket else HELP_ROUND)
    state = _record(state, ticket=has_ticket, case=case)
    if case == HELP_ROUND:
        pickers = tuple(t for t in travellers(state) if t != state.checked)
        return evolve(state, step=HELP, picks=secret.open_round(pickers))
    if case == HID_NO_TICKET:  # a second card from the pile, if it has one
        second = 1 if state.pile else 0
        return _deliver(evolve(state, pile=state.pile - second), 1 + second)
    state = _record(state, outcome="eliminated")
    if case == HID_TICKET and state.held[_checked(state)]:
        return evolve(state, step=DISCARD)
    return _exchange(state)


def _deliver(state: State, count: int) -> State:
    return evolve(_record(state, outcome="delivered"), step=VALUE, values_due=count)


def ring_chain(state: State, checked: int, cards: dict[int, JSON]) -> list[int]:
    """R-2: the travellers linked to `checked` through an unbroken run of Scusa and Imparziale, each way round
    the ring (the controller's seat skipped, or breaking it with the `table` option). Returns them nearest
    first, each seat once."""
    line, wraps = state.line, state.options["ring"] == "travellers"
    at, linked = line.index(checked), cast(list[int], [])
    for way in (1, -1):
        for k in range(1, len(line)):
            index = at + way * k
            if not wraps and not 0 <= index < len(line):
                break
            seat = line[index % len(line)]
            if seat == checked or seat in linked or cards[seat] not in LINKS:
                break
            linked.append(seat)
    return linked


def _reveal_help(state: State) -> State:
    assert state.picks is not None  # the help round's picks, complete
    cards = state.picks.revealed()
    played = {card: list(cards.values()).count(card) for card in CARDS}
    over = [[card, played[card], n] for card, n in zip(CARDS, state.in_play) if played[card] > n]
    if over:  # someone pressed a card the game does not have that many of: the round is played again
        again = state.turns[-1]["again"] + [{"cards": [[s, cards[s]] for s in state.picks.seats], "over": over}]
        return evolve(_record(state, again=again), picks=secret.open_round(state.picks.seats))
    chain = ring_chain(state, _checked(state), cards)
    counted = [s for s in chain if cards[s] == SCUSA]
    accusa = played[ACCUSA]
    hiders = tuple(s for s in state.picks.seats if cards[s] == NASCONDITI)
    spared = len(counted) >= 2 * accusa
    state = _record(state, cards=[[s, cards[s]] for s in state.picks.seats], chain=chain, counted=counted,
                    scusa=len(counted), accusa=accusa, hiders=list(hiders),
                    outcome="eliminated" if spared else "delivered")
    state = evolve(state, picks=None, hiders=hiders)
    return _exchange(state) if spared else _deliver(state, 1)


def _checked(state: State) -> int:
    """The traveller being checked (there is one from the check to the turn's end)."""
    assert state.checked is not None
    return state.checked


def _exchange(state: State) -> State:
    """The ring of one-card gifts among the travellers who did not hide this turn: who takes part, the checked
    one first and last (the order is the players' choice; only the checked traveller may give the Pol.Fer.).
    In the Ritorno a help round is followed by the controller's elimination."""
    checked = _checked(state)
    at = state.line.index(checked)
    ring = [s for s in state.line[at:] + state.line[:at] if s not in state.hiders]
    state = _record(state, exchange=ring + [checked])
    if state.phase == RITORNO and state.turns[-1]["case"] == HELP_ROUND:
        return evolve(state, step=ELIMINATE)
    return _end_turn(state)


def _with_hand(state: State, seat: int, hand: Sequence[int]) -> State:
    held = list(state.held)
    held[seat] = tuple(sorted(hand))
    return evolve(state, held=tuple(held))


def _value(state: State, value: int) -> State:
    seat = _checked(state)
    state = evolve(_with_hand(state, seat, state.held[seat] + (value,)), values_due=state.values_due - 1)
    state = _record(state, delivered=state.turns[-1]["delivered"] + 1)
    if points(state, seat) >= TO_WIN[state.phase]:  # cumulative over both halves
        return _over(state, {"how": "controller", "winners": [state.controller], "traveller": seat})
    return state if state.values_due else _exchange(state)


def _discard(state: State, value: int | None) -> State:
    if value is not None:
        mine = list(state.held[_checked(state)])
        mine.remove(value)
        state = _with_hand(state, _checked(state), mine)
    return _exchange(_record(state, discarded=value is not None))


def _eliminate(state: State, card: str) -> State:
    in_play = list(state.in_play)
    in_play[CARDS.index(card)] -= 1
    state = evolve(state, in_play=tuple(in_play))
    return _end_turn(_record(state, eliminated=card, tickets_left=tickets(state)))  # this turn's figure, kept


def _end_turn(state: State) -> State:
    state = evolve(state, checked=None, values_due=0)
    if state.pile:
        return evolve(state, step=CHECK, turn=state.turn + 1)
    if not _has(state, POLFER):  # eliminated in the Ritorno: nobody can hold it
        return _end_half(state, None, "gone")
    return evolve(state, step=POLFER_ROUND, picks=secret.open_round(travellers(state)), retried=False)


def _reveal_polfer(state: State) -> State:
    """R-6: the box learns the holder and shows nobody. Two or more claims cannot all be true: the round is
    taken once more, then no holder counts for this half."""
    assert state.picks is not None  # the Pol.Fer. round's picks, complete
    claims = [s for s, card in state.picks.revealed().items() if card == POLFER]
    state = evolve(state, picks=None)
    if len(claims) > 1 and not state.retried:
        return evolve(state, picks=secret.open_round(travellers(state)), retried=True,
                      halves=state.halves + ({"half": state.phase, "round": "again"},))
    return _end_half(state, claims[0] if len(claims) == 1 else None, "unclear" if len(claims) > 1 else "done")


def without_cards(state: State, holder: int | None) -> int:
    """R-4: travellers other than the holder that hold no control card now."""
    return sum(1 for t in travellers(state) if t != holder and not state.held[t])


def enough(phase: str, in_play: int) -> int:
    """R-4: how many travellers without a control card win the half for the Pol.Fer.'s holder, with `in_play`
    tickets in play: twice as many in the Andata, one more in the Ritorno."""
    return 2 * in_play if phase == ANDATA else in_play + 1


def _end_half(state: State, holder: int | None, how: str) -> State:
    empty = without_cards(state, holder)
    wins = holder is not None and empty >= enough(state.phase, tickets(state))
    record = {"half": state.phase, "round": "won" if wins else how}
    state = evolve(state, holder=holder, halves=state.halves + (record,))
    if wins:
        return _over(state, {"how": "polfer", "winners": [holder], "without_cards": empty, "tickets": tickets(state)})
    if state.phase == ANDATA:  # the last hiders of the Andata still stand
        return evolve(state, phase=RITORNO, step=CHECK, turn=state.turn + 1, pile=_pile_size(state.seats))
    others = [t for t in travellers(state) if t != holder]
    fewest = min(points(state, t) for t in others)
    winners = [t for t in others if points(state, t) == fewest]
    return _over(state, {"how": "fewest", "winners": winners, "points": fewest,
                         "holder_left_out": holder is not None and points(state, holder) <= fewest})


def _over(state: State, winner: Record) -> State:
    return evolve(state, step=OVER, winner=winner, picks=None)


# -- the contract ---------------------------------------------------------------------------------------
def current_actors(state: State) -> Actors:
    if state.step == OVER:
        return TERMINAL
    if state.picks is not None:
        return state.picks.seats
    if state.step in (TICKET, DISCARD):
        return (cast(int, state.checked),)  # a ticket or a discard is asked of the seat being checked
    return (state.controller,)


def chance_outcomes(state: State) -> Outcomes:
    return []  # the control cards stay physical: the controller tells their values


def _pick_cards(state: State) -> list[str]:
    if state.step == POLFER_ROUND:
        return [POLFER, NONE]
    return [card for card in CARDS if _has(state, card)]


def _choose_actions(state: State, seat: int) -> list[Action]:
    if state.picks is not None or seat not in current_actors(state):
        return []
    if state.step == CHECK:
        return [{"seat": seat, "choose": {"check": t}} for t in checkable(state)]
    if state.step == TICKET:
        return [{"seat": seat, "choose": {"ticket": answer}} for answer in (True, False)
                if tickets(state) or not answer]
    if state.step == VALUE:
        return [{"seat": seat, "choose": {"value": v}} for v in VALUES]
    if state.step == DISCARD:
        return [{"seat": seat, "choose": {"discard": v}} for v in [*sorted(set(state.held[seat])), None]]
    played = {card for _, card in state.turns[-1]["cards"]}
    return [{"seat": seat, "choose": {"eliminate": card}} for card in CARDS if card in played]


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if not is_seat(actor, state.seats) or state.step == OVER:
        return []
    if state.picks is not None:
        if actor not in state.picks.seats:
            return []
        return [{"seat": actor, "pick": card} for card in _pick_cards(state)]
    return _choose_actions(state, actor)


def _pad(seat: int, key: str, buttons: Sequence[Button]) -> tuple[Choice | None, ...]:
    """A fixed 8-button layout: per button None (unused) or (label, value), the value making a `key` line."""
    def line(value: JSON) -> Action:
        return {"seat": seat, "pick": value} if key == "pick" else {"seat": seat, "choose": {key: value}}
    return tuple(b and Choice(b[0], line(b[1])) for b in buttons)


def prompt(state: State, seat: int) -> Prompt | None:
    """Fixed pads (the same whatever anyone holds) for every answer a traveller gives and for the controller's
    secret values and its elimination; a cursor for the choice of a traveller to check (up to 11)."""
    if state.step == OVER or not is_seat(seat, state.seats) or seat not in current_actors(state):
        return None
    cards: list[Button] = [*((card, card) for card in CARDS), None, None]
    if state.picks is not None:
        mine = state.picks.pick_of(seat)
        buttons: list[Button] = cards if state.step == HELP else [
            None, None, None, None, None, (POLFER, POLFER), (NO, NONE), (YES, POLFER)]
        choices = tuple(Choice(card, {"seat": seat, "pick": card}) for card in _pick_cards(state))
        return Prompt(PICK_PROMPT, "pick_" + state.step, choices, secret=True, pad=_pad(seat, "pick", buttons),
                      current=None if mine is None else {"seat": seat, "pick": mine})
    actions = _choose_actions(state, seat)
    key = STEP_KEY[state.step]
    choices = tuple(Choice(_label(key, cast(dict[str, JSON], a["choose"])[key]), a) for a in actions)
    values: list[Button] = [(_label(key, v), v) for v in VALUES]
    layouts: dict[str, list[Button]] = {
        TICKET: [(BIGLIETTO, True), None, None, None, None, None, (NO, False), (YES, True)],
        VALUE: [*values, None, None, None], DISCARD: [*values, None, (NO, None), None], ELIMINATE: cards}
    layout = layouts.get(state.step)
    return Prompt(CHOOSE, "choose_" + key, choices, secret=state.step in (VALUE, DISCARD),
                  pad=_pad(seat, key, layout) if layout else None)


def _label(key: str, value: JSON) -> str:
    """Text keys the presentation words: a seat, a yes/no, a value, a card."""
    if key == "check":
        return f"seat:{value}"
    if key == "ticket":
        return "ticket_yes" if value else "ticket_no"
    if key in ("value", "discard"):
        return "keep_all" if value is None else f"value:{value}"
    return str(value)  # a card


STEP_KEY = {CHECK: "check", TICKET: "ticket", VALUE: "value", DISCARD: "discard", ELIMINATE: "eliminate"}


def apply(state: State, action: JSON) -> State:
    kind = line_kind(action, "Biglietti")
    line = cast(Action, action)  # line_kind refused anything but an object
    seat = line["seat"]
    if state.step == OVER:
        raise shared("game_over")
    if not is_seat(seat, state.seats):
        raise shared("no_seat", player=shown_seat(seat))
    if kind == "pick":
        return _apply_pick(state, seat, line["pick"])
    return _apply_choice(state, seat, line["choose"])


def _waiting_for(state: State) -> Message:
    """Who the table waits for, and for what (a message for a refusal)."""
    if state.step == HELP:
        return word("waiting_help", "refusal")
    if state.step == POLFER_ROUND:
        return word("waiting_polfer", "refusal")
    return word("waiting_step", "refusal", player=shown_seat(current_actors(state)[0]), what=_step_word(state))


def _step_word(state: State) -> Message:
    return word(f"step_{STEP_KEY[state.step]}", "refusal")


def _apply_pick(state: State, seat: int, card: JSON) -> State:
    if state.picks is None:
        raise refuse("no_card_now", waiting=_waiting_for(state))
    if seat not in state.picks.seats:
        if seat == state.controller:
            raise refuse("controller_plays_none", player=seat + 1)
        raise refuse("checked_plays_none", player=seat + 1)
    if state.step == POLFER_ROUND:
        if card not in (POLFER, NONE):
            raise refuse("polfer_answer", phase=word(state.phase), card=card)
    elif type(card) is not str or card not in CARDS:
        raise refuse("unknown_card", card=card, cards=", ".join(CARDS))
    elif not _has(state, card):
        raise refuse("card_eliminated", card=word(card, "phone"))
    picks = secret.pick(state.picks, seat, card)
    state = evolve(state, picks=picks)
    if not picks.is_complete:
        return state
    return _reveal_help(state) if state.step == HELP else _reveal_polfer(state)


def _apply_choice(state: State, seat: int, choose: JSON) -> State:
    if state.picks is not None:
        raise refuse("nothing_to_decide", player=seat + 1, waiting=_waiting_for(state))
    actor, key = current_actors(state)[0], STEP_KEY[state.step]
    if seat != actor:
        raise refuse("not_yours", waiting=_waiting_for(state))
    if not isinstance(choose, dict) or set(choose) != {key}:
        raise refuse("step_keys", player=seat + 1, what=_step_word(state), key=key)
    value = choose[key]
    if state.step == CHECK:
        return _check(state, _checked_seat(state, value))
    if state.step == TICKET:
        if type(value) is not bool:
            raise refuse("ticket_bool", value=value)
        if value and not tickets(state):
            raise refuse("no_biglietto")
        return _ticket(state, value)
    if state.step == ELIMINATE:
        played = {card for _, card in state.turns[-1]["cards"]}
        if type(value) is not str or value not in played:
            raise refuse("not_played", card=value, played=", ".join(c for c in CARDS if c in played))
        return _eliminate(state, value)
    if state.step == DISCARD and value is None:
        return _discard(state, None)
    if type(value) is not int or value not in VALUES:
        raise refuse("control_value", value=value)
    if state.step == VALUE:
        return _value(state, value)
    if value not in state.held[seat]:
        raise refuse("no_control_card", player=seat + 1, value=value)
    return _discard(state, value)


def _checked_seat(state: State, value: JSON) -> int:
    if not is_seat(value, state.seats):
        raise shared("no_seat", player=shown_seat(value))
    if value == state.controller:
        raise refuse("check_controller", player=value + 1)
    allowed = checkable(state)
    if value not in allowed:
        if value in state.hiders:
            raise refuse("hider_checked", player=value + 1)
        raise refuse("only_hiders", players=", ".join(str(s + 1) for s in allowed), n=len(allowed))
    return value


def result(state: State) -> Result | None:
    if state.step != OVER:
        return None
    winners = cast(Record, state.winner)["winners"]  # set when the game is over
    # No one is marked a loser: the game has winners and everyone else (the log format's `[]`).
    return {"winners": list(winners), "losers": [], "draw": False}


def _holder_shown(state: State) -> bool:
    """R-6: the holder is named only when it wins, or when leaving it out changed who won (R-9)."""
    w = state.winner
    return w is not None and (w["how"] == "polfer" or w.get("holder_left_out", False))


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    """What `viewer` may see. Control points and values: the controller sees every traveller's, a traveller its
    own; everyone sees them once the game is over. Unrevealed picks: only their own seat's."""
    check_viewer(viewer, state.seats)
    over = state.step == OVER
    points_shown: list[int | None] = [None] * state.seats
    hands: list[list[int] | None] = [None] * state.seats
    shown: View = {
        "game": NAME, "seats": state.seats, "options": state.options, "over": over, "result": result(state),
        "phase": state.phase, "turn": state.turn, "cards_left": state.pile, "hiders": list(state.hiders),
        "checkable": list(checkable(state)) if state.step == CHECK else [],
        "step": state.step, "controller": state.controller, "travellers": list(travellers(state)),
        "ring": list(state.line), "checked": state.checked, "values_due": state.values_due,
        "pile_size": _pile_size(state.seats), "control_cards": TABLE[state.seats][-1],
        "in_play": dict(zip(CARDS, state.in_play)), "tickets": tickets(state),
        "held": [len(h) for h in state.held], "without_cards": without_cards(state, None),
        "picking": [], "locked": [], "turns": list(state.turns), "halves": list(state.halves),
        "winner": state.winner, "polfer": state.holder if _holder_shown(state) else None,
        "points": points_shown, "hands": hands,
    }
    if state.picks is not None:
        shown.update(secret.view(state.picks, viewer))
    for seat in travellers(state):
        if over or viewer in (state.controller, seat):
            points_shown[seat] = points(state, seat)
            hands[seat] = list(state.held[seat])
    return shown


def public_lines(steps: Sequence[tuple[State, Action]]) -> list[Action]:
    """A log exported during a game: help-round cards once revealed; never a control card's value, a
    give-back or the Pol.Fer. round (only the controller and that traveller, or the holder, may know them)."""
    def hidden(before: State, line: Action) -> bool:
        choose = line.get("choose")
        return before.step == POLFER_ROUND or (isinstance(choose, dict) and ("value" in choose or "discard" in choose))
    return secret.public_lines(steps, hidden)

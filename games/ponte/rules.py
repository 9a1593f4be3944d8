"""Il ponte traballante — rules as in this folder's rulings.md (R-1 … R-12)."""
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import permutations
from typing import NamedTuple, TypeAlias, cast

from engine.rules import picks as secret
from engine.rules.options import resolve
from engine.rules.protocol import (CHANCE, JSON, PICK as PICK_PROMPT, PUBLIC, TERMINAL, Action, Actors, Choice,
                                   Outcomes, Prompt, Rejected, Result, View, Viewer, check_seats, check_viewer, evolve,
                                   is_seat, last_answer, refusals, refuse as shared, shown_seat)

from . import declaration as declared
from .declaration import CARD_NAMES, CARDS, GREEN, RED

NAME, TITLE, SEATS, OPTIONS = declared.NAME, declared.TITLE, declared.SEATS, declared.OPTIONS
refuse = refusals(NAME)

SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI, SPUNTO, ORDINE, PESANTE = range(8)
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}

EVENTS = ("calma_piatta", "vento_da_est", "vento_da_ovest")
EVENT_DECK = (4, 1, 1)
EVENT_INDEX = {e: i for i, e in enumerate(EVENTS)}

WEST_BANK, EAST_BANK, START = 1, 21, 11
MATCHES = 6
PRUDENTE_SUPPLY = 10
UNKNOWN = "unknown"  # table deal: the seat holds a special the box does not know yet
LIMITS = ((SPUNTO, None), (ORDINE, 1), (PESANTE, 1))  # copies of each special (None: N−2 Spunto)
SPECIAL_CARDS = frozenset(CARDS[c] for c, _ in LIMITS)

DEAL, PICK, SPUNTO_PICK, EVENT, OVER = "deal", "pick", "spunto", "event", "over"


Hand: TypeAlias = tuple[int, ...]  # counts of each card, in CARDS order
# A movement step's name, each seat's move as made, and as the rules asked it (more when the bridge ended first)
Step: TypeAlias = tuple[str, tuple[int, ...], tuple[int, ...]]


class Match(NamedTuple):
    """What happened in one match, for views and history. Per-seat tuples are indexed by seat."""
    number: int
    reveal: tuple[str, ...] = ()  # card each seat revealed
    replacements: tuple[str | None, ...] = ()  # Spunto replacement per seat, or None
    steps: tuple[Step, ...] = ()  # (step name, per-seat moves made, asked) for each movement step, in order
    event: str | None = None
    void: tuple[tuple[str, ...], ...] = ()  # reveals made void by a special shown too often, oldest first


class State(NamedTuple):
    seats: int
    deal: str
    positions: tuple[int, ...]
    hands: tuple[Hand, ...]  # per seat: counts of each card in CARDS order
    specials: tuple[str | None, ...]  # per seat, table deal: UNKNOWN until its special is revealed, then None
    deck: tuple[int, ...]  # event cards left, counts in EVENTS order
    discard: tuple[str, ...]  # event ids, oldest first
    phase: str
    picks: secret.Picks | None
    standing: tuple[str | None, ...] | None  # during a re-pick, each seat's revealed card that stands
    history: tuple[Match, ...]  # Match records, the current one last
    prudente_supply: int


def specials_deck(seats: int) -> tuple[str, ...]:
    """The specials deck of N cards: Ordine, Passo pesante and N−2 Spunto."""
    return ("ordine_del_capo_spedizione", "passo_pesante") + ("spunto_interessante",) * (seats - 2)


@lru_cache(maxsize=None)
def _deals(seats: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct way to deal the specials deck, one card a seat: all equally likely."""
    return tuple(sorted(set(permutations(specials_deck(seats)))))


def setup(seats: JSON, options: JSON = None) -> State:
    seats = check_seats(seats, *SEATS)
    opts = resolve(OPTIONS, seats, options or {}, NAME)
    normals = (1, 1, 1, 1, 1, 0, 0, 0)
    table = opts["deal"] == "table"
    state = State(seats=seats, deal=opts["deal"], positions=(START,) * seats, hands=(normals,) * seats,
                  specials=(UNKNOWN if table else None,) * seats, deck=EVENT_DECK, discard=(),
                  phase=PICK, picks=None, standing=None, history=(), prudente_supply=PRUDENTE_SUPPLY - seats)
    return _start_match(state) if table else evolve(state, phase=DEAL)


def _start_match(state: State) -> State:
    number = len(state.history) + 1
    return evolve(state, phase=PICK, picks=secret.open_round(range(state.seats)),
                   history=state.history + (Match(number),))


def current_actors(state: State) -> Actors:
    if state.phase in (DEAL, EVENT):
        return CHANCE
    if state.phase == OVER:
        return TERMINAL
    assert state.picks is not None  # every other phase is a round of picks
    return state.picks.seats


def chance_outcomes(state: State) -> Outcomes:
    """[(action, probability)] for the chance node the game is at; [] elsewhere."""
    if state.phase == DEAL:
        deals = _deals(state.seats)
        return [({"chance": "deal", "outcome": list(d)}, 1 / len(deals)) for d in deals]
    if state.phase == EVENT:
        left = sum(state.deck)
        return [({"chance": "event", "outcome": e}, n / left) for e, n in zip(EVENTS, state.deck) if n]
    return []


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if actor == CHANCE:
        return [a for a, _ in chance_outcomes(state)]
    if state.picks is None or actor not in state.picks.seats:
        return []
    picks = PICK_ACTIONS[actor]
    return [picks[c] for c in _pickable(state, actor)]


# Each seat's pick of each card, made once and shared by every list of legal actions (never changed once made).
PICK_ACTIONS: tuple[tuple[Action, ...], ...] = tuple(
    tuple({"seat": seat, "pick": card} for card in CARDS) for seat in range(SEATS[1]))


PROMPT_TITLES = {PICK: "pick_card", SPUNTO_PICK: "pick_replacement"}


def prompt(state: State, seat: int) -> Prompt | None:
    """A secret pick of a card: the pad's button n is always the n-th card; the choices are the cards the
    seat may pick (its own hand and revealed cards only, R-12)."""
    if state.picks is None or seat not in state.picks.seats:
        return None
    title = "pick_again" if state.standing else PROMPT_TITLES[state.phase]
    pad = tuple(Choice(CARD_NAMES[c], {"seat": seat, "pick": c}) for c in CARDS)
    mine = state.picks.pick_of(seat)
    return Prompt(PICK_PROMPT, title, tuple(pad[i] for i in _pickable(state, seat)), secret=True, pad=pad,
                  current=None if mine is None else {"seat": seat, "pick": mine})


def _pickable(state: State, seat: int) -> tuple[int, ...]:
    """The cards (indices) `seat` may pick now: those in its hand and, holding an unknown special
    (table deal), the specials not all revealed."""
    return _cards(state.hands[seat], _free_specials(state) if state.specials[seat] == UNKNOWN else ())


@lru_cache(maxsize=512)  # a hand is one of few count tuples, the free specials one of eight, and every pick asks
def _cards(hand: Hand, free: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c for c in range(8) if hand[c]) + free


def _limit(seats: int, card: int) -> int:
    return seats - 2 if card == SPUNTO else 1


def _revealed_specials(history: tuple[Match, ...], extra: Sequence[str | None] = ()) -> list[int]:
    """Copies of each special revealed in `history` (and in `extra`, cards per seat), counted by card index."""
    seen = [0] * 8
    for card in [c for match in history for c in match.reveal] + [c for c in extra if c]:
        seen[CARD_INDEX[card]] += 1
    return seen


def _free_specials(state: State) -> tuple[int, ...]:
    """Table deal, R-12: the specials a seat holding an unknown one may play — checked only against the
    specials already revealed (and cards standing in a re-pick), never against other seats' unrevealed picks:
    a pick list or a refusal must not let a seat learn what another has locked in."""
    return _free(state.history, state.standing, state.seats)


@last_answer  # the same through a round's picks: the history and the standing cards change only at a reveal
def _free(history: tuple[Match, ...], standing: tuple[str | None, ...] | None, seats: int) -> tuple[int, ...]:
    seen = _revealed_specials(history, standing or ())
    return tuple([c for c, _ in LIMITS if seen[c] < _limit(seats, c)])


def _clashing(state: State, chosen: tuple[str, ...]) -> list[int]:
    """R-12: the seats whose revealed special shows more copies than the game has, counting those revealed
    earlier."""
    if SPECIAL_CARDS.isdisjoint(chosen):  # most reveals: no special, so none shown too often
        return []
    seen = _revealed_specials(state.history, chosen)
    over = {CARDS[c] for c, _ in LIMITS if seen[c] > _limit(state.seats, c)}
    return [s for s, card in enumerate(chosen) if card in over]


PICK_KEYS, CHANCE_KEYS = frozenset({"seat", "pick"}), frozenset({"chance", "outcome"})
ACTION_KEYS = (PICK_KEYS, CHANCE_KEYS)


def apply(state: State, action: JSON) -> State:
    if not isinstance(action, dict):
        raise shared("not_an_object")
    if len(action) == 2 and "pick" in action and "seat" in action:  # the hot path
        return _apply_pick(state, action["seat"], action["pick"])
    shape = next((k for k in ACTION_KEYS if k & set(action)), None)
    if shape is None:
        raise shared("not_an_action", game="Ponte", keys=sorted(action))
    if set(action) != shape:
        extra = sorted(set(action) - shape)
        missing = sorted(shape - set(action))
        raise shared("unknown_key", key=extra[0]) if extra else shared("missing_key", key=missing[0])
    if shape == PICK_KEYS:
        return _apply_pick(state, action["seat"], action["pick"])
    return _apply_chance(state, action["chance"], action["outcome"])


def _apply_pick(state: State, seat: JSON, card: JSON) -> State:
    picks = state.picks
    if picks is None or type(seat) is not int or seat not in picks.seats or type(card) is not str \
            or card not in CARD_INDEX:
        raise _refusal_of_pick(state, seat, card)
    index = CARD_INDEX[card]
    if not state.hands[seat][index] and index not in _pickable(state, seat):  # a card in hand is pickable
        # the message names no card, so onlookers learn nothing.
        raise refuse("not_held", "R-3" if state.phase == SPUNTO_PICK else "R-2", player=seat + 1)
    picks = secret.pick(picks, seat, card)
    if not picks.is_complete:
        return evolve(state, picks=picks)
    # The round is complete: what follows opens another round or none, so the complete one is never kept.
    if state.phase == SPUNTO_PICK:
        return _replace_spunto(state, cast(dict[int, str], picks.revealed()))  # the picks are cards
    chosen = cast(tuple[str, ...], picks.chosen if len(picks.seats) == state.seats else tuple(
        state.standing[s] if state.standing and state.standing[s] else picks.pick_of(s) for s in range(state.seats)))
    clashing = _clashing(state, chosen)
    if clashing:  # void the clashing picks; those seats pick again, the other cards stand
        standing = tuple(None if s in clashing else c for s, c in enumerate(chosen))
        return _record(state, {"void": state.history[-1].void + (chosen,)},
                       standing=standing, picks=secret.open_round(clashing))
    return _reveal(state, chosen, standing=None)


def _refusal_of_pick(state: State, seat: JSON, card: JSON) -> Rejected:
    """The refusal of a pick that is no card, by no seat, or when the seat does not pick (the checks the hot
    path makes at once, one by one to name what is wrong)."""
    if state.phase == OVER:
        return shared("game_over")
    if not is_seat(seat, state.seats):
        return shared("no_seat", player=shown_seat(seat))
    if type(card) is not str or card not in CARD_INDEX:  # a list or an object is no card (nor hashable)
        return refuse("unknown_card", card=card)
    return shared("no_pick_now", player=seat + 1)


def _take(state: State, chosen: Mapping[int, str]) -> dict[str, object]:
    """Hands and specials once the revealed cards leave them. `chosen` maps seat -> card id."""
    hands, specials = list(state.hands), list(state.specials)
    for seat, card in chosen.items():
        i = CARD_INDEX[card]
        if hands[seat][i]:
            hand = list(hands[seat])
            hand[i] -= 1
            hands[seat] = tuple(hand)
        else:  # table deal: the unknown special is now known, and gone
            specials[seat] = None
    return {"hands": tuple(hands), "specials": tuple(specials)}


def _held(state: State, seat: int) -> int:
    return sum(state.hands[seat]) + (state.specials[seat] == UNKNOWN)


def _record(state: State, match: Mapping[str, object], **changes: object) -> State:
    """`state` with the current match's record updated by `match` and its own fields by `changes`."""
    history = state.history[:-1] + (evolve(state.history[-1], **match),)
    return evolve(state, history=history, **changes)


def _reveal(state: State, reveal: tuple[str, ...], **changes: object) -> State:
    """Every seat's card of the match is shown (`reveal`, in seat order), with `changes` to the state."""
    changes.update(_take(state, dict(enumerate(reveal))))
    match: dict[str, object] = {"reveal": reveal, "replacements": (None,) * state.seats}
    spunto = [s for s, c in enumerate(reveal) if c == "spunto_interessante"]
    if not spunto:
        return _resolve(state, reveal, match, **changes)
    state = _record(state, match, **changes)
    stuck = [s for s in spunto if not _held(state, s)]
    if stuck:  # no card to replace Spunto with: 3 East instead, and no card this match
        state = _move(state, "spunto", [3 if s in stuck else 0 for s in range(state.seats)])
        if state.phase == OVER:
            return state
    swapping = [s for s in spunto if s not in stuck]
    if swapping:
        return evolve(state, phase=SPUNTO_PICK, picks=secret.open_round(swapping))
    state = _give_prudente(state)
    return _resolve(state, played_cards(state.history[-1]))


def _replace_spunto(state: State, chosen: Mapping[int, str]) -> State:
    """`chosen` maps each seat that revealed Spunto to the card it replaced it with."""
    replacements = tuple(chosen.get(s) for s in range(state.seats))
    state = _give_prudente(_record(state, {"replacements": replacements}, **_take(state, chosen)))
    return _resolve(state, played_cards(state.history[-1]))


def _give_prudente(state: State) -> State:
    """Every seat that revealed Spunto this match takes a Passo prudente from the supply."""
    spunto = [s for s, c in enumerate(state.history[-1].reveal) if c == "spunto_interessante"]
    hands = list(state.hands)
    for s in spunto:
        hand = list(hands[s])
        hand[PRUDENTE] += 1
        hands[s] = tuple(hand)
    return evolve(state, hands=tuple(hands), prudente_supply=state.prudente_supply - len(spunto))


def played_cards(match: Match) -> list[str | None]:
    """Per seat, the card that counts this match (a Spunto stands for its replacement), or None."""
    return [match.replacements[seat] if card == "spunto_interessante" else card
            for seat, card in enumerate(match.reveal)]


def resolution_moves(played: Sequence[str | None]) -> list[int]:
    """Moves of the resolution step, per seat (spaces East; negative = West); R-4, R-5, R-6.
    `played` holds each seat's card, or None."""
    cards = [(s, CARD_INDEX[c]) for s, c in enumerate(played) if c is not None]
    numbered = [(s, c) for s, c in cards if c < SPUNTO]
    specials = {c for _, c in cards}
    ordine = [s for s, c in cards if c == ORDINE] if PESANTE not in specials else []
    pesante = PESANTE in specials and ORDINE not in specials  # (4) together they cancel: resolve as (1)
    moves = [0] * len(played)
    top_green: list[tuple[int, int]] = []
    top_red: list[tuple[int, int]] = []
    if numbered:
        best_green = max([GREEN[c] for _, c in numbered])
        best_red = max([RED[c] for _, c in numbered])
        top_green = [(s, c) for s, c in numbered if GREEN[c] == best_green]
        top_red = [(s, c) for s, c in numbered if RED[c] == best_red]
    if ordine:  # (2)
        moves[ordine[0]] -= 2
        for s, _ in top_red:
            moves[s] += 3
    elif pesante:  # (3) R-4: a seat both highest green and highest red moves 3, once
        for s in {s for s, _ in top_green + top_red}:
            moves[s] += 3
    else:  # (1) R-5: a seat both highest green and highest red gets both moves
        for s, c in top_green:
            moves[s] -= GREEN[c] if len(top_green) == 1 else 1
        for s, c in top_red:
            moves[s] += RED[c] if len(top_red) == 1 else RED[c] + 2
    return moves


def _resolve(state: State, played: Sequence[str | None], match: Mapping[str, object] | None = None,
             **changes: object) -> State:
    """The match's resolution step, `played` holding each seat's card that counts (or None); `match` and
    `changes` are recorded with it."""
    return _move(state, "resolution", resolution_moves(played), match, {"phase": EVENT, "picks": None}, **changes)


def _move(state: State, step: str, moves: Sequence[int], match: Mapping[str, object] | None = None,
          then: Mapping[str, object] | None = None, **changes: object) -> State:
    """One movement step (`moves` per seat): all computed first, applied together (R-6), clamped to the
    bridge (R-9); the end is checked after every step (R-10). The step is recorded as the move the meeples
    made (a seat on 16 told "6 East" moves 5), with `match` on the match's record and `changes` on the state;
    `then` applies unless the game ends. One copy of the state for all of it."""
    positions = tuple([min(EAST_BANK, max(WEST_BANK, p + d)) for p, d in zip(state.positions, moves)])
    delta = tuple([after - before for before, after in zip(state.positions, positions)])
    if WEST_BANK in positions or EAST_BANK in positions:
        then = {"phase": OVER, "picks": None}
    return _record(state, {**(match or {}), "steps": state.history[-1].steps + ((step, delta, tuple(moves)),)},
                   positions=positions, **{**changes, **(then or {})})


def _wind(positions: tuple[int, ...], bank: int, spaces: int) -> list[int]:
    """R-7: every seat tied closest to `bank` moves `spaces` (East positive)."""
    return [spaces if p == bank else 0 for p in positions]


def _apply_chance(state: State, kind: JSON, outcome: JSON) -> State:
    if state.phase == DEAL and kind == "deal":
        deck = specials_deck(state.seats)
        if not isinstance(outcome, list) or sorted(outcome, key=str) != sorted(deck):
            raise refuse("bad_deal", "R-1", seats=state.seats)
        hands = tuple(h[:SPUNTO] + tuple(int(CARDS[i] == card) for i in range(SPUNTO, 8))
                      for h, card in zip(state.hands, outcome))
        return _start_match(evolve(state, hands=hands))
    if state.phase == EVENT and kind == "event":
        if type(outcome) is not str or outcome not in EVENT_INDEX or not state.deck[EVENT_INDEX[outcome]]:
            raise refuse("not_in_deck", outcome=outcome)
        return _event(state, outcome)
    raise shared("chance_not_due", kind=kind)


def _event(state: State, card: str) -> State:
    deck = list(state.deck)
    deck[EVENT_INDEX[card]] -= 1
    discard = state.discard + (card,)
    if "vento_da_est" in discard and "vento_da_ovest" in discard:  # reshuffle at once
        deck, discard = [*EVENT_DECK], ()
    if card == "vento_da_est":  # the seat(s) closest to the East bank move West 3
        moves = _wind(state.positions, max(state.positions), -3)
    elif card == "vento_da_ovest":  # the seat(s) closest to the West bank move East 3
        moves = _wind(state.positions, min(state.positions), 3)
    else:
        moves = None
    deck_now, discard_now = tuple(deck), discard
    state = (_move(state, "event", moves, {"event": card}, deck=deck_now, discard=discard_now) if moves
             else _record(state, {"event": card}, deck=deck_now, discard=discard_now))
    if state.phase == OVER:
        return state
    if len(state.history) == MATCHES:
        return evolve(state, phase=OVER, picks=None)
    return _start_match(state)


def result(state: State) -> Result | None:
    """None until over; R-11: ties share the result, all on one space is a draw."""
    if state.phase != OVER:
        return None
    west, east = min(state.positions), max(state.positions)
    if west == east:
        return {"winners": [], "losers": [], "draw": True}
    return {"winners": [s for s, p in enumerate(state.positions) if p == west],
            "losers": [s for s, p in enumerate(state.positions) if p == east], "draw": False}


def _match_view(match: Match) -> dict[str, object]:
    return {"match": match.number, "reveal": list(match.reveal) or None,
            "replacements": list(match.replacements) or None, "void": [list(v) for v in match.void],
            "moves": [{"step": step, "delta": list(delta), "asked": list(asked)} for step, delta, asked in match.steps],
            "event": match.event}


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    """What `viewer` (a seat, PUBLIC or HOST) may see. Unrevealed picks appear only in their own seat's
    view."""
    check_viewer(viewer, state.seats)
    shown: View = {
        "game": NAME, "seats": state.seats, "options": {"deal": state.deal},
        "over": state.phase == OVER, "result": result(state), "phase": state.phase,
        "positions": list(state.positions), "match": len(state.history) or 1,
        "hand_sizes": [_held(state, s) for s in range(state.seats)],
        "event_discard": list(state.discard), "events_left": sum(state.deck),
        "picking": [], "locked": [], "standing": list(state.standing) if state.standing else None,
        "history": [_match_view(m) for m in state.history],
    }
    if state.picks is not None:
        shown.update(secret.view(state.picks, viewer))
    if isinstance(viewer, int):
        hand = state.hands[viewer]
        shown["hand"] = {CARDS[i]: n for i, n in enumerate(hand) if n}
        shown["special"] = state.specials[viewer] if state.specials[viewer] else next(
            (CARDS[i] for i in range(SPUNTO, 8) if hand[i]), None)
    return shown


def public_lines(steps: Sequence[tuple[State, Action]]) -> list[Action]:
    """A log exported during a game: revealed picks only, and no box deal (each seat's special is secret
    until it is played)."""
    return secret.public_lines(steps, hidden=lambda before, line: line.get("chance") == "deal")

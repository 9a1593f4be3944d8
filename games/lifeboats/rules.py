"""Rette sich wer kann (Lifeboats) — rules as in this folder's rulings.md (R-1 … R-8).

Seats sit clockwise in seat order: clockwise is seat + 1, counter-clockwise seat − 1. Boats are indexed by
the seat that owns them, the black boat last. Every vote is a secret pick; every open decision (a lane, a
pawn's seat, the Captain's choice, a tie-break, which pawn leaves, a swim) is a "choose" line of one seat.
"""
from typing import Any, NamedTuple, TypeAlias, cast

from engine.rules import picks as secret
from engine.rules.options import label, resolve
from engine.rules.protocol import (CHOOSE, JSON, PICK as PICK_PROMPT, PUBLIC, TERMINAL, Action, Actors, Choice, Message,
                                   Outcomes, Prompt, Result, View, Viewer, check_seats, check_viewer, evolve, is_seat,
                                   line_kind, refusals, shown_seat, words_of)
from engine.rules.protocol import refuse as shared

from . import declaration as declared
from .declaration import BLACK, HAT, LANES, PAD_LABELS, PLAYER_COLOURS

NAME, TITLE, SEATS, OPTIONS = declared.NAME, declared.TITLE, declared.SEATS, declared.OPTIONS
refuse, word = refusals(NAME), words_of(NAME)

BOAT_COLOURS = (*PLAYER_COLOURS, BLACK)
PAD = PAD_LABELS  # pad buttons 1–8
OFFICER, SAILOR = "officer", "sailor"
KINDS = (OFFICER, SAILOR)
WEIGHT = {OFFICER: 2, SAILOR: 1}
OFFICERS, LEAKS, HATS = 2, 15, 3
SEA, ISLAND, SUNK = "sea", "island", "sunk"
SETUP, LEAK, SPECIAL, MOVE, SWIM, OVER = "setup", "leak", "special", "move", "swim", "over"
# What a decision is about (Decision.what)
LANE, BLACK_LANE, PLACE, CAPTAIN, TIE, REMOVE, SWIM_FROM, SWIM_TO = (
    "lane", "black", "place", "captain", "tie", "remove", "swim_from", "swim_to")


Pawn: TypeAlias = tuple[int, str]  # (seat, kind)
Swimmer: TypeAlias = tuple[int, str, int]  # (seat, kind, the boat it left)
Event: TypeAlias = dict[str, Any]  # what happened, as plain data


def sailors(seats: int) -> int:
    return 5 if seats <= 4 else 4


class Boat(NamedTuple):
    lane: int | None  # 1–7, None until placed
    progress: int
    status: str
    pawns: tuple[Pawn, ...]  # (seat, kind), sorted by seat, officer before sailor
    leaks: int


class Vote(NamedTuple):
    kind: str  # LEAK, SPECIAL or MOVE
    boat: int | None  # SPECIAL: the boat whose pawns vote
    options: tuple[str, ...]  # the colours it may give
    voters: tuple[int, ...]


class Decision(NamedTuple):
    what: str
    seat: int
    options: tuple[Any, ...]  # colours, kinds, lanes, or (boat, kind) pairs: by `what`


class State(NamedTuple):
    seats: int
    options: dict[str, Any]  # the resolved table options (never changed)
    colours: tuple[str, ...]  # per seat
    start: int  # the start seat of this turn
    turn: int  # 0 during setup
    phase: str
    boats: tuple[Boat, ...]  # Boat per seat, then the black boat
    reserve: tuple[tuple[int, ...], ...]  # per seat: (officers, sailors) still to place
    hats: tuple[int, ...]
    scores: tuple[int, ...]
    fates: tuple[tuple[int, ...], ...]  # per seat: (saved, drowned, sunk) pawns
    leaks_placed: int
    picks: secret.Picks | None
    vote: Vote | None
    decision: Decision | None
    swimmers: tuple[Swimmer, ...]  # (seat, kind, boat left) in the order they left
    swim_at: int  # seats already asked in the swim-out round
    arrivals: tuple[int, ...]  # boats in the order they reached an island
    history: tuple[Event, ...]  # what happened, as events (dicts, never changed once made)


def setup(seats: JSON, options: JSON = None) -> State:
    seats = check_seats(seats, *SEATS)
    opts = resolve(OPTIONS, seats, options or {}, NAME)
    pawns = seats * (OFFICERS + sailors(seats))
    if pawns > (seats + 1) * opts["boat_seats"]:
        raise refuse("boat_seats", boats=seats + 1, size=opts["boat_seats"], pawns=pawns,
                     option=label(NAME, "boat_seats"))
    far = [lane for lane, island in enumerate(opts["lanes"], start=1) if island >= len(opts["islands"])]
    if far:  # islands are counted from 1 where people read them
        raise refuse("far_lane", lane=far[0], island=opts["lanes"][far[0] - 1] + 1, islands=len(opts["islands"]),
                     option=label(NAME, "lanes"), other=label(NAME, "islands"))
    state = State(seats=seats, options=opts, colours=tuple(opts["colours"]), start=opts["start"], turn=0,
                  phase=SETUP, boats=(Boat(None, 0, SEA, (), 0),) * (seats + 1),
                  reserve=((OFFICERS, sailors(seats)),) * seats, hats=(HATS,) * seats, scores=(0,) * seats,
                  fates=((0, 0, 0),) * seats, leaks_placed=0, picks=None, vote=None, decision=None,
                  swimmers=(), swim_at=0, arrivals=(), history=())
    return _next_setup(state)


# -- names ----------------------------------------------------------------------------------------------
def boat_colour(state: State, boat: int) -> str:
    return state.colours[boat] if boat < state.seats else BLACK


def _boat_index(state: State, colour: JSON) -> int | None:
    if colour == BLACK:
        return state.seats
    return state.colours.index(colour) if isinstance(colour, str) and colour in state.colours else None


def _at_sea(state: State) -> list[int]:
    return [b for b, boat in enumerate(state.boats) if boat.status == SEA and boat.lane is not None]


def _free(state: State, boat: int) -> int:
    b = state.boats[boat]
    seats: int = state.options["boat_seats"]
    return seats - len(b.pawns) - b.leaks


def _clockwise(state: State, first: int) -> list[int]:
    return [(first + i) % state.seats for i in range(state.seats)]


def _event(state: State, event: str, **about: object) -> State:
    return evolve(state, history=state.history + ({"type": event, "turn": state.turn, **about},))


def _set_boat(state: State, boat: int, **changes: object) -> State:
    boats = list(state.boats)
    boats[boat] = evolve(boats[boat], **changes)
    return evolve(state, boats=tuple(boats))


def _sorted_pawns(pawns: tuple[Pawn, ...]) -> tuple[Pawn, ...]:
    return tuple(sorted(pawns, key=lambda p: (p[0], KINDS.index(p[1]))))


def _add_fate(state: State, seat: int, index: int, count: int = 1) -> State:
    fates = [list(f) for f in state.fates]
    fates[seat][index] += count
    return evolve(state, fates=tuple(map(tuple, fates)))


SAVED, DROWNED, SANK = range(3)


# -- setup ----------------------------------------------------------------------------------------------
def _next_setup(state: State) -> State:
    """The next setup decision: each seat's boat from the start seat clockwise, the black boat, then one pawn
    at a time clockwise; once all are placed, the first turn."""
    free = tuple(lane for lane in range(1, LANES + 1) if lane not in {b.lane for b in state.boats})
    for seat in _clockwise(state, state.start):
        if state.boats[seat].lane is None:
            return evolve(state, decision=Decision(LANE, seat, free))
    if state.boats[-1].lane is None:
        return evolve(state, decision=Decision(BLACK_LANE, state.start, free))
    placed = sum(OFFICERS + sailors(state.seats) - sum(r) for r in state.reserve)
    seat = (state.start + placed) % state.seats  # everyone has as many pawns: plain rotation
    if sum(state.reserve[seat]) == 0:
        return _begin_turn(evolve(state, turn=1, decision=None))
    kinds = [kind for kind, left in zip(KINDS, state.reserve[seat]) if left]
    spaces = [b for b in range(state.seats + 1) if _free(state, b) > 0]
    return evolve(state, decision=Decision(PLACE, seat, tuple((b, k) for b in spaces for k in kinds)))


def _place(state: State, seat: int, boat: int, kind: str) -> State:
    reserve = list(state.reserve)
    reserve[seat] = tuple(n - (k == kind) for k, n in zip(KINDS, reserve[seat]))
    state = _set_boat(state, boat, pawns=_sorted_pawns(state.boats[boat].pawns + ((seat, kind),)))
    return _next_setup(evolve(state, reserve=tuple(reserve)))


# -- the turn -------------------------------------------------------------------------------------------
def _begin_turn(state: State) -> State:
    state = evolve(state, phase=LEAK)
    if state.leaks_placed >= LEAKS:  # the leak tokens have run out
        return _open_vote(_event(state, "no_leaks"), MOVE)
    return _open_vote(state, LEAK)


def _open_vote(state: State, kind: str, boat: int | None = None) -> State:
    """A vote, unless it has only one possible outcome (R-7): then the box applies that outcome."""
    if kind == SPECIAL:
        assert boat is not None  # the special vote is about a full boat
        voters = tuple(sorted({s for s, _ in state.boats[boat].pawns}))
        options = tuple(state.colours[s] for s in voters)
    else:
        voters = tuple(range(state.seats))
        options = tuple(boat_colour(state, b) for b in _at_sea(state))
    state = evolve(state, phase=kind, decision=None)
    if len(options) == 1:
        state = _event(state, "vote", kind=kind, boat=_colour_or_none(state, boat), auto=True,
                       outcome=options[0])
        return _outcome(state, Vote(kind, boat, options, voters), options[0])
    vote = Vote(kind, boat, options, voters)
    return evolve(state, vote=vote, picks=secret.open_round(voters))


def _colour_or_none(state: State, boat: int | None) -> str | None:
    return None if boat is None else boat_colour(state, boat)


def weights(state: State, vote: Vote) -> dict[int, int]:
    """Votes each voter casts: one in a leak or move vote; in the special vote 2 per officer and 1 per
    sailor it has in that boat."""
    if vote.kind != SPECIAL or vote.boat is None:
        return {s: 1 for s in vote.voters}
    counted = {s: 0 for s in vote.voters}
    for seat, kind in state.boats[vote.boat].pawns:
        counted[seat] += WEIGHT[kind]
    return counted


def count(chosen: dict[int, JSON], weight: dict[int, int]) -> tuple[list[int], dict[str, int], tuple[str, Any]]:
    """The reveal of a vote: `chosen` maps voter -> colour or the hat. Returns (hats, tally, result) where
    result is ("captain", seat), ("again", None), ("tie", colours) or ("majority", colour). A sole hat
    makes its wearer Captain even when it is the only voter (R-5); two or more hats do not count; hats from
    every voter of two or more mean the vote is taken again."""
    hats = [s for s, c in chosen.items() if c == HAT]
    tally: dict[str, int] = {}
    for seat, colour in chosen.items():
        if colour != HAT:
            tally[str(colour)] = tally.get(str(colour), 0) + weight[seat]
    if len(hats) == 1:
        return hats, tally, ("captain", hats[0])
    if not tally:
        return hats, tally, ("again", None)
    top = max(tally.values())
    tied = tuple(c for c in tally if tally[c] == top)
    return hats, tally, ("tie", tied) if len(tied) > 1 else ("majority", tied[0])


def _reveal(state: State) -> State:
    assert state.vote is not None and state.picks is not None  # a vote, its picks complete
    vote, chosen = state.vote, state.picks.revealed()
    weight = weights(state, vote)
    hats, tally, (how, detail) = count(chosen, weight)
    spent = tuple(n - (s in hats) for s, n in enumerate(state.hats))  # spent whether or not it works
    ordered = [c for c in vote.options if c in tally]
    state = _event(evolve(state, hats=spent, picks=None), "vote", kind=vote.kind,
                   boat=_colour_or_none(state, vote.boat),
                   votes=[[s, chosen[s], weight[s]] for s in vote.voters], hats=hats,
                   tally=[[c, tally[c]] for c in sorted(ordered, key=lambda c: -tally[c])],
                   how=how, outcome=detail if how == "majority" else None, start=state.start)
    if how == "again":
        return evolve(state, picks=secret.open_round(vote.voters))
    if how == "captain":
        return evolve(state, decision=Decision(CAPTAIN, detail, vote.options))
    if how == "tie":
        return evolve(state, decision=Decision(TIE, state.start, tuple(c for c in vote.options if c in detail)))
    return _outcome(state, vote, detail)


def _outcome(state: State, vote: Vote, colour: str) -> State:
    """The vote gave `colour`."""
    state = evolve(state, vote=None, decision=None, picks=None)
    if vote.kind == MOVE:
        return _move(state, _boat_of(state, colour))
    if vote.kind == LEAK:
        boat = _boat_of(state, colour)
        if _free(state, boat):
            return _end_phase(_leak(state, boat), MOVE)
        return _open_vote(_event(state, "full", boat=colour), SPECIAL, boat)
    seat, boat = state.colours.index(colour), _voted_boat(vote)
    kinds = [k for k in (SAILOR, OFFICER) if (seat, k) in state.boats[boat].pawns]
    if len(kinds) > 1:  # the owner chooses; a sailor is offered first
        return evolve(state, vote=vote, decision=Decision(REMOVE, seat, tuple(kinds)))
    return _remove(state, boat, seat, kinds[0], auto=True)


def _boat_of(state: State, colour: str) -> int:
    """The boat of a colour a vote gave (one of the vote's options: a boat there is)."""
    boat = _boat_index(state, colour)
    assert boat is not None
    return boat


def _voted_boat(vote: Vote) -> int:
    """The full boat a special vote is about."""
    assert vote.boat is not None
    return vote.boat


def _leak(state: State, boat: int) -> State:
    state = _set_boat(state, boat, leaks=state.boats[boat].leaks + 1)
    return _event(evolve(state, leaks_placed=state.leaks_placed + 1), "leak", boat=boat_colour(state, boat))


def _remove(state: State, boat: int, seat: int, kind: str, auto: bool = False) -> State:
    """The losing colour's pawn goes overboard (and is lost); the leak takes its seat."""
    pawns = list(state.boats[boat].pawns)
    pawns.remove((seat, kind))
    state = _add_fate(_set_boat(state, boat, pawns=tuple(pawns)), seat, DROWNED)
    state = _event(evolve(state, vote=None, decision=None), "overboard", boat=boat_colour(state, boat),
                   seat=seat, kind=kind, auto=auto)
    return _end_phase(_leak(state, boat), MOVE)


def _move(state: State, boat: int) -> State:
    b = state.boats[boat]
    state = _set_boat(state, boat, progress=b.progress + 1)
    state = _event(state, "move", boat=boat_colour(state, boat), progress=b.progress + 1)
    if b.progress + 1 < state.options["moves_to_island"] or b.lane is None:
        return _end_phase(state, SWIM)
    island = state.options["lanes"][b.lane - 1]
    values = dict(zip(KINDS, state.options["islands"][island]))
    points = [0] * state.seats
    for seat, kind in b.pawns:
        points[seat] += values[kind]
        state = _add_fate(state, seat, SAVED)
    state = _set_boat(state, boat, status=ISLAND, pawns=(), leaks=0)
    state = evolve(state, scores=tuple(map(sum, zip(state.scores, points))), arrivals=state.arrivals + (boat,))
    state = _event(state, "arrive", boat=boat_colour(state, boat), island=island, points=points,
                   pawns=[list(p) for p in b.pawns])
    return _end_phase(state, SWIM)


def _end_phase(state: State, following: str | None) -> State:
    """After every phase a boat with more leaks than pawns sinks with all aboard; then the game ends when no
    boat is at sea, or goes on to `following`."""
    for boat in _at_sea(state):
        b = state.boats[boat]
        if b.leaks > len(b.pawns):
            for seat, _ in b.pawns:
                state = _add_fate(state, seat, SANK)
            state = _set_boat(state, boat, status=SUNK, pawns=(), leaks=0)
            state = _event(state, "sink", boat=boat_colour(state, boat), pawns=[list(p) for p in b.pawns],
                           leaks=b.leaks)
    state = evolve(state, vote=None, decision=None, picks=None)
    at_sea = _at_sea(state)
    if not at_sea:
        return evolve(state, phase=OVER)
    if following == MOVE:
        return _open_vote(state, MOVE)
    if following == SWIM and len(at_sea) >= 2:
        return _next_swim_out(evolve(state, phase=SWIM, swimmers=(), swim_at=0))
    return _begin_turn(evolve(state, turn=state.turn + 1, start=(state.start + 1) % state.seats))


# -- the swim -------------------------------------------------------------------------------------------
def _swim_outs(state: State, seat: int) -> tuple[tuple[int, str], ...]:
    """(boat, kind) pairs `seat` may take out: its pawns at sea, in boats nobody has left yet this turn."""
    left = {boat for _, _, boat in state.swimmers}
    return tuple((b, k) for b in _at_sea(state) if b not in left
                 for k in KINDS if (seat, k) in state.boats[b].pawns)


def _swim_ins(state: State, boat_left: int) -> tuple[int, ...]:
    return tuple(b for b in _at_sea(state) if b != boat_left and _free(state, b) > 0)


def _next_swim_out(state: State) -> State:
    """From the start seat clockwise, each seat takes one pawn out; a seat with none it may take skips; a
    single possible choice is made by the box (R-7). Then the swimmers board."""
    while state.swim_at < state.seats:
        seat = (state.start + state.swim_at) % state.seats
        outs = _swim_outs(state, seat)
        if len(outs) > 1:
            return evolve(state, decision=Decision(SWIM_FROM, seat, outs))
        state = evolve(state, swim_at=state.swim_at + 1)
        if outs:
            boat, kind = outs[0]
            state = _swim_out(state, seat, boat, kind, auto=True)
    return _next_swim_in(state)


def _swim_out(state: State, seat: int, boat: int, kind: str, auto: bool = False) -> State:
    pawns = list(state.boats[boat].pawns)
    pawns.remove((seat, kind))
    state = _set_boat(state, boat, pawns=tuple(pawns))
    state = evolve(state, swimmers=state.swimmers + ((seat, kind, boat),), decision=None)
    return _event(state, "swim_out", seat=seat, kind=kind, boat=boat_colour(state, boat), auto=auto)


def _next_swim_in(state: State) -> State:
    """From the last to leave, counter-clockwise, each swimmer boards a different boat with a free seat; with
    none it drowns; with one the box boards it (R-7)."""
    while state.swimmers:
        seat, kind, left = state.swimmers[-1]
        ins = _swim_ins(state, left)
        if len(ins) > 1:
            return evolve(state, decision=Decision(SWIM_TO, seat, ins))
        if ins:
            state = _swim_in(state, ins[0], auto=True)
        else:
            state = _add_fate(evolve(state, swimmers=state.swimmers[:-1]), seat, DROWNED)
            state = _event(state, "drown", seat=seat, kind=kind, boat=boat_colour(state, left))
    return _end_phase(state, None)


def _swim_in(state: State, boat: int, auto: bool = False) -> State:
    seat, kind, left = state.swimmers[-1]
    state = _set_boat(state, boat, pawns=_sorted_pawns(state.boats[boat].pawns + ((seat, kind),)))
    state = evolve(state, swimmers=state.swimmers[:-1], decision=None)
    return _event(state, "swim_in", seat=seat, kind=kind, boat=boat_colour(state, boat),
                  left=boat_colour(state, left), auto=auto)


# -- the contract ---------------------------------------------------------------------------------------
def current_actors(state: State) -> Actors:
    if state.phase == OVER:
        return TERMINAL
    if state.picks is not None:
        return state.picks.seats
    assert state.decision is not None  # a game under way waits for a vote or a decision
    return (state.decision.seat,)


def chance_outcomes(state: State) -> Outcomes:
    return []  # Lifeboats has no randomness


def _vote_picks(state: State, seat: int) -> list[str]:
    assert state.vote is not None  # asked while a vote is open
    options = set(state.vote.options) | ({HAT} if state.hats[seat] else set())
    return [p for p in PAD if p in options]


def _choose_actions(state: State, seat: int) -> list[Action]:
    d = state.decision
    if d is None or d.seat != seat:
        return []
    if d.what == LANE:
        return [{"seat": seat, "choose": {"lane": lane}} for lane in d.options]
    if d.what == BLACK_LANE:
        return [{"seat": seat, "choose": {"lane": lane, "boat": BLACK}} for lane in d.options]
    if d.what in (PLACE, SWIM_FROM):
        key = "board" if d.what == PLACE else "swim_from"
        return [{"seat": seat, "choose": {key: boat_colour(state, b), "pawn": k}} for b, k in d.options]
    if d.what == SWIM_TO:
        return [{"seat": seat, "choose": {"swim_to": boat_colour(state, b)}} for b in d.options]
    return [{"seat": seat, "choose": {d.what: option}} for option in d.options]  # captain, tie, remove


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if not is_seat(actor, state.seats) or state.phase == OVER:
        return []
    if state.picks is not None:
        if actor not in state.picks.seats:
            return []
        return [{"seat": actor, "pick": p} for p in _vote_picks(state, actor)]
    return _choose_actions(state, actor)


VOTE_TITLES = {LEAK: "vote_leak", SPECIAL: "vote_special", MOVE: "vote_move"}


def prompt(state: State, seat: int) -> Prompt | None:
    """A vote is a secret pick on the fixed pad (1–7 the colours, 8 the hat); every other decision is an open
    choice, labelled with words the presentation translates (colours, kinds, lanes)."""
    if state.phase == OVER:
        return None
    if state.picks is not None:
        if seat not in state.picks.seats:
            return None
        pad = tuple(Choice(p, {"seat": seat, "pick": p}) for p in PAD)
        allowed = _vote_picks(state, seat)
        mine = state.picks.pick_of(seat)
        assert state.vote is not None  # a vote's picks are open
        return Prompt(PICK_PROMPT, VOTE_TITLES[state.vote.kind], tuple(c for c in pad if c.action["pick"] in allowed),
                      secret=True, pad=pad, current=None if mine is None else {"seat": seat, "pick": mine})
    actions = _choose_actions(state, seat)
    if not actions or state.decision is None:
        return None
    return Prompt(CHOOSE, "choose_" + state.decision.what, tuple(map(_choice, actions)))


def _choice(action: Action) -> Choice:
    """An open choice, labelled with text keys the presentation words (a colour, a kind, a lane)."""
    choose: Any = action["choose"]  # a listed action: one of DECISION_KEYS' shapes
    if "lane" in choose:
        return Choice(f"lane_{choose['lane']}", action)
    if "pawn" in choose:
        return Choice(choose["pawn"], action, choose.get("board", choose.get("swim_from")))
    return Choice(next(iter(choose.values())), action)


DECISION_KEYS = {LANE: {"lane"}, BLACK_LANE: {"lane", "boat"}, PLACE: {"board", "pawn"}, CAPTAIN: {"captain"},
                 TIE: {"tie"}, REMOVE: {"remove"}, SWIM_FROM: {"swim_from", "pawn"}, SWIM_TO: {"swim_to"}}


def apply(state: State, action: JSON) -> State:
    kind = line_kind(action, "Lifeboats")
    line = cast(Action, action)  # line_kind refused anything but an object
    seat = line["seat"]
    if state.phase == OVER:
        raise shared("game_over")
    if not is_seat(seat, state.seats):
        raise shared("no_seat", player=shown_seat(seat))
    if kind == "pick":
        return _apply_vote(state, seat, line["pick"])
    return _apply_choice(state, seat, line["choose"])


def _apply_vote(state: State, seat: int, pick: JSON) -> State:
    if type(pick) is not str or pick not in PAD:
        raise refuse("unknown_vote", pick=pick)
    if state.picks is None or state.vote is None:
        raise refuse("no_vote")
    vote = state.vote
    if seat not in state.picks.seats:  # only a special vote leaves seats out: those with no pawn aboard
        raise refuse("not_aboard", player=seat + 1, boat=_boat_word(state, _voted_boat(vote)))
    if pick == HAT:
        if not state.hats[seat]:
            raise refuse("no_hat", player=seat + 1)
    elif pick not in vote.options:
        if vote.kind == SPECIAL:
            raise refuse("colour_not_aboard", colour=word(pick, "phone"), boat=_boat_word(state, _voted_boat(vote)))
        if _boat_index(state, pick) is None:
            raise refuse("no_such_boat", boat=word(f"boat_of:{pick}", "phone"))
        raise refuse("not_at_sea", boat=word(f"boat_of:{pick}", "phone"))
    picks = secret.pick(state.picks, seat, pick)
    state = evolve(state, picks=picks)
    return _reveal(state) if picks.is_complete else state


def _apply_choice(state: State, seat: int, choose: JSON) -> State:
    d = state.decision
    if state.picks is not None or d is None:
        raise refuse("voting_now", player=seat + 1)
    if d.seat != seat:
        raise refuse("their_turn", player=d.seat + 1, what=word(f"decision_{d.what}", "refusal"))
    if not isinstance(choose, dict) or set(choose) != DECISION_KEYS[d.what]:
        keys = ", ".join(f'"{k}"' for k in sorted(DECISION_KEYS[d.what]))
        raise refuse("decision_keys", player=seat + 1, what=word(f"decision_{d.what}", "refusal"), keys=keys)
    if d.what in (LANE, BLACK_LANE):
        return _choose_lane(state, d, choose)
    if d.what in (CAPTAIN, TIE):
        colour = choose[d.what]
        if type(colour) is not str or colour not in d.options:
            raise refuse("choose_colour", colours=", ".join(d.options), colour=colour)
        state = _event(state, d.what, seat=seat, outcome=colour)
        assert state.vote is not None  # a Captain or a tie-break settles the open vote
        return _outcome(state, state.vote, colour)
    if d.what == REMOVE:
        kind = choose["remove"]
        assert state.vote is not None  # the pawn to remove is the special vote's
        boat = _voted_boat(state.vote)
        if type(kind) is not str or kind not in d.options:
            raise refuse("no_pawn_there", player=seat + 1, pawn=_pawn_word(kind), boat=_boat_word(state, boat))
        return _remove(state, boat, seat, kind)
    if d.what == SWIM_TO:
        return _choose_swim_to(state, choose["swim_to"])
    boat = _known_boat(state, choose["board" if d.what == PLACE else "swim_from"])
    kind = choose["pawn"]
    if type(kind) is not str or kind not in KINDS:
        raise refuse("unknown_pawn", pawn=kind)
    if d.what == PLACE:
        if not state.reserve[seat][KINDS.index(kind)]:
            raise refuse("none_to_place", player=seat + 1, pawn=_pawn_word(kind))
        if _free(state, boat) <= 0:
            raise refuse("boat_full", boat=_boat_word(state, boat))
        return _place(state, seat, boat, kind)
    if (boat, kind) not in d.options:
        if boat in {b for _, _, b in state.swimmers}:
            raise refuse("already_left", boat=_boat_word(state, boat))
        raise refuse("no_pawn_there", player=seat + 1, pawn=_pawn_word(kind), boat=_boat_word(state, boat))
    return _next_swim_out(evolve(_swim_out(state, seat, boat, kind), swim_at=state.swim_at + 1))


def _pawn_word(kind: JSON) -> Message | str:
    return word(kind, "phone") if kind in KINDS else repr(kind)


def _boat_word(state: State, boat: int) -> Message:
    """A boat's colour agreeing with "barca" ("la barca rossa"), for a refusal."""
    return word(f"boat_of:{boat_colour(state, boat)}", "phone")


def _known_boat(state: State, colour: JSON) -> int:
    boat = _boat_index(state, colour) if isinstance(colour, str) else None
    if boat is None:
        raise (refuse("no_such_boat", boat=word(f"boat_of:{colour}", "phone")) if colour in BOAT_COLOURS else
               refuse("boat_name", colour=colour))
    return boat


def _choose_lane(state: State, d: Decision, choose: dict[str, JSON]) -> State:
    lane = choose["lane"]
    if d.what == BLACK_LANE and choose["boat"] != BLACK:
        raise refuse("black_now", black=BLACK)
    if not isinstance(lane, int) or isinstance(lane, bool) or not 1 <= lane <= LANES:
        raise refuse("bad_lane", lane=lane, lanes=LANES)
    if lane not in d.options:
        taken = next(b for b, boat in enumerate(state.boats) if boat.lane == lane)
        raise refuse("lane_taken", lane=lane, boat=_boat_word(state, taken))
    boat = state.seats if d.what == BLACK_LANE else d.seat
    return _next_setup(_set_boat(state, boat, lane=lane))


def _choose_swim_to(state: State, colour: JSON) -> State:
    boat = _known_boat(state, colour)
    left = state.swimmers[-1][2]
    if boat == left:  # it would drown; the box refuses
        raise refuse("boat_left", "R-8", boat=_boat_word(state, boat))
    if state.boats[boat].status != SEA:
        raise refuse("not_at_sea", boat=_boat_word(state, boat))
    if _free(state, boat) <= 0:
        raise refuse("boat_full", boat=_boat_word(state, boat))
    return _next_swim_in(_swim_in(state, boat))


def result(state: State) -> Result | None:
    """None until over. Highest score wins; ties: the tied player whose boat reached an island first, else
    the one seated closest clockwise to the owner of the first player boat to arrive (R-6: the black boat
    has no owner); if no player boat arrived the tied players share the win (a draw when everyone does)."""
    if state.phase != OVER:
        return None
    top = max(state.scores)
    tied = [s for s, n in enumerate(state.scores) if n == top]
    arrived = [b for b in state.arrivals if b < state.seats]
    if len(tied) > 1 and arrived:
        first_tied = [b for b in arrived if b in tied]
        if first_tied:
            tied = [first_tied[0]]
        else:
            tied = [min(tied, key=lambda s: (s - arrived[0]) % state.seats)]
    return {"winners": tied, "losers": [], "draw": len(tied) == state.seats > 1}


def _boat_view(state: State, boat: int) -> dict[str, JSON]:
    b = state.boats[boat]
    return {"lane": b.lane, "progress": b.progress, "status": b.status, "pawns": [list(p) for p in b.pawns],
            "leaks": b.leaks}


def _decision_view(state: State) -> dict[str, JSON] | None:
    d = state.decision
    if d is None:
        return None
    return {"what": d.what, "seat": d.seat, "options": [c["choose"] for c in _choose_actions(state, d.seat)]}


def _sinkings(history: tuple[Event, ...]) -> list[Event]:
    """The boats sunk since the last vote was revealed: what the table still has to read while the next vote
    is cast (a quick table votes again before anyone has read the sinking's own pages)."""
    found: list[Event] = []
    for event in reversed(history):
        if event["type"] == "vote" and not event.get("auto"):
            break
        if event["type"] == "sink":
            found.insert(0, event)
    return found


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    """What `viewer` may see: everything but the votes not yet revealed (each seat sees its own). `sinkings`:
    the boats sunk since the last revealed vote, kept in view until the next vote is revealed."""
    check_viewer(viewer, state.seats)
    shown: View = {
        "game": NAME, "seats": state.seats, "options": state.options, "over": state.phase == OVER,
        "result": result(state), "phase": state.phase, "start": state.start, "turn": state.turn,
        "colours": list(state.colours),
        "boats": {boat_colour(state, b): _boat_view(state, b) for b in range(state.seats + 1)},
        "scores": list(state.scores), "hats": list(state.hats), "leaks_left": LEAKS - state.leaks_placed,
        "reserve": [dict(zip(KINDS, r)) for r in state.reserve],
        "fates": [dict(zip(("saved", "drowned", "sunk"), f)) for f in state.fates],
        "vote": None if state.vote is None else {
            "kind": state.vote.kind, "boat": _colour_or_none(state, state.vote.boat),
            "options": list(state.vote.options), "voters": list(state.vote.voters),
            "weights": list(weights(state, state.vote).values())},
        "decision": _decision_view(state), "picking": [], "locked": [],
        "swimmers": [[s, k, boat_colour(state, b)] for s, k, b in state.swimmers],
        "arrivals": [boat_colour(state, b) for b in state.arrivals],
        "history": list(state.history), "sinkings": _sinkings(state.history),
    }
    if state.picks is not None:
        shown.update(secret.view(state.picks, viewer))
    return shown

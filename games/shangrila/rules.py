"""I ponti di Shangri-La — rules as in this folder's rulings.md (R-1 … R-4).

A board tracker: open information, no chance. The box keeps the 13 villages (7 master spaces each, a student on
a master at most), the bridges, the Stones and every player's supply; it checks each action, resolves journeys
and scores the end. Seats play clockwise (seat + 1) from the start seat.
"""
from collections.abc import Iterator
from itertools import combinations
from typing import Any, NamedTuple, TypeAlias, cast

from engine.rules.options import resolve
from engine.rules.protocol import (CHOOSE, JSON, PUBLIC, TERMINAL, Action, Actors, Choice, Outcomes, Prompt, Result,
                                   View, Viewer, check_seats, check_viewer, evolve, is_seat, last_answer, refusals,
                                   shown_seat, words_of)
from engine.rules.protocol import refuse as shared

from . import declaration as declared

NAME, TITLE, SEATS, OPTIONS = declared.NAME, declared.TITLE, declared.SEATS, declared.OPTIONS
refuse, word = refusals(NAME), words_of(NAME)

KINDS = ("guaritore", "allevatore_di_draghi", "custode_del_fuoco", "sacerdote", "portatore_di_pioggia",
         "astrologo", "sussurratore_di_yeti")  # also the order travellers are resolved in
VILLAGES = range(13)
BRIDGES = ((0, 1), (0, 3), (0, 4), (0, 6), (1, 2), (1, 5), (2, 5), (2, 9), (3, 4), (3, 6), (3, 10), (4, 5), (4, 7),
           (5, 8), (6, 10), (7, 8), (7, 10), (7, 11), (8, 9), (8, 12), (9, 12), (10, 11), (11, 12))
RED_VILLAGE = 2  # out of play with 3 players
TILES = 6  # per kind and player
LIMITS = {4: (2, 3), 3: (1, 2)}  # setup only: (tiles of one colour, tiles in all) per village
SETUP, PLAY, OVER = "setup", "play", "over"
Space: TypeAlias = tuple[int | None, int | None]  # (master's seat, student's seat)
Spaces: TypeAlias = tuple[Space, ...]  # a village's, per kind
Bridge: TypeAlias = tuple[int, int]
Event: TypeAlias = dict[str, JSON]
EMPTY: Space = (None, None)


class State(NamedTuple):
    seats: int
    options: dict[str, Any]  # checked by their schema (engine/rules/options.py)
    phase: str
    to_act: int | None
    spaces: tuple[Spaces, ...]  # per village, per kind: (master, student)
    stones: tuple[bool, ...]  # per village
    bridges: tuple[Bridge, ...]  # intact, (a, b) with a < b, sorted
    supply: tuple[tuple[int, ...], ...]  # per seat, per kind
    setup_left: tuple[tuple[str, ...], ...]  # per seat: kinds still to place in the setup
    placed: int  # setup turns taken (placements and passes)
    end_rule: str | None
    history: tuple[Event, ...]  # public events, never changed once made


def setup(seats: JSON, options: JSON = None) -> State:
    seats = check_seats(seats, *SEATS)
    opts = resolve(OPTIONS, seats, options or {}, NAME)
    three = seats == 3
    state = State(seats=seats, options=opts, phase=SETUP, to_act=opts["start"],
                  spaces=((EMPTY,) * len(KINDS),) * len(VILLAGES),
                  stones=tuple(three and v == RED_VILLAGE for v in VILLAGES),
                  bridges=tuple(b for b in BRIDGES if not (three and RED_VILLAGE in b)),
                  supply=((TILES,) * len(KINDS),) * seats, setup_left=(KINDS,) * seats, placed=0, end_rule=None,
                  history=())
    return _begin(state)


# -- the board ---------------------------------------------------------------------------------------------
# A space without a master is EMPTY (a student always sits on a master of its own colour), and a space's tuple is
# compared whole: the counts below are tuple methods, as the legal actions are asked on every turn.
def village_tiles(state: State, v: int) -> int:
    spaces = state.spaces[v]
    return 2 * len(spaces) - sum(spaces, ()).count(None)  # every space's two places, less the empty ones


def village_masters(state: State, v: int) -> int:
    return len(KINDS) - state.spaces[v].count(EMPTY)


def _own_masters(spaces: Spaces, seat: int) -> int:
    """`seat`'s masters in a village: alone, or with its student."""
    return spaces.count((seat, None)) + spaces.count((seat, seat))


def links(state: State) -> dict[int, tuple[int, ...]]:
    """Each village's neighbours across the bridges standing, in order."""
    return _links(state.bridges)


@last_answer  # asked several times a turn; the bridges change only on a journey (an lru_cache would hash 23 pairs)
def _links(bridges: tuple[Bridge, ...]) -> dict[int, tuple[int, ...]]:
    found: dict[int, list[int]] = {}
    for a, b in bridges:
        found.setdefault(a, []).append(b)
        found.setdefault(b, []).append(a)
    return {v: tuple(sorted(ws)) for v, ws in found.items()}


def scores(state: State) -> list[int]:
    counted = [0] * state.seats
    for village in state.spaces:
        for m, _ in village:
            if m is not None:
                counted[m] += 1
    return counted


def present(state: State, seat: int) -> int:
    """Villages where `seat` has a master."""
    return sum([_own_masters(village, seat) > 0 for village in state.spaces])


class _Board:
    """The spaces and supplies an action changes, as lists, made into the next state's tuples once (an action
    changes several spaces and supplies: one copy of the state per action, not one per change)."""

    def __init__(self, state: State) -> None:
        self.spaces, self.supply = list(state.spaces), list(state.supply)

    def set(self, v: int, k: int, space: Space) -> None:
        village = list(self.spaces[v])
        village[k] = space
        self.spaces[v] = tuple(village)

    def give(self, seat: int, k: int, delta: int) -> None:
        supply = list(self.supply[seat])
        supply[k] += delta
        self.supply[seat] = tuple(supply)

    def changes(self) -> dict[str, Any]:
        return {"spaces": tuple(self.spaces), "supply": tuple(self.supply)}


def _kind(value: JSON) -> int:
    if value not in KINDS:
        raise refuse("unknown_kind", kind=value, kinds=", ".join(KINDS))
    return KINDS.index(value)


def _village(value: JSON) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in VILLAGES:
        raise refuse("no_village", village=value)
    return value


# -- legality ----------------------------------------------------------------------------------------------
def _setup_places(state: State, seat: int) -> list[tuple[int, int]]:
    colour, total = LIMITS[state.seats]
    left = [k for k, kind in enumerate(KINDS) if kind in state.setup_left[seat]]
    found: list[tuple[int, int]] = []
    for v, spaces in enumerate(state.spaces):
        if state.stones[v] or village_tiles(state, v) >= total or _own_masters(spaces, seat) >= colour:
            continue
        found += [(k, v) for k in left if spaces[k] == EMPTY]
    return found


# A student always sits on a master of its own colour: `seat`'s master is the space (seat, None) or (seat, seat),
# its student (seat, seat). The legal actions and R-4's question are asked on every turn, and an action changes
# one or two villages: the others keep their spaces' tuple. So each village is read once for every seat and kept
# with the tuple it was read from (the last one per village: a state asked again reads only what changed).
Alone: TypeAlias = tuple[int, Action, JSON]  # a master alone: its kind index, its single recruit, the student
Roles: TypeAlias = tuple[tuple[int, ...], dict[int, tuple[tuple[Action, ...], list[Alone], bool]]]
_READ: list[tuple[Spaces | None, Roles | None]] = [(None, None)] * len(VILLAGES)


def _read(v: int, spaces: Spaces) -> Roles:
    """_roles(v, spaces), kept while village `v` keeps its spaces' tuple."""
    kept, said = _READ[v]  # one read: another thread replaces the entry whole
    if kept is spaces and said is not None:
        return said
    said = _roles(v, spaces)
    _READ[v] = (spaces, said)
    return said


def _roles(v: int, spaces: Spaces) -> Roles:
    """What each seat with a master in village `v` (its `spaces`) may do there, whatever its supply: (the kind
    index of each empty space, {seat: ((its place action on each empty space, in the same order), ((kind index,
    its single recruit action, the student it lists) of each of its masters alone), whether one of its masters
    has its student)}). The actions are the shared ones of PLACE and RECRUIT."""
    empty = tuple([k for k, space in enumerate(spaces) if space == EMPTY])
    said: dict[int, tuple[tuple[Action, ...], list[Alone], bool]] = {}
    for k, (master, student) in enumerate(spaces):
        if master is None:
            continue
        if master not in said:
            said[master] = (tuple([PLACE[master][e][v] for e in empty]), [], False)
        places, alone, taught = said[master]
        if student is None:
            single = RECRUIT[master][k][v]
            alone.append((k, single, RECRUITED[master][k][v]))
        elif not taught:
            said[master] = (places, alone, True)
    return empty, said


def _villages_of(state: State, seat: int) -> Iterator[tuple[int, tuple[int, ...],
                                                            tuple[tuple[Action, ...], list[Alone], bool]]]:
    """(village, the kind index of each of its empty spaces, what `seat` may do there: see _roles) of each open
    village where `seat` has a master."""
    stones = state.stones
    for v, spaces in enumerate(state.spaces):
        if not stones[v]:
            empty, roles = _read(v, spaces)
            mine = roles.get(seat)
            if mine is not None:
                yield v, empty, mine


def _open_options(state: State, seat: int) -> tuple[list[Action], list[Alone], list[Bridge]]:
    """One pass over the open villages where `seat` has a master: (the place action of each empty space beside
    one of its masters that it has a tile for, (kind index, single recruit action, student) of each of its masters
    alone with a tile to join it, (village, neighbour) of each journey its students may make)."""
    supply, linked = state.supply[seat], links(state)
    short = not all(supply)  # most turns a seat has tiles of every kind: nothing to leave out
    places: list[Action] = []
    alone_masters: list[Alone] = []
    journeys: list[Bridge] = []
    for v, empty, mine in _villages_of(state, seat):
        if short:
            places += [action for k, action in zip(empty, mine[0]) if supply[k]]
            alone_masters += [master for master in mine[1] if supply[master[0]]]
        else:
            places += mine[0]
            alone_masters += mine[1]
        if mine[2]:
            journeys += [(v, w) for w in linked.get(v, ())]
    return places, alone_masters, journeys


def _recruits(state: State, seat: int, alone_masters: list[Alone]) -> list[Action]:
    """Each recruit's actions: of one student, or two (two of one kind need two tiles of it). The pairs are
    made anew (there are thousands of them), from shared students."""
    supply = state.supply[seat]
    return [single for _, single, _ in alone_masters] + [
        {"seat": seat, "choose": {"recruit": [first, second]}}
        for (k, _, first), (j, _, second) in combinations(alone_masters, 2) if k != j or supply[k] >= 2]


# A turn lists up to ~200 actions, most of them listed again the next turn. A seat's places, single recruits and
# journeys are a few hundred: each is made once, here, and shared by every list (never changed once made), read
# as PLACE[seat][kind index][village], RECRUIT[seat][kind index][village] (its student, [kind, village], is shared
# by the pairs) and JOURNEY[seat][village, neighbour], each bridge crossed either way.
PLACE: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple({"seat": seat, "choose": {"place": kind, "village": v}} for v in VILLAGES) for kind in KINDS)
    for seat in range(SEATS[1]))
RECRUITED: tuple[tuple[tuple[JSON, ...], ...], ...] = tuple(
    tuple(tuple([kind, v] for v in VILLAGES) for kind in KINDS) for seat in range(SEATS[1]))  # the students
RECRUIT: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple({"seat": seat, "choose": {"recruit": [RECRUITED[seat][k][v]]}} for v in VILLAGES)
          for k in range(len(KINDS))) for seat in range(SEATS[1]))
JOURNEY: tuple[dict[Bridge, Action], ...] = tuple(
    {(v, w): {"seat": seat, "choose": {"journey": [v, w]}} for a, b in BRIDGES for v, w in ((a, b), (b, a))}
    for seat in range(SEATS[1]))


def _has_action(state: State, seat: int) -> bool:
    """Whether `seat` has any action in play (R-4's question), without listing them: a master with room
    beside it and a tile to place there, a master a student could join, or a student with a bridge to cross."""
    supply = state.supply[seat]
    for v, empty, mine in _villages_of(state, seat):
        if any(supply[k] for k in empty) or any(supply[k] for k, _, _ in mine[1]):
            return True
        if mine[2] and v in links(state):  # a bridge still stands from here
            return True
    return False


def _actions(state: State, seat: int) -> list[Action]:
    """Every action `seat` may take but a pass (shared: see PLACE)."""
    if state.phase == SETUP:
        placing = PLACE[seat]
        return [placing[k][v] for k, v in _setup_places(state, seat)]
    places, alone_masters, journeys = _open_options(state, seat)
    journey = JOURNEY[seat]
    return places + _recruits(state, seat, alone_masters) + [journey[ends] for ends in journeys]


# -- the turn ------------------------------------------------------------------------------------------------
def _begin(state: State) -> State:
    """Whose turn: the setup's rounds from the start seat, then play from the start seat clockwise; the game
    ends when no player has an action (R-4)."""
    if state.phase == SETUP and state.placed == state.seats * len(KINDS):
        state = evolve(state, phase=PLAY, to_act=state.options["start"])
    if state.phase == PLAY and not any(_has_action(state, s) for s in range(state.seats)):
        return _over(state, "R-4")
    return state


def _next(state: State, event: Event, **changes: object) -> State:
    """The turn passes clockwise, once `event` (a public event) is recorded and `changes` are made."""
    to_act = state.to_act
    assert to_act is not None  # a turn is under way
    changes["to_act"] = (to_act + 1) % state.seats
    if state.phase == SETUP:
        changes["placed"] = state.placed + 1
    return _begin(evolve(state, history=state.history + (event,), **changes))


def _over(state: State, rule: str, **changes: object) -> State:
    return evolve(state, phase=OVER, to_act=None, end_rule=rule, **changes)


def _place(state: State, seat: int, kind: str, v: int) -> State:
    k = KINDS.index(kind)
    board = _Board(state)
    board.set(v, k, (seat, None))
    board.give(seat, k, -1)
    changes = board.changes()
    if state.phase == SETUP:
        left = list(state.setup_left)
        left[seat] = tuple(x for x in left[seat] if x != kind)
        changes["setup_left"] = tuple(left)
    event: Event = {"type": "place", "seat": seat, "kind": kind, "village": v, "setup": state.phase == SETUP}
    return _next(state, event, **changes)


def _recruit(state: State, seat: int, students: list[tuple[str, int]]) -> State:
    board = _Board(state)
    for kind, v in students:
        k = KINDS.index(kind)
        board.set(v, k, (seat, seat))
        board.give(seat, k, -1)
    return _next(state, {"type": "recruit", "seat": seat, "students": [list(s) for s in students]},
                 **board.changes())


def journey(state: State, a: int, b: int) -> tuple[State, Event]:
    """The journey of every student in village `a` across the bridge to `b`: the strengths (counted once,
    before anyone moves), each traveller's fate in the order of KINDS (R-2), and the state after it, Stones
    included. The preview and the move itself are this one function."""
    src = village_tiles(state, a), village_masters(state, a)
    dst = village_tiles(state, b), village_masters(state, b)
    stronger = src > dst  # a tie on tiles goes to more masters, then to the destination
    fates: list[JSON] = []
    board = _Board(state)
    for k, kind in enumerate(KINDS):
        teacher, traveller = state.spaces[a][k]
        if traveller is None:
            continue
        board.set(a, k, (teacher, None))
        master, student = state.spaces[b][k]
        sent: list[int] = []
        if master is None:
            fate = "master"
            board.set(b, k, (traveller, None))
        elif not stronger:
            fate = "home"
        elif master == traveller:
            fate = "student" if student is None else "home"  # a master with a student sends it home
            if student is None:
                board.set(b, k, (master, traveller))
        else:
            fate, sent = "master", [s for s in (master, student) if s is not None]
            for owner in sent:
                board.give(owner, k, 1)
            board.set(b, k, (traveller, None))
        if fate == "home":
            board.give(traveller, k, 1)
        fates.append({"seat": traveller, "kind": kind, "fate": fate, "sent_home": [*sent]})
    bridges = tuple(x for x in state.bridges if x != (min(a, b), max(a, b)))
    isolated = [v for v in (a, b) if v not in _links(bridges)]
    stones = list(state.stones)
    for v in isolated:
        stones[v] = True
    state = evolve(state, bridges=bridges, stones=tuple(stones), **board.changes())
    return state, {"from": a, "to": b, "strength": [src[0], dst[0]], "masters": [src[1], dst[1]],
                   "stronger": "from" if stronger else "to", "travellers": fates, "stones": [*isolated]}


def _journey(state: State, seat: int, a: int, b: int) -> State:
    state, outcome = journey(state, a, b)
    event: Event = {"type": "journey", "seat": seat, **outcome}
    if sum(not s for s in state.stones) <= 2:  # only two villages left without a Stone
        return _over(state, "R-3", history=state.history + (event,))
    return _next(state, event)


# -- the contract ---------------------------------------------------------------------------------------
def current_actors(state: State) -> Actors:
    return TERMINAL if state.phase == OVER or state.to_act is None else (state.to_act,)


def chance_outcomes(state: State) -> Outcomes:
    return []  # no dice, no cards: the board is open


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if state.phase == OVER or actor != state.to_act:
        return []
    return _actions(state, actor) or [{"seat": actor, "choose": {"pass": True}}]


def prompt(state: State, seat: int) -> Prompt | None:
    """One open choice in two steps on a pad: the village, then what to do there (place a master, recruit one or
    two students — the first in this village —, a journey across one of its bridges)."""
    actions = legal_actions(state, seat)
    if not actions:
        return None
    return Prompt(CHOOSE, "choose_" + state.phase, tuple(map(_choice, actions)))


def _choice(action: Action) -> Choice:
    """Labels made of the game's words (see oled.py), a word per token."""
    choose: Any = action["choose"]  # a listed action: one of ACTION_KEYS' shapes
    if "pass" in choose:
        return Choice("pass", action)
    if "place" in choose:
        return Choice(f"place {choose['place']}", action, f"v:{choose['village']}")
    if "journey" in choose:
        a, b = choose["journey"]
        return Choice(f"journey v:{b}", action, f"v:{a}")
    (kind, v), *more = choose["recruit"]
    second = [f"+ {k} v:{w}" for k, w in more]
    return Choice(" ".join([f"recruit {kind}", *second]), action, f"v:{v}")


LINE_KEYS = frozenset({"seat", "choose"})
ACTION_KEYS = frozenset(map(frozenset, ({"place", "village"}, {"recruit"}, {"journey"}, {"pass"})))


def apply(state: State, action: JSON) -> State:
    if not isinstance(action, dict):
        raise shared("not_an_object")
    if action.keys() != LINE_KEYS:
        extra = sorted(action.keys() - LINE_KEYS)
        raise shared("unknown_key", key=extra[0]) if extra else refuse("line_shape")
    seat, choose = action["seat"], action["choose"]
    if state.phase == OVER:
        raise shared("game_over")
    if not is_seat(seat, state.seats):
        raise shared("no_seat", player=shown_seat(seat))
    if state.to_act is None or seat != state.to_act:
        raise refuse("their_turn", player=shown_seat(state.to_act))
    if not isinstance(choose, dict) or frozenset(choose) not in ACTION_KEYS:
        raise refuse("action_shape")
    if "pass" in choose:
        if choose["pass"] is not True or _actions(state, seat):
            raise refuse("may_not_pass", player=seat + 1)
        return _next(state, {"type": "pass", "seat": seat, "setup": state.phase == SETUP})
    if state.phase == SETUP and set(choose) != {"place", "village"}:
        raise refuse("setup_places")
    if "place" in choose:
        return _apply_place(state, seat, choose["place"], choose["village"])
    if "recruit" in choose:
        return _recruit(state, seat, _checked_recruits(state, seat, choose["recruit"]))
    return _checked_journey(state, seat, choose["journey"])


def _open(state: State, v: int) -> None:
    if state.stones[v]:
        raise refuse("stone", village=v + 1)


def _apply_place(state: State, seat: int, kind: JSON, village: JSON) -> State:
    k, v = _kind(kind), _village(village)
    kind = KINDS[k]
    _open(state, v)
    if state.spaces[v][k] != EMPTY:
        raise refuse("space_taken", kind=word(kind), village=v + 1)
    if state.phase == SETUP:
        colour, total = LIMITS[state.seats]
        if kind not in state.setup_left[seat]:
            raise refuse("placed_already", player=seat + 1, kind=word(kind))
        if village_tiles(state, v) >= total:
            raise refuse("village_full", village=v + 1, n=total, seats=state.seats)
        if _own_masters(state.spaces[v], seat) >= colour:
            raise refuse("own_tiles_full", player=seat + 1, n=colour, village=v + 1, seats=state.seats)
    else:
        if not _own_masters(state.spaces[v], seat):
            raise refuse("no_master_there", player=seat + 1, village=v + 1)
        if not state.supply[seat][k]:
            raise refuse("none_in_supply", player=seat + 1, kind=word(kind))
    return _place(state, seat, kind, v)


def _checked_recruits(state: State, seat: int, students: JSON) -> list[tuple[str, int]]:
    if not isinstance(students, list) or not 1 <= len(students) <= 2 or not all(
            isinstance(s, list) and len(s) == 2 for s in students):
        raise refuse("recruit_shape")
    checked: list[tuple[str, int]] = []
    for student in students:
        named, village = cast(list[JSON], student)  # a list of two, checked above
        k, v = _kind(named), _village(village)
        kind = KINDS[k]
        _open(state, v)
        master, student = state.spaces[v][k]
        if master != seat:
            raise refuse("no_such_master", player=seat + 1, kind=word(kind), village=v + 1)
        if student is not None:
            raise refuse("has_student", player=seat + 1, kind=word(kind), village=v + 1)
        if (kind, v) in checked:
            raise refuse("one_student")
        checked.append((kind, v))
        if state.supply[seat][k] < sum(c[0] == kind for c in checked):
            raise refuse("not_enough", player=seat + 1, kind=word(kind))
    return checked


def _checked_journey(state: State, seat: int, ends: JSON) -> State:
    if not isinstance(ends, list) or len(ends) != 2:
        raise refuse("journey_shape")
    a, b = map(_village, ends)
    _open(state, a)
    _open(state, b)
    if not any(s == seat for _, s in state.spaces[a]):
        raise refuse("no_student", player=seat + 1, village=a + 1)
    if (min(a, b), max(a, b)) not in state.bridges:
        gone = (min(a, b), max(a, b)) in BRIDGES
        raise refuse("bridge_gone" if gone else "no_bridge", a=a + 1, b=b + 1)
    return _journey(state, seat, a, b)


def result(state: State) -> Result | None:
    """Most masters on the board; a tie goes to the tied player present in more villages; still tied, they
    share the win (a draw when everyone does)."""
    if state.phase != OVER:
        return None
    counted = scores(state)
    top = [s for s in range(state.seats) if counted[s] == max(counted)]
    most = max(present(state, s) for s in top)
    winners = [s for s in top if present(state, s) == most]
    # No one is marked a loser: the game has winners and everyone else (the log format's `[]`).
    return {"winners": winners, "losers": [], "draw": len(winners) == state.seats}


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    """Everything is open: every viewer sees the same board."""
    check_viewer(viewer, state.seats)
    journeys = [] if state.phase != PLAY or state.to_act is None else [
        journey(state, a, b)[1] for a, b in _open_options(state, state.to_act)[2]]
    return {
        "game": NAME, "seats": state.seats, "options": state.options, "over": state.phase == OVER,
        "result": result(state), "phase": state.phase, "to_act": state.to_act, "start": state.options["start"],
        "villages": [{"stone": state.stones[v],
                      "masters": {KINDS[k]: m for k, (m, _) in enumerate(state.spaces[v]) if m is not None},
                      "students": {KINDS[k]: s for k, (_, s) in enumerate(state.spaces[v]) if s is not None}}
                     for v in VILLAGES],
        "bridges": [list(b) for b in state.bridges],
        "supply": [dict(zip(KINDS, s)) for s in state.supply], "scores": scores(state),
        "present": [present(state, s) for s in range(state.seats)],
        "setup_left": [list(k) for k in state.setup_left], "end_rule": state.end_rule,
        "villages_left": sum(not s for s in state.stones), "previews": journeys, "history": list(state.history),
    }

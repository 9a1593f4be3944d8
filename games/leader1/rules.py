"""Leader 1 — Hell of the North, as in this folder's rulings.md (R-1 … R-4).

The riders, hexes and peloton stay on the table; the box is the d12, the energy sheets and the bookkeeping of
chases, places, risks and punctures. A seat is a team. What happens on the board comes in as choices: a move is
entered field by field (start terrain, spaces, then what the board shows: draft, weather, damaged spaces …)
and confirmed with "go"; the box computes its cost and rolls the risks it runs.
"""
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple, TypeAlias, cast

from engine.rules.options import label, resolve
from engine.rules.protocol import (CHANCE, CHOOSE, JSON, PUBLIC, TERMINAL, Action, Actors, Choice, Message, Outcomes,
                                   Prompt, Rejected, Result, Standing, View, Viewer, check_seats, check_viewer, evolve,
                                   is_seat, last_answer, refusals, shown_seat, words_of)
from engine.rules.protocol import refuse as shared

from . import declaration as declared
from .declaration import MAX_CHASES, TILE_VALUES
from .die import (FREE, MAX_PAID, TERRAINS, TYPES, Face, cobble_effect, free_spaces, is_puncture, move_cost,
                  risk_succeeds)

NAME, TITLE, SEATS, OPTIONS = declared.NAME, declared.TITLE, declared.SEATS, declared.OPTIONS
refuse, word = refusals(NAME), words_of(NAME)

QUALITIES = ("discesista", "velocista", "attaccante")
TESTA, PANCIA, FUGA, STACCATO, ARRIVATO, FUORI = "testa", "pancia", "fuga", "staccato", "arrivato", "fuori"
PELOTON = (TESTA, PANCIA)
PASSED = (STACCATO,)  # where a crashed breakaway rider the peloton passes starts again: behind it
OFF_ROAD = (ARRIVATO, FUORI)  # no longer racing
WEATHER = ("sereno", "pioggia", "caldo", "contrario_1", "contrario_2", "favorevole_1", "favorevole_2")
WIND = {"contrario_1": 1, "contrario_2": 2, "favorevole_1": -1, "favorevole_2": -2}
LEAVE_PELOTON = 4  # spaces a breakaway needs
HEAT = 6  # spaces in the heat that reveal a supply tile
MAX_BEHIND = 22  # turns behind the leader that put a rider out of a stage race
CARRY = 15  # most energy carried to the next stage
NEXT_STAGE_CHASES = 4

# Phases
QUALITY, LINEUP, BREAKAWAY_MOVES, ATTACKS, REGROUP, CHASE, ROLL, CATCH, DROPPED, LAST, PUNCTURES, OVER = (
    "qualities", "lineup", "fuga", "scatti", "gruppo", "inseguimento", "lancio", "ripresa", "staccati",
    "ultimi", "forature", "over")
MOVE_PHASES = (BREAKAWAY_MOVES, ATTACKS, DROPPED, LAST)
Record: TypeAlias = dict[str, Any]  # what happened, a confirmed move, the peloton's move: plain data
Sums: TypeAlias = dict[str, Any]  # what a complete move means: free and paid spaces, cost, recovery, risks


class Rider(NamedTuple):
    seat: int
    kind: str
    quality: str | None = None
    energy: int = 0
    risks: int = 0
    place: str = PANCIA
    moved: bool = False  # has moved (or been asked) in this turn
    skip: int = 0  # the turn it sits out after a crash
    last: int = 0  # the turn it plays last after a puncture
    no_draft: int = 0  # a turn in which it may not take the draft
    dropped: int = 0  # the turn it was left behind by the peloton (it moves from the next)
    finished: int = 0  # the turn it crossed the line in this stage
    gc: int = 0  # general classification, in turns
    bonus: int = 0  # bonus lines won this stage


class Form(NamedTuple):
    """A move being entered: what the board shows."""
    rider: int
    breakaway: bool = False
    start: str | None = None
    spaces: int | None = None
    draft: bool = False
    sprint: bool = False
    blocked: int = 0
    weather: str = "sereno"
    climb: int = 0
    climb_spaces: int = 0
    damaged: tuple[int, ...] = ()
    cobbles: tuple[int, ...] = ()
    feed: bool = False
    finish: bool = False
    bonus: bool = False
    ahead: bool = False


class Tile(NamedTuple):
    """A supply tile the box holds for a team, until it is used (then it is gone: the state keeps only the
    tiles held, so a view's work does not grow with the tiles a game has drawn)."""
    seat: int
    kind: str  # the rider type whose colour it is
    value: int
    draw: int = 0  # which supply draw of the game it came from


class State(NamedTuple):
    seats: int
    die: tuple[Face, ...]
    opts: dict[str, Any]  # checked by their schema (engine/rules/options.py)
    stage: int
    turn: int
    phase: str
    riders: tuple[Rider, ...]
    chases: tuple[int, ...]
    streak: tuple[int, ...]  # chases in a row per team
    order: tuple[int, ...]  # the team tokens, the leading team first
    queue: tuple[int, ...]  # teams (or riders, for punctures) still to act in a phase taken in turn
    forms: tuple[Form | None, ...]  # per seat: the move being entered, or None
    due: tuple[str, Any] | None  # the chance outcome due: ("d12", why) or ("supply", riders)
    pending: Record | None  # a move confirmed and waiting for its risk rolls
    roll: int | None  # the last d12 face
    rolls: int  # d12 rolls so far
    chased: tuple[int, ...]  # teams that announced a chase this turn
    red: bool  # the peloton rolled the red 4 this turn
    peloton: Record | None  # the peloton's last move
    race: tuple[int, ...]  # riders in the order they moved this turn
    finish_order: tuple[int, ...]  # riders in the order they crossed this stage's line
    tiles: tuple[Tile, ...]
    decks: tuple[tuple[int, ...], ...]  # supply tiles left per colour
    draws: int
    events: tuple[Record, ...]  # what happened, newest last
    stages_done: tuple[tuple[int, ...], ...]  # per stage: riders in finishing order
    belly: tuple[int, ...] = ()  # riders in the belly when the peloton phase began: only they may be dropped


def setup(seats: JSON, options: JSON = None) -> State:
    seats = check_seats(seats, *SEATS)
    opts = resolve(OPTIONS, seats, options or {}, NAME)
    if opts["stages"] > 1 and opts["race"] != "tappe":
        raise refuse("stages_race", option=label(NAME, "stages"), race=label(NAME, "race"),
                     tappe=label(NAME, "race_tappe"))
    if len(opts["stage_energy"]) not in (0, opts["stages"] - 1):
        raise refuse("stage_energy_count", n=opts["stages"] - 1, option=label(NAME, "stage_energy"))
    riders = tuple(Rider(seat, kind, energy=opts["energy"]) for seat in range(seats) for kind in
                   sorted(opts["riders"][seat], key=TYPES.index))
    state = State(seats=seats, die=tuple(tuple(f) for f in opts["die"]), opts=opts, stage=1, turn=0,
                  phase=QUALITY, riders=riders, chases=(opts["chases"],) * seats, streak=(0,) * seats,
                  order=tuple(opts["order"]), queue=tuple(opts["order"]), forms=(None,) * seats, due=None,
                  pending=None, roll=None, rolls=0, chased=(), red=False, peloton=None, race=(), finish_order=(),
                  tiles=(), decks=tuple(tuple(sorted(d)) for d in opts["tiles"]), draws=0, events=(),
                  stages_done=())
    return state


# -- small helpers ----------------------------------------------------------------------------------------------
def _index(state: State, seat: int, kind: JSON) -> int:
    for i, r in enumerate(state.riders):
        if r.seat == seat and r.kind == kind:
            return i
    raise AssertionError(f"no {kind} in team {seat}: a listed line names a rider of the team")


def _set(state: State, i: int, **changes: object) -> State:
    return evolve(state, riders=_riders_with(state, i, **changes))


def _riders_with(state: State, i: int, **changes: object) -> tuple[Rider, ...]:
    """The riders, rider `i` with `changes`."""
    riders = list(state.riders)
    riders[i] = evolve(riders[i], **changes)
    return tuple(riders)


def _event(state: State, kind: str, changes: dict[str, object] | None = None, **about: object) -> State:
    """Record what happened (the last 40 things: the phones' history and the OLED's pages), with `changes` to
    the state in the same copy; `id` counts every event of the game, so a page keeps its key when older events
    drop off."""
    number = state.events[-1]["id"] + 1 if state.events else 0
    return evolve(state, events=(state.events + ({"id": number, "event": kind, "turn": state.turn, **about},))[-40:],
                  **(changes or {}))


def _ref(rider: Rider) -> list[JSON]:
    return [rider.seat, rider.kind]


def _racing(rider: Rider) -> bool:
    return rider.place not in OFF_ROAD


def _crashed(rider: Rider, turn: int) -> bool:
    """Off the road after a crash, from the move that caused it to the end of the turn it sits out (then it
    starts again from that move's last space)."""
    return rider.skip >= turn > 0


# -- the course of a turn -----------------------------------------------------------------------------------------
def _is_due(r: Rider, phase: str, turn: int) -> bool:
    """Whether rider `r` moves in move phase `phase` of turn `turn` and has not yet."""
    if r.moved or r.skip == turn or r.place in OFF_ROAD:
        return False
    if phase == BREAKAWAY_MOVES:
        return r.place == FUGA and r.last != turn
    if phase == DROPPED:
        return r.place == STACCATO and r.dropped < turn and r.last != turn
    if phase == LAST:
        return r.last == turn and r.place in (FUGA, STACCATO)
    return r.place == TESTA  # ATTACKS: the head of the peloton may break away


def _due_riders(state: State, phase: str, seat: int | None = None) -> list[int]:
    """Riders that move in a move phase and have not yet (of `seat`'s team, if given)."""
    t = state.turn
    return [i for i, r in enumerate(state.riders) if (seat is None or r.seat == seat) and _is_due(r, phase, t)]


def _movers(state: State) -> tuple[int, ...]:
    """The teams that may act in a move phase: those entering a move or with a rider still to move (this is
    asked on every action)."""
    if state.phase == ATTACKS:
        return state.queue[:1]
    due, forms = _due_teams(state.riders, state.phase, state.turn), state.forms
    return tuple([s for s in range(state.seats) if forms[s] is not None or s in due])


@last_answer  # one pass over the riders; a move's fields change the forms, not the riders
def _due_teams(riders: tuple[Rider, ...], phase: str, turn: int) -> frozenset[int]:
    return frozenset([r.seat for r in riders if _is_due(r, phase, turn)])


def _advance(state: State) -> State:
    """Move the turn on until someone has something to do."""
    while True:
        if state.phase == OVER or state.due is not None:
            return state
        if state.phase in (QUALITY, LINEUP, REGROUP, CHASE, PUNCTURES) and state.queue:
            return state
        if state.phase in (ROLL, CATCH) and state.queue:
            return state
        if state.phase in MOVE_PHASES and current_actors(state):  # remembered: who acts is asked next
            return state
        state = _next_phase(state)


def _next_phase(state: State) -> State:
    phase = state.phase
    if phase == QUALITY:
        return _start_stage(state)
    if phase in (LINEUP, PUNCTURES):
        return _start_turn(state)
    if phase == BREAKAWAY_MOVES:
        ahead_of_leader = state.order[1:] + state.order[:1]
        return evolve(state, phase=ATTACKS, queue=tuple(s for s in ahead_of_leader if _has(state, s, (TESTA,))))
    if phase == ATTACKS:
        return evolve(state, phase=REGROUP, queue=tuple(s for s in state.order if _has(state, s, PELOTON)),
                      belly=tuple(i for i, r in enumerate(state.riders) if r.place == PANCIA))
    if phase == REGROUP:
        chasers = tuple(s for s in state.order if state.chases[s] > 0 and state.streak[s] < 2)
        return evolve(state, phase=CHASE, queue=chasers)
    if phase == CHASE:
        streak = tuple(n + 1 if s in state.chased else 0 for s, n in enumerate(state.streak))
        return evolve(state, phase=ROLL, queue=state.order[:1], streak=streak)
    if phase == CATCH:
        return evolve(state, phase=DROPPED, queue=())
    if phase == DROPPED:
        return evolve(state, phase=LAST, queue=())
    if phase == LAST:
        if not state.red:
            return _start_turn(state)
        order = _race_order(state)
        if order and state.opts["punctures"] == "all":
            return evolve(state, phase=PUNCTURES, queue=tuple(order), due=("d12", "puncture"))
        return evolve(state, phase=PUNCTURES, queue=tuple(order))
    raise AssertionError(phase)


def _has(state: State, seat: int, places: tuple[str, ...]) -> bool:
    return any(r.seat == seat and r.place in places for r in state.riders)


def _start_stage(state: State) -> State:
    """Every rider lines up in the peloton, team by team from the leading token."""
    state = _event(state, "stage", stage=state.stage)
    state = evolve(state, phase=LINEUP, turn=0, queue=tuple(s for s in state.order if _has(state, s, (PANCIA,))))
    if state.opts["race"] == "classica" and state.opts["supply"] == "box" and state.stage == 1:
        # A classic: every rider draws one extra supply tile before the start (held secret by the box).
        riders = tuple(i for i, r in enumerate(state.riders) if _racing(r))
        return evolve(state, due=("supply", riders))
    return state


def _start_turn(state: State) -> State:
    turn = state.turn + 1
    riders = tuple(evolve(r, moved=False) for r in state.riders)
    state = evolve(state, turn=turn, riders=riders, chased=(), red=False, race=(), queue=(),
                   phase=BREAKAWAY_MOVES)
    return _event(state, "turn", n=turn)


def _race_order(state: State) -> list[int]:
    """Who rolls for a puncture, in race order as far as the box knows it: riders on the road ahead in the
    order they moved this turn, then the peloton by team token (head before belly), then those behind in the
    order they moved, then those just dropped. Riders off the road after a crash do not roll."""
    t = state.turn
    rs = state.riders
    standing = [i for i, r in enumerate(rs) if _racing(r) and not _crashed(r, t)]
    ahead = [i for i in state.race if i in standing and rs[i].place == FUGA]
    ahead += [i for i in standing if rs[i].place == FUGA and i not in ahead]
    peloton = [i for s in state.order for place in PELOTON for i in standing
               if rs[i].seat == s and rs[i].place == place]
    behind = [i for i in state.race if i in standing and rs[i].place == STACCATO]
    behind += [i for s in state.order for i in standing
               if rs[i].seat == s and rs[i].place == STACCATO and i not in behind]
    return ahead + peloton + behind


# -- chance -------------------------------------------------------------------------------------------------------
@last_answer
def current_actors(state: State) -> Actors:
    if state.phase == OVER:
        return TERMINAL
    if state.due is not None:
        return CHANCE
    if state.phase in MOVE_PHASES:
        return _movers(state)
    if state.phase == PUNCTURES:
        return (state.riders[state.queue[0]].seat,)
    return state.queue[:1]


def chance_outcomes(state: State) -> Outcomes:
    if state.due is None:
        return []
    if state.due[0] == "d12":
        return [({"chance": "d12", "outcome": n}, 1 / len(state.die)) for n in range(len(state.die))]
    deck = state.decks[TYPES.index(state.riders[state.due[1][0]].kind)]
    return [({"chance": "supply", "outcome": v}, deck.count(v) / len(deck)) for v in sorted(set(deck))]


def secret_draw(state: State) -> tuple[int, ...] | None:
    """The seats that may see the chance outcome due now, when it is a secret (a supply tile the box holds for
    a team); None when everyone sees it."""
    if state.due is not None and state.due[0] == "supply":
        return (state.riders[state.due[1][0]].seat,)
    return None


def _apply_chance(state: State, action: Action) -> State:
    keys = set(action)
    if keys != {"chance", "outcome"}:
        raise refuse("chance_keys", keys=sorted(keys))
    if state.due is None:
        raise refuse("no_chance_due")
    kind, why = state.due
    if action["chance"] != kind:
        raise refuse("other_chance_due", kind=kind, found=action["chance"])
    outcome = action["outcome"]
    if kind == "supply":
        return _draw_tile(state, why, outcome)
    if not isinstance(outcome, int) or isinstance(outcome, bool) or not 0 <= outcome < len(state.die):
        raise refuse("d12_face", last=len(state.die) - 1, value=outcome)
    state = evolve(state, due=None, roll=outcome, rolls=state.rolls + 1)
    face = state.die[outcome]
    if why == "peloton":
        return _advance(_peloton_moves(state, face))
    if why == "puncture":
        return _advance(_puncture_roll(state, face))
    return _advance(_risk_roll(state, face))


def _draw_tile(state: State, riders: tuple[int, ...], value: JSON) -> State:
    i = riders[0]
    rider = state.riders[i]
    colour = TYPES.index(rider.kind)
    deck = list(state.decks[colour])
    if type(value) is not int or value not in deck:
        raise refuse("no_tile_left", value=value, kind=rider.kind)
    deck.remove(value)
    if not deck:  # a deck used up is shuffled again from its full set
        deck = sorted(state.opts["tiles"][colour])
    decks = list(state.decks)
    decks[colour] = tuple(deck)
    state = evolve(state, decks=tuple(decks), draws=state.draws + 1,
                   tiles=state.tiles + (Tile(rider.seat, rider.kind, value, draw=state.draws),))
    state = _event(state, "supply_drawn", rider=_ref(rider))
    rest = riders[1:]
    return _advance(evolve(state, due=("supply", rest) if rest else None))


# -- the peloton ----------------------------------------------------------------------------------------------------
def _peloton_moves(state: State, face: Face) -> State:
    value, _ = face
    assert state.peloton is not None  # the terrain was chosen before the roll
    start = state.peloton["from"]
    in_peloton = [i for i, r in enumerate(state.riders) if r.place in PELOTON]
    move = value + bool(state.chased) + (not in_peloton)
    paid: list[JSON] = []
    dropped: list[JSON] = []
    for i in in_peloton:
        r = state.riders[i]
        cost = (move >= 5) + (r.place == TESTA) + (r.kind == "passista" and start == "montagna")
        if r.energy < cost:
            state = _set(state, i, place=STACCATO, dropped=state.turn)
            dropped.append(_ref(r))
        else:
            state = _set(state, i, energy=r.energy - cost)
            paid.append(_ref(r) + [cost])
    red = is_puncture(face)
    state = evolve(state, red=red, phase=CATCH, queue=state.order[:1],
                   peloton={"from": start, "face": state.roll, "move": move, "chase": bool(state.chased),
                            "empty": not in_peloton})
    return _event(state, "peloton", face=state.roll, move=move, chase=bool(state.chased), empty=not in_peloton,
                  paid=paid, dropped=dropped, red=red)


def _puncture_roll(state: State, face: Face) -> State:
    i = state.queue[0]
    rider = state.riders[i]
    punctured = is_puncture(face)
    if punctured:
        state = _punctured(state, i)
    state = _event(state, "puncture_roll", rider=_ref(rider), face=state.roll, punctured=punctured)
    state = evolve(state, queue=state.queue[1:])
    if state.queue and state.opts["punctures"] == "all":
        state = evolve(state, due=("d12", "puncture"))
    return state


def _punctured(state: State, i: int) -> State:
    """A punctured rider plays last next turn without the draft; in the peloton it drops behind it."""
    rider = state.riders[i]
    nxt = state.turn + 1
    place = STACCATO if rider.place in PELOTON else rider.place
    return _set(state, i, last=nxt, no_draft=nxt, place=place,
                dropped=state.turn if rider.place in PELOTON else rider.dropped)


# -- a move -----------------------------------------------------------------------------------------------------------
def _quality_bonus(quality: str | None, form: Form) -> bool:
    return (quality == "discesista" and form.start == "discesa") or (quality == "velocista" and form.sprint)


def _may_draft(state: State, rider: Rider, form: Form) -> bool:
    return not form.breakaway and rider.no_draft != state.turn


def reckon(state: State, form: Form) -> Sums:
    """What a complete form means: free and paid spaces, cost, recovery, the risks it runs (a dict of the
    caller's own)."""
    rider = state.riders[form.rider]
    return _copied(_sums(form, rider.kind, rider.quality))


def _copied(sums: Sums) -> Sums:
    """Sums kept for a form, as a dict of the caller's own."""
    return {**sums, "risks": list(sums["risks"])}


@lru_cache(maxsize=256)  # every list of a move's choices asks whether it may go, and a tile added changes no sum
def _sums(form: Form, kind: str, quality: str | None) -> Sums:
    assert form.start is not None and form.spaces is not None  # a complete form
    free = free_spaces(form.start, kind, draft=form.draft, bonus=_quality_bonus(quality, form))
    wind = WIND.get(form.weather, 0)
    if wind > 0 and form.draft:
        wind = 0  # head wind costs only a rider without the draft
    paid, cost, recovered = move_cost(form.spaces, free, blocked=form.blocked, wind=wind)
    risks: list[str] = []
    if form.climb:
        # The climb's spaces close the move when it starts below the climb, and open it when it starts on it.
        on_climb = (max(0, form.climb_spaces - free) if form.start == "montagna"
                    else min(paid, form.climb_spaces))
        climber_attack = form.breakaway and kind == "scalatore" and form.start == "montagna"
        if on_climb > form.climb and not climber_attack:
            risks.append("fatigue")
    rain = form.weather == "pioggia"
    damaged = [k for k in form.damaged if rain or k > free]
    if len(damaged) > (quality == "attaccante"):
        risks.append("crash")
    cobbles = [k for k in form.cobbles if k > free]
    if quality == "attaccante":
        cobbles = cobbles[1:]
    risks += ["cobbles"] * len(cobbles)
    need = cost * 2 if "fatigue" in risks else cost
    return {"free": free, "paid": paid, "cost": cost, "recovered": recovered, "risks": tuple(risks), "need": need}


def _reckoned(state: State, form: Form) -> tuple[Sums | None, Message | None]:
    """(the sums kept for a complete form or None, why it cannot go or None). Every list of a move's choices asks
    whether it may go: the sums are read, not copied (a view copies them)."""
    rider = state.riders[form.rider]
    try:
        sums = _sums(form, rider.kind, rider.quality)
    except Rejected as e:
        return None, e.message
    if rider.energy >= sums["need"]:
        return sums, None
    if "fatigue" in sums["risks"]:
        return sums, word("costs_fatigue", "refusal", cost=sums["cost"], need=sums["need"], kind=rider.kind,
                          energy=rider.energy)
    return sums, word("costs", "refusal", cost=sums["cost"], kind=rider.kind, energy=rider.energy)


def _go_refusal(state: State, form: Form) -> Message | None:
    """Why a complete form cannot go, or None."""
    return _reckoned(state, form)[1]


def _min_spaces(form: Form) -> int:
    return LEAVE_PELOTON if form.breakaway else 1


def _max_spaces(state: State, form: Form) -> int:
    rider = state.riders[form.rider]
    assert form.start is not None  # the start terrain comes first
    return free_spaces(form.start, rider.kind, draft=True, bonus=True) + MAX_PAID


def _form_lines(state: State, seat: int) -> list[Action]:
    """The lines a team entering a move may take now, in prompt order."""
    form, mine = state.forms[seat], LINES[seat]
    assert form is not None  # asked of a team entering a move
    rider = state.riders[form.rider]
    if form.start is None:
        return [*mine["from"], *mine["back"]]
    if form.spaces is None:
        return [*mine["spaces"][_min_spaces(form):_max_spaces(state, form) + 1], *mine["back"]]
    lines = [] if _go_refusal(state, form) else [*mine["go"]]
    if _may_draft(state, rider, form):
        lines.append(mine["draft"][not form.draft])
    if rider.quality == "velocista":
        lines.append(mine["sprint"][not form.sprint])
    lines += _but(mine["weather"], WEATHER.index(form.weather))
    lines += _but(mine["blocked"][:form.spaces + 1], form.blocked)
    lines += _but(mine["climb"], form.climb)
    if form.climb:
        lines += _but(mine["climb_spaces"][1:form.spaces + 1], form.climb_spaces - 1)
    lines += mine["road"][1:form.spaces + 1]
    if state.opts["supply"] == "box":
        lines.append(mine["feed"][not form.feed])
    if rider.place == STACCATO:
        lines.append(mine["ahead"][not form.ahead])
    if state.opts["race"] == "tappe":
        lines.append(mine["bonus"][not form.bonus])
    lines.append(mine["finish"][not form.finish])
    lines += mine["back"]
    return lines


def _but(lines: tuple[Action, ...], i: int) -> tuple[Action, ...]:
    """`lines` without the one at `i` (the value the form already has), if there is one."""
    return lines[:i] + lines[i + 1:] if 0 <= i < len(lines) else lines


# The values of the choices a team lists again and again (a move's fields, the chase, the peloton's terrain), in
# prompt order; a toggle's lines are indexed by the value it sets, a count's by the number.
MOST_SPACES = max(map(max, FREE.values())) + 2 + MAX_PAID  # the draft and a quality's bonus add a space each
NUMBERS = range(MOST_SPACES + 1)
TOGGLE = (False, True)
LISTED: dict[str, Sequence[JSON]] = {
    "from": TERRAINS, "spaces": NUMBERS, "go": (True,), "draft": TOGGLE, "sprint": TOGGLE, "weather": WEATHER,
    "blocked": NUMBERS, "climb": range(5), "climb_spaces": NUMBERS, "road": NUMBERS, "feed": TOGGLE,
    "ahead": TOGGLE, "bonus": TOGGLE, "finish": TOGGLE, "back": (True,), "chase": (True, False), "roll": TERRAINS}


# Each seat's lines choosing each key as each of its LISTED values: made once and shared by every list of legal
# actions (never changed once made); LINES[seat][key] is a tuple of lines.
LINES: tuple[dict[str, tuple[Action, ...]], ...] = tuple(
    {key: tuple({"seat": seat, "choose": {key: value}} for value in values) for key, values in LISTED.items()}
    for seat in range(SEATS[1]))


RESTATABLE = ("draft", "sprint", "weather", "blocked", "climb", "climb_spaces", "feed", "ahead", "bonus", "finish")


def _restates(state: State, seat: int, key: str, value: JSON) -> bool:
    """A move field set to the value it already has ({"weather": "sereno"}, {"climb_spaces": 4} when the climb
    already covers the 4 spaces, {"draft": false} for a rider who may not draft): it breaks no rule and changes
    nothing, so it is accepted as it is."""
    form = state.forms[seat] if state.phase in MOVE_PHASES else None
    if form is None or form.spaces is None or key not in RESTATABLE:
        return False
    current = getattr(form, key)
    return type(current) is type(value) and current == value


def _apply_form(state: State, seat: int, key: str, value: Any) -> State:
    """A field of the move being entered (`value` as the listed line has it)."""
    form = state.forms[seat]
    assert form is not None  # a team entering a move
    if key == "back":
        return _set_form(state, seat, None)
    if key == "from":
        return _set_form(state, seat, evolve(form, start=value))
    if key == "spaces":
        return _set_form(state, seat, evolve(form, spaces=value))
    if key == "go":
        return _go(state, seat)
    if key == "road":
        # A space of the move cycles: normal road, damaged asphalt, damaged cobbles.
        damaged, cobbles = set(form.damaged), set(form.cobbles)
        if value in damaged:
            damaged.discard(value)
            cobbles.add(value)
        elif value in cobbles:
            cobbles.discard(value)
        else:
            damaged.add(value)
        return _set_form(state, seat, evolve(form, damaged=tuple(sorted(damaged)), cobbles=tuple(sorted(cobbles))))
    if key == "climb" and not value:
        return _set_form(state, seat, evolve(form, climb=0, climb_spaces=0))
    if key == "climb" and not form.climb_spaces:
        return _set_form(state, seat, evolve(form, climb=value, climb_spaces=form.spaces))
    return _set_form(state, seat, evolve(form, **{key: value}))


def _set_form(state: State, seat: int, form: Form | None) -> State:
    forms = list(state.forms)
    forms[seat] = form
    return evolve(state, forms=tuple(forms))


def _go(state: State, seat: int) -> State:
    """The move is confirmed: its risks are rolled (if any), then it is paid and recorded."""
    form = state.forms[seat]
    assert form is not None  # a listed "go": a complete form
    sums = reckon(state, form)
    state = _set_form(state, seat, None)
    pending = {"form": form, "sums": sums, "risks": sums["risks"], "failed": False, "crash": False,
               "puncture": False, "rolled": []}
    return _next_risk(evolve(state, pending=pending))


def _next_risk(state: State) -> State:
    p = state.pending
    assert p is not None  # a confirmed move
    if p["risks"] and not p["crash"] and not p["puncture"]:
        return evolve(state, due=("d12", p["risks"][0]))
    return _settle(evolve(state, pending=None), p)


def _risk_roll(state: State, face: Face) -> State:
    assert state.pending is not None  # a risk of the confirmed move was rolled
    p = dict(state.pending)
    kind, p["risks"] = p["risks"][0], p["risks"][1:]
    i = p["form"].rider
    rider = state.riders[i]
    if kind == "cobbles":
        effect = cobble_effect(face)
        p["crash"] = p["crash"] or effect == "crash"
        p["puncture"] = p["puncture"] or effect == "puncture"
        p["rolled"] = p["rolled"] + [[kind, state.roll, effect or "ok"]]
    else:
        rung = rider.risks + 1
        ok = risk_succeeds(face, rung)
        state = _set(state, i, risks=rung)  # the box is crossed whatever the roll
        if kind == "fatigue":
            p["failed"] = p["failed"] or not ok
        else:
            p["crash"] = p["crash"] or not ok
        p["rolled"] = p["rolled"] + [[kind, state.roll, "ok" if ok else "failed", rung]]
    return _next_risk(evolve(state, pending=p))


def _settle(state: State, p: Record) -> State:
    form, sums = p["form"], p["sums"]
    i = form.rider
    rider = state.riders[i]
    cost = sums["cost"] * (2 if p["failed"] else 1)
    energy = rider.energy - cost + sums["recovered"]
    changes: dict[str, object] = {"energy": energy, "moved": True}
    if form.breakaway or (form.ahead and rider.place == STACCATO):
        changes["place"] = FUGA
    if p["crash"]:
        changes.update(skip=state.turn + 1, no_draft=state.turn + 2)
    state = _set(state, i, **changes)
    if p["puncture"]:
        state = _punctured(state, i)
    state = evolve(state, race=state.race + (i,))
    state = _event(state, "move", rider=_ref(rider), spaces=form.spaces, free=sums["free"], paid=sums["paid"],
                   cost=cost, recovered=sums["recovered"], rolled=p["rolled"], fatigue_failed=p["failed"],
                   crash=p["crash"], puncture=p["puncture"], breakaway=form.breakaway, energy=energy)
    if form.weather == "caldo" and form.spaces >= HEAT:
        state = _heat(state, i)
    if form.bonus:
        state = _set(state, i, bonus=state.riders[i].bonus + 1)
    if form.feed and state.opts["supply"] == "box":
        state = evolve(state, due=("supply", (i,)))
    if form.finish:
        state = _finish(state, [i])
    return state


def _heat(state: State, i: int) -> State:
    """Heat: the rider's team reveals one of its supply tiles held by the box (the rider's colour first) and
    the rider takes its energy. With tiles on the table the players do it themselves."""
    rider = state.riders[i]
    held = [n for n, t in enumerate(state.tiles) if t.seat == rider.seat]
    held.sort(key=lambda n: (state.tiles[n].kind != rider.kind, n))
    if not held:
        return state
    return _use_tile(state, held[0], i, "heat")


def _use_tile(state: State, n: int, i: int, why: str) -> State:
    """The box's tile n, used by rider i: it leaves the team's hand."""
    return _gain(evolve(state, tiles=state.tiles[:n] + state.tiles[n + 1:]), i, state.tiles[n].value, why)


def _gain(state: State, i: int, value: int, why: str) -> State:
    rider = state.riders[i]
    return _event(state, "supply_used", {"riders": _riders_with(state, i, energy=rider.energy + value)},
                  rider=_ref(rider), value=value, why=why)


def _finish(state: State, indices: list[int]) -> State:
    for i in indices:
        state = _set(state, i, place=ARRIVATO, finished=state.turn)
        state = _event(state, "finish", rider=_ref(state.riders[i]), place=len(state.finish_order) + 1)
        state = evolve(state, finish_order=state.finish_order + (i,))
    if any(_racing(r) for r in state.riders):
        return state
    return _end_stage(state)


def _end_stage(state: State) -> State:
    """Turns behind the stage winner (winner −2, 2nd −1, −1 per bonus line) into the general classification;
    in a stage race a rider more than 22 turns behind the leader is out, and the next stage starts."""
    order = state.finish_order
    first = state.riders[order[0]].finished
    riders = list(state.riders)
    for place, i in enumerate(order):
        r = riders[i]
        gained = (2 if place == 0 else 1 if place == 1 else 0) + r.bonus
        riders[i] = r._replace(gc=r.gc + r.finished - first - gained, bonus=0)
    state = evolve(state, riders=tuple(riders), stages_done=state.stages_done + (order,), forms=(None,) * state.seats)
    state = _event(state, "stage_end", stage=state.stage, order=[_ref(state.riders[i]) for i in order])
    if state.stage == state.opts["stages"]:
        return evolve(state, phase=OVER, queue=())
    leader = min(r.gc for r in state.riders if r.place != FUORI)
    nxt = state.stage + 1
    energy = (state.opts["stage_energy"] or [state.opts["energy"]] * nxt)[nxt - 2]
    riders = []
    for r in state.riders:
        if r.place == FUORI or r.gc - leader > MAX_BEHIND:
            riders.append(r._replace(place=FUORI))
        else:
            riders.append(Rider(r.seat, r.kind, r.quality, energy + min(r.energy, CARRY), r.risks, PANCIA, gc=r.gc))
    chases = tuple(min(MAX_CHASES, NEXT_STAGE_CHASES + c) for c in state.chases)
    # The team of the general classification's leader starts first, the others in their token order.
    best = min((r for r in riders if r.place != FUORI), key=lambda r: (r.gc, state.order.index(r.seat)))
    order = (best.seat,) + tuple(s for s in state.order if s != best.seat)
    state = evolve(state, stage=nxt, riders=tuple(riders), chases=chases, streak=(0,) * state.seats, order=order,
                   finish_order=(), phase=QUALITY, queue=())
    return _start_stage(state)


# -- the actions ---------------------------------------------------------------------------------------------------
@last_answer
def _lines(state: State, seat: int | str) -> tuple[Action, ...]:
    """Every line `seat` may take now, in prompt order (a tuple: it is remembered)."""
    return tuple(_listed_lines(state, seat))


def _each(seat: int, values: Sequence[Any]) -> list[Action]:
    """`seat`'s lines choosing each of `values` (choose objects made for this list)."""
    return [{"seat": seat, "choose": choose} for choose in values]


def _listed_lines(state: State, seat: int | str) -> list[Action]:
    phase = state.phase
    if phase == OVER or state.due is not None or not isinstance(seat, int) or seat not in current_actors(state):
        return []
    if phase == QUALITY:
        mine = [r for r in state.riders if r.seat == seat]
        taken = {r.quality for r in mine}
        return _each(seat, [{"quality": [r.kind, q]} for r in mine if r.quality is None for q in QUALITIES
                            if q not in taken] + [{"quality": None}])
    if phase == LINEUP:
        return _each(seat, [{"place": [r.kind, p]} for r in state.riders
                            if r.seat == seat and r.place == PANCIA and not r.moved for p in PELOTON])
    if phase == PUNCTURES:
        return _each(seat, [{"roll": state.riders[state.queue[0]].kind}])
    supply = _supply_lines(state, seat)
    if phase in MOVE_PHASES:
        if state.forms[seat] is not None:
            return _form_lines(state, seat) + supply
        rides = [state.riders[i].kind for i in _due_riders(state, phase, seat)] + ([None] if phase == ATTACKS else [])
        return _each(seat, [{"ride": kind} for kind in rides]) + supply
    if phase == REGROUP:
        # The head may stay or drop into the belly; only a rider already in the belly may be dropped back.
        moves = {TESTA: (PANCIA,), PANCIA: (TESTA, STACCATO)}
        return _each(seat, [{"place": [state.riders[i].kind, p]} for i in range(len(state.riders))
                            if state.riders[i].seat == seat for p in moves.get(state.riders[i].place, ())
                            if p != STACCATO or i in state.belly] + [{"place": None}]) + supply
    if phase == CHASE:
        return [*LINES[seat]["chase"], *supply]
    if phase == ROLL:
        return [*LINES[seat]["roll"], *supply]
    if phase == CATCH:
        # A crashed rider stands off the road: the peloton passes it, never takes it back (it starts again
        # behind, as a dropped rider).
        caught = [{"catch": _ref(r) + [p]} for s in state.order for r in state.riders
                  if r.seat == s and r.place == FUGA for p in (PASSED if _crashed(r, state.turn) else PELOTON)]
        finish = [{"catch": ARRIVATO}] if any(r.place in PELOTON for r in state.riders) else []
        return _each(seat, caught + finish + [{"catch": None}]) + supply
    return []


def _supply_lines(state: State, seat: int) -> list[Action]:
    """Supply tiles the team may add now: held by the box (their values are the team's secret), or entered
    from the table's tiles."""
    tiles = _tiles_for(seat, tuple([r.kind for r in state.riders if r.seat == seat and _racing(r)]))
    if state.opts["supply"] == "table":
        return list(tiles)
    held = {(t.kind, t.value) for t in state.tiles if t.seat == seat}
    return [line for line in tiles if tuple(cast(Any, line["choose"])["supply"]) in held]


@lru_cache(maxsize=64)  # a team's riders still racing: the same few all game, and every action lists them
def _tiles_for(seat: int, kinds: tuple[str, ...]) -> tuple[Action, ...]:
    """`seat`'s supply lines of a tile of each value for each rider of `kinds`, made once and shared."""
    return tuple({"seat": seat, "choose": {"supply": [kind, v]}} for kind in kinds for v in TILE_VALUES)


def legal_actions(state: State, actor: int | str) -> list[Action]:
    if actor == CHANCE:
        return [a for a, _ in chance_outcomes(state)]
    return list(_lines(state, actor))


CHOOSE_KEYS = frozenset({"seat", "choose"})


def apply(state: State, action: JSON) -> State:
    if not isinstance(action, dict):
        raise shared("not_an_object")
    if state.phase == OVER:
        raise refuse("race_over")
    if "chance" in action:
        return _apply_chance(state, action)
    keys = action.keys()
    if keys != CHOOSE_KEYS:
        extra = sorted(keys - CHOOSE_KEYS)
        raise shared("unknown_key", key=extra[0]) if extra else shared("missing_key", key=sorted(CHOOSE_KEYS - keys)[0])
    seat, choose = action["seat"], action["choose"]
    if not is_seat(seat, state.seats):
        raise refuse("no_team", team=shown_seat(seat))
    if action not in _lines(state, seat):
        return _unlisted(state, seat, choose)
    (key, value), = cast(Action, choose).items()  # a listed line: one key and its value
    return _advance(_apply_choice(state, seat, key, value))


def _unlisted(state: State, seat: int, choose: JSON) -> State:
    """A line of a seat the rules do not list now (every line listed passes these checks): accepted unchanged
    when it restates a move's field, else refused with the first reason that applies."""
    if not isinstance(choose, dict) or len(choose) != 1:
        raise refuse("one_key")
    if state.due is not None:
        raise refuse("roll_first")
    (key, value), = choose.items()
    if seat not in current_actors(state):
        raise refuse("not_their_turn", team=seat + 1, waiting=_waiting_for(state))
    if _restates(state, seat, key, value):
        return state
    raise Rejected(_refusal(state, seat, key, value))


def _waiting_for(state: State) -> Message:
    teams = current_actors(state)
    return word("waiting_for", "refusal", teams=", ".join(str(shown_seat(s)) for s in teams), n=len(teams))


def _refusal(state: State, seat: int, key: str, value: JSON) -> Message:
    """A clear reason for a choice the rules do not allow now (a refusal message)."""
    form = state.forms[seat] if state.phase in MOVE_PHASES else None
    reason = word("not_now", "refusal")
    if key == "go" and form is not None and form.spaces is not None:
        reason = _go_refusal(state, form) or reason
    elif key == "spaces" and form is not None and form.start is not None and isinstance(value, int):
        if form.breakaway and value < LEAVE_PELOTON:
            reason = word("leave_peloton", "refusal", n=LEAVE_PELOTON)
        else:
            reason = word("move_range", "refusal", low=_min_spaces(form), high=_max_spaces(state, form))
    elif key == "chase" and state.phase != CHASE:
        reason = word("chase_when", "refusal")
    elif key == "supply":
        reason = word("no_such_tile" if state.opts["supply"] == "box" else "tile_values", "refusal")
    elif key == "ride" and state.phase in MOVE_PHASES:
        crashed = _crashed_rider(state, seat, value)
        reason = (word("crashed_restarts", "refusal", kind=crashed.kind, turn=crashed.skip + 1) if crashed
                  else word("head_breaks_away" if state.phase == ATTACKS else "does_not_move", "refusal"))
    elif key == "catch" and isinstance(value, list) and len(value) == 3 and value[2] in PELOTON \
            and (crashed := _crashed_rider(state, value[0], value[1])):
        reason = word("crashed_passed", "refusal", team=crashed.seat + 1, kind=crashed.kind)
    elif key == "quality" and state.phase == QUALITY:
        reason = word("one_quality", "refusal")
    elif key == "draft" and form is not None:
        reason = word("no_draft", "refusal")
    elif key != "chase":
        reason = word("not_a_choice", "refusal", key=key)
    return reason


def _crashed_rider(state: State, seat: JSON, kind: JSON) -> Rider | None:
    """Team `seat`'s rider of type `kind`, when there is one and it is off the road after a crash."""
    found = [r for r in state.riders if r.seat == seat and r.kind == kind and _crashed(r, state.turn)]
    return found[0] if found else None


def _apply_choice(state: State, seat: int, key: str, value: Any) -> State:
    """A listed line's choice (`value` as the listed line has it)."""
    phase = state.phase
    if key == "supply":
        kind, v = value
        i = _index(state, seat, kind)
        if state.opts["supply"] == "table":  # a tile from the table: nothing the box held
            return _gain(state, i, v, "supply")
        n = next(n for n, t in enumerate(state.tiles) if (t.seat, t.kind, t.value) == (seat, kind, v))
        return _use_tile(state, n, i, "supply")
    if phase == QUALITY:
        if value is None:
            return evolve(state, queue=state.queue[1:])
        i = _index(state, seat, value[0])
        return _event(state, "quality", {"riders": _riders_with(state, i, quality=value[1])}, rider=[seat, value[0]],
                      quality=value[1])
    if phase == LINEUP:
        i = _index(state, seat, value[0])
        state = _set(state, i, place=value[1], moved=True)
        if not any(r.seat == seat and r.place == PANCIA and not r.moved for r in state.riders):
            state = evolve(state, queue=state.queue[1:])
        return state
    if phase in MOVE_PHASES and key == "ride":
        if value is None:
            return evolve(state, queue=state.queue[1:])
        i = _index(state, seat, value)
        return _set_form(state, seat, Form(i, breakaway=phase == ATTACKS))
    if phase in MOVE_PHASES:
        return _apply_form(state, seat, key, value)
    if phase == REGROUP:
        if value is None:
            return evolve(state, queue=state.queue[1:])
        i = _index(state, seat, value[0])
        changes: dict[str, object] = {"place": value[1]}
        if value[1] == STACCATO:
            changes["dropped"] = state.turn
        return _event(state, "place", {"riders": _riders_with(state, i, **changes)}, rider=[seat, value[0]],
                      place=value[1])
    if phase == CHASE:
        state = evolve(state, queue=state.queue[1:])
        if not value:
            return state
        chases = list(state.chases)
        chases[seat] -= 1
        state = evolve(state, chases=tuple(chases), chased=state.chased + (seat,),
                       order=(seat,) + tuple(s for s in state.order if s != seat))
        return _event(state, "chase", seat=seat)
    if phase == ROLL:
        return evolve(state, queue=(), peloton={"from": value}, due=("d12", "peloton"))
    if phase == CATCH:
        if value is None:
            return evolve(state, queue=())
        if value == ARRIVATO:
            peloton = [i for s in state.order for p in PELOTON for i, r in enumerate(state.riders)
                       if r.seat == s and r.place == p]
            return _finish(state, peloton)
        i = _index(state, value[0], value[1])
        if value[2] == STACCATO:
            return _event(state, "passed", {"riders": _riders_with(state, i, place=STACCATO, dropped=state.turn)},
                          rider=value[:2])
        return _event(state, "caught", {"riders": _riders_with(state, i, place=value[2])}, rider=value[:2],
                      place=value[2])
    if phase == PUNCTURES:
        return evolve(state, due=("d12", "puncture"))
    raise AssertionError(phase)


# -- prompts and views ----------------------------------------------------------------------------------------------
TITLES = {QUALITY: "choose_quality", LINEUP: "choose_lineup", ATTACKS: "choose_attack", REGROUP: "choose_regroup",
          CHASE: "choose_chase", ROLL: "choose_roll", CATCH: "choose_catch", PUNCTURES: "choose_puncture"}
FORM_GROUPS = ("weather", "blocked", "climb", "climb_spaces", "road")
MOVE_KEYS = ("blocked", "climb", "climb_spaces", "road")  # on the pad's buttons 3, 4, 5, 6


def prompt(state: State, seat: int) -> Prompt | None:
    """Every input is an open choice driven by the pad's cursor; the supply tiles a team holds are its own
    (the prompt shows them to that team only)."""
    lines = _lines(state, seat)
    if not lines:
        return None
    form = state.forms[seat] if state.phase in MOVE_PHASES else None
    if form is not None:
        title = "choose_start" if form.start is None else "choose_spaces" if form.spaces is None else "choose_move"
    elif state.phase in MOVE_PHASES:
        title = TITLES[ATTACKS] if state.phase == ATTACKS else "choose_rider"
    else:
        title = TITLES[state.phase]
    made = tuple(map(_choice, lines))
    if state.opts["supply"] == "box":  # the tiles the box holds for the team: its phone offers them, not its pad
        made = tuple(replace(c, private=True) if "supply" in cast(Any, c.action["choose"]) else c for c in made)
    # The pad's buttons 3–6 reach at once what a move most needs: its rider, its terrain, the road's groups.
    if title == "choose_move":
        keys = tuple(g if any(c.group == g for c in made) else None for g in MOVE_KEYS)
    else:
        keys = tuple(c.label for c in made if c.label.split(":")[0] in ("ride", "from"))[:4]
    # Never a secret choice: the OLED's cursor shows every choice but the tiles, the view shows what a team chose
    # (a tile used, by its value); only the tiles a team holds are its own, offered on its phone alone.
    return Prompt(CHOOSE, title, made, keys=keys)


def _choice(action: Action) -> Choice:
    """A choice labelled with text keys the presentation words: `key:value`, grouped where the pad's cursor
    first picks a group (a field of the move, a rider, a supply tile)."""
    choose: Any = action["choose"]  # a listed line: one key and its value
    (key, value), = choose.items()
    if key == "supply":  # a tile spent cannot be taken back by the team itself: the phone asks first
        return Choice(f"{key}:{value[1]}", action, f"tile:{value[0]}", confirm=True)
    if key in ("quality", "place") and value is not None:
        return Choice(f"{key}:{value[1]}", action, f"rider:{value[0]}")
    if key == "catch" and isinstance(value, list):
        return Choice(f"catch:{value[2]}", action, f"team:{value[0]}:{value[1]}")
    if key in FORM_GROUPS:
        return Choice(f"{key}:{value}", action, key)
    return Choice(f"{key}:{_word(value)}", action)


def _word(value: JSON) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def result(state: State) -> Result | None:
    if state.phase != OVER:
        return None
    ranked = classification(state)
    first = ranked[0]
    standings: list[Standing] = [{"seat": state.riders[i].seat, "what": state.riders[i].kind, "place": n,
                                  "behind": _behind(state, i, first)} for n, i in enumerate(ranked, start=1)]
    standings += [{"seat": r.seat, "what": r.kind, "place": None, "behind": None}
                  for i, r in enumerate(state.riders) if i not in ranked]
    return {"winners": [state.riders[first].seat], "losers": [], "draw": False, "standings": standings}


def classification(state: State) -> list[int]:
    """The riders still in the race, best first: a one-day race's order of arrival; a stage race's general
    classification (fewest turns, ties by the last stage's order)."""
    last = state.stages_done[-1]
    if state.opts["stages"] == 1:
        return list(last)
    standing = [i for i, r in enumerate(state.riders) if r.place != FUORI]
    return sorted(standing, key=lambda i: (state.riders[i].gc, last.index(i) if i in last else len(last)))


def _behind(state: State, i: int, first: int) -> int:
    """Turns behind the `first` rider: in a one-day race, of arrival; in a stage race, of general classification."""
    if state.opts["stages"] == 1:
        return state.riders[i].finished - state.riders[first].finished
    return state.riders[i].gc - state.riders[first].gc


def _rider_view(state: State, rider: Rider, viewer: Viewer) -> dict[str, JSON]:
    held = [t for t in state.tiles if t.seat == rider.seat and t.kind == rider.kind]
    shown: dict[str, JSON] = {"seat": rider.seat, "type": rider.kind, "quality": rider.quality, "energy": rider.energy,
             "risks": rider.risks, "place": rider.place, "gc": rider.gc,
             "crashed": _crashed(rider, state.turn),
             "punctured": rider.last > 0 and (rider.last > state.turn
                                              or (rider.last == state.turn and not rider.moved)),
             "tiles": len(held)}
    if viewer == rider.seat:
        shown["tile_values"] = [*sorted(t.value for t in held)]
    return shown


def _form_view(state: State, form: Form) -> dict[str, object]:
    shown: dict[str, object] = {"rider": _ref(state.riders[form.rider]),
                                **{k: v for k, v in form._asdict().items() if k != "rider"}}
    shown["damaged"], shown["cobbles"] = list(form.damaged), list(form.cobbles)
    if form.spaces is not None:
        sums, refused = _reckoned(state, form)
        shown["sums"] = sums and _copied(sums)
        shown["refused"] = refused and refused.as_data()  # why it may not go as it stands
    return shown


def view(state: State, viewer: Viewer = PUBLIC) -> View:
    check_viewer(viewer, state.seats)
    face = None if state.roll is None else {"index": state.roll, "value": state.die[state.roll][0],
                                            "colour": state.die[state.roll][1]}
    actors = current_actors(state)
    return {
        "game": NAME, "over": state.phase == OVER, "result": result(state), "seats": state.seats,
        "phase": state.phase, "stage": state.stage, "stages": state.opts["stages"], "race": state.opts["race"],
        "turn": state.turn, "order": list(state.order),
        "riders": [_rider_view(state, r, viewer) for r in state.riders],
        "chases": list(state.chases), "streak": list(state.streak), "chased": list(state.chased),
        "roll": face, "rolls": state.rolls, "peloton": state.peloton,
        "to_act": [] if actors in (CHANCE, TERMINAL) else list(actors),
        "forms": [None if f is None else _form_view(state, f) for f in state.forms],
        "finish_order": [_ref(state.riders[i]) for i in state.finish_order],
        "supply": state.opts["supply"], "die": [list(f) for f in state.die],
        "events": list(state.events),
    }


def public_lines(steps: Sequence[tuple[State, Action]]) -> list[Action]:
    """During a race, a supply tile the box holds stays its team's secret until used: the draw that dealt it
    is left out of the log a phone downloads."""
    if not steps:
        return []
    before, line = steps[-1]
    final = apply(before, line)
    hidden = {t.draw for t in final.tiles}
    kept: list[Action] = []
    draws = 0
    for _, line in steps:
        if line.get("chance") == "supply":
            draws += 1
            if draws - 1 in hidden:
                continue
        kept.append(line)
    return kept

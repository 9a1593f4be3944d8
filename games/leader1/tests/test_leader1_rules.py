"""Leader 1 (rules/leader1.md R-1 … R-3 and the seed's worked examples), with forced die faces."""
import math
import re
import secrets
from fractions import Fraction

import pytest

from engine.chance import draw
from engine.record import GameRecord, header
from engine.rules import CHANCE, PUBLIC, Rejected
from games.leader1 import rules as L
from games.leader1.die import DEFAULT_DIE, free_spaces, move_cost, success_rate
from tests.conftest import state_copies

# Faces of the default die: 0–3 plain 3, 4 plain 4, 5 red 4, 6 orange 4, 7 blue 4, 8–11 plain 5.
THREE, FOUR, RED, ORANGE, BLUE, FIVE = 0, 4, 5, 6, 7, 8


def race(riders=(("passista", "leader", "scalatore"),) * 2, qualities=(), places=None, tiles=(), **options):
    """A race at turn 1: qualities given as (seat, type, quality), every rider at the head of the peloton
    unless `places` says otherwise ({(seat, type): place}); `tiles` the supply tiles drawn before the start."""
    record = GameRecord(header("leader1", len(riders), {"riders": [list(r) for r in riders], **options}))
    for seat in list(record.state.queue):
        for _, kind, quality in [q for q in qualities if q[0] == seat]:
            act(record, seat, quality=[kind, quality])
        act(record, seat, quality=None)
    for value in tiles:
        record.apply({"chance": "supply", "outcome": value})
    while record.state.phase == L.LINEUP:
        seat = record.state.queue[0]
        rider = next(r for r in record.state.riders if r.seat == seat and not r.moved)
        act(record, seat, place=[rider.kind, (places or {}).get((seat, rider.kind), L.TESTA)])
    return record


def act(record, seat, **choose):
    record.apply({"seat": seat, "choose": choose})
    return record.state


def roll(record, face):
    assert L.current_actors(record.state) == CHANCE
    record.apply({"chance": "d12", "outcome": face})
    return record.state


def rider(record, seat, kind):
    return next(r for r in L.view(record.state, PUBLIC)["riders"] if r["seat"] == seat and r["type"] == kind)


def enter(record, seat, kind, start, spaces, **fields):
    """Enter a move field by field (`road` takes a list of presses)."""
    act(record, seat, ride=kind)
    act(record, seat, **{"from": start})
    act(record, seat, spaces=spaces)
    for key, value in fields.items():
        for one in value if key == "road" else [value]:
            act(record, seat, **{key: one})


def move(record, seat, kind, start, spaces, **fields):
    """Enter a move and confirm it."""
    enter(record, seat, kind, start, spaces, **fields)
    return act(record, seat, go=True)


def form(record, seat, kind, start, spaces, **fields):
    """The sums of a move entered but not confirmed."""
    enter(record, seat, kind, start, spaces, **fields)
    return L.view(record.state, PUBLIC)["forms"][seat]["sums"]


def to_chase(record):
    """Pass the breakaways and the regrouping of every team."""
    while record.state.phase in (L.ATTACKS, L.REGROUP):
        seat = record.state.queue[0]
        act(record, seat, **({"ride": None} if record.state.phase == L.ATTACKS else {"place": None}))
    return record.state


def peloton(record, face, chases=(), start="pianura"):
    to_chase(record)
    while record.state.phase == L.CHASE:
        seat = record.state.queue[0]
        act(record, seat, chase=seat in chases)
    act(record, record.state.order[0], roll=start)
    return roll(record, face)


def breakaway(record, seat, kind, spaces=4, start="pianura", **fields):
    """Team `seat` breaks `kind` away (the teams before it in the attack order pass)."""
    while record.state.queue[0] != seat:
        act(record, record.state.queue[0], ride=None)
    return move(record, seat, kind, start, spaces, **fields)


# -- the die --------------------------------------------------------------------------------------------------
def test_R1_default_die_has_four_faces_of_each_value_and_the_three_coloured_4s():
    assert [f[0] for f in DEFAULT_DIE].count(3) == 4 and [f[0] for f in DEFAULT_DIE].count(5) == 4
    assert sorted(f[1] for f in DEFAULT_DIE if f[0] == 4) == ["blue", "orange", "plain", "red"]
    assert L.setup(2).die == DEFAULT_DIE


def test_R1_the_die_table_is_an_option_checked_face_by_face():
    die = [[3, "plain"]] * 6 + [[4, "red"], [4, "orange"]] + [[5, "plain"]] * 4
    assert L.setup(2, {"die": die}).die[6] == (4, "red")
    for bad, message in ((die[:11], "a die has 12 faces, not 11"),
                         ([[6, "plain"]] + die[1:], r"face 1 must be \[value, colour\]"),
                         ([[5, "red"]] + die[1:], "face 1: only a 4 is coloured"),
                         ([[4, "plain"] if f == [4, "red"] else f for f in die], "the die needs a red 4"),
                         ([[4, "plain"] if f == [4, "orange"] else f for f in die],
                          "the die needs an orange or a blue 4")):
        with pytest.raises(Rejected, match=re.escape("Die (faces): ") + message):
            L.setup(2, {"die": bad})


def test_R1_the_risk_rungs_success_rates_from_the_face_table_are_exact():
    assert success_rate(DEFAULT_DIE, 1) == Fraction(8, 12)  # more than 3: every 4 and 5
    assert success_rate(DEFAULT_DIE, 2) == Fraction(4, 12)  # more than 4: the 5s
    assert success_rate(DEFAULT_DIE, 3) == Fraction(2, 12)  # the orange and the blue 4
    assert success_rate(DEFAULT_DIE, 7) == Fraction(2, 12)


def _chi_square_p(statistic, dof):
    """P(X >= statistic) for a chi-square of `dof` degrees: the regularized upper incomplete gamma."""
    a, x = dof / 2, statistic / 2
    term = total = 1 / a
    n = 1
    while term > total * 1e-15:
        term *= x / (a + n)
        total += term
        n += 1
    return 1 - math.exp(-x + a * math.log(x) - math.lgamma(a)) * total


def test_R1_live_rolls_follow_the_face_table():
    record = race()
    to_chase(record)
    while record.state.phase == L.CHASE:
        act(record, record.state.queue[0], chase=False)
    act(record, record.state.order[0], roll="pianura")
    state = record.state
    assert L.current_actors(state) == CHANCE
    rng = secrets.SystemRandom()
    counts = [0] * 12
    for _ in range(120_000):
        counts[draw(L, state, rng)["outcome"]] += 1
    expected = 120_000 / 12
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    p = _chi_square_p(statistic, 11)
    print(f"chi-square {statistic:.2f} on 11 degrees of freedom, p = {p:.4f}")
    assert p > 1e-6


# -- free spaces and costs, with the seed's figures -----------------------------------------------------------
def test_R2_free_spaces_by_terrain_and_rider():
    assert [free_spaces("pianura", t) for t in ("passista", "leader", "scalatore")] == [3, 2, 1]
    assert [free_spaces("collina", t) for t in ("passista", "leader", "scalatore")] == [2, 2, 2]
    assert [free_spaces("montagna", t) for t in ("passista", "leader", "scalatore")] == [1, 2, 3]
    assert [free_spaces("discesa", t) for t in ("passista", "leader", "scalatore")] == [4, 4, 4]
    assert [move_cost(n, 0)[1] for n in range(7)] == [0, 1, 3, 5, 8, 11, 15]
    with pytest.raises(Rejected, match="a move pays for at most 6 spaces, not 7"):
        move_cost(8, 1)


def test_fig13_five_spaces_on_the_flat_cost_3_5_and_8():
    record = race()
    breakaway(record, 1, "passista", 5)  # team 2 attacks first (its token is second)
    assert rider(record, 1, "passista")["energy"] == 60 - 3
    act(record, 1, ride=None)
    breakaway(record, 0, "leader", 5)
    breakaway(record, 0, "scalatore", 5)
    assert rider(record, 0, "leader")["energy"] == 60 - 5 and rider(record, 0, "scalatore")["energy"] == 60 - 8
    assert rider(record, 0, "leader")["place"] == L.FUGA


def test_fig15_a_blocked_road_costs_one_per_occupied_space_even_in_the_free_part():
    record = race()
    sums = form(record, 1, "passista", "discesa", 4, blocked=2)
    assert (sums["free"], sums["paid"], sums["cost"]) == (4, 0, 2)


def test_fig21_fatigue_counts_paid_spaces_on_the_climb_against_its_category():
    record = race()
    sums = form(record, 1, "scalatore", "collina", 7, climb=2, climb_spaces=2)
    assert (sums["free"], sums["paid"], sums["cost"], sums["risks"]) == (2, 5, 11, [])
    act(record, 1, back=True)
    sums = form(record, 1, "leader", "montagna", 4, climb=2)
    assert (sums["free"], sums["paid"], sums["cost"], sums["risks"]) == (2, 2, 3, [])
    act(record, 1, back=True)
    sums = form(record, 1, "passista", "montagna", 4, climb=2)
    assert (sums["free"], sums["paid"], sums["cost"], sums["risks"], sums["need"]) == (1, 3, 5, ["fatigue"], 10)


def test_fatigue_example_cost_5_and_10_on_failure():
    record = race()
    breakaway(record, 1, "passista", 4, start="montagna", climb=2)
    roll(record, THREE)  # 1st risk fails on 3
    assert rider(record, 1, "passista")["energy"] == 50 and rider(record, 1, "passista")["risks"] == 1
    record = race()
    breakaway(record, 1, "passista", 4, start="montagna", climb=2)
    roll(record, FOUR)
    assert rider(record, 1, "passista")["energy"] == 55 and rider(record, 1, "passista")["risks"] == 1


def test_a_fatigue_risk_without_the_energy_to_pay_double_is_refused_with_the_cost():
    record = race(energy=9)
    while record.state.queue[0] != 1:
        act(record, record.state.queue[0], ride=None)
    form(record, 1, "passista", "montagna", 4, climb=2)
    assert {"go": True} not in [a["choose"] for a in L.legal_actions(record.state, 1)]
    with pytest.raises(Rejected, match="this move costs 5, and 10 if the fatigue risk fails: the passista has 9 "
                                       "energy"):
        act(record, 1, go=True)
    act(record, 1, climb=0)  # avoiding the risk: the same move off the climb's count
    act(record, 1, go=True)
    assert rider(record, 1, "passista")["energy"] == 4


def test_a_move_the_rider_cannot_pay_is_refused_with_the_cost_and_the_energy_left():
    record = race(energy=7)
    form(record, 1, "scalatore", "pianura", 5)
    with pytest.raises(Rejected, match="this move costs 8: the scalatore has 7 energy"):
        act(record, 1, go=True)
    assert rider(record, 1, "scalatore")["energy"] == 7


def test_the_climber_breaking_away_on_a_mountain_never_risks_fatigue():
    record = race()
    sums = form(record, 1, "scalatore", "montagna", 9, climb=1)
    assert (sums["free"], sums["paid"], sums["risks"]) == (3, 6, [])


def test_fig22_crash_only_on_damaged_asphalt_in_the_paid_part():
    record = race()
    sums = form(record, 1, "leader", "discesa", 5, road=[5])
    assert (sums["free"], sums["paid"], sums["cost"], sums["risks"]) == (4, 1, 1, ["crash"])
    act(record, 1, back=True)
    sums = form(record, 1, "scalatore", "discesa", 8, road=[2, 3])
    assert (sums["free"], sums["paid"], sums["cost"], sums["risks"]) == (4, 4, 8, [])


def test_a_crash_pays_the_move_and_skips_the_next_turn():
    record = race()
    breakaway(record, 1, "leader", 5, start="discesa", road=[5])
    roll(record, THREE)  # the 1st risk fails
    assert rider(record, 1, "leader")["energy"] == 59 and rider(record, 1, "leader")["crashed"]
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, FOUR)
    act(record, record.state.order[0], catch=None)
    # turn 2: the crashed rider sits out, so nobody moves ahead of the peloton
    assert record.state.turn == 2
    assert L.current_actors(record.state) == (record.state.order[1],)
    assert record.state.phase == L.ATTACKS


@pytest.mark.parametrize("passed_in_turn", [1, 2])  # the turn of the crash, the turn it sits out
def test_the_peloton_passes_a_crashed_rider_and_never_takes_it_back(passed_in_turn):
    """Rulebook: a crashed rider is "collocato fuori della strada" and "riparte dalla casella dove è terminato lo
    spostamento che ha provocato la caduta" (rulings.md, R-4). Defect: the peloton passing it took it back into its
    head or belly (21 of 1,742 random races)."""
    record = race()
    breakaway(record, 1, "leader", 5, start="discesa", road=[5])
    roll(record, THREE)  # the crash
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    if passed_in_turn == 2:
        peloton(record, THREE)
        act(record, record.state.order[0], catch=None)  # not reached yet
        assert record.state.turn == 2
    peloton(record, FIVE)
    lead = record.state.order[0]
    offered = [a["choose"]["catch"] for a in L.legal_actions(record.state, lead)
               if isinstance(a["choose"].get("catch"), list)]
    assert offered == [[1, "leader", L.STACCATO]]  # passed: never caught
    for place in L.PELOTON:
        with pytest.raises(Rejected, match="team 2's leader crashed and is off the road: the peloton passes it"):
            act(record, lead, catch=[1, "leader", place])
    act(record, lead, catch=[1, "leader", L.STACCATO])
    assert rider(record, 1, "leader")["place"] == L.STACCATO and rider(record, 1, "leader")["crashed"]
    assert record.state.events[-1]["event"] == "passed"
    act(record, lead, catch=None)
    if passed_in_turn == 1:  # turn 2: it sits out, behind the peloton
        assert record.state.turn == 2
        peloton(record, THREE)
        act(record, record.state.order[0], catch=None)
    # turn 3: it starts again from where it crashed, behind the peloton: it moves after it, as a dropped rider
    assert (record.state.turn, record.state.phase) == (3, L.ATTACKS)  # nobody moves ahead of the peloton
    peloton(record, THREE)
    act(record, record.state.order[0], catch=None)
    assert record.state.phase == L.DROPPED and L.current_actors(record.state) == (1,)
    move(record, 1, "leader", "pianura", 2)
    assert not rider(record, 1, "leader")["crashed"]


def test_in_random_races_no_catch_offered_takes_a_crashed_rider_back():
    import random
    for seed in range(30):
        rng = random.Random(seed)
        record = GameRecord(header("leader1", 2 + seed % 3))
        while not record.is_over:
            actors = L.current_actors(record.state)
            seat = CHANCE if actors == CHANCE else rng.choice(list(actors))
            lines = L.legal_actions(record.state, seat)
            for line in lines:
                caught = line.get("choose", {}).get("catch")
                if isinstance(caught, list) and caught[2] in L.PELOTON:
                    assert not rider(record, *caught[:2])["crashed"], (seed, record.state.turn, caught)
            record.apply(rng.choice(lines))


def test_a_crashed_riders_refused_move_says_it_crashed_and_when_it_starts_again():
    """Defect: a crashed rider's refused attack was explained as "only a rider at the head of the peloton may
    break away"; the reason is the turn it sits out."""
    record = race()
    breakaway(record, 1, "leader", 5, start="discesa", road=[5])
    roll(record, THREE)  # the crash, in turn 1: it sits out turn 2
    with pytest.raises(Rejected, match=r"^the leader crashed: it is off the road and starts again in turn 3$"):
        act(record, 1, ride="leader")
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, THREE)
    act(record, record.state.order[0], catch=None)
    while record.state.queue[0] != 1:  # turn 2: team 2 may send its head riders away, not its crashed leader
        act(record, record.state.queue[0], ride=None)
    assert record.state.phase == L.ATTACKS and L.current_actors(record.state) == (1,)
    with pytest.raises(Rejected, match=r"^the leader crashed: it is off the road and starts again in turn 3$"):
        act(record, 1, ride="leader")
    try:
        act(record, 1, ride="leader")
    except Rejected as refused:
        from engine.words import render
        assert render("it", refused.message) == "il corridore leader è caduto: è fuori strada e riparte al turno 3"


def test_the_attaccante_risks_a_crash_only_from_its_second_damaged_space():
    record = race(qualities=[(1, "leader", "attaccante")])
    assert form(record, 1, "leader", "pianura", 5, road=[4])["risks"] == []
    act(record, 1, road=5)
    assert L.view(record.state, PUBLIC)["forms"][1]["sums"]["risks"] == ["crash"]


def test_rain_makes_damaged_asphalt_a_risk_in_the_free_part_too():
    record = race()
    assert form(record, 1, "leader", "pianura", 4, road=[1])["risks"] == []
    act(record, 1, weather="pioggia")
    assert L.view(record.state, PUBLIC)["forms"][1]["sums"]["risks"] == ["crash"]


def test_draft_qualities_wind_and_recovery():
    record = race(qualities=[(1, "passista", "discesista"), (1, "leader", "velocista")])
    assert form(record, 1, "passista", "discesa", 5)["free"] == 5  # discesista +1 on a descent start
    act(record, 1, back=True)
    assert form(record, 1, "leader", "pianura", 4, sprint=True)["free"] == 3  # velocista in a sprint zone
    act(record, 1, back=True)
    leader = L._index(record.state, 1, "leader")
    assert L.reckon(record.state, L.Form(leader, start="pianura", spaces=1, sprint=True))["recovered"] == 2
    assert form(record, 1, "scalatore", "pianura", 4, weather="contrario_2")["cost"] == 5 + 2
    act(record, 1, weather="favorevole_1")
    assert L.view(record.state, PUBLIC)["forms"][1]["sums"]["cost"] == 4


def test_the_draft_adds_a_free_space_and_head_wind_spares_a_rider_in_the_draft():
    record = race()
    breakaway(record, 1, "leader", 4)
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, FOUR)
    act(record, record.state.order[0], catch=None)
    sums = form(record, 1, "leader", "pianura", 4, draft=True, weather="contrario_1")
    assert (sums["free"], sums["paid"], sums["cost"]) == (3, 1, 1)


def test_leaving_the_peloton_takes_four_spaces_and_no_draft():
    record = race()
    act(record, 1, ride="leader")
    act(record, 1, **{"from": "pianura"})
    with pytest.raises(Rejected, match="leaving the peloton takes a move of at least 4 spaces"):
        act(record, 1, spaces=3)
    act(record, 1, spaces=4)
    with pytest.raises(Rejected, match="this rider may not take the draft now"):
        act(record, 1, draft=True)


def test_only_the_head_of_the_peloton_breaks_away():
    record = race(places={(1, "leader"): L.PANCIA})
    with pytest.raises(Rejected, match="only a rider at the head of the peloton may break away"):
        act(record, 1, ride="leader")


# -- risks ------------------------------------------------------------------------------------------------------
def test_the_risk_ladder_crosses_a_box_whatever_the_roll():
    record = race(energy=200)
    breakaway(record, 1, "leader", 5, start="discesa", road=[5])
    roll(record, FIVE)  # 1st risk: more than 3
    assert rider(record, 1, "leader")["risks"] == 1 and not rider(record, 1, "leader")["crashed"]
    breakaway(record, 1, "passista", 5, start="discesa", road=[5])
    roll(record, FIVE)
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, THREE)
    act(record, record.state.order[0], catch=None)
    # turn 2: the leader's 2nd risk needs more than 4, its 3rd an orange or blue 4
    move(record, 1, "leader", "discesa", 5, road=[5])
    roll(record, FOUR)
    assert rider(record, 1, "leader")["risks"] == 2 and rider(record, 1, "leader")["crashed"]
    move(record, 1, "passista", "discesa", 5, road=[5])
    roll(record, FIVE)  # its own 2nd risk: a 5 passes
    assert rider(record, 1, "passista")["risks"] == 2 and not rider(record, 1, "passista")["crashed"]


def test_third_risk_succeeds_only_on_orange_or_blue():
    from games.leader1.die import risk_succeeds
    assert [risk_succeeds(f, 3) for f in DEFAULT_DIE] == [False] * 6 + [True, True] + [False] * 4


def test_cobbles_roll_per_damaged_space_without_crossing_a_box():
    record = race()
    breakaway(record, 1, "leader", 6, road=[5, 5, 6, 6])  # two damaged cobble spaces in the paid part
    assert record.state.pending["risks"] == ["cobbles", "cobbles"]
    roll(record, FIVE)
    roll(record, RED)
    shown = rider(record, 1, "leader")
    assert shown["risks"] == 0 and shown["punctured"] and not shown["crashed"]
    record = race()
    breakaway(record, 1, "leader", 6, road=[5, 5])
    roll(record, ORANGE)
    assert rider(record, 1, "leader")["crashed"] and rider(record, 1, "leader")["risks"] == 0


# -- the peloton ---------------------------------------------------------------------------------------------------
def test_chases_start_from_the_leading_team_move_its_token_to_the_front_and_add_one():
    record = race(riders=(("leader",),) * 3)
    to_chase(record)
    assert record.state.queue == (0, 1, 2)
    act(record, 0, chase=False)
    act(record, 1, chase=False)
    act(record, 2, chase=True)
    assert record.state.order == (2, 0, 1) and record.state.chases == (6, 6, 5)
    act(record, 2, roll="pianura")
    roll(record, FOUR)
    assert record.state.peloton["move"] == 5  # 4 + 1 for the chase
    assert [rider(record, s, "leader")["energy"] for s in range(3)] == [58, 58, 58]  # 5+: head pays 2


def test_a_team_never_chases_three_turns_in_a_row_nor_without_chases_left():
    record = race(riders=(("leader",),) * 2, chases=2)
    for turn in range(2):
        peloton(record, THREE, chases=(0,))
        act(record, record.state.order[0], catch=None)
    to_chase(record)
    assert record.state.queue == (1,)  # team 1 chased twice in a row
    record = race(riders=(("leader",),) * 2, chases=0)
    to_chase(record)
    assert record.state.phase == L.ROLL


def test_peloton_payments_by_place_and_the_passista_on_a_mountain():
    record = race(places={(0, "leader"): L.PANCIA, (1, "leader"): L.PANCIA})
    peloton(record, THREE, start="montagna")  # move 3: belly 0, head 1; passista +1 from a mountain
    assert [rider(record, 0, k)["energy"] for k in ("passista", "leader", "scalatore")] == [58, 60, 59]
    act(record, record.state.order[0], catch=None)
    peloton(record, FIVE)  # move 5: belly 1, head 2
    assert [rider(record, 0, k)["energy"] for k in ("passista", "leader", "scalatore")] == [56, 59, 57]


def test_a_rider_that_cannot_pay_the_peloton_is_dropped_and_moves_from_the_next_turn():
    record = race(riders=(("leader", "scalatore"),) * 2, energy=1, places={(0, "scalatore"): L.PANCIA,
                  (1, "leader"): L.PANCIA, (1, "scalatore"): L.PANCIA})
    peloton(record, FIVE)
    assert rider(record, 0, "leader")["place"] == L.STACCATO and rider(record, 0, "leader")["energy"] == 1
    assert rider(record, 0, "scalatore")["place"] == L.PANCIA and rider(record, 0, "scalatore")["energy"] == 0
    act(record, record.state.order[0], catch=None)
    assert record.state.turn == 2  # it did not move in turn 1
    peloton(record, THREE)
    act(record, record.state.order[0], catch=None)
    assert record.state.phase == L.DROPPED and 0 in L.current_actors(record.state)


def test_the_peloton_moves_one_more_with_nobody_in_it():
    record = race(riders=(("leader",),) * 2)
    breakaway(record, 1, "leader", 4)
    act(record, 1, ride=None)
    breakaway(record, 0, "leader", 4)
    act(record, 0, ride=None)
    peloton(record, THREE)
    assert record.state.peloton["move"] == 4


def test_the_peloton_catches_riders_and_crosses_the_line():
    record = race(riders=(("leader", "scalatore"),) * 2)
    breakaway(record, 1, "leader", 4)
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, FIVE)
    act(record, 0, catch=[1, "leader", L.PANCIA])
    assert rider(record, 1, "leader")["place"] == L.PANCIA
    act(record, 0, catch=L.ARRIVATO)
    shown = L.view(record.state, PUBLIC)
    assert shown["over"] and shown["finish_order"][0] == [0, "leader"]
    assert shown["result"] == {"winners": [0], "losers": [], "draw": False, "standings": [  # the order of arrival
        {"seat": 0, "what": "leader", "place": 1, "behind": 0}, {"seat": 0, "what": "scalatore", "place": 2,
                                                                  "behind": 0},
        {"seat": 1, "what": "scalatore", "place": 3, "behind": 0}, {"seat": 1, "what": "leader", "place": 4,
                                                                    "behind": 0}]}


@pytest.mark.parametrize("stages", [1, 3])
def test_a_race_ends_with_every_riders_place_and_how_far_behind_it_is(stages):
    """Defect: at the end the phones showed only the winner; the order of arrival was nowhere."""
    import random
    from engine.table import Table
    table = Table(random=random.Random(stages))
    table.new_game("leader1", 3, {"stages": stages, "race": "tappe" if stages > 1 else "classica"})
    rng = random.Random(stages)
    while not table.view()["over"]:
        seat = rng.choice(list(table.actors()))
        table.act(rng.choice(table.legal_actions(seat)))
    shown = table.view()
    standings = shown["result"]["standings"]
    assert sorted((s["seat"], s["what"]) for s in standings) == sorted((r["seat"], r["type"]) for r in shown["riders"])
    ranked = [s for s in standings if s["place"] is not None]
    assert [s["place"] for s in ranked] == list(range(1, len(ranked) + 1)) and ranked[0]["behind"] == 0
    assert [s["behind"] for s in ranked] == sorted(s["behind"] for s in ranked)
    assert shown["result"]["winners"] == [ranked[0]["seat"]]


# -- punctures -----------------------------------------------------------------------------------------------------
def test_the_red_4_opens_the_puncture_round_in_race_order_after_the_dropped_riders():
    record = race(riders=(("leader", "scalatore"),) * 2, places={(0, "scalatore"): L.PANCIA})
    breakaway(record, 1, "leader", 4)
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, RED)
    act(record, record.state.order[0], catch=None)
    assert record.state.phase == L.PUNCTURES
    order = [L._ref(record.state.riders[i]) for i in record.state.queue]
    assert order == [[1, "leader"], [0, "leader"], [0, "scalatore"], [1, "scalatore"]]
    act(record, 1, roll="leader")
    roll(record, THREE)
    act(record, 0, roll="leader")
    roll(record, RED)  # a puncture in the peloton: it drops behind
    act(record, 0, roll="scalatore")
    roll(record, FIVE)
    act(record, 1, roll="scalatore")
    roll(record, FIVE)
    shown = rider(record, 0, "leader")
    assert shown["punctured"] and shown["place"] == L.STACCATO
    assert record.state.turn == 2
    # next turn it plays last, after the dropped riders, and without the draft
    move(record, 1, "leader", "pianura", 2)
    peloton(record, THREE)
    act(record, record.state.order[0], catch=None)
    assert record.state.phase == L.LAST and L.current_actors(record.state) == (0,)
    act(record, 0, ride="leader")
    act(record, 0, **{"from": "pianura"})
    act(record, 0, spaces=2)
    with pytest.raises(Rejected, match="this rider may not take the draft now"):
        act(record, 0, draft=True)


def test_the_host_may_have_the_box_roll_every_puncture_at_once():
    record = race(riders=(("leader",),) * 2, punctures="all")
    peloton(record, RED)
    act(record, record.state.order[0], catch=None)
    assert L.current_actors(record.state) == CHANCE
    roll(record, THREE)
    roll(record, THREE)
    assert record.state.turn == 2


# -- supply tiles ---------------------------------------------------------------------------------------------
def test_R3_box_held_tiles_are_drawn_as_chance_and_secret_to_their_team_until_used():
    record = race(riders=(("leader",),) * 2, supply="box", race="tappe")
    breakaway(record, 1, "leader", 4, feed=True)
    assert record.state.due == ("supply", (1,))
    outcomes = {a["outcome"]: p for a, p in L.chance_outcomes(record.state)}
    assert outcomes == {2: 0.25, 3: 0.25, 4: 0.25, 5: 0.25}
    record.apply({"chance": "supply", "outcome": 5})
    assert rider(record, 1, "leader")["tiles"] == 1 and "tile_values" not in rider(record, 1, "leader")
    assert L.view(record.state, 1)["riders"][1]["tile_values"] == [5]
    assert "tile_values" not in L.view(record.state, 0)["riders"][1]
    assert [5] not in [r.get("tile_values") for r in L.view(record.state, "host")["riders"]]
    export = record.export_lines()
    assert {"chance": "supply", "outcome": 5} not in export  # the phone's download keeps the secret
    assert {"seat": 1, "choose": {"supply": ["leader", 4]}} not in L.legal_actions(record.state, 1)
    act(record, 1, supply=["leader", 5])
    assert rider(record, 1, "leader")["energy"] == 60 - 3 + 5 and rider(record, 1, "leader")["tiles"] == 0
    assert {"chance": "supply", "outcome": 5} in record.export_lines()


def test_R3_heat_reveals_a_held_tile():
    record = GameRecord(header("leader1", 2, {"riders": [["leader"]] * 2, "supply": "box"}))
    act(record, 0, quality=None)
    act(record, 1, quality=None)
    assert record.state.due == ("supply", (0, 1))  # a classic: one extra tile each before the start
    record = race(riders=(("leader",),) * 2, supply="box", tiles=(2, 4))
    assert [rider(record, s, "leader")["tiles"] for s in (0, 1)] == [1, 1]
    breakaway(record, 1, "leader", 6, weather="caldo")
    assert rider(record, 1, "leader")["energy"] == 60 - 8 + 4 and rider(record, 1, "leader")["tiles"] == 0


def test_R3_table_tiles_are_entered_when_used():
    record = race(riders=(("leader",),) * 2)
    act(record, 1, supply=["leader", 3])
    assert rider(record, 1, "leader")["energy"] == 63
    with pytest.raises(Rejected, match="a supply tile is worth 2 to 5"):
        act(record, 1, supply=["leader", 6])


# -- qualities, stages ---------------------------------------------------------------------------------------------
def test_no_rider_has_two_qualities_nor_two_riders_of_a_team_the_same():
    record = GameRecord(header("leader1", 2, {}))
    act(record, 0, quality=["leader", "velocista"])
    with pytest.raises(Rejected, match="each rider has at most one quality, and no two riders of a team the same"):
        act(record, 0, quality=["passista", "velocista"])
    with pytest.raises(Rejected, match="each rider has at most one quality"):
        act(record, 0, quality=["leader", "attaccante"])
    with pytest.raises(Rejected, match="it is not team 2's turn: waiting for team 1"):
        act(record, 1, quality=["leader", "attaccante"])


def test_a_stage_race_keeps_the_general_classification_in_turns():
    record = race(riders=(("leader", "scalatore"),) * 2, race="tappe", stages=2, stage_energy=[40], energy=30)
    breakaway(record, 1, "leader", 4, bonus=True, finish=True)  # the stage winner, with a bonus line
    act(record, 1, ride=None)
    act(record, 0, ride=None)
    peloton(record, THREE, chases=(0,))
    act(record, record.state.order[0], catch=L.ARRIVATO)  # the rest in the peloton, 2nd is team 1's leader
    shown = L.view(record.state, PUBLIC)
    assert shown["stage"] == 2 and shown["phase"] == L.LINEUP
    gcs = {(r["seat"], r["type"]): r["gc"] for r in shown["riders"]}
    assert gcs == {(1, "leader"): -3, (0, "leader"): -1, (0, "scalatore"): 0, (1, "scalatore"): 0}
    energy = {(r["seat"], r["type"]): r["energy"] for r in shown["riders"]}
    assert energy[(1, "leader")] == 40 + 15 and energy[(0, "leader")] == 40 + 15  # carried at most 15
    assert shown["chases"] == [6, 6]  # 4 + those left, at most 6
    assert shown["order"][0] == 1  # the leader's team lines up first


def test_more_than_22_turns_behind_is_out_of_a_stage_race():
    state = L.setup(2, {"riders": [["leader"], ["leader"]], "race": "tappe", "stages": 2})
    riders = (state.riders[0]._replace(place=L.ARRIVATO, finished=1),
              state.riders[1]._replace(place=L.ARRIVATO, finished=25))
    state = L._end_stage(state._replace(riders=riders, finish_order=(0, 1)))
    assert [r.place for r in state.riders] == [L.PANCIA, L.FUORI]  # 24 − 1 − (−2) = 25 turns behind


def test_stages_need_a_stage_race():
    with pytest.raises(Rejected, match="Stages: more than one stage makes a stage race"):
        L.setup(2, {"stages": 2})


def test_every_prompt_title_choice_and_group_has_words_in_both_languages():
    import random

    from engine.words import lookup
    seen = set()
    for seed, options in enumerate([{}, {"supply": "box", "race": "tappe", "stages": 2}] * 3):
        rng = random.Random(seed)
        record = GameRecord(header("leader1", 2 + seed % 3, options))
        while not record.is_over:
            actors = L.current_actors(record.state)
            if actors == CHANCE:
                record.apply(rng.choice(L.legal_actions(record.state, CHANCE)))
                continue
            prompt = L.prompt(record.state, actors[0])
            seen |= {prompt.title} | {c.label for c in prompt.choices} | {c.group for c in prompt.choices if c.group}
            record.apply(rng.choice(prompt.choices).action)
    for lang in ("it", "en"):
        assert sorted(key for key in seen if lookup(lang, "leader1", "box", key) is None) == [], lang


def test_a_head_rider_sent_to_the_belly_may_not_be_dropped_in_the_same_peloton_phase():
    """Seed p. 3 §3: the head may stay or drop into the belly; only riders in the belly may be dropped back.
    Going head → belly → dropped in one phase is head → dropped, which the rules refuse."""
    record = race(places={(0, "leader"): L.PANCIA})
    while record.state.phase == L.ATTACKS:
        act(record, record.state.queue[0], ride=None)
    assert record.state.phase == L.REGROUP and record.state.queue[0] == 0
    with pytest.raises(Rejected):
        act(record, 0, place=["passista", L.STACCATO])
    act(record, 0, place=["passista", L.PANCIA])
    assert {"place": ["passista", L.STACCATO]} not in L.legal_actions(record.state, 0)
    with pytest.raises(Rejected):
        act(record, 0, place=["passista", L.STACCATO])
    act(record, 0, place=["leader", L.STACCATO])  # in the belly from the start: it may be dropped
    assert rider(record, 0, "leader")["place"] == L.STACCATO


def test_a_move_field_restated_at_its_current_value_is_accepted_and_changes_nothing():
    record = race()
    enter(record, 1, "leader", "montagna", 4, climb=2)
    before = record.state
    for field in ({"climb_spaces": 4}, {"weather": "sereno"}, {"draft": False}, {"blocked": 0}, {"finish": False},
                  {"ahead": False}):
        assert act(record, 1, **field) == before, field
    with pytest.raises(Rejected):  # a value of the wrong kind is no restatement
        act(record, 1, draft=0)
    act(record, 1, back=True)
    act(record, 1, ride="leader")
    with pytest.raises(Rejected):  # nor a field before the move has its spaces
        act(record, 1, weather="sereno")


def test_a_tile_used_leaves_the_state_so_a_view_looks_only_at_the_tiles_held():
    """The view counts each rider's tiles: its work follows the tiles the box holds, not every tile a long race
    has drawn (a spent tile is gone from the state, not kept marked)."""
    import random
    rng = random.Random(5)
    state = L.setup(4, {"supply": "box", "race": "tappe", "stages": 3})
    spent = 0
    while L.current_actors(state) != L.TERMINAL:
        before, actors = len(state.tiles), L.current_actors(state)
        if actors == CHANCE:
            outcomes = L.chance_outcomes(state)
            line = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            line = rng.choice(L.legal_actions(state, rng.choice(list(actors))))
        state = L.apply(state, line)
        spent += max(0, before - len(state.tiles))
        held = sum(r["tiles"] for r in L.view(state)["riders"])
        assert len(state.tiles) == held
    assert spent > 5 and state.draws == spent + len(state.tiles)


def test_an_action_works_out_a_teams_choices_once_though_the_player_and_the_rules_both_ask(monkeypatch):
    record = race()
    state, seat = record.state, record.state.queue[0] if record.state.queue else L.current_actors(record.state)[0]
    listed = []
    real = L._listed_lines
    monkeypatch.setattr(L, "_listed_lines", lambda s, t: listed.append(t) or real(s, t))
    action = L.legal_actions(state, seat)[0]
    assert L.prompt(state, seat) is not None
    L.apply(state, action)
    assert listed == [seat]


def test_a_supply_tile_used_copies_the_state_once_and_its_choices_are_made_once(monkeypatch):
    """Adding energy from a supply tile is the line a team takes most: its rider's change and its event are
    one copy of the state; every list of choices shares the supply choices of the team's riders."""
    state = race().state
    assert L.current_actors(state) == (1,)  # the attacks: team 2 first
    listed = [line for line in L.legal_actions(state, 1) if "supply" in line["choose"]]
    assert listed == [{"seat": 1, "choose": {"supply": [kind, v]}} for kind in ("passista", "leader", "scalatore")
                      for v in (2, 3, 4, 5)]
    made = state_copies(monkeypatch, L)
    after = L.apply(state, {"seat": 1, "choose": {"supply": ["leader", 3]}})
    assert made == ["Rider", "State"]
    assert rider_of(after, 1, "leader").energy == rider_of(state, 1, "leader").energy + 3
    assert after.events[-1]["event"] == "supply_used" and L.current_actors(after) == (1,)
    again = [line for line in L.legal_actions(after, 1) if "supply" in line["choose"]]
    assert again == listed and all(a is b for a, b in zip(listed, again))


def test_a_moves_fields_are_listed_from_lines_made_once_and_a_tile_added_does_not_work_its_sums_out_again(
        monkeypatch):
    """Entering a move is most of what a team does: each field's lines are made once and shared by every list
    (the weathers listed again after another field changed are the same objects), and a supply tile added, which
    changes the rider's energy and not the move, does not work the move's cost out again."""
    record = race()
    enter(record, 1, "scalatore", "pianura", 5)
    weathers = [line for line in L.legal_actions(record.state, 1) if "weather" in line["choose"]]
    act(record, 1, blocked=2)
    again = [line for line in L.legal_actions(record.state, 1) if "weather" in line["choose"]]
    assert again == weathers and all(a is b for a, b in zip(weathers, again))
    assert len(weathers) == len(L.WEATHER) - 1 and {"weather": "sereno"} not in [w["choose"] for w in weathers]
    costed, real = [], L.move_cost
    monkeypatch.setattr(L, "move_cost", lambda *args, **kw: costed.append(args) or real(*args, **kw))
    act(record, 1, supply=["scalatore", 3])
    assert {"seat": 1, "choose": {"go": True}} in L.legal_actions(record.state, 1)
    assert L.view(record.state, PUBLIC)["forms"][1]["sums"]["cost"] == 10  # 4 paid spaces, 2 blocked
    assert costed == []


def rider_of(state, seat, kind):
    return next(r for r in state.riders if r.seat == seat and r.kind == kind)

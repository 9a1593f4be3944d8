"""Rette sich wer kann: every ruling (R-1 … R-8) and every rejection, on the rules module directly."""
import random
import re

import pytest

from engine.rules import PUBLIC, Rejected
from engine.rules.protocol import evolve
from games.lifeboats import rules as L

O, S = L.OFFICER, L.SAILOR


def play(state, *lines):
    for line in lines:
        state = L.apply(state, line)
    return state


def choose(seat, **what):
    return {"seat": seat, "choose": what}


def votes(state, *picks):
    return play(state, *[{"seat": s, "pick": p} for s, p in enumerate(picks) if p is not None])


def placed(seats=3, plan=None, **options):
    """A game past setup: boats in lanes seat+1 and 7 (black); each seat's pawns placed by `plan` (default:
    its own boat O, O, S, S, S, then two sailors in the black boat)."""
    state = L.setup(seats, options)
    colours = L.view(state)["colours"]
    plan = plan or {s: [(colours[s], O)] * 2 + [(colours[s], S)] * 3 + [("nero", S)] * 2 for s in range(seats)}
    state = play(state, *[choose(s, lane=s + 1) for s in range(seats)], choose(0, lane=7, boat="nero"))
    queues = {s: list(plan[s]) for s in range(seats)}
    while any(queues.values()):
        for s in range(seats):
            boat, kind = queues[s].pop(0)
            state = L.apply(state, choose(s, board=boat, pawn=kind))
    return state


def boat(state, colour):
    return L.view(state)["boats"][colour]


def test_setup_places_boats_then_pawns_one_at_a_time_clockwise_from_the_start_seat():
    state = L.setup(4, {"start": 2})
    order = []
    while L.view(state)["phase"] == "setup":
        decision = L.view(state)["decision"]
        order.append((decision["what"], decision["seat"]))
        state = L.apply(state, L.legal_actions(state, decision["seat"])[0])
    assert order[:5] == [("lane", 2), ("lane", 3), ("lane", 0), ("lane", 1), ("black", 2)]
    assert order[5:9] == [("place", 2), ("place", 3), ("place", 0), ("place", 1)]
    assert len(order) == 5 + 4 * 7  # 2 officers and 5 sailors each, with 4 players
    assert L.view(state)["phase"] == "leak" and L.view(state)["start"] == 2 and L.view(state)["turn"] == 1


def test_pawns_per_player_and_colours_follow_the_box():
    assert L.view(L.setup(4))["reserve"] == [{"officer": 2, "sailor": 5}] * 4
    assert L.view(L.setup(5))["reserve"] == [{"officer": 2, "sailor": 4}] * 5
    with pytest.raises(Rejected, match=re.escape("Colours (per seat): orange has only 4 sailors; a game of 3 needs 5")):
        L.setup(3, {"colours": ["rosso", "arancione", "verde"]})
    with pytest.raises(Rejected, match=re.escape("Colours (per seat): 3 different colours")):
        L.setup(3, {"colours": ["rosso", "rosso", "verde"]})
    assert L.view(L.setup(5, {"colours": ["bianco", "rosso", "verde", "viola", "arancione"]}))["colours"][0] == "bianco"


def test_r1_seats_per_boat_is_a_table_option_defaulting_to_7_and_must_hold_every_pawn():
    assert L.view(L.setup(3))["options"]["boat_seats"] == 7
    state = placed(3, plan={s: [(c, O)] * 2 + [(c, S)] * 4 + [("nero", S)] for s, c in
                            enumerate(["rosso", "giallo", "verde"])}, boat_seats=6)
    assert len(boat(state, "rosso")["pawns"]) == 6
    with pytest.raises(Rejected, match="Seats per boat: 7 boats of 5 seats cannot hold 36 pawns"):
        L.setup(6, {"boat_seats": 5})


def test_r2_lanes_islands_and_moves_are_options_from_the_board():
    state = placed(3, moves_to_island=2, lanes=[1, 0, 0, 0, 0, 0, 0], islands=[[1, 1], [10, 3]])
    state = votes(state, "nero", "nero", "nero")
    state = votes(state, "rosso", "rosso", "rosso")
    assert boat(state, "rosso")["progress"] == 1 and boat(state, "rosso")["status"] == "sea"
    with pytest.raises(Rejected, match=re.escape("The island each lane reaches: lane 1 reaches island 4, but “Each island's points (officer, sailor)” lists 3")):
        L.setup(3, {"lanes": [3, 0, 0, 0, 0, 0, 0]})
    with pytest.raises(Rejected, match=re.escape("Each island's points (officer, sailor): each island's points: officer and sailor")):
        L.setup(3, {"islands": [[1, 2, 3]]})


def test_arriving_scores_officers_and_sailors_at_the_island_values():
    state = placed(3, moves_to_island=1, lanes=[1, 0, 0, 0, 0, 0, 0], islands=[[1, 1], [10, 3]])
    state = votes(state, "nero", "nero", "nero")
    state = votes(state, "rosso", "rosso", "giallo")
    assert L.view(state)["scores"] == [2 * 10 + 3 * 3, 0, 0]
    assert boat(state, "rosso") == {"lane": 1, "progress": 1, "status": "island", "pawns": [], "leaks": 0}


def full_black_boat():
    """The seed's example with 6 players: the black boat holds VERDE 2 sailors, ROSSO 1 officer, BIANCO an
    officer and a sailor, VIOLA 2 officers; the leak vote sends it a leak."""
    plan = {0: [("nero", O), ("rosso", O)] + [("rosso", S)] * 4, 1: [("giallo", O)] * 2 + [("giallo", S)] * 4,
            2: [("nero", S)] * 2 + [("verde", O)] * 2 + [("verde", S)] * 2, 3: [("nero", O)] * 2 + [("viola", S)] * 4,
            4: [("arancione", O)] * 2 + [("arancione", S)] * 4,
            5: [("nero", O), ("nero", S), ("bianco", O)] + [("bianco", S)] * 3}
    return votes(placed(6, plan), *["nero"] * 6)


def test_a_full_boat_calls_the_weighted_special_vote_of_the_seats_aboard():
    state = full_black_boat()
    shown = L.view(state)
    assert shown["phase"] == "special"
    assert shown["vote"] == {"kind": "special", "boat": "nero", "options": ["rosso", "verde", "viola", "bianco"],
                             "voters": [0, 2, 3, 5], "weights": [2, 2, 4, 3]}
    assert L.prompt(state, 1) is None and L.legal_actions(state, 1) == []


@pytest.mark.parametrize("picks, loser, tally", [
    (("viola", None, "viola", "bianco", None, "viola"), "viola", [["viola", 7], ["bianco", 4]]),  # 7-4
    (("bianco", None, "viola", "bianco", None, "viola"), "bianco", [["bianco", 6], ["viola", 5]]),  # 6-5
])
def test_the_seed_special_vote_examples(picks, loser, tally):
    state = votes(full_black_boat(), *picks)
    reveal = next(e for e in L.view(state)["history"] if e["type"] == "vote" and e["kind"] == "special")
    assert reveal["tally"] == tally and reveal["outcome"] == loser


def test_the_seed_4_4_tie_is_broken_by_the_start_seat():
    state = votes(full_black_boat(), "viola", None, "viola", "verde", None, "rosso")
    assert L.view(state)["decision"] == {"what": "tie", "seat": 0, "options": [{"tie": "verde"}, {"tie": "viola"}]}
    with pytest.raises(Rejected, match="choose one of verde, viola, not 'rosso'"):
        L.apply(state, choose(0, tie="rosso"))
    state = L.apply(state, choose(0, tie="verde"))
    assert [2, S] in boat(state, "nero")["pawns"] and boat(state, "nero")["pawns"].count([2, S]) == 1
    assert boat(state, "nero")["leaks"] == 1


def test_r3_the_owner_chooses_which_pawn_leaves_and_the_sailor_is_offered_first():
    state = votes(full_black_boat(), "bianco", None, "viola", "bianco", None, "viola")
    prompt = L.prompt(state, 5)
    assert [c.action["choose"] for c in prompt.choices] == [{"remove": S}, {"remove": O}]
    assert [c.label for c in prompt.choices] == [S, O]
    with pytest.raises(Rejected, match="player 6 has no 'cannon' in the black boat"):
        L.apply(state, choose(5, remove="cannon"))
    kept = L.apply(state, choose(5, remove=O))
    assert [5, O] not in boat(kept, "nero")["pawns"] and [5, S] in boat(kept, "nero")["pawns"]
    assert L.view(kept)["fates"][5] == {"saved": 0, "drowned": 1, "sunk": 0}


def test_r4_once_15_leaks_are_placed_the_leak_phase_is_skipped():
    state = placed(3)
    state = evolve(state, leaks_placed=L.LEAKS, picks=None, vote=None)
    state = L._begin_turn(state)
    shown = L.view(state)
    assert shown["phase"] == "move" and shown["leaks_left"] == 0
    assert shown["history"][-1]["type"] == "no_leaks"


def test_r4_a_sunk_boats_leaks_leave_the_game():
    state = placed(3)
    state = votes(state, "nero", "nero", "nero")  # 6 pawns, 1 leak
    assert L.view(state)["leaks_left"] == 14
    sunk = L._end_phase(L._set_boat(state, 3, leaks=7), L.MOVE)
    assert boat(sunk, "nero")["status"] == "sunk" and boat(sunk, "nero")["leaks"] == 0
    assert L.view(sunk)["leaks_left"] == 14  # placed tokens stay placed


def test_the_captains_hat_sole_hat_decides_and_every_hat_is_spent():
    state = votes(placed(3), "cappello", "nero", "nero")
    assert L.view(state)["hats"] == [2, 3, 3]
    assert L.view(state)["decision"]["what"] == "captain" and L.current_actors(state) == (0,)
    state = L.apply(state, choose(0, captain="giallo"))
    assert boat(state, "giallo")["leaks"] == 1 and boat(state, "nero")["leaks"] == 0


def test_two_or_more_hats_do_not_count_and_all_hats_vote_again():
    state = votes(placed(3), "cappello", "cappello", "verde")
    assert boat(state, "verde")["leaks"] == 1 and L.view(state)["hats"] == [2, 2, 3]
    again = votes(placed(3), "cappello", "cappello", "cappello")
    shown = L.view(again)
    assert shown["phase"] == "leak" and shown["picking"] == [0, 1, 2] and shown["locked"] == []
    assert shown["hats"] == [2, 2, 2] and shown["history"][-1]["how"] == "again"


def test_r5_a_single_hat_is_captain_even_when_it_is_the_only_voter():
    assert L.count({4: L.HAT}, {4: 3}) == ([4], {}, ("captain", 4))
    assert L.count({1: L.HAT, 2: L.HAT}, {1: 1, 2: 1}) == ([1, 2], {}, ("again", None))


def test_a_hat_with_no_token_left_is_refused():
    state = placed(3)
    state = evolve(state, hats=(0, 3, 3))
    with pytest.raises(Rejected, match="player 1 has no Captain's hat token left"):
        L.apply(state, {"seat": 0, "pick": "cappello"})
    assert "cappello" not in [a["pick"] for a in L.legal_actions(state, 0)]
    assert "cappello" in [c.action["pick"] for c in L.prompt(state, 0).pad]  # the pad's layout never changes


def test_votes_that_name_no_boat_at_sea_or_no_pawn_aboard_are_refused():
    state = placed(3)
    with pytest.raises(Rejected, match="no purple boat in this game"):
        L.apply(state, {"seat": 0, "pick": "viola"})
    with pytest.raises(Rejected, match="unknown vote 'blu': a colour or cappello"):
        L.apply(state, {"seat": 0, "pick": "blu"})
    special = full_black_boat()
    with pytest.raises(Rejected, match="no yellow pawn is in the black boat"):
        L.apply(special, {"seat": 0, "pick": "giallo"})
    with pytest.raises(Rejected, match="player 2 has no pawn in the black boat and may not vote on who leaves it"):
        L.apply(special, {"seat": 1, "pick": "viola"})


def test_r6_black_boat_has_no_owner_count_from_the_first_player_boat():
    state = evolve(L.setup(4), phase=L.OVER, scores=(5, 9, 2, 9), arrivals=(4, 2))  # black first, then verde
    assert L.result(state) == {"winners": [3], "losers": [], "draw": False}  # seat 4 is closer clockwise to 3
    state = evolve(state, arrivals=(4, 0))  # black, then rosso: seat 2 is next clockwise from seat 1
    assert L.result(state)["winners"] == [1]
    state = evolve(state, arrivals=(4,))  # only the black boat arrived: the tied players share the win
    assert L.result(state) == {"winners": [1, 3], "losers": [], "draw": False}
    state = evolve(state, scores=(0, 0, 0, 0), arrivals=())
    assert L.result(state) == {"winners": [0, 1, 2, 3], "losers": [], "draw": True}
    state = evolve(state, scores=(1, 9, 9, 0), arrivals=(1, 2))  # a tied player's boat arrived first
    assert L.result(state)["winners"] == [1]


def test_r7_a_vote_with_one_outcome_is_not_taken_and_shown():
    state = placed(3, moves_to_island=1)
    state = evolve(state, boats=tuple(evolve(b, status=L.SUNK if i != 1 else L.SEA) for i, b in enumerate(state.boats)),
                   picks=None, vote=None)
    state = L._begin_turn(state)
    history = L.view(state)["history"]
    assert [e["type"] for e in history[-5:]] == ["vote", "leak", "vote", "move", "arrive"]
    assert history[-5]["auto"] is True and history[-5]["outcome"] == "giallo" and history[-3]["auto"] is True
    assert L.view(state)["over"] is True


def test_r7_a_swim_with_one_choice_is_made_by_the_box():
    state = placed(3, moves_to_island=1)
    state = votes(state, "nero", "nero", "nero")
    state = votes(state, "rosso", "rosso", "giallo")  # rosso arrives: player 1's only pawns at sea are in nero
    outs = [e for e in L.view(state)["history"] if e["type"] == "swim_out"]
    assert outs == [{"type": "swim_out", "turn": 1, "seat": 0, "kind": S, "boat": "nero", "auto": True}]
    assert L.view(state)["decision"]["seat"] == 1


def test_r8_a_swimmer_may_not_board_the_boat_it_left():
    state = placed(3, moves_to_island=1)
    state = play(votes(votes(state, "nero", "nero", "nero"), "rosso", "rosso", "giallo"),
                 choose(1, swim_from="giallo", pawn=S), choose(2, swim_from="verde", pawn=O))
    with pytest.raises(Rejected, match=r"a swimmer may not board the boat it left \(green\)") as refused:
        L.apply(state, choose(2, swim_to="verde"))
    assert refused.value.rule == "R-8"
    assert {"swim_to": "verde"} not in L.view(state)["decision"]["options"]


def test_swim_out_rules_one_pawn_per_boat_and_seats_without_a_pawn_skip():
    state = placed(3, moves_to_island=1)
    state = votes(votes(state, "nero", "nero", "nero"), "rosso", "rosso", "giallo")
    with pytest.raises(Rejected, match="a pawn has already left the black boat this turn"):
        L.apply(state, choose(1, swim_from="nero", pawn=S))
    with pytest.raises(Rejected, match="player 2 has no officer in the green boat"):
        L.apply(state, choose(1, swim_from="verde", pawn=O))
    with pytest.raises(Rejected, match="it is player 2's turn to choose a pawn to swim out"):
        L.apply(state, choose(2, swim_from="verde", pawn=O))


def test_a_swimmer_with_no_free_seat_drowns():
    state = placed(3, moves_to_island=1)
    state = votes(votes(state, "nero", "nero", "nero"), "rosso", "rosso", "giallo")
    state = play(state, choose(1, swim_from="giallo", pawn=S), choose(2, swim_from="verde", pawn=O))
    # every other boat fills up with leaks before the swimmers board
    state = evolve(state, boats=tuple(evolve(b, leaks=7 - len(b.pawns)) if i in (1, 2, 3) else b
                                      for i, b in enumerate(state.boats)))
    state = L._next_swim_in(state)
    drowned = [e for e in L.view(state)["history"] if e["type"] == "drown"]
    assert [(e["seat"], e["kind"]) for e in drowned] == [(2, O), (1, S), (0, S)]


def test_setup_rejections_name_the_problem():
    state = L.setup(3)
    with pytest.raises(Rejected, match="lane 8: the lanes are 1 to 7"):
        L.apply(state, choose(0, lane=8))
    with pytest.raises(Rejected, match=r'player 1 chooses a lane for its boat now: an object with "lane"'):
        L.apply(state, choose(0, board="rosso", pawn=O))
    state = play(state, choose(0, lane=1), choose(1, lane=2), choose(2, lane=3))
    with pytest.raises(Rejected, match='the black boat is placed now: "boat": "nero"'):
        L.apply(state, choose(0, lane=4, boat="rosso"))
    state = L.apply(state, choose(0, lane=4, boat="nero"))
    with pytest.raises(Rejected, match="unknown pawn 'captain': officer or sailor"):
        L.apply(state, choose(0, board="rosso", pawn="captain"))
    with pytest.raises(Rejected, match="no purple boat in this game"):
        L.apply(state, choose(0, board="viola", pawn=O))
    with pytest.raises(Rejected, match="player 1 has nothing to decide now"):
        L.apply(votes(placed(3)), choose(0, lane=1))
    state = play(state, *[choose(s, board="rosso", pawn=O) for s in (0, 1, 2)] * 2)
    with pytest.raises(Rejected, match="player 1 has no officer left to place"):
        L.apply(state, choose(0, board="giallo", pawn=O))


@pytest.mark.parametrize("seed", range(40))
def test_pawns_are_never_lost_or_duplicated(seed):
    """Every pawn is to place, in a boat, swimming, saved, drowned or sunk — after every line of a random
    game — and the game ends."""
    rng = random.Random(seed)
    seats = rng.randint(3, 6)
    state = L.setup(seats, {"start": rng.randrange(seats)})
    each = L.OFFICERS + L.sailors(seats)
    for _ in range(3000):
        if state.phase == L.OVER:
            break
        seat = rng.choice(list(L.current_actors(state)))
        state = L.apply(state, rng.choice(L.legal_actions(state, seat)))
        shown = L.view(state, PUBLIC)
        count = [sum(r.values()) + sum(f.values()) for r, f in zip(shown["reserve"], shown["fates"])]
        for b in shown["boats"].values():
            for s, _ in b["pawns"]:
                count[s] += 1
            assert len(b["pawns"]) + b["leaks"] <= shown["options"]["boat_seats"]
            assert b["status"] == "sea" or (b["pawns"], b["leaks"]) == ([], 0)
        for s, _, _ in shown["swimmers"]:
            count[s] += 1
        assert count == [each] * seats
    assert state.phase == L.OVER


def test_a_colour_agrees_with_its_noun_in_italian():
    """Defect: "sulla barca nera non c'è nessuna pedina bianco" (a colour is an adjective: "pedina" is feminine)."""
    from engine.rules.protocol import Message
    from engine.words import render
    said = render("it", Message("lifeboats", "colour_not_aboard",
                                {"colour": Message("lifeboats", "bianco", context="phone"),
                                 "boat": Message("lifeboats", "nero", context="phone")}))
    assert said.endswith("nessuna pedina di colore bianco")

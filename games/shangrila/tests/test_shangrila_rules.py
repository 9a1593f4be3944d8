"""I ponti di Shangri-La: every action, every journey case of the quickstart (A and B), both tie-breaks, R-1 …
R-4, the setup for 3 and 4 players, the end and the score's tie-break, on the rules module directly."""
import random

import pytest

from engine.record import GameRecord, header
from engine.rules import PUBLIC, TERMINAL, Rejected
from engine.rules.protocol import evolve
from games.shangrila import rules as G
from tests.conftest import state_copies, virtual

GU, DR, FU, SA, PI, AS, YE = G.KINDS


def board(seats=4, tiles=(), to_act=0, bridges=None, stones=()):
    """A game in play with exactly `tiles`: (seat, kind, village) masters, or (seat, kind, village, student
    seat); every other tile in its owner's supply."""
    state = G.setup(seats)
    spaces = [list(v) for v in state.spaces]
    supply = [[G.TILES] * len(G.KINDS) for _ in range(seats)]
    for seat, kind, village, *student in tiles:
        k = G.KINDS.index(kind)
        spaces[village][k] = (seat, student[0] if student else None)
        supply[seat][k] -= 1
        if student:
            supply[student[0]][k] -= 1
    state_stones = list(state.stones)
    for v in stones:
        state_stones[v] = True
    return evolve(state, phase=G.PLAY, to_act=to_act, spaces=tuple(map(tuple, spaces)),
                  supply=tuple(map(tuple, supply)), stones=tuple(state_stones),
                  bridges=state.bridges if bridges is None else tuple(bridges))


def choose(seat, **what):
    return {"seat": seat, "choose": what}


def go(state, seat, a, b):
    return G.apply(state, choose(seat, journey=[a, b]))


def space(state, village, kind):
    return state.spaces[village][G.KINDS.index(kind)]


def refused(state, action, match):
    with pytest.raises(Rejected, match=match):
        G.apply(state, action)


def conserved(state):
    for seat in range(state.seats):
        on_board = sum((m == seat) + (s == seat) for village in state.spaces for m, s in village)
        assert on_board + sum(state.supply[seat]) == 42


# -- the board -----------------------------------------------------------------------------------------------
def test_the_board_has_13_villages_23_bridges_and_7_spaces_each():
    state = G.setup(4)
    assert len(state.spaces) == 13 and all(len(v) == 7 for v in state.spaces)
    assert len(state.bridges) == 23 and not any(state.stones)
    view = G.view(state)
    assert view["phase"] == "setup" and view["to_act"] == 0 and view["villages_left"] == 13
    assert view["supply"][0] == {kind: 6 for kind in G.KINDS}


def test_three_players_village_2_starts_with_a_stone_and_its_bridges_out():
    state = G.setup(3)
    assert state.stones[2] and sum(state.stones) == 1
    assert len(state.bridges) == 20 and not any(2 in b for b in state.bridges)
    refused(state, choose(0, place=GU, village=2), "village 3 has a Stone of the Sages")


# -- setup -------------------------------------------------------------------------------------------------
def test_setup_rounds_clockwise_from_the_start_seat_one_of_each_kind_then_play_opens_with_the_start_seat():
    record = GameRecord(header("shangrila", 4, {"start": 2}))
    order = []
    rng = random.Random(1)
    while record.state.phase == G.SETUP:
        order.append(record.state.to_act)
        record.apply(rng.choice(G.legal_actions(record.state, record.state.to_act)))
    assert order == [2, 3, 0, 1] * 7
    assert record.state.phase == G.PLAY and record.state.to_act == 2
    assert all(sum(s) == 42 - 7 for s in record.state.supply) and G.view(record.state)["scores"] == [7] * 4


def test_setup_limits_with_4_players_two_of_a_colour_three_in_all():
    state = G.setup(4)
    for seat, kind, village in [(0, GU, 0), (1, DR, 0), (2, FU, 0)]:
        state = G.apply(state, choose(seat, place=kind, village=village))
    refused(state, choose(3, place=SA, village=0), "village 1 already holds 3 tiles, the setup's most with 4 players")
    state = G.setup(4)
    for seat, kind, village in [(0, GU, 0), (1, GU, 1), (2, GU, 2), (3, GU, 3), (0, DR, 0), (1, DR, 1), (2, DR, 2)]:
        state = G.apply(state, choose(seat, place=kind, village=village))
    refused(state, choose(3, place=GU, village=5), "player 4 has already placed its Healer in the setup")
    state = G.apply(state, choose(3, place=DR, village=3))
    refused(state, choose(0, place=FU, village=0), "player 1 already has 2 tiles in village 1, the setup's most")


def test_setup_limits_with_3_players_one_of_a_colour_two_in_all():
    state = G.setup(3)
    state = G.apply(state, choose(0, place=GU, village=0))
    refused(state, choose(1, place=GU, village=0), "the Healer space of village 1 is taken")
    state = G.apply(state, choose(1, place=DR, village=0))
    refused(state, choose(2, place=FU, village=0), "village 1 already holds 2 tiles, the setup's most with 3")
    state = G.apply(state, choose(2, place=FU, village=1))
    state = G.apply(state, choose(0, place=DR, village=3))
    state = G.apply(state, choose(1, place=GU, village=4))
    refused(state, choose(2, place=GU, village=1), "player 3 already has 1 tile in village 2")


def test_setup_is_placing_only():
    state = G.setup(4)
    refused(state, choose(0, recruit=[[GU, 0]]), "during the setup each player places masters")
    refused(state, choose(1, place=GU, village=0), "it is player 1's turn")


# -- action 1: place a master ----------------------------------------------------------------------------
def test_place_a_master_where_you_already_have_one():
    state = board(tiles=[(0, GU, 4)])
    after = G.apply(state, choose(0, place=SA, village=4))
    assert space(after, 4, SA) == (0, None) and after.supply[0][G.KINDS.index(SA)] == 5 and after.to_act == 1
    refused(state, choose(0, place=SA, village=5), "player 1 has no master in village 6")
    refused(state, choose(0, place=GU, village=4), "the Healer space of village 5 is taken")
    refused(state, choose(0, place="ninja", village=4), "unknown kind 'ninja'")
    refused(state, choose(0, place=SA, village=13), "no village 13: villages are 0 to 12")
    empty = evolve(state, supply=((6, 6, 6, 0, 6, 6, 6),) + state.supply[1:])
    refused(empty, choose(0, place=SA, village=4), "player 1 has no Priest left in its supply")


def test_a_kind_run_out_is_neither_placed_nor_recruited_in_the_listed_actions():
    state = board(tiles=[(0, GU, 4), (0, SA, 7)])

    def listed(state):
        return [a["choose"] for a in G.legal_actions(state, 0)]
    assert {"place": SA, "village": 4} in listed(state) and {"recruit": [[SA, 7]]} in listed(state)
    short = listed(evolve(state, supply=((6, 6, 6, 0, 6, 6, 6),) + state.supply[1:]))
    assert {"place": SA, "village": 4} not in short and not [c for c in short if [SA, 7] in c.get("recruit", [])]
    assert {"place": DR, "village": 4} in short and {"recruit": [[GU, 4]]} in short


# -- action 2: recruit students ------------------------------------------------------------------------------
def test_recruit_one_or_two_students_on_your_own_masters_without_one():
    state = board(tiles=[(0, GU, 4), (0, SA, 7), (1, DR, 4), (0, FU, 4, 0)])
    after = G.apply(state, choose(0, recruit=[[GU, 4], [SA, 7]]))
    assert space(after, 4, GU) == (0, 0) and space(after, 7, SA) == (0, 0)
    conserved(after)
    assert space(G.apply(state, choose(0, recruit=[[GU, 4]])), 4, GU) == (0, 0)
    refused(state, choose(0, recruit=[[DR, 4]]), "player 1 has no Dragonbreeder master in village 5")
    refused(state, choose(0, recruit=[[FU, 4]]), "already has a student")
    refused(state, choose(0, recruit=[[GU, 4], [GU, 4]]), "a master takes one student at most")
    refused(state, choose(0, recruit=[]), "recruit one or two students")
    refused(state, choose(0, recruit=[[GU, 4], [SA, 7], [GU, 4]]), "recruit one or two students")


def test_recruit_two_of_one_kind_needs_two_in_the_supply():
    state = board(tiles=[(0, GU, 4), (0, GU, 7)])
    state = evolve(state, supply=((1, 6, 6, 6, 6, 6, 6),) + state.supply[1:])
    refused(state, choose(0, recruit=[[GU, 4], [GU, 7]]), "player 1 has not enough Healer left in its supply")
    assert [[GU, 4]] in [a["choose"].get("recruit") for a in G.legal_actions(state, 0)]
    assert [[GU, 4], [GU, 7]] not in [a["choose"].get("recruit") for a in G.legal_actions(state, 0)]


# -- action 3: the journey -----------------------------------------------------------------------------------
def test_quickstart_a_start_stronger_empty_space_own_master_and_another_colour():
    # village 4 (3 masters + 3 students = 6) to village 5 (2 masters + 1 student = 3): the start is stronger
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 4, 1), (2, FU, 4, 2), (1, SA, 5), (2, DR, 5, 2)])
    after = go(state, 0, 4, 5)
    fates = {t["kind"]: t for t in after.history[-1]["travellers"]}
    assert after.history[-1]["stronger"] == "from" and after.history[-1]["strength"] == [6, 3]
    assert space(after, 5, GU) == (0, None) and fates[GU]["fate"] == "master"  # empty: a master
    assert space(after, 5, FU) == (2, None) and fates[FU]["fate"] == "master"
    assert space(after, 5, DR) == (1, None)  # another colour's master and student go home: a master
    assert fates[DR] == {"seat": 1, "kind": DR, "fate": "master", "sent_home": [2, 2]}
    assert after.supply[2][G.KINDS.index(DR)] == 6  # both of player 3's dragonbreeders are back in its supply
    assert all(student is None for _, student in after.spaces[4])  # every student left, masters stay
    assert (4, 5) not in after.bridges
    conserved(after)


def test_quickstart_a_own_master_without_a_student_keeps_the_traveller_as_a_student():
    state = board(tiles=[(0, GU, 4, 0), (0, DR, 4), (0, GU, 5)])
    after = go(state, 0, 4, 5)
    assert space(after, 5, GU) == (0, 0) and after.history[-1]["travellers"][0]["fate"] == "student"


def test_r1_own_master_with_a_student_sends_the_traveller_back_to_the_supply():
    state = board(tiles=[(0, GU, 4, 0), (0, DR, 4), (0, FU, 4), (0, GU, 5, 0)])
    after = go(state, 0, 4, 5)
    assert space(after, 5, GU) == (0, 0) and after.history[-1]["travellers"][0]["fate"] == "home"
    assert after.supply[0][0] == 6 - 4 + 1  # four guaritori on the board, one back
    conserved(after)


def test_quickstart_b_start_weaker_empty_space_still_becomes_a_master_occupied_sends_it_home():
    state = board(tiles=[(0, GU, 4, 0), (0, SA, 4, 0), (1, SA, 5), (1, DR, 5), (1, FU, 5), (0, PI, 5)])
    after = go(state, 0, 4, 5)  # 4 tiles against 4; masters 2 against 4: the destination is stronger
    fates = {t["kind"]: t["fate"] for t in after.history[-1]["travellers"]}
    assert after.history[-1]["stronger"] == "to"
    assert fates == {GU: "master", SA: "home"} and space(after, 5, GU) == (0, None)
    assert space(after, 5, SA) == (1, None)
    own = board(tiles=[(0, GU, 4, 0), (0, GU, 5), (1, DR, 5), (1, FU, 5)])
    assert go(own, 0, 4, 5).history[-1]["travellers"][0]["fate"] == "home"  # weaker: even onto its own master


def test_a_tie_in_tiles_goes_to_more_masters():
    # 4 tiles each; the start has 3 masters, the destination 2: the start is stronger
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 4), (1, FU, 4), (1, GU, 5, 1), (2, SA, 5, 2)])
    after = go(state, 0, 4, 5)
    event = after.history[-1]
    assert event["strength"] == [4, 4] and event["masters"] == [3, 2] and event["stronger"] == "from"
    assert space(after, 5, GU) == (0, None)  # another colour's master goes home


def test_a_full_tie_goes_to_the_destination():
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 4), (1, GU, 5), (2, SA, 5), (2, YE, 5)])
    event = go(state, 0, 4, 5).history[-1]
    assert event["strength"] == [3, 3] and event["masters"] == [2, 3] and event["stronger"] == "to"
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 4), (1, GU, 5, 1), (2, SA, 5)])
    after = go(state, 0, 4, 5)
    event = after.history[-1]
    assert event["strength"] == [3, 3] and event["masters"] == [2, 2] and event["stronger"] == "to"
    assert event["travellers"][0]["fate"] == "home" and space(after, 5, GU) == (1, 1)


def test_r2_travellers_resolve_in_the_kinds_order_with_the_strength_counted_once():
    state = board(tiles=[(0, YE, 4, 0), (1, GU, 4, 1), (2, SA, 4, 2), (3, DR, 5)])
    event = go(state, 0, 4, 5).history[-1]
    assert [t["kind"] for t in event["travellers"]] == [GU, SA, YE]  # the order of KINDS, not of seats
    assert event["strength"] == [6, 1]  # counted before the first traveller moved


def test_every_colour_travels_but_the_journey_needs_one_of_yours():
    state = board(tiles=[(0, GU, 4), (1, DR, 4, 1), (2, FU, 4, 2)])
    refused(state, choose(0, journey=[4, 5]), "player 1 has no student in village 5")
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 4, 1), (2, FU, 4, 2)])
    after = go(state, 0, 4, 5)
    assert {t["seat"] for t in after.history[-1]["travellers"]} == {0, 1, 2}


def test_journey_refusals():
    state = board(tiles=[(0, GU, 4, 0)])
    refused(state, choose(0, journey=[4, 12]), "the bridge from village 5 to village 13 does not exist")
    gone = evolve(state, bridges=tuple(b for b in state.bridges if b != (4, 5)))
    refused(gone, choose(0, journey=[4, 5]), "the bridge from village 5 to village 6 is gone")
    refused(state, choose(0, journey=[4]), "a journey is \\[FROM, TO\\]")


def test_a_village_left_without_bridges_gets_a_stone_and_one_journey_can_isolate_two():
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 8)], bridges=[(0, 1), (1, 2), (4, 5), (5, 8), (7, 8), (8, 9)])
    after = go(state, 0, 4, 5)
    assert after.stones[4] and not after.stones[5] and after.history[-1]["stones"] == [4]
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 8)], bridges=[(0, 1), (1, 2), (4, 5), (7, 8), (8, 9), (9, 12)])
    after = go(state, 0, 4, 5)
    assert after.stones[4] and after.stones[5] and after.history[-1]["stones"] == [4, 5]
    refused(after, choose(1, place=GU, village=4), "village 5 has a Stone of the Sages")


# -- the end ------------------------------------------------------------------------------------------------
def test_r3_the_game_ends_when_only_two_villages_are_left_without_a_stone():
    stones = [v for v in G.VILLAGES if v not in (4, 5, 8)]
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 8), (1, SA, 8), (1, FU, 8)], bridges=[(4, 5), (5, 8)], stones=stones)
    after = go(state, 0, 4, 5)
    assert after.phase == G.OVER and after.end_rule == "R-3" and G.view(after)["villages_left"] == 2
    assert G.result(after) == {"winners": [1], "losers": [], "draw": False}


def test_r4_a_player_without_an_action_passes_and_nobody_with_one_ends_the_game():
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 7)], bridges=[(4, 5), (7, 10)])
    state = evolve(state, supply=((6,) * 7, (0,) * 7, (6,) * 7, (6,) * 7))
    state = evolve(state, to_act=1)
    assert G.legal_actions(state, 1) == [choose(1, **{"pass": True})]
    after = G.apply(state, choose(1, **{"pass": True}))
    assert after.to_act == 2 and after.history[-1] == {"type": "pass", "seat": 1, "setup": False}
    refused(board(tiles=[(0, GU, 4)]), choose(0, **{"pass": True}), "player 1 has an action to take and may not pass")
    # the last student leaves, nobody else holds a tile: no action for anyone, the game ends by R-4
    lonely = board(tiles=[(0, GU, 4, 0)], bridges=[(4, 5), (0, 1), (1, 2)])
    lonely = evolve(lonely, supply=((0,) * 7,) * 4)
    over = go(lonely, 0, 4, 5)
    assert over.phase == G.OVER and over.end_rule == "R-4"


def test_score_ties_go_to_presence_in_more_villages_then_shared():
    state = board(tiles=[(0, GU, 1), (0, DR, 2), (1, GU, 3), (1, DR, 3)])
    over = evolve(state, phase=G.OVER)
    assert G.view(over)["scores"][:2] == [2, 2] and G.view(over)["present"][:2] == [2, 1]
    assert G.result(over)["winners"] == [0]
    shared = evolve(board(tiles=[(0, GU, 1), (1, GU, 3)]), phase=G.OVER)
    assert G.result(shared) == {"winners": [0, 1], "losers": [], "draw": False}


# -- the view, the prompt, random games -------------------------------------------------------------------
def test_the_view_carries_the_pinned_keys():
    state = board(tiles=[(0, GU, 4, 0), (1, DR, 5)])
    view = G.view(state, PUBLIC)
    assert view["villages"][4] == {"stone": False, "masters": {GU: 0}, "students": {GU: 0}}
    assert view["villages"][5] == {"stone": False, "masters": {DR: 1}, "students": {}}
    assert view["bridges"] == sorted(view["bridges"]) and [4, 5] in view["bridges"]
    assert view["supply"][0][GU] == 4 and view["scores"] == [1, 1, 0, 0] and view["to_act"] == 0
    assert view["phase"] == "play"
    assert [p["to"] for p in view["previews"]] == [0, 3, 5, 7]  # the journeys player 1 may make, previewed
    assert view["previews"][2] == dict(G.journey(state, 4, 5)[1])


def test_the_prompt_groups_every_action_by_village_for_the_pad_s_cursor():
    state = board(tiles=[(0, GU, 4, 0), (0, SA, 4)])
    prompt = G.prompt(state, 0)
    assert [c.action for c in prompt.choices] == G.legal_actions(state, 0)
    assert {c.group for c in prompt.choices} == {"v:4"}
    labels = [c.label for c in prompt.choices]
    assert f"place {DR}" in labels and f"recruit {SA}" in labels and "journey v:5" in labels


def test_every_prompt_word_has_words_in_both_languages():
    from device.texts import text
    rng = random.Random(3)
    record = GameRecord(header("shangrila", 4))
    labels = set()
    while not record.is_over:
        prompt = G.prompt(record.state, record.state.to_act)
        labels |= {prompt.title} | {c.group for c in prompt.choices if c.group} | {c.label for c in prompt.choices}
        record.apply(rng.choice(prompt.choices).action)
    for lang in ("it", "en"):
        for label in labels:
            words = text(lang, label, "shangrila")
            assert "_" not in words and ":" not in words, (lang, label, words)


@pytest.mark.parametrize("seats", [3, 4])
def test_random_games_end_and_keep_42_tiles_per_player(seats):
    for seed in range(15):
        rng = random.Random(seed)
        record = GameRecord(header("shangrila", seats, {"start": seed % seats}))
        while not record.is_over:
            record.apply(rng.choice(G.legal_actions(record.state, record.state.to_act)))
            conserved(record.state)
            assert all(m is not None or s is None for village in record.state.spaces for m, s in village)
        assert record.state.end_rule in ("R-3", "R-4") and G.result(record.state)["winners"]


def test_a_pad_alone_makes_any_action_with_its_cursor_village_then_action(make_box):
    """Every Shangri-La action is a two-step cursor choice on a pad: 2 moves to the next village, 8 enters it,
    2 moves to the action, 8 does it. The OLED shows where the cursor stands, in words."""
    box = make_box()
    box.table.new_game("shangrila", 3)
    virtual(box).press(seat=0, button=2)  # village 2 on the map (log 1)
    assert box.display.screen.lines[0] == "> V2"
    virtual(box).press(seat=0, button=8)
    assert box.display.screen.lines[0] == "> V2 piazza Guaritore"
    virtual(box).press(seat=0, button=2)
    virtual(box).press(seat=0, button=8)
    shown = box.table.view()
    assert shown["villages"][1]["masters"] == {G.KINDS[1]: 0} and shown["to_act"] == 1
    virtual(box).press(seat=1, button=7)  # back out of nothing: still the villages
    virtual(box).press(seat=1, button=8)
    virtual(box).press(seat=1, button=8)
    assert box.table.view()["villages"][0]["masters"] == {G.KINDS[0]: 1}


def test_the_end_check_asks_whether_a_seat_has_an_action_with_the_answer_listing_them_would_give():
    """R-4 asks a yes or no of every seat after every turn: answered without listing every action, and the
    same answer, over whole random games (each ended by R-4: no seat has an action left)."""
    rng = random.Random(3)
    for game in range(6):
        state = G.setup(3 + game % 2, {})
        while G.current_actors(state) != TERMINAL:
            if state.phase == G.PLAY:
                for seat in range(state.seats):
                    assert G._has_action(state, seat) == bool(G._actions(state, seat))
            seat = rng.choice(list(G.current_actors(state)))
            state = G.apply(state, rng.choice(G.legal_actions(state, seat)))
        if state.end_rule == "R-4":
            assert not any(G._actions(state._replace(phase=G.PLAY), seat) for seat in range(state.seats))


def test_after_an_action_a_turn_reads_again_only_the_village_it_changed(monkeypatch):
    """The legal actions and R-4's question read the villages on every turn: a village whose spaces did not
    change is not read again, for the next seat's list nor for the end check."""
    state = board(tiles=[(0, GU, 0, 0), (0, DR, 3), (1, GU, 4), (1, SA, 5), (2, FU, 7), (3, PI, 8)])
    for seat in range(4):
        G.legal_actions(evolve(state, to_act=seat), seat)
    read, real = [], G._roles
    monkeypatch.setattr(G, "_roles", lambda v, spaces: read.append(v) or real(v, spaces))
    after = G.apply(state, choose(0, place=SA, village=3))
    assert G.legal_actions(after, 1) and read == [3]
    after = G.apply(after, choose(1, recruit=[[GU, 4], [SA, 5]]))
    assert G.legal_actions(after, 2) and read == [3, 4, 5]


def test_the_villages_links_are_worked_out_once_per_set_of_bridges():
    walked = []

    class Bridges(tuple):
        """The bridges, counting the walks over them: working out the links is one walk."""
        def __iter__(self):
            walked.append(1)
            return super().__iter__()

    state = board(tiles=[(0, GU, 0, 0), (0, DR, 3), (1, GU, 4)])
    state = evolve(state, bridges=Bridges(state.bridges))
    for seat in range(4):
        G.legal_actions(evolve(state, to_act=seat), seat)
    assert len(walked) == 1
    after, _ = G.journey(state, 0, 1)  # a bridge falls: the links change
    assert G.links(after)[0] == (3, 4, 6)


def test_a_journey_copies_the_state_twice_however_many_travel_and_are_sent_home(monkeypatch):
    """The spaces and supplies a journey changes are changed on lists and made into the next state once (then
    the turn passes): not a copy per space, supply and event."""
    state = board(tiles=[(0, GU, 4, 0), (0, SA, 4, 0), (0, YE, 4, 0), (1, GU, 5, 1), (2, SA, 5, 2), (1, DR, 5)])
    made = state_copies(monkeypatch, G)
    after = go(state, 0, 4, 5)
    fates = after.history[-1]["travellers"]
    assert [t["fate"] for t in fates] == ["master", "master", "master"] and fates[0]["sent_home"] == [1, 1]
    assert made == ["State", "State"]


def test_a_place_or_a_recruit_copies_the_state_once(monkeypatch):
    state = board(tiles=[(0, GU, 4), (0, SA, 4), (1, DR, 5)])
    made = state_copies(monkeypatch, G)
    G.apply(state, choose(0, recruit=[[GU, 4], [SA, 4]]))
    assert made == ["State"]
    G.apply(state, choose(0, place=DR, village=4))
    assert made == ["State", "State"]


def test_turn_after_turn_the_legal_actions_are_the_same_objects_and_equal_to_new_ones():
    """A seat's places, journeys and single recruits are made once and listed again each turn (a turn lists up
    to ~200); a list still equals the actions as lines spell them."""
    state = board(tiles=[(0, GU, 4, 0), (0, SA, 4), (1, DR, 5)])
    first = G.legal_actions(state, 0)
    later = G.apply(state, choose(0, place=YE, village=4))  # seat 0's own actions change
    later = G.apply(later, G.legal_actions(later, 1)[0])
    later = G.apply(later, G.legal_actions(later, 2)[0]) if later.to_act == 2 else later
    later = G.apply(later, G.legal_actions(later, 3)[0]) if later.to_act == 3 else later
    assert later.to_act == 0
    again = G.legal_actions(later, 0)
    kept = [a for a in first if a in again]
    assert choose(0, journey=[4, 5]) in kept and choose(0, recruit=[[SA, 4]]) in kept
    assert all(any(a is b for b in again) for a in kept)
    assert choose(0, place=YE, village=4) in first and choose(0, place=YE, village=4) not in again
    pairs = [a for a in again if len(a["choose"].get("recruit", ())) == 2]
    assert choose(0, recruit=[[SA, 4], [YE, 4]]) in pairs

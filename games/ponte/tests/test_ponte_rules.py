"""Il ponte traballante: every ruling of rules/ponte.md, by its R-number."""
import pytest

from engine.rules import CHANCE, PUBLIC, TERMINAL, Rejected
from games.ponte import rules as ponte
from tests.conftest import event, picks, state_copies

SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI, SPUNTO, ORDINE, PESANTE = ponte.CARDS


def moves(*cards):
    return ponte.resolution_moves(cards)


def test_setup_puts_every_meeple_on_11_with_six_cards():
    state = ponte.setup(4)
    shown = ponte.view(state, PUBLIC)
    assert shown["positions"] == [11] * 4
    assert shown["hand_sizes"] == [6] * 4
    assert shown["events_left"] == 6 and shown["event_discard"] == []
    assert ponte.current_actors(state) == (0, 1, 2, 3)


@pytest.mark.parametrize("seats", [2, 7, "4", True])
def test_setup_refuses_a_seat_count_outside_3_to_6(seats):
    with pytest.raises(Rejected, match="3 to 6 players"):
        ponte.setup(seats)


def test_worked_check_sole_highest_green_and_red():
    # greens 2,2,1,4: Scatto sole highest, West 4; reds 2,2,3,0: Vertigini sole highest, East 3.
    assert moves(PRUDENTE, PRUDENTE, VERTIGINI, SCATTO) == [0, 0, 3, -4]


def test_r5_all_passo_prudente_is_both_highest_green_and_red():
    # tied green: each West 1; tied red: each East 2+2; net East 3.
    assert moves(PRUDENTE, PRUDENTE, PRUDENTE) == [3, 3, 3]


def test_worked_check_ordine_moves_west_2_and_highest_red_east_3():
    assert moves(ORDINE, PAURA, VERTIGINI) == [-2, 3, 0]


def test_ordine_sends_every_tied_highest_red_east_3():
    assert moves(ORDINE, PAURA, PAURA, SCATTO) == [-2, 3, 3, 0]


def test_passo_pesante_sends_highest_green_and_highest_red_east_3():
    assert moves(PESANTE, SCATTO, PAURA, PRUDENTE) == [0, 3, 3, 0]


def test_r4_a_seat_both_highest_green_and_red_under_pesante_moves_3_once():
    assert moves(PESANTE, PRUDENTE, PRUDENTE) == [0, 3, 3]


def test_ordine_and_pesante_cancel_and_resolve_as_rule_1():
    assert moves(ORDINE, PESANTE, SCATTO, VERTIGINI) == [0, 0, -4, 3]


def test_a_seat_with_no_card_this_match_takes_no_resolution_move():
    assert ponte.resolution_moves([None, SALTO, VERTIGINI]) == [0, -3, 3]


def test_r2_a_card_no_longer_held_is_rejected_naming_no_card():
    state = event(picks(ponte.setup(3), SALTO, SCATTO, VERTIGINI), "calma_piatta")
    with pytest.raises(Rejected) as rejected:
        ponte.apply(state, {"seat": 0, "pick": SALTO})
    message = str(rejected.value)
    assert message == "player 1 does not hold that card" and rejected.value.rule == "R-2"
    assert not any(name in message.lower() for name in ponte.CARDS + tuple(ponte.CARD_NAMES.values()))
    assert SALTO not in [a["pick"] for a in ponte.legal_actions(state, 0)]


def test_a_pick_may_change_before_the_reveal():
    state = picks(ponte.setup(3), SALTO, SCATTO)
    state = ponte.apply(state, {"seat": 0, "pick": VERTIGINI})
    state = ponte.apply(state, {"seat": 2, "pick": PAURA})
    assert state.history[-1].reveal == (VERTIGINI, SCATTO, PAURA)
    assert ponte.view(state, 0)["hand"][SALTO] == 1  # the changed-away card is still in hand


def test_r1_table_deal_allows_one_ordine_one_pesante_and_n_minus_2_spunto():
    state = picks(ponte.setup(4), ORDINE, SPUNTO, PRUDENTE, PRUDENTE)
    state = event(ponte.apply(state, {"seat": 1, "pick": SALTO}), "calma_piatta")

    def legal(seat):
        return [a["pick"] for a in ponte.legal_actions(state, seat)]

    assert ORDINE not in legal(1)  # the one Ordine has been revealed
    assert SPUNTO not in legal(0) and PESANTE not in legal(0)  # seat 0 has played its one special
    assert SPUNTO in legal(2) and PESANTE in legal(2)
    state = picks(state, PRUDENTE, PRUDENTE, SPUNTO, PESANTE)  # second Spunto: N−2 = 2 allowed
    state = event(ponte.apply(state, {"seat": 2, "pick": SCATTO}), "calma_piatta")
    with pytest.raises(Rejected, match="^player 2 does not hold that card$"):
        ponte.apply(state, {"seat": 1, "pick": SPUNTO})


def test_r12_a_special_is_not_checked_against_another_seats_unrevealed_pick():
    """Defect: a seat's pick list and the refusal changed when another seat locked in a special."""
    base = ponte.setup(3)
    locked = picks(base, ORDINE)
    assert ponte.apply(locked, {"seat": 1, "pick": ORDINE}).picks.locked == (0, 1)
    for seat in (1, 2):
        assert ponte.legal_actions(locked, seat) == ponte.legal_actions(base, seat)
        assert ponte.prompt(locked, seat) == ponte.prompt(base, seat)


def test_r12_a_reveal_with_too_many_copies_voids_the_clashing_picks_and_they_pick_again():
    state = picks(ponte.setup(4), ORDINE, SALTO, ORDINE, SPUNTO)
    assert state.phase == "pick" and state.picks.seats == (0, 2)  # seats 1 and 3 re-pick
    shown = ponte.view(state, PUBLIC)
    assert shown["history"][-1]["void"] == [[ORDINE, SALTO, ORDINE, SPUNTO]]
    assert shown["standing"] == [None, SALTO, None, SPUNTO] and shown["history"][-1]["reveal"] is None
    assert ponte.prompt(state, 0).title == "pick_again"
    with pytest.raises(Rejected, match="player 2 has no pick to make now"):  # the other cards stand
        ponte.apply(state, {"seat": 1, "pick": SCATTO})
    state = picks(state, ORDINE, None, VERTIGINI)  # one of them really holds it and picks it again
    assert state.history[-1].reveal == (ORDINE, SALTO, VERTIGINI, SPUNTO)
    assert state.phase == "spunto"  # then the match goes on as usual
    assert ponte.view(state, 2)["special"] == "unknown"  # seat 2 has not shown its special yet


def test_r12_the_re_pick_repeats_until_the_reveal_is_possible():
    state = picks(ponte.setup(3), PESANTE, PESANTE, PESANTE)
    assert state.picks.seats == (0, 1, 2)
    state = picks(state, PESANTE, PESANTE, SALTO)
    assert state.picks.seats == (0, 1) and state.standing == (None, None, SALTO)
    assert len(state.history[-1].void) == 2
    state = picks(state, PESANTE, SCATTO)
    assert state.history[-1].reveal == (PESANTE, SCATTO, SALTO) and state.phase == "event"


def test_r12_earlier_reveals_count_and_a_standing_card_counts_as_revealed():
    state = event(picks(ponte.setup(3), ORDINE, SALTO, SCATTO), "calma_piatta")
    assert ORDINE not in [a["pick"] for a in ponte.legal_actions(state, 1)]  # revealed in match 1
    state = picks(ponte.setup(4), PESANTE, SPUNTO, PESANTE, SPUNTO)
    assert state.picks.seats == (0, 2) and SPUNTO in state.standing
    # Spunto: two are standing (N-2 = 2), so a re-picking seat may no longer pick one
    assert SPUNTO not in [a["pick"] for a in ponte.legal_actions(state, 0)]


def test_r1_box_deal_is_a_chance_outcome_and_each_seat_learns_only_its_own_special():
    state = ponte.setup(4, {"deal": "box"})
    assert ponte.current_actors(state) == CHANCE
    outcomes = ponte.chance_outcomes(state)
    assert len(outcomes) == 12  # 4!/2! distinct deals of Ordine, Pesante, Spunto, Spunto
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    deal = [SPUNTO, ORDINE, SPUNTO, PESANTE]
    state = ponte.apply(state, {"chance": "deal", "outcome": deal})
    for seat, special in enumerate(deal):
        assert ponte.view(state, seat)["special"] == special
        assert {"seat": seat, "pick": special} in [c.action for c in ponte.prompt(state, seat).choices]
    assert "special" not in ponte.view(state, PUBLIC)
    with pytest.raises(Rejected, match="^player 1 does not hold that card$"):
        ponte.apply(state, {"seat": 0, "pick": PESANTE})


def test_spunto_alone_is_replaced_openly_then_takes_a_passo_prudente():
    state = picks(ponte.setup(3), SPUNTO, SALTO, VERTIGINI)
    assert state.phase == "spunto" and ponte.current_actors(state) == (0,)
    assert ponte.view(state, PUBLIC)["history"][-1]["reveal"] == [SPUNTO, SALTO, VERTIGINI]
    state = ponte.apply(state, {"seat": 0, "pick": SCATTO})
    assert state.positions == (7, 11, 14)
    assert ponte.view(state, 0)["hand"][PRUDENTE] == 2
    assert state.prudente_supply == 10 - 3 - 1


def test_r3_the_replacement_must_still_be_held_and_is_never_spunto():
    state = event(picks(ponte.setup(3), SALTO, SCATTO, VERTIGINI), "calma_piatta")
    state = picks(state, SPUNTO, SALTO, PAURA)
    for card in (SALTO, SPUNTO, ORDINE):
        with pytest.raises(Rejected, match="^player 1 does not hold that card$"):
            ponte.apply(state, {"seat": 0, "pick": card})
    with pytest.raises(Rejected, match="player 2 has no pick to make now"):
        ponte.apply(state, {"seat": 1, "pick": VERTIGINI})


def _six_matches_to_a_lone_spunto(positions):
    """Seat 0 reaches match 6 holding only Spunto; meeples then set to `positions`."""
    state = ponte.setup(3)
    for cards in [(SALTO, SCATTO, VERTIGINI), (SCATTO, VERTIGINI, SALTO), (VERTIGINI, SALTO, SCATTO),
                  (PAURA, ORDINE, PAURA), (PRUDENTE, PRUDENTE, PESANTE)]:
        state = event(picks(state, *cards), "calma_piatta" if state.deck[0] else "vento_da_est")
    return state._replace(positions=positions)


def test_spunto_with_no_card_left_moves_3_east_and_has_no_card_this_match():
    state = picks(_six_matches_to_a_lone_spunto((11, 11, 11)), SPUNTO, PAURA, PRUDENTE)
    steps = state.history[-1].steps
    assert steps[0] == ("spunto", (3, 0, 0), (3, 0, 0))
    assert steps[1] == ("resolution", (0, 4, -2), (0, 4, -2))
    assert state.positions == (14, 15, 9)
    assert ponte.view(state, 0)["hand"] == {PRUDENTE: 1}


def test_r10_the_end_is_checked_after_the_spunto_penalty():
    state = picks(_six_matches_to_a_lone_spunto((19, 11, 11)), SPUNTO, PAURA, PRUDENTE)
    assert state.positions == (21, 11, 11)
    assert ponte.current_actors(state) == TERMINAL
    assert [step for step, _, _ in state.history[-1].steps] == ["spunto"]  # resolution and event skipped
    assert ponte.result(state) == {"winners": [1, 2], "losers": [0], "draw": False}


def test_r10_the_end_at_resolution_skips_the_event():
    state = ponte.setup(3)._replace(positions=(3, 11, 11))
    state = picks(state, SCATTO, PAURA, VERTIGINI)
    assert state.positions == (1, 15, 11)
    assert ponte.current_actors(state) == TERMINAL and ponte.chance_outcomes(state) == []
    with pytest.raises(Rejected, match="no 'event' chance outcome is due now"):
        event(state, "calma_piatta")


def test_r10_the_end_is_checked_after_the_event():
    state = picks(ponte.setup(3)._replace(positions=(11, 11, 17)), PRUDENTE, PRUDENTE, PRUDENTE)
    assert state.positions == (14, 14, 20)
    state = event(state, "vento_da_ovest")
    assert state.positions == (17, 17, 20) and ponte.current_actors(state) != TERMINAL
    state = picks(state, SALTO, SALTO, PAURA)
    assert state.positions == (16, 16, 21)
    assert ponte.result(state) == {"winners": [0, 1], "losers": [2], "draw": False}


def test_r6_moves_of_one_step_are_applied_together_before_the_end_check():
    state = picks(ponte.setup(3)._replace(positions=(4, 18, 11)), SCATTO, PAURA, PRUDENTE)
    assert state.positions == (1, 21, 11)  # both banks reached in the same step
    assert ponte.result(state) == {"winners": [0], "losers": [1], "draw": False}


def test_r9_a_step_is_the_move_the_bridge_allows_and_says_the_move_the_rules_asked():
    """Seat 2 on 18 is sent 4 East and stops on 21: it moved 3. Defect: the table read only "3 Est" and thought
    the box had erred; it reads "4 Est, fermato a 21" now (and seat 1's "4 Ovest, fermato a 1")."""
    state = picks(ponte.setup(3)._replace(positions=(4, 18, 11)), SCATTO, PAURA, PRUDENTE)
    (step, delta, asked), = state.history[-1].steps
    assert step == "resolution" and list(delta) == [-3, 3, 0] and list(asked) == [-4, 4, 0]
    shown = ponte.view(state, PUBLIC)
    assert shown["history"][-1]["moves"] == [{"step": "resolution", "delta": [-3, 3, 0], "asked": [-4, 4, 0]}]
    from games.ponte import oled as ponte_screens
    pages = dict(ponte_screens.chapters(shown, "it"))[(1, "moves")]
    assert pages[0].lines == ("G1 Ovest 4, fermo a 1", "G2 Est 4, fermo a 21")


def test_r7_every_seat_tied_closest_to_the_wind_bank_moves():
    state = picks(ponte.setup(4), SCATTO, PRUDENTE, PRUDENTE, PAURA)  # 7, 11, 11, 15
    assert event(state, "vento_da_est").positions == (7, 11, 11, 12)
    state = picks(ponte.setup(4)._replace(positions=(9, 9, 11, 12)), PRUDENTE, PRUDENTE, PRUDENTE, PRUDENTE)
    assert state.positions == (12, 12, 14, 15)
    assert event(state, "vento_da_ovest").positions == (15, 15, 14, 15)


def test_r8_both_winds_in_the_discard_reshuffle_all_six_at_once():
    state = event(picks(ponte.setup(3), SALTO, SCATTO, VERTIGINI), "vento_da_est")
    assert state.discard == ("vento_da_est",) and sum(state.deck) == 5
    state = event(picks(state, SCATTO, SALTO, PAURA), "calma_piatta")
    state = picks(state, PAURA, PAURA, SALTO)
    assert [a["outcome"] for a in ponte.legal_actions(state, CHANCE)] == ["calma_piatta", "vento_da_ovest"]
    assert dict((a["outcome"], p) for a, p in ponte.chance_outcomes(state)) == {
        "calma_piatta": pytest.approx(3 / 4), "vento_da_ovest": pytest.approx(1 / 4)}
    state = event(state, "vento_da_ovest")
    assert state.discard == () and state.deck == (4, 1, 1)


def test_r9_meeples_stop_at_the_banks():
    state = picks(ponte.setup(3)._replace(positions=(2, 19, 11)), SCATTO, PAURA, PRUDENTE)
    assert state.positions == (1, 21, 11)


def test_the_game_ends_after_the_sixth_match():
    state = _six_matches_to_a_lone_spunto((11, 11, 11))
    state = picks(state, SPUNTO, PAURA, PRUDENTE)
    assert ponte.current_actors(state) == CHANCE  # the sixth match still has its event
    state = event(state, "vento_da_ovest")  # the last card of the deck
    assert state.positions == (14, 15, 12)
    assert ponte.current_actors(state) == TERMINAL
    assert ponte.view(state, PUBLIC)["match"] == 6
    assert ponte.result(state) == {"winners": [2], "losers": [1], "draw": False}


def test_r11_all_on_one_space_is_a_draw_and_ties_share_the_result():
    over = ponte.setup(4)._replace(phase="over")
    assert ponte.result(over._replace(positions=(9, 9, 9, 9))) == {"winners": [], "losers": [], "draw": True}
    assert ponte.result(over._replace(positions=(5, 5, 21, 21))) == {
        "winners": [0, 1], "losers": [2, 3], "draw": False}
    assert ponte.result(ponte.setup(4)) is None


@pytest.mark.parametrize("action, message", [
    ({"seat": 0, "pick": "jolly"}, "unknown card 'jolly'"),
    ({"seat": 9, "pick": SALTO}, "no player 10 at this table"),
    ({"seat": True, "pick": SALTO}, "no player True at this table"),
    ({"seat": 0, "pick": SALTO, "x": 1}, "unknown key 'x'"),
    ({"chance": "event", "outcome": "calma_piatta"}, "no 'event' chance outcome is due now"),
    ({"host": "undo"}, "not a Ponte action"),
    ("salto_atletico", "an action must be an object"),
])
def test_malformed_actions_are_rejected_by_name(action, message):
    with pytest.raises(Rejected, match=message):
        ponte.apply(ponte.setup(3), action)


def test_the_pad_layout_is_the_card_order_of_the_replay_format_whatever_a_seat_holds():
    state = event(picks(ponte.setup(3), SALTO, SCATTO, VERTIGINI), "calma_piatta")
    for seat in range(3):
        prompt = ponte.prompt(state, seat)
        assert prompt.secret and prompt.kind == "pick"
        assert [c.action for c in prompt.pad] == [{"seat": seat, "pick": card} for card in ponte.CARDS]
    assert [c.label for c in ponte.prompt(state, 0).choices][0] == "Scatto repentino"  # Salto is gone


def test_a_reveal_and_its_resolution_copy_the_state_once(monkeypatch):
    """The last pick of a match: the reveal, the cards leaving the hands and the resolution step are recorded
    with one copy of the state (and one of the match's record), not one per step."""
    state = picks(ponte.setup(3), VERTIGINI, SCATTO)
    made = state_copies(monkeypatch, ponte)
    state = picks(state, None, None, PAURA)
    assert state.phase == "event" and state.history[-1].reveal == (VERTIGINI, SCATTO, PAURA)
    assert sorted(made) == ["Match", "State"]


def test_a_seat_s_pick_actions_are_the_same_objects_from_one_state_to_the_next():
    state = ponte.setup(4)
    first = ponte.legal_actions(state, 2)
    later = picks(state, SALTO, PAURA)
    again = ponte.legal_actions(later, 2)
    assert again == first == [{"seat": 2, "pick": card} for card in (SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI,
                                                                   SPUNTO, ORDINE, PESANTE)]
    assert all(a is b for a, b in zip(first, again))

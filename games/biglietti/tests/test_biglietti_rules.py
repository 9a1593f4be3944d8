"""Biglietti, prego!: every ruling (R-1 … R-9), every worked example of the seed and every rejection, on the
rules module directly, with 5, 8 and 12 seats.

The seed's 8-player game, seated so that both of its help rounds come out as told: Biancaneve (controller) 0,
Mammolo 1, Dotto 2, Eolo 3, Pisolo 4, Gongolo 5, Brontolo 6, Cucciolo 7."""
import random

import pytest

from engine.games import GAMES
from engine.record import GameRecord, header
from engine.rules import PUBLIC, Rejected
from games.biglietti import rules as B

BIANCANEVE, MAMMOLO, DOTTO, EOLO, PISOLO, GONGOLO, BRONTOLO, CUCCIOLO = range(8)
S, A, I, N, T, P = B.SCUSA, B.ACCUSA, B.IMPARZIALE, B.NASCONDITI, B.BIGLIETTO, B.POLFER


class Game:
    """A table driven line by line, as a log would."""

    def __init__(self, seats=8, **options):
        self.record = GameRecord(header("biglietti", seats, options))

    @property
    def state(self):
        return self.record.state

    @property
    def c(self):
        return self.state.controller

    def view(self, viewer=PUBLIC):
        return B.view(self.state, viewer)

    def act(self, *lines):
        for line in lines:
            self.record.apply(line)
        return self

    def check(self, seat):
        return self.act({"seat": self.c, "choose": {"check": seat}})

    def ticket(self, has):
        return self.act({"seat": self.state.checked, "choose": {"ticket": has}})

    def help(self, cards, default=A):
        """Every traveller but the checked one plays: `cards` by seat, the rest `default`."""
        return self.act(*[{"seat": s, "pick": cards.get(s, default)} for s in self.state.picks.seats])

    def value(self, *values):
        return self.act(*[{"seat": self.c, "choose": {"value": v}} for v in values])

    def discard(self, value):
        return self.act({"seat": self.state.checked, "choose": {"discard": value}})

    def eliminate(self, card):
        return self.act({"seat": self.c, "choose": {"eliminate": card}})

    def turn(self, seat, ticket=True, cards=None, values=(), eliminate=None):
        """A whole turn: the check, the ticket, the help round (if any), the values, the Ritorno's elimination."""
        self.check(seat).ticket(ticket)
        if self.state.step == B.HELP:
            self.help(cards or {})
        self.value(*values)
        if self.state.step == B.ELIMINATE:
            self.eliminate(eliminate or next(card for _, card in self.state.turns[-1]["cards"]))
        return self

    def polfer(self, holder=None, claims=()):
        return self.act(*[{"seat": s, "pick": P if s == holder or s in claims else B.NONE}
                          for s in self.state.picks.seats])

    def refused(self, line, match):
        before = self.state
        with pytest.raises(Rejected, match=match):
            self.record.apply(line)
        assert self.state is before  # a refusal changes nothing


def deliver(game, seat, *values):
    """A turn that delivers to `seat`: it has no ticket and every helper accuses."""
    return game.turn(seat, ticket=False, values=values)


# -- the table --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats, cards, control", [
    (5, (1, 4, 4, 5, 5, 1), 18), (6, (1, 5, 5, 7, 6, 1), 20), (7, (2, 6, 6, 8, 7, 1), 22),
    (8, (2, 7, 7, 9, 9, 1), 24), (9, (2, 8, 8, 11, 10, 1), 26), (10, (3, 9, 9, 12, 11, 1), 28),
    (11, (3, 10, 10, 13, 13, 1), 30), (12, (3, 11, 11, 15, 14, 1), 32)])
def test_the_table_for_each_player_count(seats, cards, control):
    view = Game(seats).view()
    assert tuple(view["in_play"].values()) == cards and view["control_cards"] == control
    assert sum(cards) == 5 * (seats - 1)  # five traveller cards to each traveller
    assert view["cards_left"] == view["pile_size"] == control // 2  # Andata and Ritorno: half each
    assert view["travellers"] == list(range(1, seats)) and view["controller"] == 0
    assert view["phase"] == "andata" and view["turn"] == 1 and view["step"] == "check"


def test_the_controller_may_sit_anywhere_and_the_ring_runs_from_its_left():
    view = Game(8, controller=3).view()
    assert view["travellers"] == [0, 1, 2, 4, 5, 6, 7] and view["ring"] == [4, 5, 6, 7, 0, 1, 2]
    assert view["checkable"] == [0, 1, 2, 4, 5, 6, 7]


def test_seed_eight_players_24_control_cards_andata_is_turns_1_to_12():
    game = Game(8)
    for turn in range(1, 13):
        assert game.view()["turn"] == turn and game.view()["phase"] == "andata"
        game.turn(DOTTO)
    assert game.state.step == B.POLFER_ROUND and game.view()["cards_left"] == 0
    game.polfer(BRONTOLO)  # nobody was checked without a ticket: 6 ≥ 2 × 2, Brontolo wins
    assert game.view()["result"]["winners"] == [BRONTOLO]


# -- who may be checked -------------------------------------------------------------------------------------
def test_first_check_anyone_and_never_the_controller():
    game = Game(8)
    assert game.view()["checkable"] == list(range(1, 8))
    game.refused({"seat": 0, "choose": {"check": 0}}, "player 1 is the controller: choose a traveller")
    game.refused({"seat": 0, "choose": {"check": 8}}, "no player 9 at this table")
    game.refused({"seat": 0, "choose": {"check": "3"}}, "no player '3' at this table")
    game.refused({"seat": 2, "choose": {"check": 3}}, "player 1 is to choose a traveller to check")


def test_seed_eolo_help_round_two_chained_scusa_against_one_accusa_eliminates_the_card():
    game = Game(8).turn(DOTTO, ticket=True)  # Dotto shows a ticket: the card is wasted
    assert game.state.turns[0]["outcome"] == "eliminated" and game.view()["held"] == [0] * 8
    game.check(EOLO).ticket(False)
    assert game.view()["picking"] == [1, 2, 4, 5, 6, 7]  # every traveller but Eolo
    game.help({BRONTOLO: A, PISOLO: S, MAMMOLO: S, DOTTO: I, GONGOLO: N, CUCCIOLO: N})
    record = game.view()["turns"][-1]
    assert record["counted"] == [PISOLO, MAMMOLO] and record["chain"] == [PISOLO, DOTTO, MAMMOLO]
    assert (record["scusa"], record["accusa"], record["outcome"]) == (2, 1, "eliminated")
    assert game.view()["hiders"] == [GONGOLO, CUCCIOLO]  # their Nasconditi stays on the table
    # the exchange among those who did not hide, from Eolo round the table and back; only Eolo may give Pol.Fer.
    assert record["exchange"] == [EOLO, PISOLO, BRONTOLO, MAMMOLO, DOTTO, EOLO]
    assert game.view()["step"] == "check" and game.view()["turn"] == 3


def test_seed_mammolo_help_round_scusa_not_next_to_him_do_not_count():
    game = Game(8).turn(DOTTO).check(EOLO).ticket(False)
    game.help({BRONTOLO: A, PISOLO: S, MAMMOLO: S, DOTTO: I, GONGOLO: N, CUCCIOLO: N})
    # two of seven hid: fewer than half, so they may not be checked
    assert game.view()["checkable"] == [MAMMOLO, DOTTO, EOLO, PISOLO, BRONTOLO]
    game.refused({"seat": 0, "choose": {"check": GONGOLO}},
                 "player 6 hid last turn and fewer than half of the travellers hid: the hiders may not be checked")
    game.check(MAMMOLO).ticket(False)
    assert game.view()["hiders"] == []  # Gongolo and Cucciolo took their Nasconditi back
    game.help({CUCCIOLO: A, PISOLO: S, EOLO: S, GONGOLO: S, DOTTO: T, BRONTOLO: N})
    record = game.view()["turns"][-1]
    assert record["chain"] == [] and (record["scusa"], record["accusa"]) == (0, 1)
    assert record["outcome"] == "delivered" and game.view()["step"] == "value"
    game.value(1)
    assert game.view()["held"][MAMMOLO] == 1 and game.view()["hiders"] == [BRONTOLO]


def test_seed_four_hide_nobody_accuses_then_only_the_four_may_be_checked():
    game = Game(8).check(PISOLO).ticket(False)
    game.help({MAMMOLO: N, DOTTO: N, EOLO: N, GONGOLO: N, BRONTOLO: I, CUCCIOLO: S})
    record = game.view()["turns"][-1]
    assert (record["scusa"], record["accusa"], record["outcome"]) == (0, 0, "eliminated")  # 0 ≥ 2 × 0
    assert game.view()["checkable"] == [MAMMOLO, DOTTO, EOLO, GONGOLO]  # 4 of 7 is half or more
    game.refused({"seat": 0, "choose": {"check": PISOLO}},
                 "half or more of the travellers hid last turn: only players 2, 3, 4, 6 may be checked")
    assert record["exchange"] == [PISOLO, BRONTOLO, CUCCIOLO, PISOLO]


def test_seed_mammolo_hid_with_a_ticket_gives_back_the_3_and_keeps_the_1():
    game = Game(8)
    deliver(game, MAMMOLO, 1)
    deliver(game, MAMMOLO, 3)
    game.check(PISOLO).ticket(False).help({MAMMOLO: N, DOTTO: N, EOLO: N, GONGOLO: N, BRONTOLO: I, CUCCIOLO: S})
    game.check(MAMMOLO).ticket(True)
    assert game.view()["step"] == "discard" and game.view()["turns"][-1]["case"] == "hid_ticket"
    assert [c.label for c in B.prompt(game.state, MAMMOLO).choices] == ["value:1", "value:3", "keep_all"]
    game.refused({"seat": MAMMOLO, "choose": {"discard": 2}}, "player 2 holds no control card worth 2")
    game.refused({"seat": MAMMOLO, "choose": {"discard": 9}}, "a control card is worth 0 to 4 points, not 9")
    game.discard(3)
    assert game.view(MAMMOLO)["hands"][MAMMOLO] == [1] and game.view(0)["points"][MAMMOLO] == 1
    assert game.view()["turns"][-1]["discarded"] is True and game.view()["held"][MAMMOLO] == 1


def test_seed_gongolo_hid_without_a_ticket_receives_two_cards():
    game = Game(8).check(PISOLO).ticket(False)
    game.help({MAMMOLO: N, DOTTO: N, EOLO: N, GONGOLO: N, BRONTOLO: I, CUCCIOLO: S})
    left = game.view()["cards_left"]
    game.check(GONGOLO).ticket(False)
    assert game.view()["step"] == "value" and game.view()["values_due"] == 2
    assert game.view()["cards_left"] == left - 2  # the second card comes from the pile
    game.value(2)
    assert game.view()["values_due"] == 1
    game.value(2)  # the controller's most numerous value, say two 2s
    assert game.view(0)["hands"][GONGOLO] == [2, 2] and game.view()["turns"][-1]["delivered"] == 2
    assert game.view()["turns"][-1]["exchange"][0] == GONGOLO


def test_hid_with_a_ticket_and_no_control_card_has_nothing_to_give_back():
    game = Game(8).check(PISOLO).ticket(False).help({s: N for s in (1, 2, 3, 5)}, default=I)
    game.check(MAMMOLO).ticket(True)
    assert game.view()["step"] == "check" and game.view()["turns"][-1]["discarded"] is None


def test_give_back_nothing():
    game = Game(8)
    deliver(game, MAMMOLO, 2)
    game.check(PISOLO).ticket(False).help({s: N for s in (1, 2, 3, 5)}, default=I)
    game.check(MAMMOLO).ticket(True).discard(None)
    assert game.view(0)["points"][MAMMOLO] == 2 and game.view()["turns"][-1]["discarded"] is False


def test_r5_hid_without_a_ticket_on_the_pile_s_last_card_receives_only_one():
    game = Game(5)  # 18 control cards: piles of 9
    for _ in range(8):
        game.turn(2)
    assert game.view()["cards_left"] == 1 and game.view()["phase"] == "andata"
    game.turn(3)
    assert game.state.step == B.POLFER_ROUND  # the pile ran out: the half ends with that turn
    game = Game(5)
    for _ in range(7):
        game.turn(1)
    game.check(1).ticket(False).help({2: N, 3: N, 4: N})  # card 8; the hiders stand
    game.check(2).ticket(False)  # card 9, the last: no second card
    assert game.view()["values_due"] == 1 and game.view()["cards_left"] == 0
    game.value(3)
    assert game.state.step == B.POLFER_ROUND


def test_r7_the_same_traveller_may_be_checked_in_consecutive_turns():
    game = Game(8)
    deliver(game, EOLO, 1)
    deliver(game, EOLO, 2)
    deliver(game, EOLO, 3)
    assert game.view(0)["points"][EOLO] == 6 and game.view()["held"][EOLO] == 3


# -- the chain rule -----------------------------------------------------------------------------------------
def reveal(seats, checked, cards, **options):
    game = Game(seats, **options).check(checked).ticket(False)
    game.help(cards, default=N)  # Nasconditi: plenty in play, and it breaks the chain
    return game.view()["turns"][-1]


def test_r2_the_ring_skips_the_controller_seat_by_default():
    # controller 0: travellers 1..7 make a ring, 7 next to 1 across the controller's seat
    record = reveal(8, 1, {7: S, 6: S, 2: A}, **{})
    assert record["counted"] == [7, 6] and record["outcome"] == "eliminated"


def test_r2_ring_table_option_the_controller_seat_breaks_the_chain():
    record = reveal(8, 1, {7: S, 6: S, 2: A}, ring="table")
    assert record["counted"] == [] and record["outcome"] == "delivered"
    # the controller in the middle of the table: its two neighbours are not linked
    assert reveal(8, 2, {4: S, 5: S, 1: A}, controller=3)["counted"] == [4, 5]
    assert reveal(8, 2, {4: S, 5: S, 1: A}, controller=3, ring="table")["counted"] == []


@pytest.mark.parametrize("breaker", [A, T, P, N])
def test_r2_every_card_but_scusa_and_imparziale_breaks_the_chain(breaker):
    record = reveal(8, 3, {4: I, 5: breaker, 6: S, 2: S})
    assert record["chain"] == [4, 2] and record["counted"] == [2]


def test_imparziale_links_but_is_not_counted_and_every_accusa_counts_wherever_it_sits():
    record = reveal(12, 5, {6: I, 7: I, 8: S, 4: S, 3: S, 11: A, 1: A})
    assert record["chain"] == [6, 7, 8, 4, 3] and record["counted"] == [8, 4, 3]
    assert (record["scusa"], record["accusa"], record["outcome"]) == (3, 2, "delivered")  # 3 < 4
    record = reveal(12, 5, {6: S, 4: S, 3: S, 2: S, 11: A})
    assert (record["scusa"], record["accusa"], record["outcome"]) == (4, 1, "eliminated")


def test_a_chain_all_the_way_round_counts_each_seat_once():
    record = reveal(5, 1, {2: S, 3: S, 4: S})
    assert sorted(record["chain"]) == [2, 3, 4] and record["scusa"] == 3


def test_no_scusa_and_no_accusa_eliminates_the_card():
    record = reveal(8, 1, {s: I for s in range(2, 8)})
    assert (record["scusa"], record["accusa"], record["outcome"]) == (0, 0, "eliminated")


# -- picks -------------------------------------------------------------------------------------------------
def test_help_round_picks_are_secret_until_all_have_played_and_may_be_changed():
    game = Game(5).check(1).ticket(False)
    game.act({"seat": 2, "pick": S}, {"seat": 2, "pick": A}, {"seat": 3, "pick": S})
    public, mine = game.view(), game.view(2)
    assert public["locked"] == [2, 3] and "my_pick" not in public and mine["my_pick"] == A
    assert public["turns"][-1]["cards"] is None
    game.act({"seat": 4, "pick": S})
    assert game.view()["turns"][-1]["cards"] == [[2, A], [3, S], [4, S]]


def test_help_round_refusals():
    game = Game(5).check(1).ticket(False)
    game.refused({"seat": 1, "pick": S}, "player 2 is the one being checked and does not play in the help round")
    game.refused({"seat": 0, "pick": S}, "player 1 is the controller and plays no traveller card")
    game.refused({"seat": 2, "pick": "joker"}, "unknown card 'joker': one of biglietto, scusa, accusa")
    game.refused({"seat": 2, "pick": B.NONE}, "unknown card 'none'")
    game.refused({"seat": 0, "choose": {"value": 1}},
                 "player 1 has nothing to decide now: the travellers are playing their cards in the help round")
    Game(5).refused({"seat": 2, "pick": S},
                    "no card is being played now: player 1 is to choose a traveller to check")


def test_more_cards_of_a_kind_than_the_game_holds_means_the_round_is_played_again():
    game = Game(8).check(1).ticket(False)
    game.help({2: T, 3: T, 4: T}, default=I)  # 2 tickets in play with 8 players
    record = game.view()["turns"][-1]
    assert record["again"][0]["over"] == [[T, 3, 2]] and record["cards"] is None
    assert game.view()["picking"] == [2, 3, 4, 5, 6, 7] and game.view()["locked"] == []
    game.help({2: T, 3: S}, default=I)
    assert game.view()["turns"][-1]["cards"] is not None


# -- the controller's secret values ---------------------------------------------------------------------------
def test_r1_values_only_of_delivered_cards_and_the_refusals():
    game = Game(8).check(1).ticket(False).help({}, default=A)
    game.refused({"seat": 0, "choose": {"value": 5}}, "a control card is worth 0 to 4 points, not 5")
    game.refused({"seat": 0, "choose": {"value": True}}, "a control card is worth 0 to 4 points, not True")
    game.refused({"seat": 0, "choose": {"value": "2"}}, "a control card is worth 0 to 4 points, not '2'")
    game.refused({"seat": 0, "choose": {"points": 2}},
                 'player 1 is to enter the control card\'s value: an object with "value"')
    game.refused({"seat": 1, "choose": {"value": 2}}, "player 1 is to enter the control card's value")
    game.value(0)  # a card may be worth nothing: it still counts as a control card held
    assert game.view()["held"][1] == 1 and game.view(0)["points"][1] == 0
    game.refused({"seat": 0, "choose": {"value": 2}},
                 'player 1 is to choose a traveller to check: an object with "check"')


def test_points_are_seen_by_the_controller_and_that_traveller_only_until_the_end():
    game = Game(8)
    deliver(game, 1, 3)
    deliver(game, 2, 4)
    controller, one, two, public = game.view(0), game.view(1), game.view(2), game.view()
    assert controller["points"] == [None, 3, 4, 0, 0, 0, 0, 0] and controller["hands"][2] == [4]
    assert one["points"] == [None, 3] + [None] * 6 and one["hands"][1] == [3]
    assert two["points"][1] is None and two["points"][2] == 4
    assert public["points"] == [None] * 8 and public["hands"] == [None] * 8
    assert B.view(game.state, "host")["points"] == [None] * 8
    assert all("value" not in record for record in public["turns"])


# -- winning ----------------------------------------------------------------------------------------------
def test_seed_turn_7_the_controller_gives_cucciolo_8_points_in_the_andata():
    game = Game(8)
    for seat in (DOTTO, EOLO, PISOLO, GONGOLO, BRONTOLO):
        game.turn(seat)
    deliver(game, CUCCIOLO, 4)
    deliver(game, CUCCIOLO, 4)  # turn 7: 8 points, reached
    view = game.view()
    assert view["over"] and view["turn"] == 7 and view["result"]["winners"] == [BIANCANEVE]
    assert view["result"]["losers"] == []
    assert view["winner"] == {"how": "controller", "winners": [0], "traveller": CUCCIOLO}
    assert view["points"][CUCCIOLO] == 8  # everything is shown at the end


def test_seed_turn_21_r3_points_are_cumulative_and_the_ritorno_needs_9():
    game = Game(8)
    deliver(game, CUCCIOLO, 4)
    deliver(game, CUCCIOLO, 3)
    for seat in (1, 2, 3, 4):
        deliver(game, seat, 0)
    for _ in range(6):
        game.turn(DOTTO)
    game.polfer(MAMMOLO)  # others without cards: 5 and 6, fewer than 4
    assert game.view()["phase"] == "ritorno" and game.view()["turn"] == 13 and not game.view()["over"]
    for _ in range(8):
        game.turn(DOTTO)
    game.check(CUCCIOLO).ticket(False).help({}, default=A).value(1)  # turn 21: 8 is not enough in the Ritorno
    assert game.view()["step"] == "eliminate" and game.view(0)["points"][CUCCIOLO] == 8
    game.act({"host": "undo"})
    game.value(2)  # 9: the controller wins
    assert game.view()["over"] and game.view()["turn"] == 21 and game.view()["result"]["winners"] == [0]


def test_seed_turn_12_the_polfer_wins_the_andata_with_4_travellers_unchecked_against_2_tickets():
    game = Game(8)
    deliver(game, DOTTO, 1)
    deliver(game, EOLO, 1)
    for _ in range(10):
        game.turn(DOTTO)
    game.act(*[{"seat": s, "pick": B.NONE} for s in range(2, 8)])
    assert game.view()["locked"] == [2, 3, 4, 5, 6, 7] and not game.view()["over"]
    game.act({"seat": MAMMOLO, "pick": P})
    view = game.view()
    # others with no control card: Pisolo, Gongolo, Brontolo, Cucciolo = 4 ≥ 2 × 2 tickets
    assert view["over"] and view["turn"] == 12 and view["result"]["winners"] == [MAMMOLO]
    assert view["winner"] == {"how": "polfer", "winners": [MAMMOLO], "without_cards": 4, "tickets": 2}
    assert view["polfer"] == MAMMOLO  # named because it wins
    assert view["halves"] == [{"half": "andata", "round": "won"}]


def test_r4_the_holder_is_left_out_of_the_count_and_three_is_not_enough_in_the_andata():
    game = Game(8)
    for seat in (DOTTO, EOLO, PISOLO):
        deliver(game, seat, 1)
    for _ in range(9):
        game.turn(DOTTO)
    game.polfer(MAMMOLO)  # Gongolo, Brontolo, Cucciolo: 3 < 4 (Mammolo itself has none and is left out)
    view = game.view()
    assert not view["over"] and view["phase"] == "ritorno" and view["polfer"] is None
    assert view["halves"] == [{"half": "andata", "round": "done"}] and view["cards_left"] == 12
    assert "holder" not in str(view) and B.view(game.state, GONGOLO)["polfer"] is None


def test_seed_turn_24_the_polfer_wins_the_ritorno_with_3_unchecked_against_2_tickets():
    game = Game(8)
    for seat in (DOTTO, EOLO, PISOLO):
        deliver(game, seat, 1)
    for _ in range(9):
        game.turn(DOTTO)
    game.polfer(MAMMOLO)
    for _ in range(12):
        game.turn(DOTTO)
    assert game.view()["turn"] == 24 and game.state.step == B.POLFER_ROUND
    game.polfer(MAMMOLO)
    view = game.view()
    assert view["result"]["winners"] == [MAMMOLO] and view["winner"]["without_cards"] == 3  # 3 > 2


def test_seed_turn_24_bis_the_fewest_points_win_and_r9_leaves_the_holder_out():
    game = Game(8)
    for seat, value in ((MAMMOLO, 3), (DOTTO, 4), (EOLO, 4), (PISOLO, 1), (GONGOLO, 2), (BRONTOLO, 4),
                        (CUCCIOLO, 1)):
        deliver(game, seat, value)
    for _ in range(5):
        game.turn(DOTTO)
    game.polfer(BRONTOLO)
    for _ in range(12):
        game.turn(DOTTO)
    game.polfer(BRONTOLO)
    view = game.view()
    assert view["result"]["winners"] == [PISOLO, CUCCIOLO] and view["winner"]["points"] == 1
    assert view["polfer"] is None  # the holder changed nothing: it stays unnamed
    assert view["points"] == [None, 3, 4, 4, 1, 2, 4, 1]


def test_r9_the_holder_alone_with_the_fewest_points_lets_the_next_fewest_win_and_is_named():
    game = Game(5)
    for seat, value in ((1, 1), (2, 2), (3, 2), (4, 3)):
        deliver(game, seat, value)
    for _ in range(5):
        game.turn(1)
    game.polfer(1)
    for _ in range(9):
        game.turn(1)
    game.polfer(1)
    view = game.view()
    assert view["result"]["winners"] == [2, 3] and view["winner"]["holder_left_out"] is True
    assert view["polfer"] == 1


def test_r8_the_last_hiders_of_the_andata_constrain_the_first_check_of_the_ritorno():
    game = Game(5)
    for _ in range(8):
        game.turn(1)
    game.check(1).ticket(False).help({2: N, 3: N, 4: S})  # the 9th card; 2 of 4 hid
    game.polfer(None)
    assert game.view()["phase"] == "ritorno" and game.view()["checkable"] == [2, 3]
    game.refused({"seat": 0, "choose": {"check": 1}},
                 "half or more of the travellers hid last turn: only players 3, 4 may be checked")
    game.check(3)
    assert game.view()["turns"][-1]["hid"] is True


# -- the Pol.Fer. round ----------------------------------------------------------------------------------------
def andata_over(seats=5):
    game = Game(seats)
    for _ in range(B._pile_size(seats)):
        game.turn(1)
    return game


def test_r6_the_polfer_round_tells_nobody_and_a_download_leaves_it_out():
    game = andata_over()
    game.act({"seat": 3, "pick": P})
    assert game.view()["locked"] == [3] and game.view(2).get("my_pick") is None
    assert game.view(3)["my_pick"] == P
    game.polfer(3)  # 3 others without cards < 2 × 1? 3 ≥ 2: player 4 wins
    assert game.view()["result"]["winners"] == [3]
    game = andata_over(8)
    game.polfer(None, claims=())  # nobody claims: no holder
    assert game.view()["phase"] == "ritorno"
    lines = game.record.export_lines()[1:]
    assert not any("pick" in line for line in lines)  # the round's answers never leave the box mid-game


def test_polfer_round_refusals():
    game = andata_over()
    game.refused({"seat": 1, "pick": S}, "at the end of the Outbound a traveller answers polfer or none, not 'scusa'")
    game.refused({"seat": 0, "pick": P}, "player 1 is the controller and plays no traveller card")


def test_two_claims_ask_again_once_then_nobody_counts():
    game = andata_over(8)
    game.polfer(claims=(1, 2))
    assert game.view()["halves"] == [{"half": "andata", "round": "again"}] and game.state.step == B.POLFER_ROUND
    assert game.view()["locked"] == []
    game.polfer(claims=(1, 2))
    assert game.view()["halves"][-1] == {"half": "andata", "round": "unclear"}
    assert game.view()["phase"] == "ritorno" and game.state.holder is None
    game = andata_over(8)
    game.polfer(claims=(1, 2)).polfer(MAMMOLO)
    assert game.view()["result"]["winners"] == [MAMMOLO]


# -- the Ritorno's elimination --------------------------------------------------------------------------------
def ritorno(seats=8):
    game = Game(seats)
    for seat in (1, 2, 3, 4, 5):
        deliver(game, seat, 0)
    for _ in range(B._pile_size(seats) - 5):
        game.turn(1)
    game.polfer(None)
    assert game.view()["phase"] == "ritorno"
    return game


def test_ritorno_the_controller_eliminates_one_card_just_played_after_a_help_round():
    game = ritorno()
    game.check(6).ticket(False).help({7: T, 1: S}, default=I)
    assert game.view()["step"] == "eliminate"
    prompt = B.prompt(game.state, 0)
    assert [c.label for c in prompt.choices] == [T, S, I] and len(prompt.pad) == 8
    game.refused({"seat": 0, "choose": {"eliminate": A}},
                 "nobody played 'accusa' in this help round: the cards played were biglietto, scusa, imparziale")
    game.refused({"seat": 6, "choose": {"eliminate": T}}, "player 1 is to eliminate one of the cards just played")
    game.eliminate(T)
    view = game.view()
    assert view["tickets"] == 1 and view["in_play"][T] == 1 and view["turns"][-1]["eliminated"] == T
    assert view["step"] == "check"


def test_ritorno_no_elimination_without_a_help_round():
    game = ritorno()
    game.check(6).ticket(True)
    assert game.view()["step"] == "check"


def test_an_eliminated_card_cannot_be_played_or_shown_any_more():
    game = ritorno()
    for _ in range(2):
        game.check(6).ticket(False).help({7: T}, default=I).eliminate(T)
    assert game.view()["tickets"] == 0
    game.check(6)
    assert [c.label for c in B.prompt(game.state, 6).choices] == ["ticket_no"]
    game.refused({"seat": 6, "choose": {"ticket": True}},
                 "no Biglietto is left in the game: the controller eliminated every one")
    game.ticket(False)
    game.refused({"seat": 7, "pick": T}, "no Ticket card is left in the game: the controller eliminated it")
    assert T not in [c.label for c in B.prompt(game.state, 7).choices]


def test_an_eliminated_polfer_ends_the_ritorno_without_the_question():
    game = ritorno()
    game.check(6).ticket(False).help({7: P}, default=I).eliminate(P)
    while game.view()["cards_left"]:
        game.turn(6)
    view = game.view()
    assert view["over"] and view["halves"][-1] == {"half": "ritorno", "round": "gone"}


def test_an_eliminated_nasconditi_still_stands_for_its_traveller():
    game = ritorno()
    game.check(6).ticket(False).help({7: N}, default=I).eliminate(N)
    assert game.view()["hiders"] == [7] and game.view()["in_play"][N] == 8


# -- the ticket question -------------------------------------------------------------------------------------
def test_ticket_refusals():
    game = Game(5).check(2)
    game.refused({"seat": 2, "choose": {"ticket": "yes"}}, "a ticket is shown \\(true\\) or not \\(false\\), not 'yes'")
    game.refused({"seat": 3, "choose": {"ticket": True}}, "player 3 is to say whether it has a ticket")
    game.refused({"seat": 2, "choose": {"ticket": True, "x": 1}}, "an object with \"ticket\"")
    game.refused({"seat": 2, "choose": [True]}, "an object with \"ticket\"")


def test_malformed_lines():
    game = Game(5)
    for line, match in [("x", "an action must be an object"), ({"seat": 0}, "not a Biglietti action"),
                        ({"seat": 0, "choose": {}, "x": 1}, "unknown key 'x'"),
                        ({"seat": 12, "choose": {"check": 1}}, "no player 13 at this table"),
                        ({"seat": None, "choose": {"check": 1}}, "no player None at this table")]:
        game.refused(line, match)


# -- pads and prompts -------------------------------------------------------------------------------------
def test_pads_the_travellers_answer_on_fixed_buttons_the_controller_checks_with_the_cursor():
    game = Game(8)
    assert B.prompt(game.state, 0).pad is None and [c.label for c in B.prompt(game.state, 0).choices][:2] == \
        ["seat:1", "seat:2"]
    assert B.prompt(game.state, 1) is None
    game.check(1)
    pad = B.prompt(game.state, 1).pad
    assert [c and c.label for c in pad] == [T, None, None, None, None, None, "no", "si"]
    assert [c and c.action["choose"]["ticket"] for c in pad if c] == [True, False, True]
    game.ticket(False)
    pad = B.prompt(game.state, 2).pad
    assert [c and c.label for c in pad] == list(B.CARDS) + [None, None] and B.prompt(game.state, 2).secret
    game.help({}, default=A)
    prompt = B.prompt(game.state, 0)
    assert prompt.secret
    assert [c and c.action["choose"]["value"] for c in prompt.pad] == [0, 1, 2, 3, 4, None, None, None]
    game.value(1)
    for _ in range(11):
        game.turn(2)
    prompt = B.prompt(game.state, 3)
    assert [c and c.action["pick"] for c in prompt.pad] == [None] * 5 + [P, B.NONE, P]
    assert GAMES["biglietti"].pad_labels == (T, S, A, I, N, P, "no", "si")


def test_the_discard_pad_buttons_1_to_5_are_values_and_7_keeps_them_all():
    game = Game(8)
    deliver(game, 1, 2)
    game.check(4).ticket(False).help({1: N, 2: N, 3: N, 5: N}, default=I)
    game.check(1).ticket(True)
    pad = B.prompt(game.state, 1).pad
    assert [c and c.action["choose"]["discard"] for c in pad[:5]] == [0, 1, 2, 3, 4]
    assert pad[6].label == "no" and pad[6].action["choose"]["discard"] is None and pad[5] is None


def test_every_prompt_title_choice_and_pad_label_has_words_in_both_languages():
    from engine.words import lookup
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        record = GameRecord(header("biglietti", 5 + seed, {"controller": seed % 5}))
        while not record.is_over:
            actor = rng.choice(list(B.current_actors(record.state)))
            prompt = B.prompt(record.state, actor)
            seen |= {prompt.title} | {c.label for c in prompt.choices} | {c.label for c in prompt.pad or () if c}
            record.apply(rng.choice(prompt.choices).action)
    for lang in ("it", "en"):
        assert sorted(key for key in seen if lookup(lang, "biglietti", "box", key) is None) == [], lang


def test_random_games_keep_points_whole_and_never_negative():
    for seed in range(30):
        rng = random.Random(seed)
        record = GameRecord(header("biglietti", rng.randint(5, 12)))
        while not record.is_over:
            state = record.state
            seat = rng.choice(list(B.current_actors(state)))
            record.apply(rng.choice(B.legal_actions(state, seat)))
            assert all(0 <= v <= 4 for held in record.state.held for v in held)
            assert record.state.pile >= 0 and record.state.turn <= B.TABLE[record.state.seats][-1]
        assert B.result(record.state)["winners"]


def test_a_past_turns_elimination_page_shows_the_tickets_of_its_own_turn():
    """Defect: every elimination page said today's count ("biglietti in gioco: 0" on the turn that left 1)."""
    from games.biglietti.oled import chapters
    game = ritorno()
    for _ in range(2):
        game.check(6).ticket(False).help({7: T}, default=I).eliminate(T)
    view = game.view()
    assert [t["tickets_left"] for t in view["turns"] if t["eliminated"]] == [1, 0]
    pages = [pages for key, pages in chapters(view, "it") if key[1:] == ("eliminated",)]
    assert [page.lines[-1] for page, *_ in pages] == ["biglietti in gioco: 1", "biglietti in gioco: 0"]


def test_the_exchange_is_told_as_who_takes_part_and_when_everyone_else_hid_as_no_exchange():
    """Defect: the OLED and the phones gave the exchange as an order round the seats ("1>3>4"), where the
    rulebook lets the checked traveller choose; and "4 → 4" when every other traveller hid."""
    from games.biglietti import oled as pages
    game = Game(8).check(PISOLO).ticket(False)
    game.help({MAMMOLO: N, DOTTO: N, EOLO: N, GONGOLO: N, BRONTOLO: I, CUCCIOLO: S})
    lines = [line for _, screens in pages.chapters(game.view(), "it") for s in screens for line in s.lines]
    assert f"Scambio tra G{PISOLO + 1} G{BRONTOLO + 1} G{CUCCIOLO + 1}" in lines
    game = Game(5).check(1).ticket(False)
    game.help({2: N, 3: N, 4: N})  # every other traveller hid
    assert game.view()["turns"][-1]["exchange"] == [1, 1]
    lines = [line for _, screens in pages.chapters(game.view(), "it") for s in screens for line in s.lines]
    assert "Nessuno scambio" in lines and not any(line.startswith("Scambio") for line in lines)

"""No view for another seat or for the public holds an unrevealed pick, at any step of a match.

Two tables that differ only in one seat's secret pick must look the same to every other viewer."""
import pytest

from engine.rules import HOST, PUBLIC
from games.ponte import rules as ponte
from tests.conftest import event, picks

SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI, SPUNTO, ORDINE, PESANTE = ponte.CARDS


def assert_secret(state_a, state_b, picker):
    """state_a and state_b differ only in `picker`'s unrevealed pick."""
    for viewer in [PUBLIC, HOST] + [s for s in range(state_a.seats) if s != picker]:
        assert ponte.view(state_a, viewer) == ponte.view(state_b, viewer), viewer
    assert ponte.view(state_a, picker) != ponte.view(state_b, picker)


@pytest.mark.parametrize("deal", ["table", "box"])
def test_main_picks_stay_secret_until_the_last_seat_picks(deal):
    base = ponte.setup(4, {"deal": deal})
    if deal == "box":
        base = ponte.apply(base, {"chance": "deal", "outcome": [ORDINE, SPUNTO, PESANTE, SPUNTO]})
    for locked_before in range(4):  # seats 0 … locked_before-1 have picked; seat locked_before picks now
        state = picks(base, *[PRUDENTE] * locked_before)
        a = ponte.apply(state, {"seat": locked_before, "pick": SALTO})
        b = ponte.apply(state, {"seat": locked_before, "pick": VERTIGINI})
        if locked_before < 3:
            assert_secret(a, b, locked_before)
            shown = ponte.view(a, PUBLIC)
            assert shown["locked"] == list(range(locked_before + 1))
            assert shown["history"][-1]["reveal"] is None
        else:  # the last pick reveals everything
            assert ponte.view(a, PUBLIC)["history"][-1]["reveal"] == [PRUDENTE] * 3 + [SALTO]


def test_a_changed_pick_stays_secret():
    state = picks(ponte.setup(3), SALTO)
    changed = ponte.apply(state, {"seat": 0, "pick": PAURA})
    assert_secret(changed, ponte.apply(state, {"seat": 0, "pick": VERTIGINI}), 0)
    for viewer in [PUBLIC, 0, 1, 2]:  # nobody can tell a changed pick from a first one
        assert ponte.view(changed, viewer) == ponte.view(picks(ponte.setup(3), PAURA), viewer)


def test_spunto_replacements_stay_secret_until_both_are_in():
    state = picks(ponte.setup(4), SPUNTO, SPUNTO, PRUDENTE, PRUDENTE)
    a = ponte.apply(state, {"seat": 0, "pick": SALTO})
    b = ponte.apply(state, {"seat": 0, "pick": PAURA})
    assert_secret(a, b, 0)
    assert ponte.view(a, PUBLIC)["locked"] == [0] and ponte.view(a, PUBLIC)["picking"] == [0, 1]


def test_the_next_match_picks_stay_secret_after_an_event():
    state = event(picks(ponte.setup(3), SALTO, SCATTO, VERTIGINI), "calma_piatta")
    for seat in range(2):
        before = picks(state, *[PRUDENTE] * seat)
        assert_secret(ponte.apply(before, {"seat": seat, "pick": PAURA}),
                      ponte.apply(before, {"seat": seat, "pick": VERTIGINI}), seat)


def test_table_deal_hides_which_special_a_seat_holds():
    state = ponte.setup(3)
    assert ponte.view(state, 0)["special"] == "unknown"
    assert "hand" not in ponte.view(state, PUBLIC) and "hand" not in ponte.view(state, HOST)

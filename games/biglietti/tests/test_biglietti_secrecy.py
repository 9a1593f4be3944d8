"""Biglietti's secrets that are not picks: a control card's value, a give-back and the Pol.Fer. holder. Two
tables that differ only in one of them serve every other viewer the same bytes — views, stream events, the OLED,
the host's log download, pad refusals — on every step until the game is over."""
import pytest
from gpiozero.pins.mock import MockFactory

from web_companion import api

from tests.test_contract import Side

SEATS = 8
C = 0


def choose(seat, **what):
    return {"seat": seat, "choose": what}


def helpers(checked, cards=None, default="accusa"):
    cards = cards or {}
    return [{"seat": s, "pick": cards.get(s, default)} for s in range(1, SEATS) if s != checked]


def delivered(checked, value):
    return [choose(C, check=checked), choose(checked, ticket=False), *helpers(checked), choose(C, value=value)]


def shown_ticket(checked=2):
    return [choose(C, check=checked), choose(checked, ticket=True)]


@pytest.fixture
def sides(make_box, tmp_path, monkeypatch):
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.002)
    made = []
    for name in "ab":
        box = make_box(data=tmp_path / name, pins=MockFactory(revision="a020a0"))
        box.table.new_game("biglietti", SEATS)
        made.append(Side(box, SEATS))
    return made


def act(sides, line):
    for side in sides:
        assert side.box.seat_act(line["seat"], line)["status"] != "rejected", line


def same_to_all_but(sides, owners, lines, owners_see=True):
    """Play `lines` on both tables; after each, every viewer but `owners` is served the same; with
    `owners_see`, the owners are served something different at least once (their own view shows the secret)."""
    a, b = sides
    told = set()
    for line in lines:
        act(sides, line)
        assert not a.box.table.view()["over"]
        for viewer in a.viewers:
            if viewer in owners:
                if a.served(viewer) != b.served(viewer):
                    told.add(viewer)
                continue
            assert a.served(viewer) == b.served(viewer), f"{viewer} can tell the secret of {owners}"
            if isinstance(viewer, int):
                assert a.refusals(viewer) == b.refusals(viewer)
    assert told == (set(owners) if owners_see else set())


def test_a_control_card_s_value_and_a_give_back_reach_only_the_controller_and_that_traveller(sides):
    a, b = sides
    act(sides, choose(C, check=1))
    act(sides, choose(1, ticket=False))
    for line in helpers(1):
        act(sides, line)
    assert a.box.seat_act(C, choose(C, value=1))["status"] != "rejected"  # the fork: 1 point here, 3 there
    assert b.box.seat_act(C, choose(C, value=3))["status"] != "rejected"
    hide = [choose(C, check=4), choose(4, ticket=False),
            *helpers(4, {1: "nasconditi", 2: "nasconditi", 3: "nasconditi", 5: "nasconditi"}, "imparziale")]
    same_to_all_but(sides, {C, 1}, [
        *delivered(1, 2),  # 1 + 2 here, 3 + 2 there
        *hide, choose(C, check=1), choose(1, ticket=True), choose(1, discard=2),  # a give-back of the same value
        *shown_ticket(), *delivered(3, 0), *shown_ticket(5)])


def test_the_polfer_holder_reaches_nobody_and_a_download_leaves_the_round_out(sides):
    a, b = sides
    opening = [*delivered(1, 1), *delivered(2, 1), *delivered(3, 1), *delivered(4, 1)]
    opening += [line for _ in range(8) for line in shown_ticket()]
    for line in opening:
        act(sides, line)
    assert a.box.table.view()["step"] == "polfer"
    answers = {"a": 1, "b": 3}  # the holder here and there; 3 travellers without cards: no Andata win
    for side, name in zip(sides, "ab"):
        for seat in range(1, SEATS):
            pick = "polfer" if seat == answers[name] else "none"
            assert side.box.seat_act(seat, {"seat": seat, "pick": pick})["status"] != "rejected"
    assert a.box.table.view()["phase"] == "ritorno" and not a.box.table.view()["over"]
    for side in sides:  # each phone reads what it was sent while the seats picked (its own pick: its own)
        for viewer in side.viewers:
            side.served(viewer)
    log = a.phones["host"].get("/api/host/log").get_data(as_text=True)
    assert '"polfer"' not in log and '"none"' not in log
    # the holders' own phones show nothing of it either: they hold the card in their hands
    same_to_all_but(sides, {1, 3}, [*shown_ticket(), *delivered(5, 2), choose(C, eliminate="accusa"), *shown_ticket(6)],
                    owners_see=False)

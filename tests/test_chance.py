"""Dice and decks the table can audit (engine/chance.py, docs/chance.md): the box commits to each game's seed at
its start, derives every draw from it, keeps it secret until the end, and `arbitro verify` checks every draw."""
import hashlib
import json
import random
from collections import Counter

import pytest
from gpiozero.pins.mock import MockFactory

from device.cli import main
from engine.chance import Committed, canonical, commitment, outcome, uniform, weights
from engine.journal import Journal
from engine.replay import Unchecked, replay, verify
from engine.table import Table
from games.leader1 import rules as leader1
from games.ponte import rules as ponte
from tests.test_contract import Side
from web_companion import api

MIXED_VECTOR = [5, 0, 3, 10, 0, 3]  # docs/chance.md quotes it
CHANCE_GAMES = [("ponte", 3, {"deal": "table"}), ("ponte", 5, {"deal": "box"}),
                ("leader1", 2, {"supply": "box", "race": "tappe", "stages": 2}), ("leader1", 3, {})]


def seeds_from(n):
    """Distinct known seeds, so a failing run can be replayed."""
    counter = iter(range(n, n + 10_000))
    return lambda: next(counter).to_bytes(32, "big")


def finished_game(game, seats, options, tmp_path, seed=1, undo_rate=0.05):
    table = Table(Journal(tmp_path / f"{game}{seats}.sqlite3"), seeds=seeds_from(seed))
    table.new_game(game, seats, options)
    rng = random.Random(seed)
    while not table.view()["over"]:
        if table.can_undo and rng.random() < undo_rate:
            table.undo()
            continue
        seat = rng.choice([s for s in range(seats) if table.legal_actions(s)])
        table.act(rng.choice(table.legal_actions(seat)))
    return table


def test_the_construction_is_pinned_by_a_test_vector():
    """docs/chance.md quotes these: someone writing their own verifier can check it against them."""
    seed = bytes(range(32))
    assert commitment(seed, {"arbitro": 1, "game": "ponte", "seats": 3, "options": {}}) == \
        "e658b33c6cc574b89e669bbaf7b969aef33b5cec74372ae8adf3e2df4b9eb6c6"
    assert [uniform(seed, i, 12) for i in range(6)] == [0, 2, 1, 10, 8, 11]
    log = hashlib.sha256(canonical({"seat": 0, "pick": "vertigini"}) + b"\n").digest()  # one line before the draw
    assert [uniform(seed, i, 12, log) for i in range(6)] == MIXED_VECTOR


def test_weights_are_the_exact_ratios_of_the_outcomes():
    assert weights([("a", 4 / 6), ("b", 1 / 6), ("c", 1 / 6)]) == [4, 1, 1]
    assert weights([("x", 1 / 12)] * 12) == [1] * 12
    assert weights([(2, 3 / 11), (3, 5 / 11), (5, 3 / 11)]) == [3, 5, 3]


def test_uniform_rejects_the_biased_top_and_stays_in_range():
    seed = b"\x07" * 32
    found = {uniform(seed, i, 3) for i in range(200)}
    assert found == {0, 1, 2}
    assert all(0 <= uniform(seed, i, 2 ** 63 + 1) < 2 ** 63 + 1 for i in range(50))  # many rejections here


def chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_the_d12_is_fair_over_the_construction():
    """12,000 rolls of the default die from one seed: chi-square with 11 degrees of freedom under 31.26
    (p = 0.001); fixed seed, so the test cannot flake."""
    faces = [({"chance": "d12", "outcome": n}, 1 / 12) for n in range(12)]
    seed = b"d12-fairness".ljust(32, b"\0")
    rolled = Counter(outcome(seed, i, faces)["outcome"] for i in range(12_000))
    assert chi_square([rolled[n] for n in range(12)], 1000) < 31.26
    assert weights(leader1.chance_outcomes(leader1.setup(2, {})._replace(due=("d12", "peloton")))) == [1] * 12


def test_ponte_deck_order_puts_each_card_at_each_position_evenly():
    """The event deck drawn card by card (weights: copies left): over 6,000 shuffles each wind lands on each
    of the 6 positions about 1,000 times (chi-square, 5 degrees of freedom, under 20.5: p = 0.001)."""
    seed = b"ponte-deck".ljust(32, b"\0")
    positions = {e: Counter() for e in ponte.EVENTS}
    index = 0
    for _ in range(6000):
        deck = list(ponte.EVENT_DECK)
        for position in range(6):
            left = sum(deck)
            drawn = outcome(seed, index, [(e, n / left) for e, n in zip(ponte.EVENTS, deck) if n])
            index += 1
            positions[drawn][position] += 1
            deck[ponte.EVENTS.index(drawn)] -= 1
    for wind in ("vento_da_est", "vento_da_ovest"):
        assert chi_square([positions[wind][p] for p in range(6)], 1000) < 20.5, positions[wind]


@pytest.mark.parametrize("game, seats, options", CHANCE_GAMES)
def test_every_draw_of_a_finished_game_checks(game, seats, options, tmp_path, capsys):
    table = finished_game(game, seats, options, tmp_path)
    log = table.export()
    assert verify(log) > 0
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    assert main(["verify", str(path)]) == 0
    assert "every draw checks" in capsys.readouterr().out


def tamper(log, change):
    lines = [json.loads(line) for line in log.splitlines()]
    change(lines)
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_an_altered_outcome_seed_or_commitment_fails_naming_the_line(tmp_path, capsys):
    log = finished_game("ponte", 3, {"deal": "box"}, tmp_path).export()
    lines = [json.loads(line) for line in log.splitlines()]
    first_event = next(n for n, line in enumerate(lines) if line.get("chance") == "event")

    def other_event(lines):
        event = lines[first_event]
        event["outcome"] = next(e for e in ponte.EVENTS if e != event["outcome"])
    with pytest.raises(Unchecked, match=f"line {first_event + 1}: this draw does not check"):
        verify(tamper(log, other_event))

    def other_seed(lines):
        lines[0]["chance"]["seed"] = "00" * 32
    with pytest.raises(Unchecked, match="line 1: the seed does not match the commitment"):
        verify(tamper(log, other_seed))

    def other_commitment(lines):
        lines[0]["chance"]["commitment"] = "ff" * 32
    with pytest.raises(Unchecked, match="line 1: the seed does not match the commitment"):
        verify(tamper(log, other_commitment))
    path = tmp_path / "altered.jsonl"
    path.write_text(tamper(log, other_event))
    assert main(["verify", str(path)]) == 1
    assert f"line {first_event + 1}" in capsys.readouterr().err


def test_loaded_dice_and_seeded_replays_are_marked_not_verifiable(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), random=random.Random(3))
    table.new_game("ponte", 3)
    assert table.view()["chance"] == {"verifiable": False}
    assert json.loads(table.export().splitlines()[0])["chance"] == {"verifiable": False}
    with pytest.raises(Unchecked, match="not verifiable"):
        verify(table.export())


def test_the_seed_stays_on_the_box_until_the_end(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), seeds=seeds_from(9))
    table.new_game("leader1", 2, {"supply": "box"})
    seed = (9).to_bytes(32, "big").hex()
    rng = random.Random(2)
    for _ in range(60):  # well into the race: rolls and tiles drawn
        seat = rng.choice([s for s in range(2) if table.legal_actions(s)])
        table.act(rng.choice(table.legal_actions(seat)))
        for viewer in ("public", "host", 0, 1):
            assert seed not in json.dumps(table.view(viewer))
        assert seed not in table.export()
    assert "commitment" in table.view()["chance"] and "seed" not in table.view()["chance"]
    with pytest.raises(Unchecked, match="the seed is not revealed yet"):
        verify(table.export())
    game_id = table.game_id
    table.end_game()  # ended by the host: no draw is left to come, so the seed is revealed
    assert json.loads(table.export(game_id).splitlines()[0])["chance"]["seed"] == seed


def test_undo_never_rerolls_and_a_restart_draws_on_from_the_same_seed(tmp_path):
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), seeds=seeds_from(4))
    table.new_game("ponte", 3)
    for seat, card in enumerate(["vertigini", "passo_prudente", "salto_atletico"]):
        table.act({"seat": seat, "pick": card})
    event = table.view()["event_discard"][-1]
    table.undo()
    table.act({"seat": 2, "pick": "salto_atletico"})
    assert table.view()["event_discard"][-1] == event  # the same card, drawn again, not re-rolled
    table.close()
    again = Table(Journal(path))  # a restart: the seed comes from the journal, not from a new draw
    for seat, card in enumerate(["salto_atletico", "vertigini", "passo_prudente"]):
        again.act({"seat": seat, "pick": card})
    rng = random.Random(0)
    while not again.view()["over"]:
        shown = again.view()
        seat = next(s for s in shown["picking"] if s not in shown["locked"])  # a seat still to pick
        again.act(rng.choice(again.legal_actions(seat)))
    assert verify(again.export()) >= 2


def test_two_tables_with_different_seeds_look_the_same_to_everyone_until_a_draw(make_box, tmp_path,
                                                                               monkeypatch):
    """The fork on the seed: every endpoint and stream event of two tables that differ only in their seeds
    serves the same bytes to every viewer (the commitment aside: a hash that tells nothing) until the first
    draw is revealed; then they may differ."""
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.002)
    sides, commitments = [], []
    for name, seed in (("a", 1), ("b", 2)):
        box = make_box(data=tmp_path / name, pins=MockFactory(revision="a020a0"), seeds=seeds_from(seed))
        box.table.new_game("ponte", 3, {"deal": "table"})
        commitments.append(box.table.view()["chance"]["commitment"].encode())
        sides.append(Side(box, 3))
    a, b = sides
    assert commitments[0] != commitments[1]
    picks = ["vertigini", "passo_prudente", "salto_atletico"]
    for seat, card in enumerate(picks):
        for viewer in a.viewers:
            served = [x.replace(commitments[0], b"C") for x in a.served(viewer)]
            assert served == [x.replace(commitments[1], b"C") for x in b.served(viewer)], viewer
        for side in sides:
            assert side.box.seat_act(seat, {"seat": seat, "pick": card})["status"] != "rejected"


def test_a_replay_that_draws_from_its_seed_says_its_draws_cannot_be_checked(tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), seeds=seeds_from(5))
    table.new_game("ponte", 3)
    for seat, card in enumerate(["vertigini", "passo_prudente", "salto_atletico"]):
        table.act({"seat": seat, "pick": card})
    log = table.export()
    assert "commitment" in replay(log, seed=1).view("public")["chance"]  # every draw is in the log: none made
    lines = [line for line in log.splitlines() if '"chance": "event"' not in line]  # the event drawn left out
    assert replay("\n".join(lines), seed=1).view("public")["chance"] == {"verifiable": False}


def first_event(seed, cards, folder):
    """The first event card of a 3-seat Ponte game from seed `seed` whose first picks are `cards`."""
    table = Table(Journal(folder / f"{seed}-{'-'.join(cards)}.sqlite3"), seeds=seeds_from(seed))
    table.new_game("ponte", 3)
    for seat, card in enumerate(cards):
        table.act({"seat": seat, "pick": card})
    log = table.export()
    table.close()
    return next(json.loads(line)["outcome"] for line in log.splitlines() if '"chance"' in line and "event" in line)


def test_a_new_game_mixes_the_tables_moves_into_its_draws(tmp_path):
    """The box commits to its seed, but alone it could have ground seeds until one favoured a seat: every draw
    of a game started now mixes in the digest of the log before it (the players' moves, made after the
    commitment). With the same seed, other moves draw other cards; `verify` recomputes every draw from the log,
    so a move changed before a draw makes the draw fail."""
    moves = [("vertigini", "passo_prudente", "salto_atletico"), ("passo_prudente", "vertigini", "salto_atletico")]
    draws = [[first_event(seed, cards, tmp_path) for cards in moves] for seed in range(12)]
    assert any(a != b for a, b in draws), "the same seed drew the same whatever the players did"
    table = finished_game("ponte", 3, {}, tmp_path)
    log = table.export()
    lines = [json.loads(line) for line in log.splitlines()]
    assert lines[0]["chance"]["mix"] == "log" and verify(log) > 0
    event = next(n for n, line in enumerate(lines) if line.get("chance") == "event")
    failed = 0
    for card in ponte.CARDS[:5]:
        if card == lines[1]["pick"]:
            continue
        try:
            verify(tamper(log, lambda lines: lines[1].update(pick=card)))
        except Unchecked as e:  # the first draw after the change, or a later one (the same card by chance)
            assert "this draw does not check" in str(e) and int(str(e).split()[1][:-1]) >= event + 1
            failed += 1
    assert failed, "no change of the first move changed the first draw"


class Unmixed(Committed):
    """Dice as a box of before made them: no "mix" in the table line, draws from the seed alone."""

    def __init__(self, seed, table_line, *, mixes):
        super().__init__(seed, table_line, mixes=False)


def test_a_game_of_before_the_mix_resumes_and_verifies_with_its_own_construction(tmp_path, monkeypatch):
    from engine import table as table_module
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(table_module, "Committed", Unmixed)
    old = Table(Journal(path), seeds=seeds_from(3))
    old.new_game("ponte", 3)
    for seat, card in enumerate(("vertigini", "passo_prudente", "salto_atletico")):
        old.act({"seat": seat, "pick": card})
    assert "mix" not in old.view()["chance"]
    old.close()
    monkeypatch.undo()
    resumed = Table(Journal(path))  # today's box, on the journal of a box of before
    rng = random.Random(3)
    while not resumed.view()["over"]:
        seat = rng.choice([s for s in range(3) if resumed.legal_actions(s)])
        resumed.act(rng.choice(resumed.legal_actions(seat)))
    log = resumed.export()
    assert "mix" not in json.loads(log.splitlines()[0])["chance"]
    assert verify(log) > 1  # the draws after the resume too: without the mix, as the game began
    resumed.close()

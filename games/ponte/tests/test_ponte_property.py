"""Thousands of random legal Ponte games through the table: invariants at every step, and the exported log
replays to the same final view."""
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.replay import replay
from engine.table import Table
from games.ponte import rules as ponte

GAMES = int(os.environ.get("PONTE_PROPERTY_GAMES", "300"))  # more by hand: PONTE_PROPERTY_GAMES=5000


def check_invariants(state):
    assert all(ponte.WEST_BANK <= p <= ponte.EAST_BANK for p in state.positions)
    assert all(n >= 0 for hand in state.hands for n in hand)
    assert sum(state.deck) + len(state.discard) == 6
    assert len(state.history) <= ponte.MATCHES
    assert state.prudente_supply >= 0


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 6), deal=st.sampled_from(["table", "box"]), seed=st.integers(0, 2**32),
       undo_rate=st.sampled_from([0, 0, 0.05]))
def test_random_legal_games_keep_every_invariant(seats, deal, seed, undo_rate):
    rng = random.Random(seed)
    table = Table(random=random.Random(seed + 1))
    table.new_game("ponte", seats, {"deal": deal})
    steps = 0
    while not table.view()["over"]:
        check_invariants(table.state)
        if undo_rate and rng.random() < undo_rate and table.can_undo:
            table.undo()
        else:
            seat = rng.choice(table.view()["picking"])
            table.act(rng.choice(table.legal_actions(seat)))
        steps += 1
        assert steps < 500
    check_invariants(table.state)
    shown = table.view()
    assert shown["result"] is not None
    del shown["version"]
    assert replay(table.export()).view("public") == shown
    table.close()

"""Rette sich wer kann: a sinking stays readable while the table votes again (issue 51). Its pages on the OLED end
at the first press of the next vote, so a quick table never saw them: the view keeps the boats sunk since the
last revealed vote, the OLED's vote screen and the phones show them until that next vote is revealed."""
import random

import pytest

from device.screens import BODY_LINES, COLUMNS
from engine.record import GameRecord, header
from engine.rules import PUBLIC
from games.lifeboats import oled
from games.lifeboats import rules as L


def to_a_vote_after_a_sinking(seats, seed):
    """A seeded game (no hats: each vote is revealed once all have voted) up to the first vote opened after a
    boat sank, nobody having voted in it yet. Returns the record and the random source that played it."""
    rng = random.Random(seed)
    record = GameRecord(header("lifeboats", seats, {}))
    while True:
        state = record.state
        assert state.phase != L.OVER, "no vote followed a sinking"
        history = state.history
        sank = [i for i, e in enumerate(history) if e["type"] == "sink"]
        revealed = [i for i, e in enumerate(history) if e["type"] == "vote" and not e.get("auto")]
        if state.picks is not None and not state.picks.locked and sank and (not revealed or sank[-1] > revealed[-1]):
            return record, rng
        seat = rng.choice(sorted(L.current_actors(state)))
        actions = [a for a in L.legal_actions(state, seat) if a.get("pick") != "cappello"]
        record.apply(rng.choice(actions))


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (6, 0)])
def test_a_sinking_stays_in_view_and_on_the_vote_screen_until_the_next_vote_is_revealed(seats, seed):
    record, rng = to_a_vote_after_a_sinking(seats, seed)
    sink = [e for e in record.state.history if e["type"] == "sink"][-1]
    view = L.view(record.state, PUBLIC)
    assert view["sinkings"] == [sink]
    boat = {"it": oled.say("it", f"boat_of:{sink['boat']}"), "en": oled.say("en", f"boat_of:{sink['boat']}")}
    pawns = " ".join(oled._pawn("it", s, k) for s, k in sink["pawns"])
    for lang, word in (("it", "affondata"), ("en", "sank")):
        screen = oled.live(view, lang)
        shown = " ".join(line.strip() for line in screen.lines)
        assert shown.startswith(f"{boat[lang]} {word}:")
        assert len(screen.lines) <= BODY_LINES and all(len(line) <= COLUMNS for line in screen.lines)
    assert pawns in " ".join(line.strip() for line in oled.live(view, "it").lines)
    # who has voted is still told (never what): the first vote keeps the sinking on the screen
    first = record.state.picks.seats[0]
    record.apply({"seat": first, "pick": rng.choice(L._vote_picks(record.state, first))})
    view = L.view(record.state, PUBLIC)
    assert view["sinkings"] == [sink] and view["locked"] == [first]
    assert oled.live(view, "it").lines[0].startswith(boat["it"])
    # the next reveal gives the table a new result to read: the sinking leaves the vote screen
    for seat in record.state.picks.seats[1:]:
        record.apply({"seat": seat, "pick": L._vote_picks(record.state, seat)[0]})
    view = L.view(record.state, PUBLIC)
    assert sink not in view["sinkings"]


def test_the_sinkings_in_view_are_the_same_for_every_viewer_and_tell_no_vote():
    record, rng = to_a_vote_after_a_sinking(6, 0)
    first = record.state.picks.seats[0]
    record.apply({"seat": first, "pick": L._vote_picks(record.state, first)[-1]})
    shown = [L.view(record.state, viewer)["sinkings"] for viewer in (PUBLIC, *range(6))]
    assert all(s == shown[0] for s in shown) and "pick" not in repr(shown[0])

"""Rette sich wer kann on an Italian phone at 360 px (issue 51): a boat sinks and the table votes again at once.
The sinking stays on every phone and on the OLED's vote screen while that vote is cast, and leaves when it is
revealed. Screenshots in tests/screenshots/."""
import pytest

from engine.words import lookup
from games.lifeboats import oled
from games.lifeboats import rules as L
from tests.browser import SCREENSHOTS, Server, pair, post, screenshot
from tests.test_browser_biglietti_moment import Phones, table, wait_oled
from tests.test_browser_phones import PHONE
from games.lifeboats.tests.test_lifeboats_sinking import to_a_vote_after_a_sinking

pytestmark = pytest.mark.browser

SEATS = 3


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--reveal-delay", "0")
    yield running
    running.stop()


def test_a_sinking_stays_on_the_phone_and_the_oled_while_the_next_vote_is_cast(server, browser):
    record, _ = to_a_vote_after_a_sinking(SEATS, 1)
    post(server, "/api/host/game", {"game": "lifeboats", "seats": SEATS, "options": {}})
    phone = browser.new_context(locale="it-IT", **PHONE).new_page()
    phone.goto(server.url + "/seat")
    pair(phone, server, ("seat", 0))
    phone.wait_for_selector("text=Sei il giocatore 1")
    others = Phones(server, range(1, SEATS))
    for line in record.lines:
        if line["seat"] == 0:
            answer = phone.request.post(server.url + "/api/seats/0/act", data={"action": line})
            assert answer.ok, answer.text()
        else:
            others.act(line)
    sink = [e for e in record.state.history if e["type"] == "sink"][-1]
    boat = oled.say("it", f"boat_of:{sink['boat']}")

    # the next vote is under way: a player votes, which ended the sinking's own pages on the OLED
    voter = next(s for s in record.state.picks.seats if s != 0)
    others.act({"seat": voter, "pick": L._vote_picks(record.state, voter)[0]})
    shown = table(server)
    assert shown["sinkings"] == [sink] and shown["locked"] == [voter]
    frame = wait_oled(server, oled.live(shown, "it"))
    (SCREENSHOTS / "lifeboats-oled-vote-after-sinking.png").write_bytes(frame)
    assert oled.live(shown, "it").lines[0].startswith(f"{boat} affondata:")
    phone.wait_for_selector(".sunk-news")
    news = phone.inner_text(".sunk-news")
    assert news.startswith("Barca affondata")
    assert f"La barca {lookup('it', 'lifeboats', 'phone', 'boat_of:' + sink['boat'])} affonda con" in news
    assert phone.locator(".prompt .choice").count()  # player 1 votes with the sinking in view
    screenshot(phone, "lifeboats-phone-vote-after-sinking-it")

    # the vote is revealed: a new result to read, the sinking leaves the panel (it stays in the table's history)
    for seat in record.state.picks.seats:
        if seat == voter:
            continue
        pick = {"seat": seat, "pick": shown["vote"]["options"][0]}
        if seat == 0:
            assert phone.request.post(server.url + "/api/seats/0/act", data={"action": pick}).ok
        else:
            others.act(pick)
    phone.wait_for_function("() => !document.querySelector('.sunk-news')")
    assert table(server)["sinkings"] == []

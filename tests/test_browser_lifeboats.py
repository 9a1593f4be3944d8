"""A whole Lifeboats game in mock mode, setup included: the host starts it from a phone, player 1 plays from
its phone, players 2 and 3 press the virtual box's pads. The OLED frames and the phone panels are saved in
tests/screenshots/ to be looked at."""
import http.cookiejar
import json
import random
import time
import urllib.request

import pytest

from engine.record import GameRecord, header
from engine.rules import PUBLIC
from games.lifeboats import rules as L
from games.lifeboats.rules import PAD
from tests.browser import SCREENSHOTS, Server, click_key, pair, post, screenshot
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--reveal-delay", "0")
    yield running
    running.stop()


def table(server, since=None):
    return json.load(urllib.request.urlopen(server.url + "/api/table" + (f"?since={since}" if since else "")))


def oled(server, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"lifeboats-oled-{name}.png").write_bytes(urllib.request.urlopen(server.url + "/box/oled.png").read())


def wait_change(server, version):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        shown = table(server)
        if shown["version"] > version:
            return shown
        time.sleep(0.05)
    raise AssertionError("the press changed nothing")


def pad(box, seat, button):
    """One press, waited for until the box has answered it: a second press must not overtake the first."""
    key = f'[data-seat="{seat}"][data-button="{button}"]'
    assert "error" not in click_key(box, key)


def phone_acts(phone):
    """Player 1 taps the first thing its phone offers (a group first, when choices come in groups)."""
    phone.wait_for_selector(".prompt .choice")
    if phone.locator(".prompt .choice.group").count():
        phone.locator(".prompt .choice.group").first.click()
    phone.locator(".prompt .choice:not(.group):not(.back)").first.click()


def test_a_whole_lifeboats_game_through_the_pads_and_one_phone(server, browser):
    host = browser.new_context(locale="en-GB", **PHONE).new_page()
    host.goto(server.url + "/host")
    host.select_option("#game", "lifeboats")
    host.select_option("#seats", "3")
    host.select_option('[data-option="moves_to_island"]', "1")  # a short game: every move reaches an island
    host.click("#start")
    shown = table(server)
    for _ in range(50):
        if shown["game"] == "lifeboats":
            break
        time.sleep(0.1)
        shown = table(server)
    assert shown["options"]["moves_to_island"] == 1 and shown["phase"] == "setup"

    box = browser.new_page(viewport={"width": 1100, "height": 900})
    box.goto(server.url + "/box")
    box.wait_for_selector('[data-seat="2"][data-button="8"]')

    alice = browser.new_context(locale="it-IT", **PHONE).new_page()
    alice.goto(server.url + "/seat")
    pair(alice, server, ("seat", 0), box)
    alice.wait_for_selector("text=Sei il giocatore 1")
    alice.wait_for_selector("text=Scegli la corsia della tua barca")
    screenshot(alice, "lifeboats-phone-setup-it")
    oled(server, "1-setup")

    looked = set()
    for _ in range(400):
        shown = table(server)
        if shown["over"]:
            break
        if shown["picking"]:
            waiting = [s for s in shown["picking"] if s not in shown["locked"]]
            seat = waiting[0]
            if seat == 0:
                alice.wait_for_selector(".prompt .note")  # a secret vote
                if "vote" not in looked:
                    looked.add("vote")
                    screenshot(alice, "lifeboats-phone-vote-it")
                phone_acts(alice)
            else:
                pad(box, seat, PAD.index(shown["vote"]["options"][0]) + 1)
        else:
            seat = shown["decision"]["seat"]
            if seat == 0:
                phone_acts(alice)
            else:
                pad(box, seat, 8)  # OK: the first group (a boat), then OK again for its first choice
                if shown["decision"]["what"] in ("place", "swim_from"):
                    pad(box, seat, 8)
        after = wait_change(server, shown["version"])
        if after["phase"] == "leak" and "sea" not in looked and after["turn"] == 1:
            looked.add("sea")
            oled(server, "2-vote")
            screenshot(alice, "lifeboats-phone-seat-it")
        if any(e["type"] == "arrive" for e in after["history"]) and "arrive" not in looked:
            looked.add("arrive")
            oled(server, "3-result-page")
    shown = table(server)
    assert shown["over"] and shown["result"]["winners"]
    assert shown["hats"] == [3, 3, 3]  # nobody pressed the hat: an extra OK never lands on the next vote
    assert all(boat["status"] in ("island", "sunk") for boat in shown["boats"].values())
    oled(server, "4-final")

    alice.goto(server.url + "/?lang=it")
    alice.wait_for_selector(".result .winners")
    assert alice.inner_text(".result .winners").startswith("Vince:")
    assert "Corsia 1" in alice.inner_text("main")
    screenshot(alice, "lifeboats-phone-table-it-over")
    alice.goto(server.url + "/?lang=en")
    alice.wait_for_selector("text=The sea")
    screenshot(alice, "lifeboats-phone-table-en-over")
    alice.goto(server.url + "/rules/lifeboats?lang=en")
    alice.wait_for_selector("text=The Captain's hat")


def tie_lines():
    """A seeded random game of three (hats played often, so two may cancel) up to a vote that ties."""
    rng = random.Random(0)
    record = GameRecord(header("lifeboats", 3, {}))
    lines = []
    while (L.view(record.state, PUBLIC).get("decision") or {}).get("what") != "tie":
        seat = rng.choice(sorted(L.current_actors(record.state)))
        actions = L.legal_actions(record.state, seat)
        hats = [a for a in actions if a.get("pick") == "cappello"]
        action = rng.choice(hats if hats and rng.random() < 0.5 else actions)
        record.apply(action)
        lines.append(action)
    return lines


def test_a_tied_vote_shows_who_breaks_the_tie_not_a_vote_in_progress(server, browser):
    """Defect: when a vote tied, the table's top card still read "Voto in corso" with every player "… sta
    votando"; the tie was only in the history."""
    post(server, "/api/host/game", {"game": "lifeboats", "seats": 3, "options": {}})
    phones = []
    for seat in range(3):
        phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        code = post(server, "/api/host/pair", {"seat": seat})["code"]
        phone.open(urllib.request.Request(server.url + "/api/pair", json.dumps({"code": code}).encode(),
                                          {"Content-Type": "application/json"})).read()
        phones.append(phone)
    for line in tie_lines():
        phones[line["seat"]].open(urllib.request.Request(
            f"{server.url}/api/seats/{line['seat']}/act", json.dumps({"action": line}).encode(),
            {"Content-Type": "application/json"})).read()
    decision = table(server)["decision"]
    page = browser.new_context(locale="it-IT", **PHONE).new_page()
    page.goto(server.url + "/?lang=it")
    page.wait_for_selector(".panel .status .meeple")
    now = page.inner_text("main")
    assert f"Parità nel voto: decide Giocatore {decision['seat'] + 1}, primo giocatore" in now
    assert "sta votando" not in now and "Voto in corso" not in now
    screenshot(page, "lifeboats-phone-tie-it")

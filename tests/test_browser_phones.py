"""Phones in a real browser (phone-sized): join by the QR's URL, claim a seat by a pad press, pick from the
phone, watch another phone's table update live, undo as host. Screenshots in tests/screenshots/."""
import io
import json
import urllib.request

import pytest
from PIL import Image

from engine.replay import replay

from tests.browser import Server, pair, screenshot

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--reveal-delay", "0.2")
    yield running
    running.stop()


def press(server, body):
    request = urllib.request.Request(server.url + "/box/press", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


def qr_url(server):
    import zxingcpp
    frame = Image.open(io.BytesIO(urllib.request.urlopen(server.url + "/box/oled.png").read()))
    found = zxingcpp.read_barcodes(frame.convert("L"))
    assert len(found) == 1
    return found[0].text


def test_phones_join_claim_pick_watch_and_undo(server, browser):
    joined = qr_url(server)
    assert joined == f"HTTP://127.0.0.1:{server.port}/JOIN"

    alice = browser.new_context(locale="it-IT", **PHONE).new_page()
    alice.goto(joined)  # the uppercase URL of the QR code works as it is
    assert alice.url == server.url + "/"
    alice.wait_for_selector("text=Nessuna partita in corso")

    bob = browser.new_context(locale="en-GB", **PHONE).new_page()
    bob.goto(server.url + "/")
    bob.wait_for_selector("text=No game yet")

    host = browser.new_context(locale="en-GB", **PHONE).new_page()
    host.goto(server.url + "/host")
    host.select_option("#game", "ponte")
    host.select_option("#seats", "4")
    host.click("#start")
    bob.wait_for_selector("text=Il ponte traballante")  # no reload: the stream brought it
    assert bob.locator(".seats li").count() == 4

    alice.goto(server.url + "/seat")

    def asked(words):
        assert "Codice di 6 cifre" in words and "premi Menu, vai su «Telefoni» con ▶" in words

    pair(alice, server, ("seat", 0), shown=asked)
    alice.wait_for_selector("text=Sei il giocatore 1")
    alice.wait_for_selector("text=Scegli la tua carta in segreto")
    assert alice.locator(".choice").count() == 8  # five normal cards and the three possible specials
    screenshot(alice, "phone-seat-it")

    alice.click(".choice:has-text('Vertigini')")
    alice.wait_for_selector(".choice.chosen:has-text('Vertigini')")
    bob.wait_for_selector(".seats li:first-child .tag.done")  # bob sees that player 1 has picked, not what
    assert "Vertigini" not in bob.inner_text("main")
    screenshot(bob, "phone-table-en-locked")

    host.click("button:has-text('Undo the last action')")
    host.click("button[data-armed=yes]:has-text('Undo the last action?')")
    bob.wait_for_selector(".seats li:first-child .tag:not(.done)")
    alice.wait_for_selector(".choice:has-text('Vertigini'):not(.chosen)")
    screenshot(host, "phone-host-en")

    for seat, button in [(0, 1), (1, 2), (2, 4), (3, 5)]:
        press(server, {"seat": seat, "button": button})
    bob.wait_for_selector("text=Match 2 of 6")
    bob.wait_for_selector("text=Player 2: 4 West")
    screenshot(bob, "phone-table-en")
    alice.goto(server.url + "/?lang=it")
    alice.wait_for_selector("text=Giocatore 2: 4 Ovest")
    screenshot(alice, "phone-table-it")
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector("text=Sei il conduttore.")
    screenshot(host, "phone-host-it")
    # The host's phone shows a code for player 2; bob types it and plays as player 2
    host.select_option("#pair-for", "1")
    host.click("button:has-text('Mostra un codice')")
    host.wait_for_selector(".code:has-text('vale 2 minuti')")
    code = host.inner_text(".code").split(": ", 1)[1].split(" (")[0]
    bob.goto(server.url + "/seat")
    bob.fill("#pair-code", code)
    bob.click(".pair button[type=submit]")
    bob.wait_for_selector("text=You are player 2")
    alice.goto(server.url + "/seat?lang=en")
    alice.wait_for_selector("text=You are player 1")
    screenshot(alice, "phone-seat-en")
    alice.goto(server.url + "/rules/ponte?lang=it")
    alice.wait_for_selector("text=Un match (al massimo sei)")
    screenshot(alice, "phone-rules-it")

    # A start over a running game asks first
    host.goto(server.url + "/host?lang=en")
    host.click("#start")
    host.wait_for_selector("#start[data-armed=yes]:has-text('A game is under way: start another?')")
    assert json.load(urllib.request.urlopen(server.url + "/api/table"))["match"] == 2

    play_to_the_end(server)
    bob.wait_for_selector(".result .winners")
    for page in (bob, alice):
        page.goto(server.url + "/")
        page.wait_for_selector(".result")
        assert "[object" not in page.inner_text(".result")
    assert bob.inner_text(".result .winners").startswith("Wins:")
    alice.goto(server.url + "/seat?lang=it")
    alice.wait_for_selector("text=La partita è finita")
    screenshot(alice, "phone-seat-it-over")
    alice.goto(server.url + "/?lang=it")
    assert alice.inner_text(".result .winners").startswith("Vince:")
    screenshot(alice, "phone-table-it-over")

    # The game stays in the host's history, in Italian, with its result and a log that replays to it
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector(".history li .winners")
    entry = host.inner_text(".history li")
    assert "Il ponte traballante" in entry and "4 giocatori · finita" in entry and "Vince:" in entry
    screenshot(host, "phone-host-history-it")
    link = host.get_attribute(".history li a[download]", "href")
    log = urllib.request.urlopen(server.url + link).read().decode()
    shown = json.load(urllib.request.urlopen(server.url + "/api/table"))
    assert replay(log).view("public")["result"] == shown["result"]


def play_to_the_end(server):
    """Every seat in turn presses its buttons until one is taken, to the end of the game."""
    for _ in range(200):
        shown = json.load(urllib.request.urlopen(server.url + "/api/table"))
        if shown["over"]:
            return
        waiting = [s for s in shown["picking"] if s not in shown["locked"]]
        for seat in waiting[:1]:
            for button in range(1, 9):
                if press(server, {"seat": seat, "button": button})["status"] in ("applied", "held"):
                    break
        if not waiting:
            urllib.request.urlopen(server.url + "/api/table?since=%d" % shown["version"]).read()
    raise AssertionError("the game did not end")


def test_a_redraw_for_another_seat_s_move_keeps_the_group_a_phone_has_open(server, browser):
    """Defect: a two-step prompt went back to its first step whenever the page redrew for a view (a late
    stream event), so a player who had opened a boat lost it and a tap could land on nothing."""
    request = urllib.request.Request(server.url + "/api/host/game", method="POST",
                                     data=json.dumps({"game": "lifeboats", "seats": 3, "options": {}}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    alice = browser.new_context(locale="en-GB", **PHONE).new_page()
    alice.goto(server.url + "/seat")
    pair(alice, server, ("seat", 0))
    alice.wait_for_selector(".prompt .choice")
    alice.click(".prompt .choice >> nth=0")  # player 1's lane; then players 2 and 3 on their pads
    for seat in (1, 2):
        assert press(server, {"seat": seat, "button": 8})["status"] == "applied"
    alice.wait_for_selector(".prompt .choice:has-text('Lane')")
    alice.click(".prompt .choice >> nth=0")  # the black boat's lane
    alice.wait_for_selector(".prompt .choice.group")
    alice.click(".prompt .choice.group >> nth=0")
    alice.wait_for_selector(".prompt .choice.back")
    alice.evaluate("ARBITRO.redraw()")
    assert alice.locator(".prompt .choice.back").count() == 1  # the boat is still open


@pytest.mark.parametrize("locale, words", [("it-IT", "Il display del box non risponde"),
                                           ("en-GB", "The box's display is not answering")])
def test_a_phone_says_when_the_box_display_is_not_answering(server, browser, locale, words):
    view = json.load(urllib.request.urlopen(server.url + "/api/table"))
    page = browser.new_context(locale=locale, **PHONE).new_page()
    health = {"display": "failing"}

    def stream(route):  # the box's stream as it is while the OLED fails (the mock box's dummy display never does)
        route.fulfill(status=200, content_type="text/event-stream",
                      body=f"retry: 500\n\nevent: box\ndata: {json.dumps(health)}\n\n"
                           f"id: {view['version']}\nevent: view\ndata: {json.dumps(view)}\n\n")

    page.route("**/api/stream*", stream)
    page.goto(server.url + "/")
    notice = page.locator("#box-notice")
    notice.wait_for()
    assert words in notice.inner_text() and page.locator("#main").inner_text() != ""
    screenshot(page, f"phone-display-failing-{locale[:2]}")
    health = {"display": "ok"}  # the browser reconnects and hears the display is back
    notice.wait_for(state="hidden")

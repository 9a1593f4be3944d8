"""Biglietti, prego! as an Italian-only table sees it on 360 px phones (issue 51): a six-seat game played from
phones up to a help round's reveal, where the whole wagon must be on the screen, the checked traveller too, and
the exchange shows who takes part with no order between them; then on to a Pol.Fer. win with the game's one
Biglietto, told in the singular on the phone and in plain words on the OLED. Screenshots in tests/screenshots/."""
import http.cookiejar
import json
import time
import urllib.request

import pytest

from device.display import png, render
from games.biglietti import oled
from tests.browser import SCREENSHOTS, Server, post, screenshot
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

SEATS = 6
S, A, I, N = "scusa", "accusa", "imparziale", "nasconditi"


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--reveal-delay", "0")
    yield running
    running.stop()


def table(server):
    return json.load(urllib.request.urlopen(server.url + "/api/table"))


class Phones:
    """Each seat's phone, paired with a code the host asked for; a line is sent from its own seat's phone."""

    def __init__(self, server, seats):
        self.server, self.openers = server, {}
        for seat in seats:
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            code = post(server, "/api/host/pair", {"seat": seat})["code"]
            opener.open(self.request("/api/pair", {"code": code})).read()
            self.openers[seat] = opener

    def request(self, path, body):
        return urllib.request.Request(self.server.url + path, json.dumps(body).encode(),
                                      {"Content-Type": "application/json"})

    def act(self, *lines):
        for line in lines:
            answer = json.load(self.openers[line["seat"]].open(self.request(f"/api/seats/{line['seat']}/act",
                                                                            {"action": line})))
            assert answer.get("status") != "rejected", (line, answer)


def choose(seat, **what):
    return {"seat": seat, "choose": what}


# Every text and disc of the wagon, where the phone draws it; the page's own width; the cards' font size drawn.
WAGON = """() => {
  const panel = document.querySelector('.ring-box').closest('.panel').getBoundingClientRect();
  const box = (node) => { const r = node.getBoundingClientRect();
    return {seat: Number(node.closest('g').dataset.seat), kind: node.getAttribute('class') || node.tagName,
            left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {panel: {left: panel.left, right: panel.right}, width: innerWidth,
          scrolls: document.documentElement.scrollWidth > innerWidth,
          items: [...document.querySelectorAll('.ring .seat text, .ring .seat circle')].map(box),
          checked: box(document.querySelector('.ring .seat.checked circle')),
          fonts: [...document.querySelectorAll('.ring .seat .card')].map((n) =>
            parseFloat(getComputedStyle(n).fontSize) * n.getScreenCTM().a)};
}"""


def overlap(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def assert_the_whole_wagon_is_readable(page):
    """Every seat's disc and words inside the panel on a page that does not pan, none over another seat's, the
    cards' words 12 px or more, the checked traveller on the screen."""
    wagon = page.evaluate(WAGON)
    assert not wagon["scrolls"]
    outside = [i for i in wagon["items"] if i["left"] < wagon["panel"]["left"] or i["right"] > wagon["panel"]["right"]]
    assert outside == []
    assert 0 <= wagon["checked"]["left"] and wagon["checked"]["right"] <= wagon["width"]
    crowded = [(a, b) for a in wagon["items"] for b in wagon["items"]
               if a["seat"] < b["seat"] and a["kind"] != "mark" and b["kind"] != "mark" and overlap(a, b)]
    assert crowded == []
    assert min(wagon["fonts"]) >= 12


def wait_oled(server, screen):
    """The virtual box's OLED shows `screen` (its display thread draws it a moment after the change)."""
    expected = png(render(screen))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        frame = urllib.request.urlopen(server.url + "/box/oled.png").read()
        if frame == expected:
            return frame
        time.sleep(0.05)
    raise AssertionError(f"the OLED never showed {screen}")


def test_a_six_seat_game_on_italian_phones_at_360_px(server, browser):
    post(server, "/api/host/game", {"game": "biglietti", "seats": SEATS, "options": {}})
    phones = Phones(server, range(SEATS))
    page = browser.new_context(locale="it-IT", **PHONE).new_page()
    page.goto(server.url + "/?lang=it")

    # Turn 1: player 5, on the right of the wagon, has no ticket; 4 and 6 play Scusa beside it, 2 Imparziale
    # links on, 3 hides: two Scusa, no Accusa, the card is eliminated; 2, 4, 5 and 6 exchange
    phones.act(choose(0, check=4), choose(4, ticket=False))
    phones.act(*[{"seat": s, "pick": card} for s, card in ((1, I), (2, N), (3, S), (5, S))])
    page.wait_for_selector(".ring .seat.counted")
    assert_the_whole_wagon_is_readable(page)
    assert page.locator('.ring .seat.checked[data-seat="4"]').count() == 1
    assert page.inner_text(".ring-count") == "Scusa contate: 2 · Accuse: 0"
    exchange = page.locator(".exchange li")
    assert exchange.count() == 4
    arrows = page.evaluate("""() => [...document.querySelectorAll('.exchange li')].map((li) =>
        getComputedStyle(li, '::before').content)""")
    assert set(arrows) <= {"none", "normal"} and "→" not in page.inner_text(".exchange")
    screenshot(page, "biglietti-moment-wagon-it")

    # Turn 2: player 4 is given a card worth 0; then player 2 shows the game's one Biglietto to the Andata's end
    phones.act(choose(0, check=3), choose(3, ticket=False))
    phones.act(*[{"seat": s, "pick": A} for s in (1, 2, 4, 5)], choose(0, value=0))
    while table(server)["step"] == "check":
        phones.act(choose(0, check=1), choose(1, ticket=True))
    phones.act(*[{"seat": s, "pick": "polfer" if s == 1 else "none"} for s in range(1, SEATS)])
    shown = table(server)
    assert shown["over"] and shown["winner"] == {"how": "polfer", "winners": [1], "without_cards": 3, "tickets": 1}
    page.wait_for_selector(".result .winners")
    assert ("Giocatore 2 aveva la Pol.Fer.: 3 viaggiatori senza carte controllo, con 1 biglietto in gioco"
            in page.inner_text("main"))
    assert "1 biglietti" not in page.inner_text("main")
    screenshot(page, "biglietti-moment-over-it")
    frame = wait_oled(server, oled.result(shown, "it"))
    (SCREENSHOTS / "biglietti-moment-oled-over.png").write_bytes(frame)
    assert oled.result(shown, "it").picture.lines[2:] == (
        "biglietti in gioco: 1", "3 senza carte: G3 G5", "   G6", "ne bastavano 2")

    page.goto(server.url + "/?lang=en")
    page.wait_for_selector(".result .winners")
    assert ("Player 2 held the Pol.Fer.: 3 travellers without control cards, with 1 ticket in play"
            in page.inner_text("main"))


@pytest.mark.parametrize("seats", [5, 9, 12])
def test_the_whole_wagon_fits_a_360_px_phone_at_every_size(server, browser, seats):
    """Every traveller plays its longest card word in the help round of the last seat, on the wagon's edge."""
    post(server, "/api/host/game", {"game": "biglietti", "seats": seats, "options": {}})
    phones = Phones(server, range(seats))
    page = browser.new_context(locale="it-IT", **PHONE).new_page()
    page.goto(server.url + "/?lang=it")
    checked = seats // 2
    phones.act(choose(0, check=checked), choose(checked, ticket=False))
    cards = [I, N, S]
    phones.act(*[{"seat": s, "pick": cards[s % 3]} for s in range(1, seats) if s != checked])
    page.wait_for_selector(".ring .seat.checked")
    assert_the_whole_wagon_is_readable(page)
    page.locator(".ring").screenshot(path=SCREENSHOTS / f"biglietti-moment-wagon-{seats}-it.png")

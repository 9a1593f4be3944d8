"""A 12-seat Biglietti game in mock mode on a box built with four pads wired direct (hardware/pinmap-direct.toml),
mixing every way a seat can play: players 1–4 press the virtual box's pads (player 1 is the controller: the cursor to check, buttons 1–5 for the secret values), players 5–10 play from
their phones (5–7 in Italian, 8–10 in English), and players 11 and 12, with neither, tell the host, who enters
for them from the host page. A help round with a chain, a card delivered, six hiders and a hid-without-ticket
double card, a give-back from a phone, then the Andata's end: the Pol.Fer. round, which player 7 wins. A local
copy of the rules follows along; after every line the box's public view must equal it. The ring panel is
saved at 360 px in both languages, and the OLED frames, in tests/screenshots/."""
import json
import re
import time
import urllib.request

import pytest

from device.cursor import NEXT, OK, Cursor
from engine.record import GameRecord, header
from engine.words import lookup
from games.biglietti import rules as B
from tests.browser import SCREENSHOTS, Server, click_key, pair, screenshot
from tests.test_browser_biglietti_moment import assert_the_whole_wagon_is_readable
from tests.conftest import DIRECT_PINMAP
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

SEATS, PADS, HOSTED = 12, range(4), (10, 11)
ITALIAN = (4, 5, 6)
S, A, I, N, T = B.SCUSA, B.ACCUSA, B.IMPARZIALE, B.NASCONDITI, B.BIGLIETTO


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--reveal-delay", "0", "--pinmap", str(DIRECT_PINMAP))
    yield running
    running.stop()


def get(server, path):
    return json.load(urllib.request.urlopen(server.url + path))


def oled(server, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    frame = urllib.request.urlopen(server.url + "/box/oled.png").read()
    (SCREENSHOTS / f"biglietti-oled-{name}.png").write_bytes(frame)


class Carriage:
    """The game as the box plays it, and a copy of it to find each choice in the prompts."""

    def __init__(self, server, box, phones, host):
        self.server, self.box, self.phones, self.host = server, box, phones, host
        self.record = GameRecord(header("biglietti", SEATS))

    @property
    def state(self):
        return self.record.state

    def act(self, line):
        seat = line["seat"]
        prompt = B.prompt(self.state, seat)
        choice = next(c for c in prompt.choices if c.action == line)
        version = get(self.server, "/api/table")["version"]
        if seat in PADS:
            self._press(seat, prompt, choice)
        else:
            page = self.phones.get(seat, self.host)
            lang = "it" if seat in ITALIAN else "en"  # the phone's word for it, else the box's
            word = lookup(lang, "biglietti", "phone", choice.label) or lookup(lang, "biglietti", "box", choice.label)
            for _ in range(5):  # a tap that met a panel being redrawn is tapped again
                self._tap(page, seat, word)
                if self._wait(version, 2):
                    break
        assert self._wait(version, 10), f"{line} changed nothing"
        self.record.apply(line)
        shown = get(self.server, "/api/table")
        del shown["version"]
        assert shown.pop("chance")  # the table's seal of its draws, beside the rules' view (test_chance.py)
        assert shown == json.loads(json.dumps(B.view(self.state, "public")))  # the box and the copy agree

    def _tap(self, page, seat, label):
        scope = page.locator(".panel", has=page.locator(f"text=For player {seat + 1} ")) if seat in HOSTED else page
        scope.locator(".prompt button.choice", has=page.locator("span", has_text=re.compile(
            f"^{re.escape(label)}$"))).first.click()

    def _press(self, seat, prompt, choice):
        """A pad: a fixed layout's button, or the cursor (a copy of the box's says where it stands)."""
        if prompt.pad is not None:
            self._pad(seat, next(i for i, c in enumerate(prompt.pad, 1) if c and c.action == choice.action))
            return
        cursor = Cursor().follow(prompt)
        while cursor.label() != choice.label:
            self._pad(seat, NEXT)
            cursor, _ = cursor.press(prompt, seat, NEXT)
        self._pad(seat, OK)

    def _pad(self, seat, button):
        """One press, waited for until the box has answered it (presses must not overtake each other)."""
        key = f'[data-seat="{seat}"][data-button="{button}"]'
        assert "error" not in click_key(self.box, key)

    def _wait(self, version, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if get(self.server, "/api/table")["version"] > version:
                return True
            time.sleep(0.05)
        return False

    # -- the lines of a turn ---------------------------------------------------------------------------
    def check(self, seat):
        self.act({"seat": 0, "choose": {"check": seat}})

    def ticket(self, has):
        self.act({"seat": self.state.checked, "choose": {"ticket": has}})

    def help(self, cards, default=A):
        for seat in self.state.picks.seats:
            self.act({"seat": seat, "pick": cards.get(seat, default)})

    def value(self, value):
        self.act({"seat": 0, "choose": {"value": value}})


def pair_seat(page, server, box, seat):
    page.goto(server.url + "/seat")
    pair(page, server, ("seat", seat), box)  # the code asked on the box's host panel, read off the OLED
    page.wait_for_selector(f"text={'Sei il giocatore' if seat in ITALIAN else 'You are player'} {seat + 1}")


def test_a_twelve_seat_game_on_pads_phones_and_the_host(server, browser):
    request = urllib.request.Request(server.url + "/api/host/game", method="POST",
                                     data=json.dumps({"game": "biglietti", "seats": SEATS, "options": {}}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    box = browser.new_page(viewport={"width": 1100, "height": 900})
    box.goto(server.url + "/box")
    box.wait_for_selector('[data-seat="3"][data-button="8"]')
    assert box.locator(".pad").count() == 4  # the pin map wires four pads; the other seats play otherwise

    phones = {}
    for seat in range(4, 10):
        page = browser.new_context(locale="it-IT" if seat in ITALIAN else "en-GB", **PHONE).new_page()
        pair_seat(page, server, box, seat)
        phones[seat] = page
    host = browser.new_context(locale="en-GB", **PHONE).new_page()
    host.goto(server.url + "/host")
    watcher = {lang: browser.new_context(locale=locale, **PHONE).new_page()
               for lang, locale in (("it", "it-IT"), ("en", "en-GB"))}
    for lang, page in watcher.items():
        page.goto(server.url + f"/?lang={lang}")

    game = Carriage(server, box, phones, host)
    oled(server, "1-check")
    # Turn 1: player 5 (a phone) has no ticket; the chain 6 S, 7 I, 8 S and 4 S counts 3 against 2 Accusa
    game.check(4)
    game.ticket(False)
    oled(server, "2-help")
    host.wait_for_selector("text=For player 12")  # the seats with neither pad nor phone: the host's page
    assert host.locator("text=For player 11").count() == 1 and host.locator("text=For player 5 ").count() == 0
    game.help({5: S, 6: I, 7: S, 8: N, 3: S, 2: A, 9: A, 1: N, 10: I, 11: T})
    record = game.state.turns[-1]
    assert record["counted"] == [5, 7, 3] and record["outcome"] == "delivered"
    oled(server, "3-ring")
    game.value(2)  # the controller's pad, button 3: never on the display
    assert get(server, "/api/table")["points"] == [None] * SEATS
    phones[4].wait_for_selector("text=I tuoi punti controllo: 2")
    for lang, page in watcher.items():
        page.wait_for_selector(".ring .seat.counted")
        assert page.locator(".ring .seat.counted").count() == 3 and page.locator(".ring .link").count() == 4
        assert_the_whole_wagon_is_readable(page)  # twelve seats on a 360 px phone
        screenshot(page, f"biglietti-phone-ring-{lang}")
    screenshot(phones[4], "biglietti-phone-seat-it")

    # Turn 2: player 5 again; six travellers hide, so only they may be checked next
    game.check(4)
    game.ticket(False)
    game.help({1: N, 2: N, 3: N, 5: N, 6: N, 7: N})
    game.value(1)
    assert get(server, "/api/table")["checkable"] == [1, 2, 3, 5, 6, 7]
    # Turn 3: player 6 hid and has no ticket: it receives two cards
    game.check(5)
    game.ticket(False)
    game.value(0)
    game.value(1)
    # Turn 4: player 2 is helped by nobody; six hide again; turn 5: player 6 hid, shows a ticket, gives back a 1
    game.check(1)
    game.ticket(False)
    game.help({2: N, 3: N, 5: N, 6: N, 7: N, 8: N})
    game.value(0)
    game.check(5)
    game.ticket(True)
    screenshot(phones[5], "biglietti-phone-discard-it")
    game.act({"seat": 5, "choose": {"discard": 1}})
    assert game.state.held[5] == (0,)
    # the rest of the Andata: player 2 shows a ticket at each check
    while game.state.step == B.CHECK:
        game.check(1)
        game.ticket(True)
    assert game.state.step == B.POLFER_ROUND
    oled(server, "4-polfer")
    for seat in game.state.picks.seats:
        game.act({"seat": seat, "pick": B.POLFER if seat == 6 else B.NONE})
    shown = get(server, "/api/table")
    # travellers other than player 7 without a control card: 3, 4, 8, 9, 10, 11, 12 = 7 ≥ 2 × 3 tickets
    assert shown["over"] and shown["result"]["winners"] == [6] and shown["polfer"] == 6
    assert shown["winner"]["without_cards"] == 7 and shown["turn"] == 15
    oled(server, "5-result")
    for lang, page in watcher.items():
        page.wait_for_selector(".result .winners")
        screenshot(page, f"biglietti-phone-over-{lang}")
    assert "Giocatore 7 aveva la Pol.Fer." in watcher["it"].inner_text("main")
    assert "Player 7 held the Pol.Fer." in watcher["en"].inner_text("main")

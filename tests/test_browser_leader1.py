"""A whole Leader 1 stage in mock mode: two teams of two riders; team 1 plays from its Italian phone, team 2
presses its pad's cursor on the virtual box. A breakaway, a chase, a crash, the red 4 and a puncture, the
finish. The die is loaded (`--chance`, its d12 lines) so the stage goes the same way every time; a local copy of the rules
follows along to know where each choice stands in the prompt. The OLED frames and the phone panels are saved
in tests/screenshots/ to be looked at."""
import json
import re
import time
import urllib.request

import pytest

from device.cursor import NEXT, OK, Cursor
from engine.record import GameRecord, header
from engine.words import say
from games.leader1 import rules as L
from tests.browser import SCREENSHOTS, Server, click_key, pair, screenshot
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

ROLLS = [0, 5, 8, 5, 0, 8]  # 3: the crash; red 4: the peloton; 5; red 4: a puncture; 3; 5
OPTIONS = {"riders": [["leader", "scalatore"], ["leader", "scalatore"]], "energy": 40}


def d12(*faces):
    return [{"chance": "d12", "outcome": face} for face in faces]


@pytest.fixture
def scripted(tmp_path):
    """scripted(chance lines): `arbitro --mock` drawing them in order."""
    running = []

    def start(chances):
        running.append(Server(tmp_path / "data", "--reveal-delay", "0", "--chance", json.dumps(chances)))
        return running[-1]
    yield start
    for server in running:
        server.stop()


@pytest.fixture
def server(scripted):
    return scripted(d12(*ROLLS))


def get(server, path):
    return json.load(urllib.request.urlopen(server.url + path))


def oled(server, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"leader1-oled-{name}.png").write_bytes(urllib.request.urlopen(server.url + "/box/oled.png").read())


class Stage:
    """The stage as the box plays it, and a copy of it to find each choice in the prompts."""

    def __init__(self, server, box, phone, options=OPTIONS, chances=None):
        self.server, self.box, self.phone = server, box, phone
        self.record = GameRecord(header("leader1", 2, options))
        self.rolls = list(chances or d12(*ROLLS))
        self.words = lambda key: say("it", "leader1", "box", key)

    def do(self, seat, **choose):
        action = {"seat": seat, "choose": choose}
        prompt = L.prompt(self.record.state, seat)
        choice = next(c for c in prompt.choices if c.action == action)
        version = get(self.server, "/api/table")["version"]
        if seat == 0:
            # The phone redraws on each new version: a tap that met a panel being redrawn is tapped again.
            for _ in range(5):
                self._tap(prompt, choice)
                if self._wait(version, 2):
                    break
        else:
            self._press(prompt, choice)
        assert self._wait(version, 10), f"{action} changed nothing"
        self.record.apply(action)
        while self.record.needs_chance:
            self.record.apply(self.rolls.pop(0))
        shown = get(self.server, "/api/table")
        del shown["version"]
        assert shown.pop("chance")  # the table's seal of its draws, beside the rules' view (test_chance.py)
        assert shown == json.loads(json.dumps(L.view(self.record.state, "public")))  # the box and the copy agree

    def _tap(self, prompt, choice):
        """Team 1's phone: the group's button first where the choice has one, then the choice; a move's fields
        are all open at once: the choice's own button, in its field's row."""
        exact = (lambda words: re.compile(f"^{re.escape(words)}$"))
        where = self.phone.locator(".prompt")
        if choice.group and prompt.title == "choose_move":
            name = self.phone.locator(".field-name", has_text=exact(self.words(choice.group)))
            where = where.locator(".field", has=name)
        elif choice.group:
            where.locator("button.choice", has_text=exact(self.words(choice.group))).first.click()
        where.locator("button.choice", has_text=exact(self.words(choice.label))).first.click()

    def _press(self, prompt, choice):
        """Team 2's pad: a copy of the box's cursor says where the cursor stands; the pad moves it to the
        choice's group (if it has one), then to the choice."""
        cursor = Cursor().follow(prompt)
        for target in filter(None, (choice.group, choice.label)):
            while cursor.label() != target:
                self._pad(NEXT)
                cursor, _ = cursor.press(prompt, 1, NEXT)
            self._pad(OK)
            cursor, _ = cursor.press(prompt, 1, OK)

    def _pad(self, button):
        """One press, waited for until the box has answered it (presses must not overtake each other)."""
        key = f'[data-seat="1"][data-button="{button}"]'
        assert "error" not in click_key(self.box, key)

    def _wait(self, version, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if get(self.server, "/api/table")["version"] > version:
                return True
            time.sleep(0.05)
        return False

    def move(self, seat, kind, start, spaces, *fields):
        self.do(seat, ride=kind)
        self.do(seat, **{"from": start})
        self.do(seat, spaces=spaces)
        for field in fields:
            self.do(seat, **field)
        self.do(seat, go=True)

    def rider(self, seat, kind):
        return next(r for r in get(self.server, "/api/table")["riders"] if (r["seat"], r["type"]) == (seat, kind))


def started(server, browser, options):
    """A race of 2 teams with `options`: (the virtual box's page, an Italian phone on /seat, not yet paired)."""
    request = urllib.request.Request(server.url + "/api/host/game", method="POST",
                                     data=json.dumps({"game": "leader1", "seats": 2, "options": options}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    box = browser.new_page(viewport={"width": 1100, "height": 900})
    box.goto(server.url + "/box")
    box.wait_for_selector('[data-seat="1"][data-button="8"]')
    phone = browser.new_context(locale="it-IT", **PHONE).new_page()
    phone.goto(server.url + "/seat")
    return box, phone


def test_a_whole_leader1_stage_through_a_phone_and_the_pads(server, browser):
    box, phone = started(server, browser, OPTIONS)
    pair(phone, server, ("seat", 0), box)
    phone.wait_for_selector("text=Sei il giocatore 1")
    stage = Stage(server, box, phone)

    # Before the start: team 1 makes its leader a velocista; everyone lines up at the head.
    phone.wait_for_selector(".prompt button.choice")
    screenshot(phone, "leader1-phone-qualities-it")
    stage.do(0, quality=["leader", "velocista"])
    stage.do(0, quality=None)
    stage.do(1, quality=None)
    for seat in (0, 1):
        for kind in ("leader", "scalatore"):
            stage.do(seat, place=[kind, L.TESTA])

    # Turn 1. Team 2's leader breaks away over a damaged space in the paid part, and crashes on a 3.
    stage.do(1, ride="leader")
    stage.do(1, **{"from": "pianura"})
    stage.do(1, spaces=5)
    stage.do(1, road=5)
    oled(server, "form")
    stage.do(1, go=True)
    oled(server, "crash")
    leader = stage.rider(1, "leader")
    assert (leader["energy"], leader["risks"], leader["crashed"], leader["place"]) == (40 - 5, 1, True, L.FUGA)
    stage.do(1, ride=None)
    stage.do(0, ride=None)
    stage.do(0, place=None)
    stage.do(1, place=None)
    # Team 1 chases: its token leads; the red 4 moves the peloton 4 + 1 and opens the puncture round.
    stage.do(0, chase=True)
    stage.do(1, chase=False)
    stage.do(0, roll="pianura")
    oled(server, "peloton-red")
    shown = get(server, "/api/table")
    assert shown["peloton"]["move"] == 5 and shown["chases"] == [5, 6]
    assert [stage.rider(0, k)["energy"] for k in ("leader", "scalatore")] == [38, 38]  # head pays 2
    stage.do(0, catch=None)
    assert get(server, "/api/table")["phase"] == L.PUNCTURES
    stage.do(0, roll="leader")
    stage.do(0, roll="scalatore")
    oled(server, "puncture")
    stage.do(1, roll="scalatore")
    punctured = stage.rider(0, "scalatore")
    assert punctured["punctured"] and punctured["place"] == L.STACCATO
    screenshot(phone, "leader1-phone-puncture-it")

    # Turn 2: the crashed rider sits out; team 1's leader attacks and wins the stage on the line.
    stage.do(1, ride=None)
    stage.do(0, ride="leader")
    stage.do(0, **{"from": "pianura"})
    stage.do(0, spaces=4)
    stage.do(0, finish=True)
    screenshot(phone, "leader1-phone-move-it")
    stage.do(0, go=True)
    stage.do(0, ride=None)
    stage.do(1, place=None)
    stage.do(0, chase=False)
    stage.do(1, chase=False)
    stage.do(0, roll="pianura")
    stage.do(0, catch=L.ARRIVATO)  # the peloton crosses the line: team 2's climber is 2nd
    stage.do(0, catch=None)
    stage.move(0, "scalatore", "pianura", 3, {"finish": True})  # the punctured rider plays last
    # Turn 3: the crashed leader rides again and finishes last.
    stage.move(1, "leader", "pianura", 2, {"finish": True})
    shown = get(server, "/api/table")
    assert shown["over"] and shown["result"]["winners"] == [0]
    assert shown["finish_order"] == [[0, "leader"], [1, "scalatore"], [0, "scalatore"], [1, "leader"]]
    assert stage.rolls == []
    oled(server, "result")
    phone.wait_for_selector(".panel.over")
    screenshot(phone, "leader1-phone-over-it")
    phone.goto(server.url + "/?lang=it")  # the table page ends with the order of arrival, every rider
    phone.wait_for_selector(".standings li")
    assert [" ".join(li.inner_text().split()) for li in phone.locator(".standings li").all()] == [
        "1º 1 Giocatore 1, leader", "2º 2 Giocatore 2, scalatore", "3º 1 Giocatore 1, scalatore",
        "4º 2 Giocatore 2, leader +1 turno"]
    screenshot(phone, "leader1-phone-table-it-over")
    table = browser.new_context(locale="en-GB", **PHONE).new_page()
    table.goto(server.url + "/")
    table.wait_for_selector(".sheet")
    screenshot(table, "leader1-phone-table-en")


BOX_TILES = {**OPTIONS, "supply": "box"}  # a classic: each rider draws a tile before the start, held by the box


def test_the_tables_moments_of_a_crash_and_of_tiles_the_box_holds_in_italian_at_360_px(scripted, browser):
    """The Italian host's table at 360 px (issue 51). With the tiles held by the box no prompt said "Scelta
    segreta" truthfully: the OLED drew every choice for the table; only the tiles are the team's own. A crashed
    rider's refused move said "only a rider at the head of the peloton may break away"; the peloton passing it took
    it back (the rulebook: it is off the road and starts again where it crashed)."""
    chances = [{"chance": "supply", "outcome": v} for v in (3, 5, 4, 2)] + d12(0, 8)  # the tiles; a crash; 5
    server = scripted(chances)
    box, phone = started(server, browser, BOX_TILES)
    pair(phone, server, ("seat", 0))
    english = browser.new_context(locale="en-GB", **PHONE).new_page()
    english.goto(server.url + "/seat")
    pair(english, server, ("seat", 1))
    stage = Stage(server, box, phone, BOX_TILES, chances)

    # The qualities: an open choice the OLED shows as the pad's cursor moves; the phone calls it no secret.
    phone.wait_for_selector(".prompt button.choice")
    assert "Scelta segreta" not in phone.inner_text(".prompt")
    assert "error" not in click_key(box, '[data-seat="0"][data-button="2"]')  # team 1's pad: the cursor moves
    oled(server, "quality-cursor")  # "G1: che qualità? > …", for the whole table
    stage.do(0, quality=None)
    stage.do(1, quality=None)
    for seat in (0, 1):
        for kind in ("leader", "scalatore"):
            stage.do(seat, place=[kind, L.TESTA])

    # Turn 1, attacks: each team's phone offers its tiles, and says that only it sees them.
    english.wait_for_selector(".prompt .note")
    assert "Only you see your supply tiles" in english.inner_text(".prompt")
    assert "Secret pick" not in english.inner_text(".prompt")
    screenshot(english, "leader1-phone-tiles-en")
    stage.do(1, ride=None)
    phone.wait_for_selector(".prompt .note")
    prompt = phone.inner_text(".prompt")
    assert "Le tue tessere rifornimento le vedi solo tu" in prompt and "Scelta segreta" not in prompt
    assert "rifornimento leader" in prompt  # the group of the tiles the box holds for team 1's leader
    screenshot(phone, "leader1-phone-tiles-it")

    # Team 1's leader breaks away over a damaged space and crashes on a 3; it may not move again, and the reason
    # is the turn it sits out.
    stage.move(0, "leader", "pianura", 5, {"road": 5})
    assert stage.rider(0, "leader")["crashed"]
    answer = phone.evaluate("""() => fetch('/api/seats/0/act', {method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({action: {seat: 0, choose: {ride: 'leader'}}})}).then((r) => r.json())""")
    assert "il corridore leader è caduto: è fuori strada e riparte al turno 3" in answer["error"], answer
    oled(server, "crashed-refused")
    stage.do(0, ride=None)
    stage.do(0, place=None)
    stage.do(1, place=None)
    stage.do(0, chase=False)
    stage.do(1, chase=False)
    stage.do(0, roll="pianura")  # the peloton moves 5 and reaches the crashed rider: it passes it

    # The leading team's phone: the crashed rider may only be passed, never caught.
    phone.wait_for_selector(".prompt button.choice.group")
    phone.locator(".prompt button.choice.group", has_text="G1 leader").click()
    phone.wait_for_selector(".prompt button.choice.back")
    assert [b.inner_text() for b in phone.locator(".prompt button.choice").all()] == ["caduto: superato", "←"]
    screenshot(phone, "leader1-phone-passed-it")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # the sheet's "fuga caduto" fits
    phone.click(".prompt button.choice.back")
    phone.wait_for_selector(".prompt button.choice.group")
    stage.do(0, catch=[0, "leader", L.STACCATO])
    oled(server, "passed")
    assert stage.rider(0, "leader")["place"] == L.STACCATO
    phone.wait_for_selector("text=Giocatore 1 leader, caduto, superato dal gruppo: riparte dietro")
    stage.do(0, catch=None)
    assert stage.rolls == [] and get(server, "/api/table")["turn"] == 2

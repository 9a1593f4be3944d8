"""A keyboard-only player finishes a whole game from a seat's phone, in Italian at 360 px: a Leader 1 race of two
teams and a game of I ponti di Shangri-La at its shortest (3 players). The phone pairs, chooses and confirms with
Tab, Shift+Tab, Enter and Space alone; the other seats play through the host's entry (the box's API), as players
without pad or phone tell the host. Before and after every key press, and after every other seat's move, the
focus is on a control of the page (never <body>), and after a key press that control is in sight: not under the
sticky header, the refusal bar or the map's shaded edges, not beyond the screen's sides nor panned out of the
map's view."""
import json
import random
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from tests.browser import Server, post, screenshot
from tests.test_browser_moments import FOCUSED
from tests.test_browser_phones import PHONE
from tests.test_browser_shangrila import preferred

pytestmark = pytest.mark.browser

ONE_PAD = Path(__file__).parent / "pinmap-one-seat.toml"  # seat 1 has a pad; the others: the host enters for them

# Beyond FOCUSED's checks (the header, the refusal bar): the focused control is wholly in sight, nothing drawn over
# it: at its corners and its centre the page shows the control itself (or its own drawing: a village's card on the
# map is drawn over by its name and spaces), not another part of the page (the map's shaded edges), nor nothing
# (beyond the screen's sides, or panned out of the map's view).
COVERED = """() => {
  const active = document.activeElement;
  const own = active instanceof SVGElement ? active.parentNode : active;
  const box = active.getBoundingClientRect();
  const inset = Math.min(8, box.width / 4, box.height / 4);  // inside rounded corners
  const points = [[box.left + inset, box.top + inset], [box.right - inset, box.top + inset],
                  [box.left + inset, box.bottom - inset], [box.right - inset, box.bottom - inset],
                  [(box.left + box.right) / 2, (box.top + box.bottom) / 2]];
  const hit = points.map(([x, y]) => document.elementFromPoint(x, y)).find((node) => !node || !own.contains(node));
  return hit === undefined ? null : hit ? hit.className.baseVal ?? hit.className ?? hit.tagName : "nothing";
}"""

# Where the control keyed `key` (its data-key, or "#" and its id, as phone.js keys them) stands from the focus: 0
# when it has it, 1 after it in the page's order, -1 before; null when the page has no such control to tab to.
TOWARDS = """(key) => {
  const target = key.startsWith('#') ? document.getElementById(key.slice(1))
    : [...document.querySelectorAll('[data-key]')].find((node) => node.dataset.key === key);
  if (!target || target.tabIndex < 0 || target.disabled || !target.getClientRects().length) return null;
  const active = document.activeElement;
  if (target === active) return 0;
  return active === document.body || active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1;
}"""


def get(server, path):
    return json.load(urllib.request.urlopen(server.url + path))


def drawn(page, version):
    """Waits until the page has drawn the box's version `version` (or a later one)."""
    page.wait_for_function(f"() => Number(document.getElementById('main').dataset.version) >= {version}")


def action_key(action):
    """A choice's button key on the phone: "choice:" and its action as JavaScript writes it."""
    return "choice:" + json.dumps(action, separators=(",", ":"), ensure_ascii=False)


class Keyboard:
    """A player who has only a keyboard: every key press checked for where it leaves the focus."""

    def __init__(self, page):
        self.page, self.presses, self.loaded = page, Counter(), True

    def check(self, when, seen=True):
        where = self.page.evaluate(FOCUSED)
        assert where["tag"] != "BODY", f"the focus fell to <body> {when}"
        if seen:
            assert not where["hidden"], f"{where['key']!r} is under the header or the refusal bar {when}"
            covered = self.page.evaluate(COVERED)
            assert covered is None, f"{where['key']!r} is not wholly in sight ({covered!r} over it) {when}"

    def press(self, key, *, leaves=False):
        """One key; `leaves`: it loads another page (where the browser starts from the document again)."""
        if not self.loaded:  # a page just loaded starts on the document: from the first key press on, never
            self.check(f"before {key}")
        self.page.keyboard.press(key)
        self.presses[key] += 1
        self.loaded = leaves
        if not leaves:
            self.check(f"after {key} (press {self.presses.total()})")

    def reach(self, key, limit=200):
        """Tab (or Shift+Tab, whichever way it lies) to the control keyed `key`."""
        self.page.wait_for_function(f"() => ({TOWARDS})({json.dumps(key)}) !== null")
        for _ in range(limit):
            way = self.page.evaluate(TOWARDS, key)
            assert way is not None, f"{key!r} went away"
            if way == 0:
                return
            self.press("Tab" if way > 0 else "Shift+Tab")
        raise AssertionError(f"{limit} presses never reached {key!r}")

    def enter(self, key, press="Enter"):
        self.reach(key)
        self.press(press)


class Table:
    """The box through its API: each seat's prompt (the keyboard's phone reads its own, as its page does), the
    host's entry for the seats without pad or phone, and waits on the page's drawing of the box's newest
    version."""

    def __init__(self, server, page, seat=0):
        self.server, self.page, self.seat = server, page, seat

    def version(self):
        return get(self.server, "/api/table")["version"]

    def prompts(self):
        """The prompts waiting for an answer, by seat (a locked-in secret pick waits for no one)."""
        own = self.page.request.get(self.server.url + "/api/table?view=seat").json()
        views = [own, *get(self.server, "/api/host/seats")["seats"]]
        return {v["viewer"]: v["prompt"] for v in views
                if v.get("prompt") and v["prompt"]["choices"] and v["prompt"]["current"] is None}

    def enter(self, seat, action):
        """The host enters a seat's action."""
        post(self.server, f"/api/host/seats/{seat}/act", {"action": action})

    def moved(self, before, timeout=15):
        """The box's version after `before`, once the page has drawn it."""
        deadline = time.monotonic() + timeout
        while (now := self.version()) == before:
            assert time.monotonic() < deadline, "the action changed nothing"
            time.sleep(0.02)
        drawn(self.page, now)
        return now


def start(server, browser, game, seats, options):
    """The game started by the host; a phone that pairs for seat 1 by keyboard, with the code the host's
    screen shows (this computer's browser is the host in mock mode)."""
    post(server, "/api/host/game", {"game": game, "seats": seats, "options": options})
    page = browser.new_context(locale="it-IT", **PHONE).new_page()
    page.goto(server.url + "/seat?lang=it")
    page.wait_for_selector("#pair-code")
    keys = Keyboard(page)
    code = post(server, "/api/host/pair", {"seat": 0})["code"]
    keys.reach("#pair-code")
    page.keyboard.type(code)  # into the focused field, as a person types
    keys.press("Enter", leaves=True)  # the form is sent; the page loads again as player 1's
    page.wait_for_selector(".status .meeple")
    return page, keys, Table(server, page)


def play(table, keys, choose, answer, limit=400):
    """The game to its end: the keyboard's seat answers its prompts by `answer(prompt, action)` as `choose` picks,
    the host enters the others' in seat order. Returns the moves made."""
    moves = 0
    while not get(table.server, "/api/table")["over"]:
        prompts = table.prompts()
        assert prompts, "no one may act, and the game is not over"
        seat = table.seat if table.seat in prompts else min(prompts)
        before = table.version()
        action = choose(prompts[seat])
        if seat == table.seat:
            drawn(table.page, before)
            answer(prompts[seat], action)
            table.moved(before)
            keys.check("once the page drew what the key did")
        else:
            table.enter(seat, action)
            table.moved(before)
            keys.check(f"after player {seat + 1}'s move", seen=False)
        moves += 1
        assert moves < limit, "the game did not end"
    return moves


# -- Leader 1 ------------------------------------------------------------------------------------------------------
RACE = {"riders": [["leader", "scalatore"], ["leader", "scalatore"]], "energy": 40}
CALM = [{"chance": "d12", "outcome": 8}] * 12  # the die shows a plain 5: no red 4, no puncture round


def race_choice(prompt):
    """The shortest race: no qualities, everyone at the head; each team's leader attacks over the line, the
    climbers stay in the peloton, no one chases, and the peloton crosses the line."""
    def rank(choice):
        (field, value), = choice["action"]["choose"].items()
        if field == "place":
            return -1 if value is None else 3 if value[1] == "testa" else 7
        if field == "ride":
            return 2 if value == "leader" else 8 if value is None else 9
        wanted = {"finish": (True, 0), "go": (True, 1), "catch": ("arrivato", 0), "chase": (False, 0),
                  "quality": (None, 0), "supply": (None, 20)}
        if field in wanted:
            return wanted[field][1] if value == wanted[field][0] else 9
        return 5  # where it starts, how far, the peloton's terrain: any
    return min(prompt["choices"], key=rank)["action"]


def leader1_answer(keys):
    def answer(prompt, action):
        choice = next(c for c in prompt["choices"] if c["action"] == action)
        if choice["group"] and prompt["title"] != "choose_move":  # a move's fields are all open at once
            keys.enter("group:" + choice["group"], press="Space")
        keys.enter(action_key(action))
        if choice.get("confirm"):  # the first press arms it, the second sends it
            keys.press("Enter")
    return answer


def test_a_keyboard_alone_finishes_a_leader1_race(tmp_path, browser):
    server = Server(tmp_path / "data", "--pinmap", str(ONE_PAD), "--reveal-delay", "0", "--chance", json.dumps(CALM))
    try:
        began = time.monotonic()
        page, keys, table = start(server, browser, "leader1", 2, RACE)
        moves = play(table, keys, race_choice, leader1_answer(keys))
        shown = get(server, "/api/table")
        assert shown["over"] and len(shown["finish_order"]) == 4
        page.wait_for_selector(".result .winners")
        assert "Vince" in page.inner_text(".result .winners") and page.locator(".panel.over").is_visible()
        assert page.locator(".result .standings li").count() == 4  # every rider's place
        keys.check("at the end")
        screenshot(page, "keyboard-leader1-over-it")
        print(f"Leader 1 by keyboard: {moves} moves, {dict(keys.presses)}, {time.monotonic() - began:.0f} s")
    finally:
        server.stop()


# -- I ponti di Shangri-La -----------------------------------------------------------------------------------------
def shangrila_choice(rng):
    """A journey when there is one, else two students, else a master placed, else the pass: the game ends soon."""
    return lambda prompt: preferred([c["action"] for c in prompt["choices"]], rng)


def shangrila_answer(keys, server, done):
    """Each kind of move as the map offers it; `done` counts them (a journey previewed before it is confirmed
    counts as "preview" too)."""
    page = keys.page

    def open_village(v):
        if page.get_attribute(f'[data-key="village:{v}"]', "aria-pressed") != "true":
            keys.enter(f"village:{v}")
            page.wait_for_selector(f'[data-key="village:{v}"][aria-pressed="true"]')

    def answer(prompt, action):
        choose = action["choose"]
        done.update(choose.keys() - {"village"})
        if "pass" in choose:
            keys.enter("pass")
        elif "place" in choose:
            open_village(choose["village"])
            keys.enter(f"space:{choose['place']}", press="Space")
        elif "recruit" in choose:
            for kind, v in choose["recruit"]:
                open_village(v)
                keys.enter(f"space:{kind}")
                page.wait_for_selector(f'[data-key="space:{kind}"][aria-pressed="true"]')
            keys.enter("recruit")
        else:
            a, b = choose["journey"]
            open_village(a)
            keys.enter(f"journey:{b}")
            if any(p["from"] == a and p["to"] == b for p in get(server, "/api/table")["previews"]):
                keys.enter("journey-confirm")  # a journey is previewed first, then confirmed
                done["preview"] += 1
    return answer


def test_a_keyboard_alone_finishes_a_game_of_shangrila(tmp_path, browser):
    server = Server(tmp_path / "data", "--pinmap", str(ONE_PAD))
    try:
        began = time.monotonic()
        page, keys, table = start(server, browser, "shangrila", 3, {})
        done = Counter()
        moves = play(table, keys, shangrila_choice(random.Random(7)), shangrila_answer(keys, server, done))
        shown = get(server, "/api/table")
        assert shown["over"] and shown["end_rule"] in ("R-3", "R-4")
        assert {"place", "recruit", "journey", "preview"} <= set(done), done  # every kind of move, by keyboard
        page.wait_for_selector(".result .winners")
        assert page.locator(".panel.over").is_visible()
        keys.check("at the end")
        screenshot(page, "keyboard-shangrila-over-it")
        print(f"Shangri-La by keyboard: {moves} moves ({dict(done)} by keyboard), {dict(keys.presses)}, "
              f"{time.monotonic() - began:.0f} s")
    finally:
        server.stop()

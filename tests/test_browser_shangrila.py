"""A whole game of I ponti di Shangri-La entered on three phones in mock mode: every placement, recruit and
journey is tapped on the map (a village, then a space or a bridge; a journey is previewed, then confirmed). A
local copy of the rules follows along and chooses each move (journeys first, so the game ends soon); after
every action the box's public view must equal it. The map, the journey preview and the end are saved in
tests/screenshots/ in both languages."""
import json
import random
import time
import urllib.request

import pytest

from engine.record import GameRecord, header
from games.shangrila import rules as G
from tests.browser import Server, pair, post, screenshot
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

LOCALES = ("it-IT", "en-GB", "it-IT")


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data")
    yield running
    running.stop()


def get(server, path):
    return json.load(urllib.request.urlopen(server.url + path))


def pick(state, rng):
    """The next move: a journey when there is one, else two students, else a placement (or the pass)."""
    return preferred(G.legal_actions(state, state.to_act), rng)


def preferred(actions, rng):
    """Of `actions`, a journey when there is one, else two students, else a placement (or the pass): a game
    played so ends soon."""
    for kind in ("journey", "recruit", "place", "pass"):
        found = [a for a in actions if kind in a["choose"]]
        if kind == "recruit":
            found = [a for a in found if len(a["choose"]["recruit"]) == 2] or found
        if found:
            return rng.choice(found)
    raise AssertionError(actions)


class Phones:
    def __init__(self, server, pages):
        self.server, self.pages = server, pages
        self.record = GameRecord(header("shangrila", 3))
        self.looked = set()

    def act(self, action):
        page = self.pages[action["seat"]]
        version = get(self.server, "/api/table")["version"]
        page.wait_for_selector(".prompt")
        choose = action["choose"]
        if "pass" in choose:
            page.click(".prompt button.choice")
        elif "place" in choose:
            self.village(page, choose["village"])
            if self.record.state.phase == G.PLAY:
                self.only_teachable_masters_offer_recruit(page, action["seat"], choose["village"])
            page.click(f'.prompt .space-button[data-kind="{choose["place"]}"]')
        elif "recruit" in choose:
            for kind, village in choose["recruit"]:
                self.village(page, village)
                self.only_teachable_masters_offer_recruit(page, action["seat"], village)
                page.click(f'.prompt .space-button[data-kind="{kind}"]')
            page.click(".prompt .recruits .primary")
        else:
            a, b = choose["journey"]
            self.village(page, a)
            self.only_teachable_masters_offer_recruit(page, action["seat"], a)
            # only the journeys the rules list from here are offered (defect: one without students was offered,
            # then refused after the tap)
            legal = {x["choose"]["journey"][1] for x in G.legal_actions(self.record.state, action["seat"])
                     if "journey" in x["choose"] and x["choose"]["journey"][0] == a}
            offered = {int(n) for n in page.eval_on_selector_all(".prompt .bridges button[data-to]",
                                                                 "(bs) => bs.map((b) => b.dataset.to)")}
            assert offered == legal
            page.click(f'.prompt .bridges button[data-to="{b}"]')
            page.wait_for_selector(".prompt .preview")
            lang = "it" if action["seat"] != 1 else "en"
            if f"preview-{lang}" not in self.looked:
                self.looked.add(f"preview-{lang}")
                screenshot(page, f"shangrila-phone-preview-{lang}")
            page.click(".prompt .preview .primary")
        deadline = time.monotonic() + 10
        while get(self.server, "/api/table")["version"] == version:
            assert time.monotonic() < deadline, f"{action} changed nothing"
            time.sleep(0.03)
        self.record.apply(action)
        shown = get(self.server, "/api/table")
        del shown["version"]
        assert shown.pop("chance")  # the table's seal of its draws, beside the rules' view (test_chance.py)
        assert shown == json.loads(json.dumps(G.view(self.record.state, "public")))

    def only_teachable_masters_offer_recruit(self, page, seat, village):
        """A master with a student already is not offered "recruit": only what the rules would take is."""
        legal = {kind for a in G.legal_actions(self.record.state, seat) if "recruit" in a["choose"]
                 for kind, v in a["choose"]["recruit"] if v == village}
        words = {"recluta", "recruit", "scelto", "chosen"}
        offered = {button.get_attribute("data-kind") for button in page.query_selector_all(".prompt .space-button")
                   if any(w.inner_text() in words for w in button.query_selector_all(".what"))}
        assert offered == legal

    @staticmethod
    def village(page, v):
        page.click(f'.prompt svg [data-village="{v}"]')
        page.wait_for_selector(f'.prompt svg .village.selected[data-village="{v}"]')


def test_a_whole_game_tapped_on_the_map(server, browser):
    request = urllib.request.Request(server.url + "/api/host/game", method="POST",
                                     data=json.dumps({"game": "shangrila", "seats": 3, "options": {}}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    pages = []
    for seat, locale in enumerate(LOCALES):
        page = browser.new_context(locale=locale, **PHONE).new_page()
        page.goto(server.url + "/seat")
        pair(page, server, ("seat", seat))
        page.wait_for_selector(".status .meeple")
        pages.append(page)
    phones = Phones(server, pages)
    # a refusal comes back with its reason, and nothing changes: a second master in the setup's full village
    pages[0].wait_for_selector(".prompt")
    phones.act({"seat": 0, "choose": {"place": G.KINDS[0], "village": 0}})
    phones.act({"seat": 1, "choose": {"place": G.KINDS[1], "village": 0}})
    version = get(server, "/api/table")["version"]
    Phones.village(pages[2], 0)
    pages[2].click(f'.prompt .space-button[data-kind="{G.KINDS[2]}"]')
    pages[2].wait_for_selector("#error:not([hidden])")
    assert "il villaggio 1 ha già 2 tessere" in pages[2].inner_text("#error")  # an Italian phone, in Italian
    assert get(server, "/api/table")["version"] == version
    screenshot(pages[2], "shangrila-phone-setup-it")

    rng = random.Random(7)
    while not phones.record.is_over:
        if phones.record.state.phase == G.PLAY and "map" not in phones.looked:
            phones.looked.add("map")
            pages[0].wait_for_selector(".prompt svg")
            screenshot(pages[0], "shangrila-phone-map-it")
        phones.act(pick(phones.record.state, rng))
    shown = get(server, "/api/table")
    assert shown["over"] and shown["result"]["winners"] and shown["end_rule"] in ("R-3", "R-4")
    assert {"preview-it", "preview-en"} <= phones.looked
    for lang, page in (("it", pages[0]), ("en", pages[1])):
        page.goto(server.url + f"/?lang={lang}")
        page.wait_for_selector(".result .winners")
        page.click('svg [data-village="4"]')
        page.wait_for_selector(".village-detail")
        screenshot(page, f"shangrila-phone-over-{lang}")


def visible_in_map(page, v):
    """Whether village `v`'s card lies wholly inside the part of the map the phone shows."""
    return page.evaluate("""(v) => {
      const box = document.querySelector('.prompt .map-box').getBoundingClientRect();
      const card = document.querySelector(`.prompt [data-key="village:${v}"]`).getBoundingClientRect();
      return card.left >= box.left - 1 && card.right <= box.right + 1;
    }""", v)


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_at_360_px_the_map_says_it_goes_on_and_a_keyboard_reaches_every_village(server, browser, locale):
    """Defect: at 360 px the map began with villages off-screen and nothing said so."""
    post(server, "/api/host/game", {"game": "shangrila", "seats": 3, "options": {}})
    phone = browser.new_context(locale=locale, **PHONE).new_page()
    phone.goto(server.url + "/seat")
    pair(phone, server, ("seat", 0))
    phone.wait_for_selector(".prompt .map")
    lang = locale[:2]
    # Villages lie beyond the right edge, and the page says so: a shaded edge with an arrow, a line under the map.
    assert not visible_in_map(phone, 2)  # V3, top right on the board
    phone.wait_for_selector(".prompt .map-wrap.more-right .map-edge.right", state="visible")
    assert phone.locator(".prompt .map-edge.left").is_hidden()
    hint = phone.locator(".prompt .map-hint")
    assert hint.is_visible() and ("scorrila di lato" if lang == "it" else "swipe it sideways") in hint.inner_text()
    screenshot(phone, f"shangrila-phone-map-360-{lang}")
    # Tab alone reaches a village off-screen: it scrolls into view, and the left edge now says there is more.
    for _ in range(80):
        phone.keyboard.press("Tab")
        if phone.evaluate("document.activeElement.dataset.key") == "village:2":
            break
    else:
        raise AssertionError("Tab never reached V3")
    phone.wait_for_function("""() => {
      const box = document.querySelector('.prompt .map-box').getBoundingClientRect();
      const card = document.activeElement.getBoundingClientRect();
      return card.left >= box.left - 1 && card.right <= box.right + 1;
    }""")
    phone.wait_for_selector(".prompt .map-wrap.more-left .map-edge.left", state="visible")
    phone.keyboard.press("Enter")  # the village opens below the map; the redraw keeps the map where it was
    phone.wait_for_selector('.prompt [data-key="village:2"][aria-pressed="true"]')
    assert phone.evaluate("document.activeElement.dataset.key") == "village:2"
    assert visible_in_map(phone, 2)
    screenshot(phone, f"shangrila-phone-map-360-v3-{lang}")
    # The left arrow takes the map back to its start: V7, on the left, in view again.
    phone.click(".prompt .map-edge.left")
    phone.wait_for_selector(".prompt .map-wrap:not(.more-left)")
    assert visible_in_map(phone, 6)


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_axe_finds_every_village_named_with_what_it_shows(server, browser, locale):
    """Defect: axe 4.14 flagged all 13 villages as serious (label-content-name-mismatch): the button's visible
    text (its name, the spaces' codes, the masters' numbers) was not in its accessible name."""
    from tests.axe import serious
    post(server, "/api/host/game", {"game": "shangrila", "seats": 3, "options": {}})
    phone = browser.new_context(locale=locale, **PHONE).new_page()
    phone.goto(server.url + "/seat")
    pair(phone, server, ("seat", 0))
    phone.wait_for_selector(".prompt .map")
    Phones.village(phone, 0)
    phone.click(f'.prompt .space-button[data-kind="{G.KINDS[0]}"]')  # a master on the map: a number in a space
    phone.wait_for_selector(".map .master")
    assert serious(phone) == []
    # Each village one button, named from its name on: then whose pieces stand there and its bridges.
    names = phone.eval_on_selector_all('.map [role="button"]', "(vs) => vs.map((v) => v.getAttribute('aria-label'))")
    assert len(names) == 13 and [name.split(";")[0].split(" · ")[0] for name in names] == [f"V{n}" for n in range(1, 14)], names
    assert ("Giocatore 1" if locale == "it-IT" else "Player 1") in names[0]

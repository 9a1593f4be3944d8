"""The strict Content-Security-Policy (web_companion/content_policy.py) holds in a real browser: a seeded game of
every game played to its end with the phone pages open in both languages (each player's, the table's, the host's,
its prompts' groups opened), the virtual box's page beside them, and the other pages (rules, chance, a pairing
link) — and chromium reports no violation: no `securitypolicyviolation` event, no console line naming the policy,
no error on a page. A control test first shows the watch sees a violation when there is one.

The games are the axe test's (tests/test_browser_axe_states.py): played on a table of the test's own with seeded
dice, then on the box with the same draws (`--chance`) and moves."""
import json

import pytest

from engine.words import lookup
from tests.browser import Server, post
from tests.test_browser_axe_states import GAMES, OPENERS, move, script
from tests.test_browser_keyboard import ONE_PAD, drawn, get
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

# Before any script of the page: every violation the browser reports, kept in the page (the policy does not bind
# a script the browser itself adds).
WATCH = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`),
  true);"""


class Watched:
    """Pages opened with the watch: what each reported, and their console's policy lines and errors."""

    def __init__(self, browser, server):
        self.browser, self.server, self.pages, self.said = browser, server, [], []

    def open(self, path, lang, **context):
        page = self.browser.new_context(locale=lang, **context).new_page()
        page.add_init_script(WATCH)
        page.on("console", lambda m: "Content Security Policy" in m.text and self.said.append((page.url, m.text)))
        page.on("pageerror", lambda error: self.said.append((page.url, str(error))))
        answer = page.goto(self.server.url + path)
        assert "script-src 'self'" in answer.headers["content-security-policy"], path
        self.pages.append(page)
        return page

    def violations(self):
        reported = [(page.url, v) for page in self.pages for v in page.evaluate("window.violations")]
        return reported + self.said


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--pinmap", str(ONE_PAD), "--reveal-delay", "0")
    yield running
    running.stop()


def test_the_watch_sees_a_violation(server, browser):
    """The control: a style attribute, an inline script, an inline event handler and code in a string, each as a
    page must never run, are each reported, in the page and on its console, and refused."""
    watched = Watched(browser, server)
    page = watched.open("/?lang=it", "it", **PHONE)
    page.evaluate("""() => {
      const main = document.getElementById("main");
      main.setAttribute("style", "color: red");
      const inline = document.createElement("script");
      inline.textContent = "window.ran = true";
      document.body.append(inline);
      setTimeout("window.ran = true", 0);
      main.setAttribute("onclick", "window.ran = true");
      main.click();
    }""")
    page.wait_for_function("() => window.violations.length >= 4")
    found = watched.violations()
    assert [v.split(" blocked")[0] for _, v in found[:4]] == ["style-src-attr", "script-src-elem", "script-src",
                                                               "script-src-attr"]
    assert len(watched.said) == 4 and "blocked eval" in found[2][1]
    assert page.evaluate("() => window.ran") is None
    assert page.evaluate("() => getComputedStyle(document.getElementById('main')).color") != "rgb(255, 0, 0)"


def test_the_other_pages_and_the_virtual_box_keep_the_policy(server, browser):
    """The pages beside the phone's: rules, chance, a pairing link (one over: its page says why), the virtual box
    (pads drawn, a key pressed); and a count's plural form, chosen on the page, is the box's for any count."""
    watched = Watched(browser, server)
    box = watched.open("/box", "it")
    box.wait_for_selector("#pads .pad button")
    for _ in range(2):  # the menu opened and closed: the pads' labels and the OLED drawn again
        with box.expect_response("**/box/press"):
            box.click('[data-host="menu"]:not([data-hold])')
    for lang in ("it", "en"):
        for path in ("/rules/ponte", "/rules/leader1", "/chance"):
            watched.open(f"{path}?lang={lang}", lang, **PHONE).wait_for_selector("main h1, main h2")
        link = watched.open(f"/P/ABCDEFGHIJ?lang={lang}", lang, **PHONE)
        link.wait_for_selector("#link-failed:not([hidden])")
        phone = watched.open(f"/?lang={lang}", lang, **PHONE)
        phone.wait_for_function("() => document.getElementById('main').dataset.version !== undefined")
        counts = [0, 1, 2, 5, 11, 21, 101, 1_000_000, -1]
        said = phone.evaluate("(counts) => counts.map((n) => ARBITRO.tg('ponte', 'cards', {n}))", counts)
        assert said == [lookup(lang, "ponte", "phone", "cards", n=n) for n in counts]
    assert watched.violations() == []


def open_groups(page):
    """The page's first prompt group (a boat, a rider, a village on the map) opened and closed again by a tap:
    its panel drawn too. Opening sends nothing."""
    for group, close in OPENERS:
        if page.locator(group).count():
            page.locator(group).first.click()
            page.wait_for_selector(close)
            page.locator(close).first.click()
            page.wait_for_selector(close, state="detached")
            return


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_on_every_phone_page_in_both_languages_breaks_no_policy(tmp_path, browser, game):
    seats, options, seed, _ = GAMES[game]
    moves, shown, dice = script(game, seats, options, seed)
    server = Server(tmp_path / "data", "--pinmap", str(ONE_PAD), "--reveal-delay", "0", "--chance", json.dumps(dice))
    try:
        watched = Watched(browser, server)
        box = watched.open("/box", "it")
        post(server, "/api/host/game", {"game": game, "seats": seats, "options": options})
        pages = {}
        for seat, lang in ((0, "it"), (1, "en")):
            pages[("seat", lang)] = page = watched.open(f"/seat?lang={lang}", lang, **PHONE)
            code = post(server, "/api/host/pair", {"seat": seat})["code"]
            page.fill("#pair-code", code)
            with page.expect_response(lambda r: r.url.endswith("/api/pair")):
                page.click(".pair button[type=submit]")
            page.wait_for_selector(".status .meeple")
        for kind, path in (("table", "/"), ("host", "/host")):
            for lang in ("it", "en"):
                pages[(kind, lang)] = watched.open(f"{path}?lang={lang}", lang, **PHONE)
        phones = {0: pages[("seat", "it")], 1: pages[("seat", "en")]}
        met = set()
        for step in range(len(moves) + 1):
            if step:
                move(server, phones, moves[step - 1])
            version = get(server, "/api/table")["version"]
            for where, page in pages.items():
                drawn(page, version)
            for seat, prompt in shown[step].items():  # a prompt a page shows for the first time: its groups too
                for where in {0: [("seat", "it")], 1: [("seat", "en")]}.get(seat, [("host", "it"), ("host", "en")]):
                    if (where, prompt) not in met:
                        met.add((where, prompt))
                        open_groups(pages[where])
        assert get(server, "/api/table")["over"]
        box.wait_for_selector("#pads .pad button")
        assert watched.violations() == []
    finally:
        server.stop()

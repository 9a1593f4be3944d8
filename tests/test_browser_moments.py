"""The pages' moments for every player, in Italian at 360 px: the focus kept through every redraw (never <body>),
never hidden under the sticky header, a live line that says what changed, a refusal said only while it holds,
links large enough to tap, a title on every page, and the host's page after the end, a phone that lost its seat
to a new seat count, the draws' seal in plain words, a long number range typed, an armed two-tap button."""
import pytest

from tests.browser import post, screenshot
from tests.test_browser_access import paired_phone
from tests.test_browser_host import table, table_once
from tests.test_browser_phones import PHONE, press, server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

# The focused control's place: its tag and key, and whether the sticky header or the refusal bar covers it.
FOCUSED = """() => {
  const active = document.activeElement;
  const box = active.getBoundingClientRect();
  const header = document.querySelector('header').getBoundingClientRect();
  const error = document.getElementById('error');
  const bottom = error.hidden ? innerHeight : error.getBoundingClientRect().top;
  return {tag: active.tagName, key: active.dataset.key || active.id || active.textContent.trim().slice(0, 30),
          inHeader: Boolean(active.closest('header')),
          hidden: !active.closest('header') && (box.top < header.bottom - 1 || box.bottom > bottom + 1 || !box.height)};
}"""


def focused(page):
    return page.evaluate(FOCUSED)


def redrawn(page, action, parts="main > *"):
    """Do `action` (a move somewhere else), then wait until the page has drawn the table's new version (its
    `parts` drawn anew)."""
    page.evaluate(f"document.querySelectorAll('{parts}').forEach((node) => {{ node.dataset.old = 'yes'; }})")
    before = table(server_of(page))["version"]
    action()
    table_once(server_of(page), lambda view: view["version"] != before)
    page.wait_for_function(f"() => !document.querySelector('{parts.replace('*', '[data-old]')}')")


def server_of(page):
    return page.context.server


def ponte_phone(browser, server, seat=0):
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    phone = paired_phone(browser, server, seat, "it")
    phone.context.server = server
    phone.wait_for_selector(".prompt button.choice")
    return phone


def test_the_focus_stays_on_the_heading_the_rules_link_and_a_history_link_through_others_moves(server, browser):
    """Defect: on the prompt's heading (where the page puts it after a reveal), on "Regole e decisioni" and on a
    game's log in the host's history, another seat's move sent the focus to <body>."""
    phone = ponte_phone(browser, server)
    phone.focus(".prompt h2")
    redrawn(phone, lambda: press(server, {"seat": 1, "button": 2}))
    assert focused(phone)["tag"] == "H2" and phone.evaluate("document.activeElement.closest('.prompt') !== null")
    phone.focus("main a[href^='/rules/']")
    redrawn(phone, lambda: press(server, {"seat": 2, "button": 4}))
    assert focused(phone)["key"] == "rules"

    host = browser.new_context(locale="it", **PHONE).new_page()
    host.context.server = server
    post(server, "/api/host/end", {})
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector(".history li a[download]")
    host.focus(".history li a[download]")
    key = focused(host)["key"]
    redrawn(host, lambda: press(server, {"seat": 0, "button": 1}), ".history > *")
    assert focused(host)["key"] == key


def test_shift_tab_never_hides_the_focused_control_under_the_sticky_header(server, browser):
    """Defect: Shift+Tab scrolled each control just into view, under the 138 px sticky header (WCAG 2.4.11)."""
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    host = browser.new_context(locale="it", **PHONE).new_page()
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector("#start")
    host.focus("#start")  # low on the page: the header is over the controls above it
    seen = []
    for _ in range(25):
        host.keyboard.press("Shift+Tab")
        where = focused(host)
        seen.append(where)
        assert where["tag"] != "BODY" and not where["hidden"], seen[-3:]
        if where["inHeader"]:  # back up to the header: every control of the page was seen
            break
    assert len(seen) >= 8
    screenshot(host, "moments-shift-tab-it")


def test_the_live_line_says_who_picked_the_reveal_and_the_new_prompt_never_a_secret(server, browser):
    """Defect: the live line said only a new prompt title, an undo or the end: not another seat's pick, nor the
    reveal, nor what the reveal did."""
    phone = ponte_phone(browser, server)
    said = lambda: phone.inner_text("#announce")  # noqa: E731
    redrawn(phone, lambda: press(server, {"seat": 1, "button": 2}))
    phone.wait_for_function("() => document.getElementById('announce').textContent.includes('giocatore 2 ha scelto')")
    assert said().endswith(".")
    mine = phone.inner_text(".prompt button.choice >> nth=0").split("\n")[0]
    phone.click(".prompt button.choice")
    for seat, button in ((2, 4), (3, 5)):
        press(server, {"seat": seat, "button": button})
    phone.wait_for_function("() => document.getElementById('announce').textContent.includes('rivelate')")
    screenshot(phone, "moments-live-line-it")
    assert "Tocca a te" in said(), said()  # the next match's prompt


def test_a_refusal_is_said_until_the_table_moves_on(server, browser):
    """Defect: the red bar stayed until that phone's next accepted action (one from match 1 still showed at the
    game's end)."""
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    host = browser.new_context(locale="it", **PHONE).new_page()
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector("#start")
    undo = host.locator("button:has-text('Annulla')")
    undo.click()
    undo.click()  # nothing to undo yet: refused
    host.wait_for_selector("#error:not([hidden])")
    screenshot(host, "moments-refused-it")
    press(server, {"seat": 0, "button": 1})
    host.wait_for_selector("#error", state="hidden")


def test_every_link_is_a_target_of_44_px_on_the_phone_pages_and_24_px_in_the_rules(server, browser):
    """Defect: "Regole e decisioni", the draws' page and the games' logs were links 20-25 px high."""
    phone = ponte_phone(browser, server)
    post(server, "/api/host/end", {})
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    small = {}
    heights = "(links) => links.filter((a) => a.getClientRects().length).map((a) => [a.textContent.trim().slice(0, 30), a.getBoundingClientRect().height])"  # noqa: E501
    for path, least in (("/seat", 44), ("/host", 44), ("/", 44), ("/rules/ponte", 24), ("/chance", 24)):
        phone.goto(f"{server.url}{path}?lang=it")
        phone.wait_for_load_state("networkidle")
        for words, height in phone.eval_on_selector_all("main a, footer a", heights):
            if height < least:
                small[(path, words)] = height
    assert small == {}


def test_every_page_has_a_title_that_says_what_it_is(server, browser):
    """Defect: every page was titled "Arbitro"."""
    phone = ponte_phone(browser, server)
    titles = {}
    for path in ("/", "/seat", "/host", "/rules/ponte", "/chance"):
        phone.goto(f"{server.url}{path}?lang=it")
        phone.wait_for_load_state("networkidle")
        titles[path] = phone.title()
    assert titles["/seat"] == "Giocatore 1 — Il ponte traballante — Arbitro"
    assert titles["/"] == "Tavolo — Il ponte traballante — Arbitro"
    assert titles["/rules/ponte"] == "Regole: Il ponte traballante — Arbitro"
    assert titles["/host"].startswith("Conduttore — Il ponte traballante")
    assert len(set(titles.values())) == len(titles)


def test_the_host_page_after_the_end_offers_a_new_game_not_an_undo(server, browser):
    """Defect: after "Fine partita" the host page still offered "Annulla l'ultima azione" (then refused it) and
    nothing said what to do next."""
    from tests.test_browser_phones import play_to_the_end
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    host = browser.new_context(locale="it", **PHONE).new_page()
    host.goto(server.url + "/host?lang=it")
    host.wait_for_selector("button:has-text('Annulla')")
    play_to_the_end(server)
    host.wait_for_selector(".result .winners")
    host.wait_for_selector("button:has-text('Annulla')", state="hidden")
    assert not host.locator("button:has-text('Termina')").is_visible()
    assert "Per giocarne un'altra" in host.inner_text("main")
    host.click(".next a")
    assert host.evaluate("document.activeElement.id") == "game"
    screenshot(host, "moments-host-over-it")


def test_a_phone_that_lost_its_seat_to_a_new_seat_count_says_why(server, browser):
    """Defect: after a new game of another seat count the phone showed the pairing form without a word."""
    phone = ponte_phone(browser, server)
    post(server, "/api/host/game", {"game": "ponte", "seats": 5, "options": {}})
    phone.wait_for_selector("#pair-code")
    phone.wait_for_selector(".lost")
    assert "5 giocatori" in phone.inner_text(".lost") and "giocatore 1" in phone.inner_text(".lost")
    screenshot(phone, "moments-lost-seat-count-it")


def test_the_draws_seal_is_said_in_plain_words_with_its_fingerprint_and_a_link(server, browser):
    """Defect: "Le estrazioni del box sono sigillate: 1fd7 1147 0515" meant nothing to players."""
    phone = ponte_phone(browser, server)
    line = phone.inner_text(".chance")
    assert "fissate all'inizio" in line and "controllare" in line
    fingerprint = table(server)["chance"]["commitment"][:12]
    assert " ".join(fingerprint[i:i + 4] for i in (0, 4, 8)) in line
    assert phone.get_attribute(".chance a", "href") == "/chance"


def test_a_long_number_range_is_typed_with_its_range_and_a_clear_error(server, browser):
    """Defect: Leader 1's "Energia iniziale" was a drop-down of 500 numbers."""
    host = browser.new_context(locale="it", **PHONE).new_page()
    host.goto(server.url + "/host?lang=it")
    host.select_option("#game", "leader1")
    host.select_option("#seats", "2")
    energy = host.locator('[data-option="energy"] input[type="number"]')
    assert host.locator('[data-option="energy"] select').count() == 0
    assert energy.get_attribute("step") == "1" and energy.get_attribute("min") and energy.get_attribute("max")
    energy.fill(str(int(energy.get_attribute("max")) + 1))
    version = table(server)["version"]
    host.click("#start")
    error = host.locator('[data-option="energy"] .field-error')
    error.wait_for()
    assert "numero intero" in error.inner_text() and table(server)["version"] == version
    screenshot(host, "moments-energy-refused-it")
    energy.fill("40")
    host.click("#start")
    shown = table_once(server, lambda view: view["version"] != version)
    assert shown["game"] == "leader1" and all(r["energy"] == 40 for r in shown["riders"])


def test_an_armed_two_tap_button_looks_armed_not_disabled(server, browser):
    """Defect: the first tap of a two-tap confirmation turned the button grey, which reads as disabled."""
    post(server, "/api/host/game", {"game": "ponte", "seats": 4, "options": {}})
    host = browser.new_context(locale="it", **PHONE).new_page()
    host.goto(server.url + "/host?lang=it")
    end = host.locator("button:has-text('Termina')")
    plain = end.evaluate("(b) => getComputedStyle(b).backgroundColor")
    end.click()
    armed = end.evaluate("(b) => getComputedStyle(b).backgroundColor")
    assert armed != plain and armed == "rgb(183, 28, 28)"
    assert "Tocca di nuovo per confermare" in end.inner_text()
    screenshot(host, "moments-armed-it")

"""Pages everyone can use, in a real browser at 360 px: axe finds nothing serious or critical on any page of any
game in either language; a Shangri-La turn and a Leader 1 choice are played by keyboard alone, with the focus
kept through every update; the Shangri-La map's words are 12 px or more; seats and pieces are named."""
import pytest
from tests.axe import serious
from tests.browser import post, screenshot
from tests.test_browser_host import server, table  # noqa: F401  (the fixture: a plain `arbitro --mock`)
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

GAMES = (("ponte", 4), ("lifeboats", 3), ("leader1", 2), ("biglietti", 5), ("shangrila", 3))


def paired_phone(browser, server, seat, lang):
    """A phone at 360 px holding `seat`, by a code the host's screen (this computer's browser) showed."""
    page = browser.new_context(locale=lang, **PHONE).new_page()
    code = post(server, "/api/host/pair", {"seat": seat})["code"]
    page.goto(f"{server.url}/seat?lang={lang}")
    page.fill("#pair-code", code)
    with page.expect_response(lambda r: r.url.endswith("/api/pair")):
        page.click(".pair button[type=submit]")
    page.wait_for_selector(".status .meeple")
    return page


SMALL_WORDS = """() => {
  const small = [];
  for (const el of document.querySelectorAll('main *')) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) || !el.getClientRects().length) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');  // a drawing's words, as large as the drawing is drawn
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (size < 12) small.push(`${el.textContent.trim().slice(0, 20)} ${size.toFixed(1)} px`);
  }
  return {wider: document.documentElement.scrollWidth > window.innerWidth, small: small.slice(0, 3)};
}"""


def test_every_page_of_every_game_in_either_language_passes_axe_fits_the_phone_and_reads_at_12_px(server, browser):
    """Defects: Rette sich wer kann's pages had grey words below 4.5:1 and labels on spans with no role;
    Biglietti's carriage cards were 9 px, Ponte's and Leader 1's marks 11 px, Leader 1's rules page 378 px wide."""
    found, measured = {}, {}
    for game, seats in GAMES:
        post(server, "/api/host/game", {"game": game, "seats": seats, "options": {}})
        for lang in ("it", "en"):
            stranger = browser.new_context(locale=lang, **PHONE).new_page()
            stranger.goto(f"{server.url}/seat?lang={lang}")  # the pairing form
            stranger.wait_for_selector("#pair-code")
            found[(game, lang, "pairing")] = serious(stranger)
            phone = paired_phone(browser, server, 0, lang)
            for path in ("/", "/seat", "/host", f"/rules/{game}", "/chance"):
                phone.goto(f"{server.url}{path}?lang={lang}")
                phone.wait_for_load_state("networkidle")
                found[(game, lang, path)] = serious(phone)
                shown = phone.evaluate(SMALL_WORDS)
                if shown["wider"] or shown["small"]:
                    measured[(game, lang, path)] = shown
            phone.context.close()
            stranger.context.close()
    assert {where: what for where, what in found.items() if what} == {}
    assert measured == {}


def focused(page):
    """The focused element's key (`data-key`), or its tag when it has none (BODY: the focus was lost)."""
    return page.evaluate("document.activeElement.dataset.key || document.activeElement.tagName")


def tab_to(page, prefix, limit=80):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if str(focused(page)).startswith(prefix):
            return focused(page)
    raise AssertionError(f"Tab never reached a control keyed {prefix!r}")


def test_a_shangrila_turn_by_keyboard_alone_keeps_the_focus(server, browser):
    """Defect: the map's villages had no tabindex and no key handler (Tab never reached the prompt), and every
    update threw the focus back to <body>."""
    post(server, "/api/host/game", {"game": "shangrila", "seats": 3, "options": {}})
    phone = paired_phone(browser, server, 0, "it")
    phone.wait_for_selector(".prompt .map")
    village = tab_to(phone, "village:")
    phone.keyboard.press("Enter")  # the village opens below the map, its spaces as buttons
    phone.wait_for_selector(".space-button.can")
    assert focused(phone) == village  # the redraw kept the village focused
    before = table(server)["version"]
    space = tab_to(phone, "space:")
    while not phone.evaluate("document.activeElement.classList.contains('can')"):
        space = tab_to(phone, "space:")
    phone.keyboard.press("Enter")  # a master placed
    phone.wait_for_function(f"() => fetch('/api/table').then(r => r.json()).then(v => v.version > {before})")
    phone.wait_for_timeout(300)
    assert focused(phone) != "BODY"  # the focus stays on the page: on the space, or on the prompt's heading
    assert table(server)["villages"][int(village.split(":")[1])]["masters"][space.split(":")[1]] == 0
    screenshot(phone, "access-shangrila-keyboard-it")


def test_a_leader1_choice_by_keyboard_keeps_the_focus_through_the_update(server, browser):
    """Defect: after Enter on a choice (a field per tap in Leader 1) the page was rebuilt and the focus lost."""
    post(server, "/api/host/game", {"game": "leader1", "seats": 2, "options": {}})
    phone = paired_phone(browser, server, 0, "it")
    phone.wait_for_selector(".prompt button.choice")
    tab_to(phone, "choice:")
    before = table(server)["version"]
    phone.keyboard.press("Enter")
    phone.wait_for_function(f"() => fetch('/api/table').then(r => r.json()).then(v => v.version > {before})")
    phone.wait_for_timeout(300)
    assert focused(phone) != "BODY"
    assert phone.evaluate("document.getElementById('main').getAttribute('aria-live')") is None  # no page re-read
    assert phone.inner_text("#announce")  # what changed, said once


def test_the_shangrila_map_reads_at_12_px_or_more_and_names_whose_pieces_stand_where(server, browser):
    """Defect: at 360 px the map's space codes were 5.5 px and its villages named only "V1"."""
    post(server, "/api/host/game", {"game": "shangrila", "seats": 3, "options": {}})
    seat = paired_phone(browser, server, 0, "it")
    seat.wait_for_selector(".prompt .map")
    smallest = seat.evaluate("""() => {
      const svg = document.querySelector('.map');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Math.min(...[...svg.querySelectorAll('text')].map((t) =>
        parseFloat(getComputedStyle(t).fontSize) * scale));
    }""")
    assert smallest >= 12, smallest
    seat.locator('[data-key="village:0"]').focus()
    seat.keyboard.press("Enter")
    kind = seat.get_attribute(".space-button.can", "data-kind")
    seat.click(".space-button.can")
    seat.wait_for_function("() => document.querySelector('[data-key=\"village:0\"]').getAttribute('aria-label').includes(':')")
    label = seat.get_attribute('[data-key="village:0"]', "aria-label")
    assert "Giocatore 1" in label and "ponti verso" in label, label  # whose master stands there, and its bridges
    if seat.get_attribute('[data-key="village:0"]', "aria-pressed") != "true":
        seat.locator('[data-key="village:0"]').focus()  # the village's spaces, below the map
        seat.keyboard.press("Enter")
    assert seat.locator('.village-detail .meeple[role="img"][aria-label="Giocatore 1"]').count() == 1

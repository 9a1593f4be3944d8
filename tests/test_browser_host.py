"""The host's first evening in a real browser at 360 px: every game started from the new-game form's widgets
(no JSON typed), a list option refused beside its field, a game ended and found in the history. Screenshots
of the forms in both languages in tests/screenshots/."""
import json
import time
import urllib.request

import pytest

from tests.browser import Server, screenshot
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data")
    yield running
    running.stop()


def table(server):
    return json.load(urllib.request.urlopen(server.url + "/api/table"))


def table_once(server, check, timeout=10):
    """The table once `check(view)` holds. Defect: the waits were page.wait_for_function on a fetch's promise,
    which Playwright takes as done once the promise settles, whatever its value: the test read the table before a
    slow start had landed (a busy CI machine saw the game before)."""
    deadline = time.monotonic() + timeout
    while not check(shown := table(server)):
        assert time.monotonic() < deadline, shown
        time.sleep(0.05)
    return shown


def start(page, game, seats):
    page.select_option("#game", game)
    page.select_option("#seats", str(seats))


def started(page, server, before):
    page.click("#start")
    if page.get_attribute("#start", "data-armed") == "yes":  # a game in play: the start asks first
        page.click("#start")
    return table_once(server, lambda view: view["version"] != before)


def test_every_game_starts_from_the_form_widgets_and_lands_in_the_history(server, browser):
    page = browser.new_context(locale="it-IT", **PHONE).new_page()
    page.goto(server.url + "/host")
    page.wait_for_selector("#start")

    # Lifeboats: colours chosen per seat; the same colour twice is refused beside the field
    start(page, "lifeboats", 3)
    colours = page.locator('[data-option="colours"] select')
    assert colours.count() == 3
    colours.nth(1).select_option(label="rosso")
    page.click("#start")
    error = page.locator('[data-option="colours"] .field-error')
    error.wait_for()
    assert "colori diversi" in error.inner_text() and table(server)["game"] is None
    screenshot(page, "host-form-refused-it")
    colours.nth(1).select_option(label="viola")
    page.locator('[data-option="islands"] button:has-text("Aggiungi una riga")').click()
    page.locator('[data-option="islands"] tr').last.locator("input").nth(0).fill("9")
    page.locator('[data-option="islands"] tr').last.locator("input").nth(1).fill("5")
    shown = started(page, server, table(server)["version"])
    assert shown["game"] == "lifeboats" and shown["options"]["colours"] == ["rosso", "viola", "verde"]
    page.wait_for_selector("#start:not(.primary)")  # the form made again for a game in play: a start asks first
    assert shown["options"]["islands"] == [[8, 6], [6, 4], [7, 5], [9, 5]]

    # Leader 1: a team without its climber, the die's faces and the supply decks as widgets
    start(page, "leader1", 2)
    page.locator('[data-option="riders"] tr').nth(1).locator('input[type="checkbox"]').nth(2).uncheck()
    deck = page.locator('[data-option="tiles"] tr').nth(0).locator("input")
    deck.nth(3).fill("2")  # two 5s in the green deck
    screenshot(page, "host-form-leader1-it")
    before = shown["version"]
    shown = started(page, server, table(server)["version"])
    assert shown["game"] == "leader1" and shown["version"] != before
    assert [r["type"] for r in shown["riders"] if r["seat"] == 1] == ["passista", "leader"]

    for game, seats in (("ponte", 4), ("biglietti", 6), ("shangrila", 3)):
        start(page, game, seats)
        shown = started(page, server, table(server)["version"])
        assert (shown["game"], shown["seats"]) == (game, seats)

    end = page.locator("button:has-text('Termina')")
    end.click()
    assert "restano nella storia" in end.inner_text()  # ending asks first, and says the log stays
    end.click()
    table_once(server, lambda view: view["game"] is None)
    page.wait_for_selector(".history li >> nth=4")
    entries = page.locator(".history li").all_inner_texts()
    assert [e.split("\n")[0] for e in entries] == ["I ponti di Shangri-La", "Biglietti, prego!",
                                                   "Il ponte traballante", "Leader 1", "Rette sich wer kann"]
    assert "terminata dal conduttore" in entries[0]
    screenshot(page, "host-history-it")
    page.goto(server.url + "/host?lang=en")
    start(page, "leader1", 3)
    screenshot(page, "host-form-leader1-en")

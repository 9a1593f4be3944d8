"""A real browser plays a Ponte match on the virtual box, by clicking."""
import json
import urllib.request

import pytest

from tests.browser import Server, post, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data", "--game", "ponte", "--seats", "4", "--reveal-delay", "0.3")
    yield running
    running.stop()


def table(server):
    return json.load(urllib.request.urlopen(server.url + "/api/table"))


def oled(page):
    return page.locator("#oled").screenshot()


def test_a_ponte_match_played_by_clicking_the_virtual_box(server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(server.url + "/box")
    page.wait_for_selector('[data-seat="3"][data-button="8"]')
    assert page.locator('[data-seat="0"][data-button="7"]').inner_text() == "7Ordine del capo spedizione"
    start = oled(page)
    screenshot(page, "box-1-waiting")
    for seat, button in [(0, 1), (1, 2), (2, 4), (3, 5)]:  # Salto, Scatto, Prudente, Vertigini
        page.click(f'[data-seat="{seat}"][data-button="{button}"]')
        page.wait_for_function("() => document.getElementById('status').textContent === ''")
    for _ in range(50):  # the reveal delay, then the reveal
        if table(server)["match"] == 2:
            break
        page.wait_for_timeout(100)
    shown = table(server)
    assert shown["history"][0]["reveal"] == ["salto_atletico", "scatto_repentino", "passo_prudente", "vertigini"]
    assert shown["history"][0]["moves"][0] == {"step": "resolution", "delta": [0, -4, 0, 3], "asked": [0, -4, 0, 3]}
    page.wait_for_timeout(700)
    revealed = oled(page)
    assert revealed != start  # the OLED image shows the reveal
    screenshot(page, "box-2-reveal")
    page.keyboard.press("Enter")  # OK on the host panel, from the keyboard
    page.wait_for_timeout(700)
    assert oled(page) != revealed
    screenshot(page, "box-3-moves")
    moves = oled(page)
    with page.expect_response("**/box/oled.png*"):  # the page shows the OLED as the press left it
        with page.expect_response("**/box/press") as pressed:  # Salto again: refused, the table sees nothing
            page.click('[data-seat="0"][data-button="1"]')
    assert pressed.value.json() == {"seat": 0, "button": 1, "status": "pressed", "version": table(server)["version"]}
    page.wait_for_function("() => document.getElementById('oled').complete")
    # defect: the page printed "il giocatore 1 non ha quella carta" under the OLED, for the whole table
    assert page.locator("#status").inner_text() == "" and oled(page) == moves
    screenshot(page, "box-4-refused-secretly")


@pytest.fixture
def idle_server(tmp_path):
    running = Server(tmp_path / "data")
    yield running
    running.stop()


def test_the_virtual_box_has_twelve_pads_and_every_game_starts_and_takes_a_press_on_them(idle_server, browser):
    from engine.games import GAMES
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(idle_server.url + "/box")
    page.wait_for_selector('[data-seat="11"][data-button="8"]')
    assert page.locator(".pad").count() == 12  # the default pin map: a Pi's header, twelve pads as a matrix
    screenshot(page, "box-12-pads")
    for game, described in GAMES.items():
        seats = described.seats[1]
        if table(idle_server)["game"]:  # the last game's end first (with none, the host's end is refused)
            post(idle_server, "/api/host/end", {})
        post(idle_server, "/api/host/game", {"game": game, "seats": seats, "options": {}})
        assert table(idle_server)["game"] == game
        page.wait_for_function(f"() => document.querySelectorAll('.pad').length === {seats}")  # the seats in play
        for seat in range(seats):  # button 1 of each pad through the simulated matrix, until one acts
            with page.expect_response("**/box/press") as pressed:
                page.click(f'[data-seat="{seat}"][data-button="1"]')
            outcome = pressed.value.json()
            if outcome["status"] != "rejected":
                break
            assert outcome["error"] == f"player {seat + 1} has nothing to do now"
        assert outcome["status"] in ("applied", "moved", "pressed"), outcome  # a seat that acts at the start took it
        # (a secret pick's press is answered "pressed", taken or refused: the virtual box is the table's)
        screenshot(page, f"box-12-pads-{game}")

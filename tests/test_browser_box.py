"""A real browser plays a Ponte match on the virtual box, by clicking."""
import json
import urllib.request

import pytest

from tests.browser import Server, screenshot


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
        page.wait_for_function("document.getElementById('status').textContent === ''")
    for _ in range(50):  # the reveal delay, then the reveal
        if table(server)["match"] == 2:
            break
        page.wait_for_timeout(100)
    shown = table(server)
    assert shown["history"][0]["reveal"] == ["salto_atletico", "scatto_repentino", "passo_prudente", "vertigini"]
    assert shown["history"][0]["moves"][0] == {"step": "resolution", "delta": [0, -4, 0, 3]}
    page.wait_for_timeout(700)
    revealed = oled(page)
    assert revealed != start  # the OLED image shows the reveal
    screenshot(page, "box-2-reveal")
    page.keyboard.press("Enter")  # OK on the host panel, from the keyboard
    page.wait_for_timeout(700)
    assert oled(page) != revealed
    screenshot(page, "box-3-moves")
    page.click('[data-seat="0"][data-button="1"]')  # Salto again: the box refuses it
    page.wait_for_function("document.getElementById('status').textContent.includes('does not hold')")
    assert page.locator("#status").inner_text() == "player 1 does not hold that card"
    screenshot(page, "box-4-rejected")

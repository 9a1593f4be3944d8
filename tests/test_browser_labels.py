"""Every game's pad labels drawn by a real browser, in both languages, saved in tests/screenshots/ to be
looked at as images (the printed sheet: A4, a strip per seat)."""
import pytest

from device.labels import layout, svg
from engine.games import GAMES
from tests.browser import SCREENSHOTS

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_game_s_labels_as_a_browser_draws_them(browser, tmp_path, lang):
    page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
    for game in sorted(GAMES):
        sheet = tmp_path / f"{game}.svg"
        sheet.write_text(svg(layout(game, 12, lang)), encoding="utf-8")
        page.goto(sheet.as_uri())
        assert page.locator("text").count() > 12 * 8  # the browser read every word
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"labels-{game}-{lang}.png")  # the page is the sheet: no scrolling

"""Every OLED screen of every game fits the 128×64 panel, in both languages: the host menu at every step, the
join screen, live screens, every result page, the final screen, refusals. Each is drawn, measured in pixels,
and put on a contact sheet (tests/screenshots/oled-<lang>.png) for a person to look at."""
import itertools
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from device import screens
from device.display import FONT, GLYPH_TOP, HEIGHT, LINE, QR_SIZE, WIDTH, render
from device.font import drawable
from device.menu import Menu
from device.seen import seen
from device.texts import text
from engine.games import GAMES
from engine.state_file import MemoryState
from engine.table import Table
from games.biglietti import oled as biglietti_pages
from games.lifeboats import oled as lifeboats_pages
from games.ponte import oled as ponte_pages
from tests.browser import SCREENSHOTS
from web_companion.pairing import Pairing

BODY_TOP = LINE + 1


URL = "http://192.168.100.200:65535"


def every_screen(lang):
    """Distinct screens of random games of every game and size, plus the menus and the join screen."""
    found = {}
    for name, described in sorted(GAMES.items()):
        low, high = described.seats
        for seats in range(low, high + 1):
            rng = random.Random(seats)
            table = Table(random=random.Random(seats))
            table.new_game(name, seats)
            while True:
                shown = table.view()
                found.setdefault(screens.live(shown, lang), None)
                for _, pages in screens.chapters(shown, lang):
                    for page in pages:
                        found.setdefault(page, None)
                if shown["over"]:
                    break
                actors = table.actors()
                seat = rng.choice(list(actors))
                found.setdefault(screens.Screen(f"{screens.seat(lang, seat)}: {text(lang, 'rejected')}",
                                                screens.live(shown, lang).lines), None)
                table.act(rng.choice(table.legal_actions(seat)))
            for screen in menu_screens(table, lang, seats):
                found.setdefault(screen, None)
    table = Table(seeds=lambda: bytes(32))
    table.new_game("ponte", 3)  # draws sealed
    found.setdefault(replace(Menu.first(), mode="seal").screen(seen(table.moment, 4), lang, **PANEL), None)
    found.setdefault(screens.no_game(lang, URL), None)
    found.setdefault(screens.no_game(lang), None)
    return list(found)


PANEL = {"url": URL, "wired_seats": 4, "window": 120}


def menu_screens(table, lang, seats):
    """The host menu's screens over `table`'s game: the in-game menu, after the end a new game's steps, the
    confirmations, whom a phone is for and its code (shown, then expired)."""
    now = seen(table.moment, 4)
    menu, shown = Menu.first(), []

    def press(menu, name):
        pressed, _, _ = menu.press(name, ("host", name), now, lang)
        return pressed

    for key in ("menu", "prev", "next"):
        menu = press(menu, key)
        shown.append(menu.screen(now, lang, **PANEL))
    menu = replace(menu, mode="setup")
    while menu.mode == "setup":
        for _ in range(8):
            menu = press(menu, "next")
            shown.append(menu.screen(now, lang, **PANEL))
        if menu.step + 1 == len(menu.steps()):
            break
        menu = press(menu, "ok")
    for mode in ("undo", "end", "main", "join"):
        shown.append(replace(menu, mode=mode).screen(now, lang, **PANEL))
    menu = press(replace(menu, mode="join"), "ok")  # whom a phone is for, each in turn, then a code for the last
    for _ in range(seats + 1):
        shown.append(menu.screen(now, lang, **PANEL))
        menu = press(menu, "next")
    code = Pairing(MemoryState()).open(("seat", seats - 1), seats)
    menu = menu.opened(code)
    shown.append(menu.screen(now, lang, **PANEL))
    shown.append(menu.expired(code).screen(now, lang, **PANEL))
    return shown


def drawn_text(screen, monkeypatch):
    """Every text the screen draws: (x, y, text, font), y the top of its font cell."""
    calls = []
    real = ImageDraw.ImageDraw.text

    def text_(self, xy, text, fill=None, font=None, *args, **kwargs):
        calls.append((*xy, text, font))
        return real(self, xy, text, fill, font, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", text_)
        render(screen)
    return calls


def assert_fits(screen, monkeypatch):
    """Every word and number of `screen` in the panel's 5×7 font, whole on the panel, none on another."""
    boxes = []
    for x, y, line, font in drawn_text(screen, monkeypatch):
        assert font is FONT, (line, screen)
        box = (x, y + GLYPH_TOP, x + FONT.getlength(line) - 1, y + GLYPH_TOP + 6)
        assert box[0] >= 0 and box[1] >= 0 and box[2] < WIDTH and box[3] < HEIGHT, (line, screen)
        assert not any(b[0] <= box[2] + 1 and box[0] <= b[2] + 1 and b[1] <= box[3] and box[1] <= b[3]
                       for b in boxes if line.strip()), (line, boxes, screen)
        boxes.append(box)
    for line in (screen.title,) + screen.lines:
        line.encode("latin-1")  # the panel's font has Latin-1 (sì, è) and nothing beyond
    if screen.qr:
        assert len(screen.lines) <= screens.QR_LINES, screen
        for line in (screen.title,) + screen.lines:
            assert FONT.getlength(line) <= WIDTH - QR_SIZE - 4, (line, screen)
        return
    assert FONT.getlength(screen.title) <= WIDTH - 1, screen
    if screen.picture is not None:
        assert not screen.lines
        return
    assert len(screen.lines) <= screens.BODY_LINES, screen
    assert BODY_TOP + len(screen.lines) * LINE <= HEIGHT
    for line in screen.lines:
        assert FONT.getlength(line) <= WIDTH, (line, screen)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_screen_fits_the_panel(lang, monkeypatch):
    shown = every_screen(lang)
    assert {type(s.picture).__name__ for s in shown} >= {"Bridge", "Sea"}
    for screen in shown:
        assert_fits(screen, monkeypatch)
    assert len(shown) > 40
    sheet = Image.new("1", ((WIDTH + 4) * 6, (HEIGHT + 4) * ((len(shown) + 5) // 6)), 1)
    for i, screen in enumerate(shown):
        sheet.paste(render(screen), ((i % 6) * (WIDTH + 4), (i // 6) * (HEIGHT + 4)))
    SCREENSHOTS.mkdir(exist_ok=True)
    sheet.save(SCREENSHOTS / f"oled-{lang}.png")


def test_the_boxs_copy_of_the_font_draws_every_character_as_pillows_own():
    """The panel's font is the box's copy of Pillow's default bitmap font (device/fonts), loaded by Pillow's
    public ImageFont.load: pixel for pixel Pillow's own, measuring the same."""
    from PIL import ImageFont
    pillows = ImageFont.load_default_imagefont()
    characters = "".join(map(chr, [*range(32, 127), *range(160, 256)]))  # Latin-1, not its control codes
    for start in range(0, len(characters), 20):
        line = characters[start:start + 20]
        drawn = []
        for font in (FONT, pillows):
            image = Image.new("1", (WIDTH, LINE))
            ImageDraw.Draw(image).text((0, 0), line, font=font, fill="white")
            drawn.append((image.tobytes(), font.getlength(line), font.getbbox(line)))
        assert drawn[0] == drawn[1], line
        assert any(drawn[0][0]), line


def test_italian_says_si_with_its_accent():
    assert "sì" in text("it", "ok_yes")


def test_meeples_on_neighbouring_spaces_read_as_two_numbers(monkeypatch):
    """Defect: seats 1 and 3 on spaces 5 and 6 read as "13", in digits 5 pixels tall. Each seat has its own
    track under its 5×7 number, so neighbours never share a row."""
    from games.ponte.oled import SPACE, TRACK, Bridge
    screen = screens.Screen("Ponte", picture=Bridge((5, 11, 6)))
    rows = {line: y + GLYPH_TOP for x, y, line, _ in drawn_text(screen, monkeypatch) if x == 0 and line != "Ponte"}
    assert sorted(rows) == ["1", "2", "3"] and rows["1"] < rows["2"] < rows["3"]
    image = render(screen)

    def lit(seat, space):
        x = TRACK + (space - 1) * SPACE
        return all(image.getpixel((x + dx, rows[seat] + dy)) for dx in range(SPACE - 1) for dy in range(7))
    assert lit("1", 5) and lit("3", 6) and lit("2", 11)
    assert not lit("1", 6) and not lit("3", 5)


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_leader1_keeps_every_acting_team_on_screen_while_a_move_is_entered(teams):
    """Defect: during move entry team 2's rider line was pushed off the panel. Every team's energies stay while
    they fit, the acting team's always, and nothing is cut."""
    rng = random.Random(teams)
    table = Table(random=random.Random(teams))
    table.new_game("leader1", teams)
    checked = 0
    while not table.view()["over"] and checked < 30:
        view = table.view()
        screen = screens.live(view, "it")
        assert len(screen.lines) <= screens.BODY_LINES and all(len(line) <= screens.COLUMNS for line in screen.lines)
        if any(f and f.get("sums") for f in view["forms"]):
            checked += 1
            shown = {line.split(" ")[0] for line in screen.lines}
            assert {screens.seat("it", s) for s in view["to_act"]} <= shown, screen
            if teams == 2:
                assert {"G1", "G2"} <= shown, screen
        actors = table.actors()
        table.act(rng.choice(table.legal_actions(rng.choice(list(actors)))))
    assert checked


@pytest.mark.parametrize("text", ["\ud800", "€ ✓ ’", "G2: \U000c90a6 non è una chiave"])
def test_a_character_the_font_lacks_is_drawn_as_a_question_mark_not_a_crash(text):
    """A refusal may echo what a phone sent: the screen is drawn, the missing characters as "?"."""
    shown = render(screens.Screen(text, lines=(text,)))
    expected = render(screens.Screen(drawable(text), lines=(drawable(text),)))
    assert shown.tobytes() == expected.tobytes()
    assert "?" in drawable(text) and drawable("è à ù ì ò É") == "è à ù ì ò É"


def test_no_picture_draws_with_luma_legacy_tiny_fonts():
    """Defect: the bridge and the sea drew digits 5 pixels tall with luma's legacy fonts (which draw point by
    point, past the text check above): every picture writes through display.glyphs in the panel's font."""
    import pathlib
    import device
    sources = pathlib.Path(device.__file__).parent.rglob("*.py")
    assert not [p.name for p in sources if "luma.core.legacy" in p.read_text()]


REMEMBERED = [("biglietti", 12, biglietti_pages.turn_pages), ("lifeboats", 6, lifeboats_pages.event_pages),
              ("ponte", 6, ponte_pages.match_chapters)]


@pytest.mark.parametrize(("game", "seats", "builder"), REMEMBERED, ids=[g for g, _, _ in REMEMBERED])
def test_a_refresh_builds_only_the_new_entries_pages_and_they_are_those_built_afresh(game, seats, builder):
    """Defect: every refresh (each press) built the pages of the whole history again: at the end of a 12-seat
    Biglietti game a refresh took 25 ms here (about 200 ms on a Zero); Ponte's matches were worded and wrapped
    again on every press. Now each entry's pages are built once; remembered pages must be the ones a fresh build
    gives (checked every fifth step, and at the end)."""
    table, rng = Table(random=random.Random(3)), random.Random(4)
    table.new_game(game, seats)
    for step in itertools.count():
        view = table.view()
        warm = screens.chapters(view, "it")
        built = builder.builds
        assert screens.chapters(view, "it") == warm and builder.builds == built  # nothing built twice
        if step % 5 == 0 or view["over"]:
            builder.forget()
            assert screens.chapters(view, "it") == warm  # the same as built afresh
        if view["over"]:
            break
        seat = rng.choice(list(table.actors()))
        table.act(rng.choice(table.legal_actions(seat)))
    assert step > (20 if game == "ponte" else 300)  # a long game (six matches are Ponte's longest)

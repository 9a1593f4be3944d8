"""What every test shares, wherever it lives (`tests/`, and each game's own `games/<name>/tests/`): the registry
holds every game, as the composition root makes it (`device/cli.py`), and the fixtures. Helpers the tests import
by name are in `tests/conftest.py`."""
import pytest

import games
from engine.games import register
from engine.journal import Journal
from engine.state_file import StateFile
from engine.table import Table
from tests.conftest import VIRTUAL, ManualClock

register(games.ALL)


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The commands speak the terminal's language: the tests read English unless a test says otherwise (the
    variable reaches the commands the tests start, too)."""
    monkeypatch.setenv("LANGUAGE", "en")


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def table(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"))
    yield table
    table.close()


@pytest.fixture
def pin_factory():
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    factory = MockFactory(revision="a020a0")  # a Compute Module: GPIO 0–45, as the default pin map wants
    previous, Device.pin_factory = Device.pin_factory, factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def make_box(tmp_path, clock, pin_factory):
    """make_box(seed=…, reveal_delay=…) -> a Box on mock pins, the dummy OLED (or `device`) and a manual clock."""
    import random

    from luma.core.device import dummy

    from device import mock
    from device.box import Box
    from device.config import load_pinmap
    from device.mock import simulated_matrix
    from device.virtual_box import VirtualBox

    made = []

    def make(seed=1, reveal_delay=0.0, data=tmp_path / "data", url=None, pins=pin_factory, pinmap=None,
             power_off=None, device=None, seeds=None, dice=None):
        """`seeds`: draw from committed seeds (engine/chance.py) instead of the seeded, unverifiable dice;
        `dice`: a random source of the test's own."""
        dice = {"seeds": seeds} if seeds else {"random": dice or random.Random(seed)}
        table = Table(Journal(data / "journal.sqlite3"), reveal_delay=reveal_delay, schedule=clock.schedule,
                      **dice)
        loaded = load_pinmap(*[pinmap] if pinmap else [])
        simulated = simulated_matrix(pins, loaded)  # as the composition root does in mock mode
        box = Box(table, loaded, device or dummy(width=128, height=64, mode="1"), url=url, clock=clock,
                  schedule=clock.schedule, pin_factory=pins, power_off=power_off or mock.power_off,
                  state=StateFile(data / "box.json"))
        VIRTUAL[box] = VirtualBox(box, mock.Finger(box.pads, simulated, sleep=clock.advance))
        made.append(box)
        return box

    yield make
    for box in made:
        box.close()
        box.table.close()


@pytest.fixture
def box(make_box):
    """A box on mock pins playing Ponte with 4 seats (a test module may declare its own)."""
    made = make_box(url="http://192.168.1.23:8000")
    made.table.new_game("ponte", 4)
    return made


@pytest.fixture
def browser():
    """Debian's chromium through Playwright (skipped where it is missing, except in CI)."""
    from playwright.sync_api import sync_playwright

    from tests.browser import launch
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()

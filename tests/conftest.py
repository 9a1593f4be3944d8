import weakref
from pathlib import Path

import pytest

from engine.journal import Journal
from engine.state_file import StateFile
from engine.table import Table
from games.ponte import rules as ponte

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"  # the builder's files (its pinmap.toml: the default)
DIRECT_PINMAP = HARDWARE / "pinmap-direct.toml"  # four pads, a pin per button


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The commands speak the terminal's language: the tests read English unless a test says otherwise (the
    variable reaches the commands the tests start, too)."""
    monkeypatch.setenv("LANGUAGE", "en")


def picks(state, *cards, start=0):
    """Apply one pick per seat (None = that seat does not pick now), seat `start` first."""
    for offset, card in enumerate(cards):
        if card is not None:
            state = ponte.apply(state, {"seat": start + offset, "pick": card})
    return state


def press(table, seat, button):
    """What a Ponte pad's button `button` does for `seat`: pick the button-th card."""
    return table.act({"seat": seat, "pick": ponte.CARDS[button - 1]})


def held_round(path, clock):
    """A Ponte table of 3 seats on the journal at `path`, its reveal delay 1 s on `clock`: seats 1 to 3 have
    picked cards 1 to 3, and the last pick, which completes the round, is held."""
    table = Table(Journal(path), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    press(table, 0, 1)
    press(table, 1, 2)
    assert press(table, 2, 3) == "held"
    return table


def state_copies(monkeypatch, rules):
    """The types of what the `rules` module copies from now on, in order (every copy of a state or of its parts
    goes through `evolve`)."""
    made, real = [], rules.evolve

    def counted(value, **changes):
        made.append(type(value).__name__)
        return real(value, **changes)
    monkeypatch.setattr(rules, "evolve", counted)
    return made


def event(state, card):
    return ponte.apply(state, {"chance": "event", "outcome": card})


class ManualClock:
    """Scheduled callbacks run only when the test advances time."""

    def __init__(self):
        self.now = 0.0
        self.jobs = []

    def __call__(self):
        return self.now

    def schedule(self, delay, callback):
        job = [self.now + delay, callback]
        self.jobs.append(job)
        return lambda: job in self.jobs and self.jobs.remove(job)

    def advance(self, seconds):
        self.now += seconds
        for job in [j for j in self.jobs if j[0] <= self.now]:
            self.jobs.remove(job)
            job[1]()


VIRTUAL = weakref.WeakKeyDictionary()  # box -> the virtual box make_box built beside it, on the test's clock


def virtual(box):
    """The virtual box of a box make_box made: presses held and settled on the test's manual clock."""
    return VIRTUAL[box]


def simulated_pads(factory, on_seat, on_host, **options):
    """MatrixPads of the default pin map on `factory`'s mock pins with the matrix simulated on them, as the
    composition root makes them in mock mode, and the finger that presses them (device/mock/finger.py)."""
    from device.config import load_pinmap
    from device.mock import Finger
    from device.pads import MatrixPads
    from device.mock import simulated_matrix
    pinmap = load_pinmap()
    simulated = simulated_matrix(factory, pinmap)
    pads = MatrixPads(pinmap, on_seat, on_host, pin_factory=factory, **options)
    return pads, Finger(pads, simulated)


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

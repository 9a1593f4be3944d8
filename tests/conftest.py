"""The helpers the tests import by name (`from tests.conftest import …`); the fixtures and the registry every test
shares, wherever it lives, are in the root `conftest.py`."""
import weakref
from pathlib import Path

from engine.journal import Journal
from engine.table import Table
from games.ponte import rules as ponte

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"  # the builder's files (its pinmap.toml: the default)
DIRECT_PINMAP = HARDWARE / "pinmap-direct.toml"  # four pads, a pin per button


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

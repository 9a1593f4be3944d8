import pytest

from engine.journal import Journal
from engine.rules import ponte
from engine.table import Table


def picks(state, *cards, start=0):
    """Apply one pick per seat (None = that seat does not pick now), seat `start` first."""
    for offset, card in enumerate(cards):
        if card is not None:
            state = ponte.apply(state, {"seat": start + offset, "pick": card})
    return state


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


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def table(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"))
    yield table
    table.close()

"""A long Leader 1 race stays as quick as a short one: the public view at about action 4,300 against action 100 (pure
rules, over the 100 actions before each), and an action through the table at about action 2,000 against action 100
with what 50 phones cost (one render and one encoding per viewer per version: the public view, the host's, each
seat's). CPU time, medians. Goals: the view ≤ 1.5× (flat), the act with its views flat (≤ 1.5×).

A view at action 100 shows the race's opening: about 4 KB (no finisher yet, short events), against 8–9 KB from
about action 1,000 on, when the view has all it will ever show (the last 40 events, every rider). So the view is
also compared per KB of what it shows: a view whose work grew with the race would grow there too.

Run by hand: `.venv/bin/python bench/leader1.py`."""
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.record import TABLE, lines_of_a_game  # noqa: E402
from engine.journal import Journal  # noqa: E402
from engine.record import GameRecord  # noqa: E402
import games  # noqa: E402
from engine.games import GAMES, register  # noqa: E402
from engine.rules.protocol import HOST, PUBLIC  # noqa: E402
from engine.table import Table  # noqa: E402

register(games.ALL)  # as the composition root does (device/cli.py): the engine imports no game

RULES = GAMES["leader1"].rules


def cpu_median(work, repeat):
    found = []
    for _ in range(repeat):
        started = time.process_time()
        work()
        found.append(time.process_time() - started)
    return statistics.median(found)


def view_at(lines, count, window=100):
    """CPU seconds of the public view over the `window` actions before `count` (a view shows the last 40
    events, so one state's view may be a little larger than another's: a window compares like with like), and
    the views' mean size (KB of JSON)."""
    record, states = GameRecord(TABLE), []
    for n, line in enumerate(lines[:count]):
        record.apply(line)
        if n >= count - window:
            states.append(record.state)
    size = statistics.mean(len(json.dumps(RULES.view(state, PUBLIC))) for state in states) / 1024
    return cpu_median(lambda: [RULES.view(state, PUBLIC) for state in states], 15) / len(states), size


def acting_at(count, seed=7):
    """One action at a time through a table with its journal, from about action `count` on, plus the views a
    version costs with phones following (each viewer rendered and encoded once)."""
    table, rng = Table(Journal(":memory:"), random=random.Random(seed)), random.Random(seed)
    table.new_game("leader1", TABLE["seats"], {**TABLE["options"], "stages": 10})  # long enough for 2,000
    viewers = [PUBLIC, HOST, *range(table.seats)]

    def step():
        seat = rng.choice([s for s in range(table.seats) if table.legal_actions(s)])  # chance: the table's
        table.act(rng.choice(table.legal_actions(seat)))
        for viewer in viewers:
            json.dumps(table.view(viewer))

    while table.version < count:
        step()
    return step


def acts_with_views_at(*counts, repeat=30):
    """CPU seconds of one action (with its views) at about each of `counts`: the median over `repeat` actions.
    The tables take turns, so a slow spell of a shared machine falls on every count alike."""
    steps, found = [acting_at(count) for count in counts], [[] for _ in counts]
    for _ in range(repeat):
        for step, times in zip(steps, found):
            started = time.process_time()
            step()
            times.append(time.process_time() - started)
    return [statistics.median(times) for times in found]


def main():
    lines = lines_of_a_game(4300)
    (short, short_kb), (long, long_kb) = view_at(lines, 100), view_at(lines, len(lines))
    per_kb = (long / long_kb) / (short / short_kb)
    print(f"public view: {short * 1e3:.3f} ms at action 100 ({short_kb:.1f} KB), {long * 1e3:.3f} ms at action "
          f"{len(lines)} ({long_kb:.1f} KB): {long / short:.2f}×, {per_kb:.2f}× per KB shown "
          f"(goal ≤ 1.5×: {'met' if per_kb <= 1.5 else 'NOT met'})")
    short, long = acts_with_views_at(100, 2000)
    print(f"act + one view per viewer: {short * 1e3:.2f} ms at action 100, {long * 1e3:.2f} ms at action 2,000 "
          f"({long / short:.2f}×; goal flat, ≤ 1.5×: {'met' if long / short <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()

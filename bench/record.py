"""A long game's record: its memory (Leader 1, a 3-stage race, at 1,000 and 4,000 lines; the baseline keeps
every state, as the record did before, in the same run) and the cost per line of rebuilding it from its lines
(what a restart does from the journal, and `arbitro replay`), at 100 and 3,000 lines. CPU time, the least of 7 rounds.
Goals: linear memory, ≤ 3 MB at 4,000 lines; rebuild per line flat (3,000 vs 100 ≤ 1.5×).

Run by hand: `.venv/bin/python bench/record.py`."""
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.record import GameRecord, header  # noqa: E402
import games  # noqa: E402
from engine.games import GAMES, register  # noqa: E402
from engine.rules import CHANCE, TERMINAL  # noqa: E402

register(games.ALL)  # as the composition root does (device/cli.py): the engine imports no game

TABLE = header("leader1", 4, {"supply": "box", "race": "tappe", "stages": 3})


def lines_of_a_game(count, seed=5):
    rules, rng = GAMES["leader1"].rules, random.Random(seed)
    record, lines = GameRecord(TABLE), []
    while len(lines) < count and rules.current_actors(record.state) != TERMINAL:
        actors = rules.current_actors(record.state)
        if actors == CHANCE:
            outcomes = rules.chance_outcomes(record.state)
            line = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            line = rng.choice(rules.legal_actions(record.state, rng.choice(list(actors))))
        record.apply(line)
        lines.append(line)
    return lines


def memory(lines, keep_every_state):
    """Bytes the record (and, for the baseline, a list of every state) holds after `lines`."""
    tracemalloc.start()
    record, states = GameRecord(TABLE), []
    for line in lines:
        record.apply(line)
        if keep_every_state:
            states.append(record.state)
    used = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return used


def rebuild_per_line(*games, rounds=7):
    """CPU seconds per line to rebuild a record from each of `games` (lists of lines): the least of `rounds`,
    the games taking turns in each round so that a spell of a neighbour's load slows them alike (measured one
    after the other, the ratio swung from 1.0× to 2.3× on this machine)."""
    found = [[] for _ in games]
    for _ in range(rounds):
        for lines, times in zip(games, found):
            started = time.process_time()
            record = GameRecord(TABLE)
            for line in lines:
                record.apply(line)
            times.append((time.process_time() - started) / len(lines))
    return [min(times) for times in found]


def main():
    lines = lines_of_a_game(4000)
    for count in (1000, len(lines)):
        now, before = memory(lines[:count], False), memory(lines[:count], True)
        print(f"record memory at {count:5} lines: {now / 1e6:.2f} MB (baseline, a state per line: "
              f"{before / 1e6:.2f} MB)")
    print(f"goal ≤ 3 MB at 4,000 lines: {'met' if memory(lines, False) <= 3e6 else 'NOT met'}")
    short, long = rebuild_per_line(lines[:100], lines[:3000])
    print(f"rebuild per line: {short * 1e3:.3f} ms at 100 lines, {long * 1e3:.3f} ms at 3,000 "
          f"({long / short:.2f}×; goal ≤ 1.5×: {'met' if long / short <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()

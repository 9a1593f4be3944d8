"""Random full Ponte games per second: through the pure rules, and through the table with its journal.
A random game: each waiting seat, in random order, picks a random card it holds; chance as the rules weigh it.

Run by hand: `.venv/bin/python bench/engine.py [--seconds S]`. Target: ≥ 5,000 games/s pure."""
import argparse
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.journal import Journal  # noqa: E402
from engine.rules import CHANCE, TERMINAL, ponte  # noqa: E402
from engine.table import Table  # noqa: E402


def pure_game(rng, seats):
    state = ponte.setup(seats, {"deal": "box" if seats % 2 else "table"})
    while True:
        actors = ponte.current_actors(state)
        if actors == TERMINAL:
            return state
        if actors == CHANCE:
            outcomes = ponte.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(ponte.legal_actions(state, rng.choice(state.picks.waiting)))
        state = ponte.apply(state, action)


def table_game(table, rng, seats):
    table.new_game("ponte", seats)
    while not table.view()["over"]:
        shown = table.view()
        seat = rng.choice([s for s in shown["picking"] if s not in shown["locked"]])
        table.act(rng.choice(table.legal_actions(seat)))


def rate(play, seconds):
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play(3 + games % 4)
        games += 1
    return games / (time.perf_counter() - start)


def pure_rate(seed, seconds):
    rng = random.Random(seed)
    return rate(lambda n: pure_game(rng, n), seconds)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--processes", type=int, default=multiprocessing.cpu_count(),
                        help="also measure this many processes playing at once (the rules are pure)")
    args = parser.parse_args()
    print(f"pure rules, 1 process:{pure_rate(1, args.seconds):9.0f} games/s")
    if args.processes > 1:
        with multiprocessing.Pool(args.processes) as pool:
            rates = pool.starmap(pure_rate, [(seed, args.seconds) for seed in range(args.processes)])
        print(f"pure rules, {args.processes} processes:{sum(rates):7.0f} games/s")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        memory = Table(Journal(":memory:"), random=random.Random(2))
        print(f"table, memory journal:{rate(lambda n: table_game(memory, rng, n), args.seconds):9.0f} games/s")
        disk = Table(Journal(Path(tmp) / "journal.sqlite3"), random=random.Random(3))
        print(f"table, disk journal:  {rate(lambda n: table_game(disk, rng, n), args.seconds):9.0f} games/s "
              f"(synchronous=FULL on {tmp})")


if __name__ == "__main__":
    main()

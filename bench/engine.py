"""Random full games per second (Ponte unless `--game` says otherwise): through the pure rules, and through
the table with its journal. A random game: a seat still to act, at random, takes a random legal action; chance
as the rules weigh it. Seat counts cycle through the game's range.

Run by hand: `.venv/bin/python bench/engine.py [--game G] [--seconds S]`. Target: ≥ 5,000 Ponte games/s pure."""
import argparse
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.journal import Journal  # noqa: E402
from engine.rules import CHANCE, GAMES, TERMINAL  # noqa: E402
from engine.table import Table  # noqa: E402


def random_action(rules, state, rng):
    """A random next line: a chance outcome as weighed, or a random action of a seat still to act (a seat
    that has picked does not change its mind)."""
    actors = rules.current_actors(state)
    if actors == CHANCE:
        outcomes = rules.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    picks = getattr(state, "picks", None)
    return rng.choice(rules.legal_actions(state, rng.choice(picks.waiting if picks else list(actors))))


def pure_game(rules, rng, seats):
    state = rules.setup(seats, {})
    while rules.current_actors(state) != TERMINAL:
        state = rules.apply(state, random_action(rules, state, rng))
    return state


def table_game(table, rng, rules, seats):
    table.new_game(rules.NAME, seats)
    while not table.view()["over"]:
        table.act(random_action(rules, table._record.state, rng))


def rate(rules, play, seconds):
    low, high = rules.SEATS
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play(low + games % (high - low + 1))
        games += 1
    return games / (time.perf_counter() - start)


def pure_rate(name, seed, seconds):
    rng = random.Random(seed)
    return rate(GAMES[name], lambda n: pure_game(GAMES[name], rng, n), seconds)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), default="ponte")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--processes", type=int, default=multiprocessing.cpu_count(),
                        help="also measure this many processes playing at once (the rules are pure)")
    args = parser.parse_args()
    rules = GAMES[args.game]
    print(f"{args.game}, pure rules, 1 process:{pure_rate(args.game, 1, args.seconds):9.0f} games/s")
    if args.processes > 1:
        with multiprocessing.Pool(args.processes) as pool:
            rates = pool.starmap(pure_rate, [(args.game, seed, args.seconds) for seed in range(args.processes)])
        print(f"{args.game}, pure rules, {args.processes} processes:{sum(rates):7.0f} games/s")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        memory = Table(Journal(":memory:"), random=random.Random(2))
        print(f"table, memory journal:{rate(rules, lambda n: table_game(memory, rng, rules, n), args.seconds):9.0f}"
              " games/s")
        disk = Table(Journal(Path(tmp) / "journal.sqlite3"), random=random.Random(3))
        print(f"table, disk journal:  {rate(rules, lambda n: table_game(disk, rng, rules, n), args.seconds):9.0f}"
              f" games/s (synchronous=FULL on {tmp})")


if __name__ == "__main__":
    main()

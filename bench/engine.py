"""Random full games per CPU-second (and per wall-second beside it: on a shared machine the wall clock swings
with the neighbours' load), through the pure rules for every game (or `--game`), and through the table with its
journal. A random game: a seat still to act, at random, takes a random legal action; chance as the rules weigh
it. Seat counts cycle through the game's range.

Run by hand: `.venv/bin/python bench/engine.py [--game G] [--seconds S]`. Goals, pure rules per CPU-second:
Ponte ≥ 5,000, Shangri-La ≥ 200, Leader 1 ≥ 50."""
import argparse
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.journal import Journal  # noqa: E402
from engine.games import GAMES  # noqa: E402
from engine.rules import CHANCE, TERMINAL  # noqa: E402
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
        table.act(random_action(rules, table.state, rng))


GOALS = {"ponte": 5000, "shangrila": 200, "leader1": 50}


WINDOWS = 5


def rate(rules, games, seconds):
    """(games per CPU-second, games per wall-second) over about `seconds` of CPU, taken in WINDOWS windows that
    each play the same games (`games()` gives a fresh `play(seats)`, its random player seeded alike): the CPU rate
    is the best window's, as timeit takes the fastest of its repeats (a neighbour's load on a shared machine only
    ever slows a window down), the wall rate the whole run's."""
    low, high = rules.SEATS
    total, best, wall = 0, 0.0, time.perf_counter()
    for _ in range(WINDOWS):
        play, played, cpu = games(), 0, time.process_time()
        while time.process_time() - cpu < seconds / WINDOWS:
            play(low + played % (high - low + 1))
            played += 1
        best = max(best, played / (time.process_time() - cpu))
        total += played
    return best, total / (time.perf_counter() - wall)


def pure_rate(name, seed, seconds):
    rules = GAMES[name].rules

    def games():
        rng = random.Random(seed)
        return lambda seats: pure_game(rules, rng, seats)
    return rate(rules, games, seconds)


def said(rates):
    return (f"{rates[0]:9.1f} games per CPU-second, the best of {WINDOWS} windows ({rates[1]:.1f} per wall-second "
            "over them all)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), help="one game (default: every game, pure rules)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--processes", type=int, default=multiprocessing.cpu_count(),
                        help="also measure this many processes playing at once (the rules are pure)")
    args = parser.parse_args()
    for name in [args.game] if args.game else list(GAMES):
        rates = pure_rate(name, 1, args.seconds)
        goal = GOALS.get(name)
        print(f"{name}, pure rules: {said(rates)}"
              + (f"; goal ≥ {goal}: {'met' if rates[0] >= goal else 'NOT met'}" if goal else ""))
    name = args.game or "ponte"
    rules = GAMES[name].rules
    if args.processes > 1:
        with multiprocessing.Pool(args.processes) as pool:
            rates = pool.starmap(pure_rate, [(name, seed, args.seconds) for seed in range(args.processes)])
        each = [r[0] for r in rates]
        print(f"{name}, pure rules, {args.processes} processes at once: {sum(each):.0f} games per second together, "
              f"{min(each):.0f}–{max(each):.0f} per CPU-second each")
    with tempfile.TemporaryDirectory() as tmp:
        for where, journal in (("memory", ":memory:"), ("disk", Path(tmp) / "journal.sqlite3")):
            table = Table(Journal(journal), random=random.Random(2))

            def games():
                rng = random.Random(1)
                return lambda seats: table_game(table, rng, rules, seats)
            rates = rate(rules, games, args.seconds)
            print(f"{name}, table, {where} journal: {said(rates)}")


if __name__ == "__main__":
    main()

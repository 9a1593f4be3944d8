"""Random full games per CPU-second (and per wall-second beside it: on a shared machine the wall clock swings
with the neighbours' load), through the pure rules for every game (or `--game`), and through the table with its
journal. A random game: a seat still to act, at random, takes a random legal action; chance as the rules weigh
it. Seat counts cycle through the game's range.

Beside each goal, the random player alone: the states of recorded games asked for their next line and none
applied, what listing the legal actions and choosing costs before any action is applied.

The rates depend on the interpreter as much as on the rules: the first line names the one measured. `make bench`
runs this under the venv's and under Debian's /usr/bin/python3, the box's (the rules need the standard library
only). They also swing with a shared machine's load, by a third within the hour for the same code: where valgrind
is installed, the instructions a game takes are counted too (callgrind: the same count for the same code and
interpreter whatever else the machine does), the measure to compare two versions of the rules by.

Run by hand: `.venv/bin/python bench/engine.py [--game G] [--seconds S]`. Goals, pure rules per CPU-second:
Ponte ≥ 5,000, Shangri-La ≥ 200, Leader 1 ≥ 50."""
import argparse
import multiprocessing
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.journal import Journal  # noqa: E402
import games  # noqa: E402
from engine.games import GAMES, register  # noqa: E402
from engine.rules import CHANCE, TERMINAL  # noqa: E402
from engine.table import Table  # noqa: E402

register(games.ALL)  # as the composition root does (device/cli.py): the engine imports no game


def random_action(rules, state, rng, actors):
    """A random next line of `state`, where `actors` (the rules' current actors, asked once a line) act: a chance
    outcome as weighed, or a random action of a seat still to act (a seat that has picked does not change its
    mind)."""
    if actors == CHANCE:
        outcomes = rules.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    picks = getattr(state, "picks", None)
    return rng.choice(rules.legal_actions(state, rng.choice(picks.waiting if picks else list(actors))))


def pure_game(rules, rng, seats):
    state = rules.setup(seats, {})
    actors = rules.current_actors(state)
    while actors != TERMINAL:
        state = rules.apply(state, random_action(rules, state, rng, actors))
        actors = rules.current_actors(state)
    return state


def table_game(table, rng, rules, seats):
    table.new_game(rules.NAME, seats)
    while not table.view()["over"]:
        table.act(random_action(rules, table.state, rng, rules.current_actors(table.state)))


GOALS = {"ponte": 5000, "shangrila": 200, "leader1": 50}


WINDOWS = 5


def seat_count(rules, n):
    """The seats of the n-th game played: the counts cycle through the game's range."""
    low, high = rules.SEATS
    return low + n % (high - low + 1)


def window(rules, games, seconds):
    """(games, CPU seconds, wall seconds) of about `seconds` of CPU playing from a fresh `games()`, a
    `play(seats)` whose random player is seeded alike each time: every window plays the same games."""
    play, played, cpu, wall = games(), 0, time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        play(seat_count(rules, played))
        played += 1
    return played, time.process_time() - cpu, time.perf_counter() - wall


def rates(measures, seconds):
    """{name: (games per CPU-second, games per wall-second)} of each of `measures` ({name: (rules, games)}), over
    about `seconds` of CPU each, in WINDOWS windows taken in turns: a slow spell of a shared machine falls on a
    window of each, not on every window of one. The CPU rate is the best window's, as timeit takes the fastest of
    its repeats (a neighbour's load only ever slows a window down); the wall rate is over all of them."""
    found = {name: [] for name in measures}
    for _ in range(WINDOWS):
        for name, (rules, games) in measures.items():
            found[name].append(window(rules, games, seconds / WINDOWS))
    return {name: (max(n / cpu for n, cpu, _ in taken), sum(n for n, _, _ in taken) / sum(w for _, _, w in taken))
            for name, taken in found.items()}


def pure(name, seed):
    """(rules, games) of random games of `name` through its pure rules."""
    rules = GAMES[name].rules

    def games():
        rng = random.Random(seed)
        return lambda seats: pure_game(rules, rng, seats)
    return rules, games


def player_alone(name, seed, count):
    """(games per CPU-second, lines a game) of the random player alone: every state of `count` random games of
    `name`, kept, asked for its next line (who acts, every legal action, the random choices) and none applied.
    Where this alone is under the goal, listing the legal actions must get faster before applying them matters
    (a game's rules may share what they work out between the two: its apply then costs less than it would
    alone). The best of WINDOWS passes."""
    rules, rng = GAMES[name].rules, random.Random(seed)
    states = []
    for n in range(count):
        state = rules.setup(seat_count(rules, n), {})
        actors = rules.current_actors(state)
        while actors != TERMINAL:
            states.append(state)
            state = rules.apply(state, random_action(rules, state, rng, actors))
            actors = rules.current_actors(state)
    best = float("inf")
    for _ in range(WINDOWS):
        cpu = time.process_time()
        for state in states:
            random_action(rules, state, rng, rules.current_actors(state))
        best = min(best, time.process_time() - cpu)
    return count / best, len(states) / count


COUNTED = {"ponte": 300, "shangrila": 10, "leader1": 4}  # games counted: about 15 s each under callgrind


def instructions(name):
    """Instructions a random game of `name` takes through its pure rules, the start of the interpreter taken out
    (valgrind's callgrind counts them in a process of its own), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None

    def counted(games):
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                              __file__, "--play", name, str(games)], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": "0"})  # sets iterate alike in every run
        return int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    return (counted(COUNTED[name]) - counted(0)) / COUNTED[name]


def play(name, games):
    """`games` random games of `name`, as a window plays them (what `instructions` counts)."""
    rules, made = pure(name, 1)
    game = made()
    for n in range(games):
        game(seat_count(rules, n))


def pure_rate(name, seed, seconds):
    return rates({name: pure(name, seed)}, seconds)[name]


def on_table(table, rules):
    """(rules, games) of random games of `rules` played through `table`."""
    def games():
        rng = random.Random(1)
        return lambda seats: table_game(table, rng, rules, seats)
    return rules, games


def said(rate):
    return (f"{rate[0]:9.1f} games per CPU-second, the best of {WINDOWS} windows ({rate[1]:.1f} per wall-second "
            "over them all)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), help="one game (default: every game, pure rules)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--processes", type=int, default=multiprocessing.cpu_count(),
                        help="also measure this many processes playing at once (the rules are pure)")
    parser.add_argument("--play", nargs=2, metavar=("GAME", "N"), help="only play N random games (counted by "
                        "`instructions`)")
    args = parser.parse_args()
    if args.play:
        return play(args.play[0], int(args.play[1]))
    names = [args.game] if args.game else list(GAMES)
    maps = Path("/proc/self/maps")  # a libpython loaded beside the executable: calls through the PLT, slower
    shared = maps.exists() and "libpython" in maps.read_text()
    print(f"Python {platform.python_version()} at {sys.executable} ({platform.python_compiler()}, libpython "
          f"{'a shared library' if shared else 'in the executable'})")
    for name, rate in rates({name: pure(name, 1) for name in names}, args.seconds).items():
        goal = GOALS.get(name)
        print(f"{name}, pure rules: {said(rate)}"
              + (f"; goal ≥ {goal}: {'met' if rate[0] >= goal else 'NOT met'}" if goal else ""))
    for name in [n for n in names if n in GOALS]:
        rate, lines = player_alone(name, 1, {"ponte": 2000, "shangrila": 100, "leader1": 10}[name])
        print(f"{name}, the random player alone (every legal action listed and one chosen, none applied; {lines:.0f} "
              f"lines a game): {rate:.0f} games per CPU-second, {1e6 / rate / lines:.1f} µs a line (the goal: "
              f"{1e6 / GOALS[name] / lines:.1f} µs a line in all)")
        counted = instructions(name)
        if counted is not None:
            print(f"{name}: {counted / 1e6:.2f} M instructions a game (callgrind, {COUNTED[name]} games)")
    name = args.game or "ponte"
    rules = GAMES[name].rules
    if args.processes > 1:
        with multiprocessing.Pool(args.processes) as pool:
            each = [rate[0] for rate in pool.starmap(pure_rate, [(name, seed, args.seconds)
                                                                  for seed in range(args.processes)])]
        print(f"{name}, pure rules, {args.processes} processes at once: {sum(each):.0f} games per second together, "
              f"{min(each):.0f}–{max(each):.0f} per CPU-second each")
    with tempfile.TemporaryDirectory() as tmp:
        tables = {where: on_table(Table(Journal(journal), random=random.Random(2)), rules)
                  for where, journal in (("memory", ":memory:"), ("disk", Path(tmp) / "journal.sqlite3"))}
        for where, rate in rates(tables, args.seconds).items():
            print(f"{name}, table, {where} journal: {said(rate)}")


if __name__ == "__main__":
    main()

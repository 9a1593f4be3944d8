"""Does a refused secret press tell itself by its timing? Once a seat holds a secret pick, a press of a card it
holds is taken (a change of mind, or the same card again) and one of a card it does not hold is refused; neither
may show on a public channel (issue 51): both must sound their tick as the key is read and send every phone the
public view as soon, so that how long a press took tells nothing.

Each run is a child process: a real Box on mock pins (the default key matrix, scanned on its thread, the pads'
presses stepped on the box's thread as `box.start()` has it) with a real Journal in a temporary folder, Ponte
with 3 seats dealt by the box, and one phone following the public stream (a `streams.Follower` whose connection
notes when each `view` event is written to it). Seat 0 picks a card; seats 1 and 2 never do, so the round stays
open. Then PRESSES presses of seat 0's pad through the mock pins as a finger would, in a random order, a random
pause of up to PAUSE seconds before each: "taken" (a card it holds) and "refused" (a card it does not). For each,
from the moment the key is read (`InputRouter.seat_pressed`, called by the scanner) to the tick (`Sounds.play`)
and to the public view written to the phone; and the syncs it made. An SD card's syncs: bench/fsync_delay.c,
LD_PRELOADed, makes every sync last 30 ms (bench/journal.py builds and checks it). As root with cgroup v1 the runs
are in the emulated Pi Zero 2 W (bench/journal.py's Zero), else on this machine (`--plain`: both), RUNS of each.
The baseline, in the same run: the taken presses. Each kind's delays are pooled over the runs; their medians'
difference (refused − taken) comes with a bootstrap 95 % interval and a Mann–Whitney two-sided p.

What a person can perceive: judging whether a sound and a flash, or two flashes, came together or in which order
takes tens of milliseconds at best (the just-noticeable audio-visual asynchrony is some 20–30 ms for a trained
observer, and sounds up to ~50 ms late are still heard as one with what is seen); a phone on the table's Wi-Fi
adds delivery jitter larger still (a sleeping radio wakes at beacons ~100 ms apart), so a phone timing the public
view against the pressing hand sees tens of milliseconds of noise on each press, and would need hundreds of
presses in one pick to see a 5 ms shift through it. Goal, on the emulated Zero, for the tick and for the public
view alike: |refused − taken| ≤ 5 ms in the median and ≤ 10 ms at the 95th percentile, and every refused press
sends the public view as a taken one does.

Run by hand: `.venv/bin/python bench/tells.py [--runs N] [--presses N] [--plain]` (as root: a few minutes)."""
import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.journal import DELAY_MS, child_run, percentile, sd_card_machines  # noqa: E402

PRESSES = 200
RUNS = 3
PAUSE = 0.15  # seconds, at most, before each press (drawn): presses come apart, as a hand's do
SEAT = 0
GOALS = {"median": 0.005, "p95": 0.010}  # |refused − taken|: well under what a person perceives (the docstring)
KINDS = ("taken", "refused")
SPANS = ("tick", "view")  # from the key read to the tick, and to the public view written to the phone
BOOTSTRAP = 2000


def child(presses, folder, seed):
    """Play the presses on a fresh box in `folder`; print each press's kind, outcome, delays and syncs as JSON."""
    import games
    from device import mock
    from device.box import Box
    from device.config import load_pinmap
    from device.mock import mock_pins
    from device.virtual_box import VirtualBox
    from device.web_port import WebPort
    from engine.games import register
    from engine.journal import Journal
    from engine.table import Table
    from engine.timers import Scheduler
    from web_companion import create_app, streams
    from web_companion.services import services
    register(games.ALL)  # as the composition root does (device/cli.py)

    count = Path(os.environ["ARBITRO_SYNC_COUNT"])
    noted = {}  # this press's moments: "read", "tick"
    reading = Box.seat_pressed

    def seat_pressed(box, seat, button):  # the scanner read the key: the moment every delay starts from
        noted.setdefault("read", time.perf_counter())
        return reading(box, seat, button)
    Box.seat_pressed = seat_pressed  # before the box is made: its pads are handed the box's method

    class Noted(streams.Queued):
        """The public phone's connection: when each version's view was first written to it."""

        def __init__(self):
            super().__init__()
            self.views, self.written = {}, threading.Condition()

        def __call__(self, data):
            if data.startswith(b"id: "):
                at = time.perf_counter()
                with self.written:
                    self.views.setdefault(int(data[4:data.index(b"\n")]), at)
                    self.written.notify_all()

        def view_of(self, version, timeout=10):
            """When the view of `version` (or a later one) was written, waiting for it; None if it never was."""
            with self.written:
                self.written.wait_for(lambda: max(self.views, default=-1) >= version, timeout)
                return min((at for seen, at in self.views.items() if seen >= version), default=None)

    pinmap = load_pinmap()
    pins, simulated = mock_pins(pinmap)
    scheduler = Scheduler()
    table = Table(Journal(Path(folder) / "journal.sqlite3"), schedule=scheduler)
    box = Box(table, pinmap, mock.display(), pin_factory=pins, schedule=scheduler, power_off=mock.power_off)
    if box.sounds is None:
        sys.exit("the default pin map has no buzzer: the tick cannot be timed")
    playing = box.sounds.play

    def play(name):
        if name == "tick":
            noted.setdefault("tick", time.perf_counter())
        playing(name)
    box.sounds.play = play
    virtual = VirtualBox(box, mock.Finger(box.pads, simulated))
    changes = services(create_app(WebPort(box))).changes
    phone = Noted()
    changes.follow(streams.Follower(lambda: "public", phone))
    box.start()
    box.new_game("ponte", 3, {"deal": "box"})
    rng = random.Random(seed)
    pad = table.prompt(SEAT).pad
    held = table.legal_actions(SEAT)
    buttons = {"taken": [b for b, choice in enumerate(pad, 1) if choice and choice.action in held],
               "refused": [b for b, choice in enumerate(pad, 1) if choice and choice.action not in held]}
    if not all(buttons.values()):
        sys.exit(f"seat {SEAT + 1}'s pad has no button of each kind: {buttons}")
    virtual.press(seat=SEAT, button=rng.choice(buttons["taken"]))  # its pick: held from now on
    found = []
    for _ in range(presses):
        kind = rng.choice(KINDS)
        button = rng.choice(buttons[kind])
        time.sleep(rng.uniform(0, PAUSE))
        noted.clear()
        version, synced = table.version, count.stat().st_size if count.exists() else 0
        outcome = virtual.press(seat=SEAT, button=button)
        moved = table.version != version
        viewed = phone.view_of(table.version) if moved else None
        read = noted["read"]
        found.append({"kind": kind, "status": outcome and outcome["status"], "moved": moved,
                      "tick": noted["tick"] - read if "tick" in noted else None,
                      "view": viewed - read if viewed is not None else None,
                      "syncs": (count.stat().st_size if count.exists() else 0) - synced})
    changes.close()
    box.close()
    table.close()
    scheduler.close()
    print(json.dumps(found))


def run_child(presses, seed, environment, zero=None):
    """One child's presses (the JSON it printed) and how often the emulated Zero's quota throttled it."""
    found, _, (periods, throttled) = child_run(__file__, ["--presses", str(presses), "--seed", str(seed)],
                                               environment, zero)
    return found, periods, throttled


def mann_whitney(xs, ys):
    """The two-sided p of Mann–Whitney's U (normal approximation, ties corrected): that xs and ys differ."""
    pooled = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks, ties, i = [0.0] * len(pooled), 0.0, 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        ties += (j - i + 1) ** 3 - (j - i + 1)
        i = j + 1
    n, m = len(xs), len(ys)
    u = sum(r for r, (_, group) in zip(ranks, pooled) if group == 0) - n * (n + 1) / 2
    spread = (n * m / 12 * ((n + m + 1) - ties / ((n + m) * (n + m - 1)))) ** 0.5
    if not spread:
        return 1.0
    return 2 * statistics.NormalDist().cdf(-abs(u - n * m / 2) / spread)


def bootstrap(xs, ys, rng):
    """A 95 % interval of median(ys) − median(xs), by resampling each."""
    differences = sorted(statistics.median(rng.choices(ys, k=len(ys))) - statistics.median(rng.choices(xs, k=len(xs)))
                         for _ in range(BOOTSTRAP))
    return differences[int(0.025 * BOOTSTRAP)], differences[int(0.975 * BOOTSTRAP) - 1]


def ms(seconds):
    return f"{round(1000 * seconds, 2) + 0.0:.2f} ms"  # + 0.0: no "-0.00"


def summary(machine, runs, emulated):
    """Every run's presses together, per kind and span, and the goals."""
    presses = [press for run in runs for press in run]
    print(f"{machine}, every sync delayed {DELAY_MS} ms, {len(runs)} runs of {len(runs[0])} presses (load average at "
          f"the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
    by_kind = {kind: [p for p in presses if p["kind"] == kind] for kind in KINDS}
    for kind, chosen in by_kind.items():
        statuses = sorted({p["status"] for p in chosen})
        viewed = sum(p["view"] is not None for p in chosen)
        print(f"  {kind:8} {len(chosen)} presses ({', '.join(map(str, statuses))}): the version moved in "
              f"{sum(p['moved'] for p in chosen)}, the public view sent after {viewed}, "
              f"{statistics.mean(p['syncs'] for p in chosen):.2f} syncs a press")
    verdicts, rng = [], random.Random(0)
    for span in SPANS:
        delays = {kind: [p[span] for p in chosen if p[span] is not None] for kind, chosen in by_kind.items()}
        for kind, values in delays.items():
            if values:
                print(f"  {kind:8} key read → {span}: median {ms(statistics.median(values))}, "
                      f"p95 {ms(percentile(values, 0.95))} ({len(values)})")
        taken, refused = delays["taken"], delays["refused"]
        if not (taken and refused):
            missing = "refused" if taken else "taken"
            print(f"  {span}: no {missing} press had one: compared with nothing")
            verdicts.append(f"{span} after every refused press: {met(False)}")
            continue
        median = statistics.median(refused) - statistics.median(taken)
        high = percentile(refused, 0.95) - percentile(taken, 0.95)
        low_ci, high_ci = bootstrap(taken, refused, rng)
        per_run = [statistics.median([p[span] for p in run if p["kind"] == "refused" and p[span] is not None])
                   - statistics.median([p[span] for p in run if p["kind"] == "taken" and p[span] is not None])
                   for run in runs]
        chance = mann_whitney(taken, refused)
        print(f"  {span}: refused − taken {ms(median)} in the median (95 % interval {ms(low_ci)} to {ms(high_ci)}; "
              f"the runs' {ms(min(per_run))} to {ms(max(per_run))}), {ms(high)} at p95; Mann–Whitney p "
              f"{f'{chance:.3f}' if chance >= 0.001 else '< 0.001'}")
        if emulated:
            verdicts += [f"{span} Δmedian {ms(median)} (goal ≤ {ms(GOALS['median'])}: "
                         f"{met(abs(median) <= GOALS['median'])})",
                         f"{span} Δp95 {ms(high)} (goal ≤ {ms(GOALS['p95'])}: {met(abs(high) <= GOALS['p95'])})"]
        if len(refused) < len(by_kind["refused"]):
            verdicts.append(f"{span} after every refused press: {met(False)}")
    if verdicts:
        print("  goals: " + "; ".join(verdicts))


def met(ok):
    return "met" if ok else "NOT met"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--folder")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses a run")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs on each machine, alternating")
    parser.add_argument("--plain", action="store_true", help="on this machine as it is too (with the emulated Zero)")
    args = parser.parse_args()
    if args.child:
        return child(args.presses, args.folder, args.seed)
    with sd_card_machines(args.plain) as (environment, machines):
        results = {machine: [] for machine in machines}
        for run in range(args.runs):
            for machine, group in machines.items():
                found, periods, throttled = run_child(args.presses, run + 1, environment, group)
                results[machine].append(found)
                if not any(p["syncs"] for p in found if p["kind"] == "taken"):
                    sys.exit("no taken press synced the journal: the sync delay did not apply")
                print(f"run {run + 1}, {'emulated Zero' if group else 'this machine'}: {len(found)} presses"
                      + (f" (throttled in {throttled} of {periods} 10 ms periods)" if group else ""), flush=True)
    for machine, group in machines.items():
        summary(machine, results[machine], emulated=group is not None)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: its children ended, its cgroups removed")

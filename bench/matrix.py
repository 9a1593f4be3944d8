"""The key matrix's cost: the CPU its thread takes while nobody presses and while a key is held (the host's Menu,
held 5 s to power off), the pin reads it makes meanwhile, how long a closed key takes to be reported, and the time
of one scan; the box's scanner against the baseline, the scanner as it was at BASELINE (it polled every 5 ms while
a key was held), read from git history into a temporary folder and run in the same way. Each scanner runs in a
child process of its own, on gpiozero's mock pins with the matrix simulated on them: the figures measure our
Python. As root with cgroup v1 the children also run in an emulated Pi Zero 2 W core (bench/journal.py's: a CPU
quota of 1.5 ms per 10 ms, pinned to one core, 512 MB), whose figures are said to be emulated: its CPU is this
machine's, rationed, so a share of one core there is also given as a share of the quota.

Latencies: a key alone; a second key on another column while Menu is held (its edge wakes the scanner); a second
key on Menu's own column (no edge: the held key's look, every `held_period`, finds it: the trade-off).

On a Pi, `--real` (nothing pressed) runs both on its own pins: the idle thread and one scan then measure the
real pin calls too.

Run by hand: `.venv/bin/python bench/matrix.py [--seconds S] [--plain] [--real]`. Goals: the idle thread
≤ 0.1 % of a core; a held key ≤ 0.3 % (a tenth of the baseline's); a key alone reported no later than by the
baseline."""
import argparse
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.journal import Zero, child_run, why_not_zero  # noqa: E402
from device.config import load_pinmap  # noqa: E402
from device.pads import SCAN_PERIOD  # noqa: E402

BASELINE = "3d928c7"  # the last commit whose scanner polled every SCAN_PERIOD while a key was held
ZERO_SHARE = 0.15  # the emulated Zero's CPU quota: 1.5 ms per 10 ms
PRESSES = 20


def report_latencies(scanner, simulated, keys):
    """Seconds from closing each of `keys` (row, column) to its report; each is released, and that reported,
    before the next. Presses land at every phase of the scan period."""
    reported = threading.Semaphore(0)
    scanner.when_pressed = scanner.when_released = lambda key: reported.release()
    found = []
    for press, key in enumerate(keys):
        time.sleep(0.02 + 0.001 * press)
        started = time.perf_counter()
        simulated.close(*key)
        assert reported.acquire(timeout=10), f"{key} never reported"
        found.append(time.perf_counter() - started)
        simulated.open(*key)
        assert reported.acquire(timeout=10), f"{key}'s release never reported"
    return found


def latencies(pads, simulated, presses=PRESSES):
    """A key alone, `presses` times (bench/phones.py's too): seconds from closing it to its report."""
    return report_latencies(pads.scanner, simulated, [(press % 12, press % 8) for press in range(presses)])


def cpu_percent(seconds):
    """The CPU this process takes over `seconds` (its main thread sleeps meanwhile), in % of one core."""
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(seconds)
    return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)


def held_while(scanner, simulated, key, measure):
    """measure() while `key` is held, once the scanner has reported it; then it is let go."""
    held = threading.Semaphore(0)
    scanner.when_pressed = scanner.when_released = lambda k: held.release()
    simulated.close(*key)
    assert held.acquire(timeout=10)
    try:
        return measure()
    finally:
        scanner.when_pressed = scanner.when_released = lambda k: held.release()  # measure() may have its own
        simulated.open(*key)
        assert held.acquire(timeout=10)


def child(which, seconds, old_matrix, real):
    """One scanner's figures, printed as JSON: `which` is "box" (device/matrix.py) or "baseline" (old_matrix);
    on the Pi's own pins when `real` (then only idle and one scan: nobody holds a key)."""
    from device.mock import mock_pins
    from device.pins import real_pins
    if which == "box":
        from device.matrix import MatrixScanner
    else:
        spec = importlib.util.spec_from_file_location("baseline_matrix", old_matrix)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        MatrixScanner = module.MatrixScanner
    pinmap = load_pinmap()
    factory, simulated = (real_pins(pinmap), None) if real else mock_pins(pinmap)
    stable = max(2, math.ceil(pinmap.debounce_ms / 1000 / SCAN_PERIOD))  # as device/pads.py's MatrixPads
    scanner = MatrixScanner(pinmap.rows, pinmap.columns, stable_scans=stable, period=SCAN_PERIOD,
                            pin_factory=factory)
    menu = (len(pinmap.rows) - 1, 0)  # the host panel's row, the last; Menu is its first button
    found = {}
    try:
        scanner.start()
        time.sleep(0.2)
        found["idle"] = cpu_percent(seconds)

        def held_cost():
            reads = simulated.reads
            cost = cpu_percent(seconds)
            return cost, (simulated.reads - reads) / seconds
        if simulated:
            found["held"], found["reads"] = held_while(scanner, simulated, menu, held_cost)
            found["alone"] = report_latencies(scanner, simulated, [(p % 12, 1 + p % 7) for p in range(PRESSES)])
            found["other"] = held_while(scanner, simulated, menu, lambda: report_latencies(
                scanner, simulated, [(p % 12, 1 + p % 7) for p in range(PRESSES // 2)]))
            found["same"] = held_while(scanner, simulated, menu, lambda: report_latencies(
                scanner, simulated, [(p % 12, 0) for p in range(PRESSES // 2)]))
        scanner.stop()
        started, count = time.perf_counter(), 0
        while time.perf_counter() - started < 0.5:  # one scan with nothing closed, by hand
            scanner.scan()
            count += 1
        found["scan"] = (time.perf_counter() - started) / count
    finally:
        scanner.close()
    print(json.dumps(found))


def ms(values):
    return f"{1000 * statistics.median(values):.1f} ms (max {1000 * max(values):.1f})"


def report(machine, found, emulated):
    print(f"\n{machine}:")
    for which in ("baseline", "box"):
        f = found[which]
        if "held" not in f:  # the Pi's own pins
            print(f"  {which:8}  idle {f['idle']:.3f} % of a core; one scan {f['scan'] * 1e6:.0f} µs")
            continue
        share = (f" = {f['held'] / ZERO_SHARE:.1f} % of the Zero's CPU" if emulated else "")
        print(f"  {which:8}  idle {f['idle']:.3f} % of a core; Menu held {f['held']:.2f} % of a core{share}, "
              f"{f['reads']:.0f} pin reads/s; one scan {f['scan'] * 1e6:.0f} µs")
        print(f"            reported: a key alone {ms(f['alone'])}; with Menu held, on another column "
              f"{ms(f['other'])}, on Menu's column {ms(f['same'])}")
    box, baseline = found["box"], found["baseline"]
    if "held" not in box:
        print(f"  goal: idle ≤ 0.1 %: {met(box['idle'] <= 0.1)}")
        return
    sooner = statistics.median(box["alone"]) <= statistics.median(baseline["alone"]) + 0.002  # 2 ms: noise
    print(f"  goals: idle ≤ 0.1 %: {met(box['idle'] <= 0.1)}; held ≤ 0.3 % and a tenth of the baseline's: "
          f"{met(box['held'] <= max(0.3, baseline['held'] / 10))} ({baseline['held'] / max(box['held'], 1e-9):.0f}× "
          f"less); a key alone no later: {met(sooner)}")


def met(ok):
    return "met" if ok else "NOT met"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("box", "baseline"))
    parser.add_argument("--folder")  # child_run's: unused
    parser.add_argument("--old-matrix", help="the baseline's device/matrix.py (a child's)")
    parser.add_argument("--seconds", type=float, default=4.0, help="each CPU measure's span")
    parser.add_argument("--plain", action="store_true", help="on this machine too when the Zero is emulated")
    parser.add_argument("--real", action="store_true", help="the Pi's own pins, nothing pressed (no Zero emulated)")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.seconds, args.old_matrix, args.real)
    cannot, zero = "on the Pi's own pins (--real)" if args.real else why_not_zero(), None
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "matrix.py"
        old.write_text(subprocess.run(["git", "show", f"{BASELINE}:device/matrix.py"], cwd=ROOT, check=True,
                                      capture_output=True, text=True).stdout)
        try:
            if cannot is None:
                zero = Zero()
            machines = {"this machine": None} if not zero or args.plain else {}
            if zero:
                machines[f"emulated Pi Zero 2 W (cgroup v1: 1.5 ms CPU per 10 ms on core {zero.core}, 512 MB)"] = zero
            elif cannot:
                print(f"no emulated Pi Zero 2 W here: {cannot}")
            for machine, group in machines.items():
                found = {}
                for which in ("baseline", "box"):
                    found[which], _, _ = child_run(__file__, [which, "--seconds", str(args.seconds), "--old-matrix",
                                                              str(old), *["--real"] * args.real], {}, group)
                report(machine, found, emulated=group is not None)
        finally:
            if zero:
                zero.close()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: its children ended, its cgroups removed")

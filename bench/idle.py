"""What an idle box costs: the CPU of a real `arbitro --mock` on the default pin map (the 12-seat key matrix),
no game and no phones, against the baseline (bench/baseline.py: a bare Flask app on waitress), in the same
run. Medians of three windows; the goal is 0.1 % of a core (a Pi Zero 2 W's core is 6–10× slower than this
machine's: multiply to estimate).

Run by hand: `.venv/bin/python bench/idle.py [--seconds 5]`."""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import baseline_server  # noqa: E402
from tests.browser import Server  # noqa: E402

GOAL = 0.1  # % of one core


def cpu_seconds(pid):
    """The CPU a process's threads have used, to the nanosecond (the scheduler's own count: /proc/PID/stat
    counts in 10 ms ticks, too coarse for an idle box)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def idle_percent(pid, seconds, windows=3):
    """The process's CPU, in % of one core, over `windows` windows of `seconds`: their median."""
    found = []
    for _ in range(windows):
        cpu, wall = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        found.append(100 * (cpu_seconds(pid) - cpu) / (time.monotonic() - wall))
    return statistics.median(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="the length of each of the three windows")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        box = Server(Path(data))
        baseline, _ = baseline_server()
        try:
            time.sleep(1)  # both settled after their start
            box_cpu = idle_percent(box.process.pid, args.seconds)
            baseline_cpu = idle_percent(baseline.pid, args.seconds)
        finally:
            box.stop()
            baseline.terminate()
            baseline.wait(timeout=10)
    print(f"idle CPU, default pin map, no phones: box {box_cpu:.3f} % of a core, baseline {baseline_cpu:.3f} %, "
          f"goal ≤ {GOAL} %: {'met' if box_cpu <= GOAL else 'NOT met'} (a Zero 2 W: about {6 * box_cpu:.2f}–"
          f"{10 * box_cpu:.2f} %, an estimate)")


if __name__ == "__main__":
    main()

"""The journal's cost on the SD card: syncs per acknowledged action, how long an acknowledged action takes, the
longest gap between key scans while actions are committed and the syncs once the table is quiet (the box then
copies its write-ahead log into the main file), for the box's journal (`engine.journal.DURABILITY`:
WAL synced at each commit, copied into the main file once quiet) against the baseline, the rollback journal with
synchronous=EXTRA it replaced, in the same run.

Each is measured in a child process under strace, every fsync and fdatasync delayed 30 ms (an SD card's order:
`strace -f -e inject=fsync,fdatasync:delay_exit=30ms`), playing 12 Ponte actions on a fresh journal while a
thread scans the key matrix every scan period, as the box's scanner does while a key is held. With `--zero`
(root, cgroup v1) both run also in an emulated Pi Zero 2 W core: a CPU quota of 1.5 ms per 10 ms, pinned to one
core, 512 MB.

Run by hand: `.venv/bin/python bench/journal.py [--zero]`. Goals: ≤ 2 syncs per acknowledged action; no gap
between scans longer than 10 ms during a commit; an action acknowledged in ≤ 80 ms (emulated Zero, fsync
delayed)."""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BASELINE = ("journal_mode=DELETE", "synchronous=EXTRA")
ACTIONS = 12
CGROUP = "arbitro-bench-zero"
ZERO = {"cpu": {"cpu.cfs_period_us": "10000", "cpu.cfs_quota_us": "1500"},
        "cpuset": {"cpuset.cpus": "0", "cpuset.mems": "0"},
        "memory": {"memory.limit_in_bytes": str(512 * 1024 * 1024)}}


def child(durability):
    """Play the actions on a fresh journal with `durability`, a thread scanning the keys meanwhile; print the
    figures as JSON. `os.getppid()` marks, for strace, where the actions start and end."""
    from device.config import load_pinmap
    from device.pads import SCAN_PERIOD, MatrixPads
    from device.pins import mock_pins
    from engine import journal as journal_module
    from engine.journal import Journal
    from engine.table import Table
    if durability == "baseline":
        journal_module.DURABILITY = BASELINE
    pinmap = load_pinmap()
    factory, _ = mock_pins(pinmap)
    pads = MatrixPads(pinmap, lambda *a: None, lambda *a: None, pin_factory=factory)
    folder = Path(tempfile.mkdtemp())
    table = Table(Journal(folder / "journal.sqlite3"), random=random.Random(1))
    table.new_game("ponte", 3)
    rng, latencies, gaps, committing, stop = random.Random(2), [], [], threading.Event(), threading.Event()

    def scan():  # as the scanner while a key is held: a scan every period, its gaps noted during commits
        last = time.perf_counter()
        while not stop.is_set():
            pads.scanner.scan()
            time.sleep(SCAN_PERIOD)
            now = time.perf_counter()
            if committing.is_set():
                gaps.append(now - last)
            last = now
    scanner = threading.Thread(target=scan, daemon=True)
    scanner.start()
    os.getppid()
    for _ in range(ACTIONS):
        seat = rng.choice([s for s in table.actors() if table.legal_actions(s)])
        action = rng.choice(table.legal_actions(seat))
        committing.set()
        started = time.perf_counter()
        table.act(action)
        latencies.append(time.perf_counter() - started)
        committing.clear()
    os.getppid()
    time.sleep(journal_module.QUIET + 1)  # the quiet moment's checkpoint, off the acknowledged path
    os.getppid()
    stop.set()
    scanner.join()
    table.close()
    pads.close()
    shutil.rmtree(folder)
    print(json.dumps({"latencies": latencies, "gap": max(gaps) if gaps else 0.0,
                      "scan_period": SCAN_PERIOD}))


def zero_prefix():
    """A shell prefix that moves the command into the emulated Zero's cgroups (made here)."""
    moves = []
    for controller, settings in ZERO.items():
        group = Path("/sys/fs/cgroup") / controller / CGROUP
        group.mkdir(exist_ok=True)
        for name, value in settings.items():
            (group / name).write_text(value)
        moves.append(f"echo $$ > {group}/cgroup.procs")
    return "; ".join(moves) + "; exec "


def measure(durability, zero):
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "trace"
        command = (f"strace -f -qq -o {trace} -e trace=fsync,fdatasync,getppid "
                   f"-e inject=fsync,fdatasync:delay_exit=30ms {sys.executable} {__file__} --child {durability}")
        done = subprocess.run(["sh", "-c", (zero_prefix() if zero else "exec ") + command], capture_output=True,
                              text=True, cwd=ROOT, check=True)
        found = json.loads(done.stdout.strip().splitlines()[-1])
        lines = trace.read_text().splitlines()
        marks = [n for n, line in enumerate(lines) if "getppid()" in line]
        def syncs(start, end):
            return sum("fsync(" in line or "fdatasync(" in line for line in lines[start:end])
        found["syncs"] = syncs(marks[0], marks[1]) / ACTIONS
        found["quiet"] = syncs(marks[1], marks[2])
        return found


def report(name, found):
    ms = sorted(1000 * t for t in found["latencies"])
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"  {name:9} {found['syncs']:.1f} syncs an action; acknowledged in {statistics.median(ms):.0f} ms median, "
          f"{p95:.0f} ms p95; longest gap between scans during a commit {1000 * found['gap']:.1f} ms "
          f"(the scan period {1000 * found['scan_period']:.0f} ms); then {found['quiet']} syncs once quiet")
    return statistics.median(ms), found["gap"], found["syncs"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("box", "baseline"))
    parser.add_argument("--zero", action="store_true", help="also under the emulated Pi Zero 2 W (root, cgroup v1)")
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    if not shutil.which("strace"):
        sys.exit("bench/journal.py needs strace (apt-get install strace)")
    for zero in (False, True) if args.zero else (False,):
        print("emulated Pi Zero 2 W core, fsync delayed 30 ms:" if zero else "this machine, fsync delayed 30 ms:")
        base = report("baseline", measure("baseline", zero))
        box = report("box", measure("box", zero))
        print(f"  box/baseline: acknowledged {box[0] / base[0]:.2f}×; syncs {box[2]:.1f} (goal ≤ 2: "
              f"{'met' if box[2] <= 2 else 'NOT met'}); scan gap {1000 * box[1]:.1f} ms (goal ≤ 10: "
              f"{'met' if box[1] <= 0.010 else 'NOT met'})"
              + (f"; acknowledged {box[0]:.0f} ms (goal ≤ 80: {'met' if box[0] <= 80 else 'NOT met'})" if zero else ""))


if __name__ == "__main__":
    main()

"""The journal's cost on an SD card: syncs per acknowledged press, how long a press takes to be acknowledged (the
table applied and journaled it: `Table.act` returned), the gaps between key scans while presses are committed
(the 99th percentile and the longest), and the syncs once the table is quiet, for the box's journal
(`engine.journal.DURABILITY`: WAL synced at each commit) against the baseline, the rollback journal with
synchronous=EXTRA it replaced, in the same run.

Each run is a child process playing PRESSES Ponte presses (3 seats; a new game when one ends, its syncs left out)
on a fresh journal, a pause of up to PAUSE seconds before each, while a thread scans the key matrix every scan
period, as the box's scanner does while a key is held. An SD card's syncs: bench/fsync_delay.c, built here with
the machine's cc and LD_PRELOADed into the child, makes every fsync and fdatasync return 30 ms after the real one
(a sleep: nothing else in the process is slowed) and counts them; strace, where installed, checks on one short
run that it sees every sync. As root, with cgroup v1, the runs are in an emulated Pi Zero 2 W core (a CPU quota of
1.5 ms per 10 ms, pinned to one core, 512 MB; groups made under this process's own and removed at the end, on
Ctrl-C too), else on this machine as it is (`--plain`: both). Box and baseline runs alternate, RUNS times.

Run by hand: `.venv/bin/python bench/journal.py [--runs N] [--presses N] [--plain]`. Goals: ≤ 2 syncs per press;
no gap between scans longer than 10 ms during a commit; on the emulated Zero a press acknowledged in ≤ 60 ms
median, ≤ 100 ms at the 95th percentile."""
import argparse
import contextlib
import json
import math
import os
import random
import shutil
import signal
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
PRESSES = 300
RUNS = 3
PAUSE = 0.1  # seconds, at most, before each press (drawn): presses come apart, not back to back
DELAY_MS = 30  # an SD card's sync
SHIM = ROOT / "bench" / "fsync_delay.c"
SYNC_CALLS = ("fsync", "fdatasync", "syncfs", "sync_file_range", "msync", "sync")  # strace's check of the shim
GROUP = "arbitro-bench-journal"
ZERO = {"cpu": {"cpu.cfs_period_us": "10000", "cpu.cfs_quota_us": "1500"},
        "cpuset": {},  # one core of the parent's, and its memory nodes: set when made
        "memory": {"memory.limit_in_bytes": str(512 * 1024 * 1024)}}
GOALS = {"syncs": 2, "gap": 0.010, "median": 0.060, "p95": 0.100}


def child(durability, presses, folder):
    """Play the presses on a fresh journal in `folder` with `durability`, a thread scanning the keys meanwhile;
    print the figures as JSON. The syncs are the shim's count (ARBITRO_SYNC_COUNT: a letter per sync)."""
    import games
    from device.config import load_pinmap
    from device.pads import SCAN_PERIOD, MatrixPads
    from device.mock import mock_pins
    from engine import journal as journal_module
    from engine.games import register
    from engine.journal import Journal
    from engine.rules import TERMINAL
    from engine.table import Table
    register(games.ALL)  # as the composition root does (device/cli.py)
    if durability == "baseline":
        journal_module.DURABILITY = BASELINE
    count = Path(os.environ["ARBITRO_SYNC_COUNT"])

    def syncs():
        return count.stat().st_size if count.exists() else 0

    pinmap = load_pinmap()
    factory, _ = mock_pins(pinmap)
    pads = MatrixPads(pinmap, lambda *a: None, lambda *a: None, pin_factory=factory)
    table = Table(Journal(Path(folder) / "journal.sqlite3"), random=random.Random(1))
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
    started, new_games = syncs(), 0
    for _ in range(presses):
        if table.actors() == TERMINAL:  # no game yet, or it ended
            before = syncs()
            table.new_game("ponte", 3)
            new_games += syncs() - before
        time.sleep(rng.uniform(0, PAUSE))
        seat = rng.choice([s for s in table.actors() if table.legal_actions(s)])
        action = rng.choice(table.legal_actions(seat))
        committing.set()
        pressed = time.perf_counter()
        table.act(action)
        latencies.append(time.perf_counter() - pressed)
        committing.clear()
    pressing = syncs() - started - new_games
    ended = syncs()
    quiet_since, seen = time.monotonic(), ended
    while time.monotonic() - quiet_since < 3:  # until no sync for 3 s: the quiet moment's, off the pressed path
        time.sleep(0.1)
        if syncs() != seen:
            quiet_since, seen = time.monotonic(), syncs()
    stop.set()
    scanner.join()
    table.close()
    pads.close()
    print(json.dumps({"latencies": latencies, "gaps": gaps, "syncs": pressing / presses, "quiet": seen - ended}))


def build_shim(folder):
    """bench/fsync_delay.c compiled into `folder` with the machine's cc; returns the library's path."""
    library = Path(folder) / "fsync_delay.so"
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", str(library), str(SHIM), "-ldl"],
                   check=True)
    return library


def own_group(controller):
    """This process's cgroup v1 folder for `controller`, or None where it is not mounted."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        folder = Path("/sys/fs/cgroup") / controller
        if controller in controllers.split(",") and (folder / "cgroup.procs").exists():
            return folder / path.lstrip("/")
    return None


def is_running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


class Zero:
    """The emulated Pi Zero 2 W: a cgroup v1 group per controller (ZERO), made under this process's own, for the
    children (`enter`, run in each before it starts); `close` removes them."""

    def __init__(self):
        self.groups = []
        try:
            for controller, settings in ZERO.items():
                parent = own_group(controller)
                for stale in parent.glob(f"{GROUP}-*"):  # left by a run killed outright: removed once empty
                    if not is_running(int(stale.name.rsplit("-", 1)[1])) and not (stale / "cgroup.procs").read_text():
                        stale.rmdir()
                group = parent / f"{GROUP}-{os.getpid()}"
                group.mkdir()
                self.groups.append(group)
                if controller == "cpuset":
                    self.core = (parent / "cpuset.effective_cpus").read_text().strip().split(",")[-1].split("-")[-1]
                    settings = {"cpuset.cpus": self.core,
                                "cpuset.mems": (parent / "cpuset.effective_mems").read_text().strip()}
                for name, value in settings.items():
                    (group / name).write_text(value)
        except BaseException:
            self.close()
            raise

    def enter(self):
        for group in self.groups:
            with open(group / "cgroup.procs", "w") as procs:
                procs.write(str(os.getpid()))

    def throttled(self):
        """(10 ms periods the CPU quota ran in, of which throttled) so far: that the emulation bites."""
        stat = dict(line.split() for line in (self.groups[0] / "cpu.stat").read_text().splitlines())
        return int(stat["nr_periods"]), int(stat["nr_throttled"])

    def close(self):
        for group in self.groups:
            deadline = time.monotonic() + 5
            while group.exists():
                try:
                    group.rmdir()
                except OSError as e:
                    if time.monotonic() > deadline:
                        print(f"could not remove the cgroup {group} ({e.strerror}): remove it with rmdir",
                              file=sys.stderr)
                        break
                    time.sleep(0.05)
        self.groups = []


def why_not_zero():
    """Why the emulated Zero cannot be made here, or None."""
    if os.geteuid() != 0:
        return "not root"
    missing = [c for c in ZERO if own_group(c) is None]
    if missing:
        return f"no cgroup v1 {', '.join(missing)} controller under /sys/fs/cgroup"
    return None


def run_child(durability, presses, environment, zero=None, wrap=()):
    """One child's figures (the JSON it printed)."""
    found, syncs, (periods, throttled) = child_run(__file__, [durability, "--presses", str(presses)], environment,
                                                  zero, wrap)
    return {**found, "counted": syncs, "periods": periods, "throttled": throttled}


def child_run(script, arguments, environment, zero=None, wrap=()):
    """Run `script --child ARGUMENTS --folder F` (F a fresh folder, the shim counting syncs in F/syncs), in `zero`
    when given, `wrap` before it (strace); the child is killed if this is interrupted. Returns (the JSON it printed
    last, the syncs counted, (the Zero's 10 ms periods meanwhile, of which throttled))."""
    before = zero.throttled() if zero else (0, 0)
    with tempfile.TemporaryDirectory() as folder:
        count = Path(folder) / "syncs"
        env = {**os.environ, **environment, "ARBITRO_SYNC_COUNT": str(count)}
        process = subprocess.Popen([*wrap, sys.executable, str(script), "--child", *arguments, "--folder", folder],
                                   stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                                   preexec_fn=zero.enter if zero else None)
        try:
            out, _ = process.communicate()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        if process.returncode:
            sys.exit(f"{Path(script).name} {' '.join(arguments)}: a run failed (exit status {process.returncode})")
        syncs = count.stat().st_size if count.exists() else 0
    throttling = tuple(after - was for after, was in zip(zero.throttled(), before)) if zero else (0, 0)
    return json.loads(out.strip().splitlines()[-1]), syncs, throttling


def check_shim(library):
    """strace's count of one short run's sync calls against the shim's: a sync the shim misses is not delayed."""
    if not shutil.which("strace"):
        print("strace is not installed: the shim's count of syncs is unchecked")
        return
    seen = {}
    for durability in ("box", "baseline"):
        with tempfile.TemporaryDirectory() as folder:
            trace = Path(folder) / "trace"
            found = run_child(durability, 20, {"LD_PRELOAD": str(library), "ARBITRO_SYNC_DELAY_MS": "0"},
                              wrap=("strace", "-f", "-qq", "-c", "-o", str(trace), "-e",
                                    "trace=" + ",".join(SYNC_CALLS)))
            totals = [line.split() for line in trace.read_text().splitlines() if line.rstrip().endswith("total")]
            seen[durability] = traced = int(totals[0][3]) if totals else 0
        if traced != found["counted"] or not traced:
            sys.exit(f"strace saw {traced} syncs in a short {durability} run, the shim {found['counted']}: "
                     "the shim misses syncs")
    print("the shim delays every sync: as many as strace counts in a short run of each "
          f"({seen['box']} and {seen['baseline']})")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[math.ceil(share * len(ordered)) - 1]


def line(name, found):
    ms, gaps = [1000 * t for t in found["latencies"]], [1000 * t for t in found["gaps"]] or [0.0]
    return (f"{name:9} {found['syncs']:.2f} syncs a press; acknowledged in {statistics.median(ms):.0f} ms median, "
            f"{percentile(ms, 0.95):.0f} ms p95; scans during commits {percentile(gaps, 0.99):.1f} ms apart at the "
            f"99th percentile, {max(gaps):.1f} ms the longest; then {found['quiet']} syncs once quiet")


def summary(machine, results, emulated):
    """Every run's presses together, per journal, and the goals."""
    print(f"{machine}, every sync delayed {DELAY_MS} ms, {len(results['box'])} runs of each (load average at the "
          f"end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
    pooled = {}
    for name in ("baseline", "box"):
        runs = results[name]
        pooled[name] = {"latencies": [t for r in runs for t in r["latencies"]],
                        "gaps": [g for r in runs for g in r["gaps"]],
                        "syncs": statistics.mean(r["syncs"] for r in runs), "quiet": max(r["quiet"] for r in runs)}
        medians = [1000 * statistics.median(r["latencies"]) for r in runs]
        p95s = [1000 * percentile(r["latencies"], 0.95) for r in runs]
        print(f"  {line(name, pooled[name])} (the runs' medians {min(medians):.0f}–{max(medians):.0f} ms, "
              f"p95 {min(p95s):.0f}–{max(p95s):.0f} ms)")
    box, base = pooled["box"], pooled["baseline"]
    median, high = statistics.median(box["latencies"]), percentile(box["latencies"], 0.95)
    gap = max(box["gaps"], default=0)
    verdicts = [f"acknowledged {median / statistics.median(base['latencies']):.2f}× the baseline's median",
                f"syncs {box['syncs']:.2f} (goal ≤ {GOALS['syncs']}: {met(box['syncs'] <= GOALS['syncs'])})",
                f"scan gap {1000 * gap:.1f} ms (goal ≤ {1000 * GOALS['gap']:.0f}: {met(gap <= GOALS['gap'])})"]
    if emulated:
        verdicts += [f"median {1000 * median:.0f} ms (goal ≤ {1000 * GOALS['median']:.0f}: "
                     f"{met(median <= GOALS['median'])})",
                     f"p95 {1000 * high:.0f} ms (goal ≤ {1000 * GOALS['p95']:.0f}: {met(high <= GOALS['p95'])})"]
    print("  box: " + "; ".join(verdicts))


def met(ok):
    return "met" if ok else "NOT met"


@contextlib.contextmanager
def sd_card_machines(plain, delay_ms=DELAY_MS):
    """Where a bench runs its children, every sync delayed `delay_ms`: yields (the children's environment,
    {machine's name: its Zero, or None for this machine as it is}) — the emulated Zero where it can be made (as
    root, cgroup v1), this machine too with `plain` or without it. The Zero's groups are removed at the end, on
    Ctrl-C and SIGTERM too."""
    for stop in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl-C: the children killed, the cgroups removed
        signal.signal(stop, lambda number, frame: sys.exit(f"stopped by signal {number}"))
    zero, cannot = None, why_not_zero()
    with tempfile.TemporaryDirectory() as folder:
        library = build_shim(folder)
        check_shim(library)
        environment = {"LD_PRELOAD": " ".join([str(library), *os.environ.get("LD_PRELOAD", "").split()]),
                       "ARBITRO_SYNC_DELAY_MS": str(delay_ms)}
        try:
            if cannot is None:
                try:
                    zero = Zero()
                except OSError as e:
                    cannot = f"cannot make its cgroups ({e})"
            machines = {}
            if zero:
                machines[f"emulated Pi Zero 2 W (cgroup v1: 1.5 ms CPU per 10 ms on core {zero.core}, 512 MB)"] = zero
            if not zero or plain:
                machines["this machine" + (f" (no emulated Zero: {cannot})" if cannot else "")] = None
            yield environment, machines
        finally:
            if zero:
                zero.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("box", "baseline"))
    parser.add_argument("--folder")
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses a run")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of the box and of the baseline, alternating")
    parser.add_argument("--plain", action="store_true", help="on this machine as it is too (with the emulated Zero)")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.presses, args.folder)
    with sd_card_machines(args.plain) as (environment, machines):
        results = {machine: {"box": [], "baseline": []} for machine in machines}
        for run in range(args.runs):
            for machine, group in machines.items():
                for name in ("baseline", "box") if run % 2 == 0 else ("box", "baseline"):
                    found = run_child(name, args.presses, environment, group)
                    results[machine][name].append(found)
                    print(f"run {run + 1}, {'emulated Zero' if group else 'this machine'}: {line(name, found)}"
                          + (f" (throttled in {found['throttled']} of {found['periods']} 10 ms periods)"
                             if group else ""), flush=True)
    for machine, group in machines.items():
        summary(machine, results[machine], emulated=group is not None)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: its children ended, its cgroups removed")

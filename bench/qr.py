"""The box's QR codes, segno's (device/display.py's `qr_code`), against the hand-written version-2 encoder they
replaced (device/qr.py until then: read here from git by its blob id, HAND_WRITTEN, into a temporary folder), in the
same run: the resident memory (RSS) each adds to the box, and the time a code takes, for the codes the box makes
(its join URL, a pairing link).

Each measure is a child process of its own: a real `arbitro --mock` started on a fresh data folder with the
service's allocator settings, its server's loop stubbed (so the box, its web side and Pillow as the display loads
them are all in), making its codes with one encoder or none (the baseline); its RSS once it is up and has made a
code, against the baseline's. Then CODES codes of each text in turn. The three alternate, RUNS of each. As root,
with cgroup v1, the children run in the emulated Pi Zero 2 W too (bench/journal.py's Zero: a CPU quota of 1.5 ms
per 10 ms, pinned to one core, 512 MB), its figures marked "(emulated)": the quota slows, it does not shrink, so
its memory figures are this machine's again.

Run by hand: `.venv/bin/python bench/qr.py [--runs N] [--codes N]`. Goals, for the box to afford a library: at
most GOAL_MB more memory than the hand-written encoder (the soak's bound on a night's growth, bench/soak.py), and
a code in at most GOAL_MS, median, on the emulated Zero (a code screen follows a key press at once)."""
import argparse
import contextlib
import gc
import importlib.util
import io
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HAND_WRITTEN = "49cc8e372565eefdeb3c3ca29085e7de2bfb9aa2"  # device/qr.py's blob, its last version (commit 3d928c7)
TEXTS = {"join URL": "HTTP://192.168.1.23:8000/JOIN", "pairing link": "HTTP://192.168.1.23:8000/P/K7Q2M9ZX4B"}
ENCODERS = ("none", "hand-written", "segno")  # none: the box making no code
RUNS, CODES = 5, 100
GOAL_MB, GOAL_MS = 2.0, 50


def resident_kb():
    # read here: bench/phones.py's rss_mb would load urllib.request, one of segno's own imports, into the baseline
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS:"))


def child(encoder, source, folder, port, codes):
    """A real `arbitro --mock` starts on a fresh data folder, its server's loop stubbed, with `encoder` making its
    codes (`none`: no code at all, the baseline); once it is up and has made a code, its RSS. Then the time each
    text's code takes. Printed as JSON."""
    import device.cli
    import device.display
    import waitress.server

    started = time.perf_counter()
    if encoder == "hand-written":
        spec = importlib.util.spec_from_file_location("hand_written_qr", source)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # its tables made as it is imported
        make = module.matrix  # the box's texts all fit
    else:
        make = device.display.qr_code if encoder == "segno" else lambda text: None
    imported, calls = time.perf_counter() - started, []

    def timed(text):
        started = time.perf_counter()
        code = make(text)
        calls.append(time.perf_counter() - started)
        return code

    found = {}

    def up(server):  # instead of serving: the box is up, a code made (the idle screen's, where it is drawn)
        timed(TEXTS["join URL"])
        gc.collect()
        found["kb"] = resident_kb()

    device.display.qr_code = timed
    waitress.server.MultiSocketServer.run = waitress.server.TcpWSGIServer.run = up
    said = io.StringIO()  # the box's words at start, shown only if it fails
    try:
        with contextlib.redirect_stderr(said):
            device.cli.main(["--mock", "--port", port, "--data", str(Path(folder) / "data")])
    except BaseException:
        sys.stderr.write(said.getvalue())
        raise
    times = {name: [] for name in TEXTS}
    for _ in range(codes if encoder != "none" else 0):
        for name, text in TEXTS.items():
            started = time.perf_counter()
            make(text)
            times[name].append(time.perf_counter() - started)
    print(json.dumps({**found, "first": imported + calls[0], "times": times,
                      "segno": sorted(m for m in sys.modules if m.startswith("segno"))}))


def hand_written_source(folder):
    """The hand-written encoder's source, from git, in `folder`."""
    done = subprocess.run(["git", "cat-file", "blob", HAND_WRITTEN], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the hand-written encoder (blob {HAND_WRITTEN}) is not in this clone's history: {done.stderr}")
    path = Path(folder) / "hand_written_qr.py"
    path.write_text(done.stdout, encoding="utf-8")
    return path


def report(machine, results, emulated):
    """Each encoder's RSS over the box without codes, and its times; returns (segno's MB over the hand-written
    encoder's, segno's slowest median ms a code)."""
    mark = " (emulated)" if emulated else ""
    base = statistics.median(r["kb"] for r in results["none"])
    print(f"{machine}, {len(results['none'])} runs of each (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores): the box without codes {base / 1024:.1f} MB RSS{mark}")
    extra, slowest = {}, {}
    for encoder in ENCODERS[1:]:
        runs = results[encoder]
        kb = [r["kb"] - base for r in runs]
        extra[encoder] = statistics.median(kb) / 1024
        print(f"  {encoder:12} +{extra[encoder]:.2f} MB RSS (runs {min(kb) / 1024:+.2f} to {max(kb) / 1024:+.2f})"
              f"{mark}; import and first code {1000 * statistics.median(r['first'] for r in runs):.1f} ms median"
              f"{mark}; {', '.join(runs[0]['segno']) or 'no segno module'} loaded")
        for name in TEXTS:
            ms = sorted(1000 * t for r in runs for t in r["times"][name])
            slowest[encoder] = max(slowest.get(encoder, 0), statistics.median(ms))
            print(f"    {name:12} {statistics.median(ms):.2f} ms a code median, {ms[int(0.95 * len(ms)) - 1]:.2f} ms "
                  f"p95, {ms[-1]:.2f} ms the longest{mark}")
    return extra["segno"] - extra["hand-written"], slowest["segno"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=ENCODERS)
    parser.add_argument("--folder")
    parser.add_argument("--source")
    parser.add_argument("--port")
    parser.add_argument("--codes", type=int, default=CODES, help="codes of each text a run")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each encoder, in turn")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.source, args.folder, args.port, args.codes)
    from bench.journal import Zero, child_run, why_not_zero  # the parent's only
    from bench.soak import allocator_environment
    from tests.browser import free_port

    for stop in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl-C: the children killed, the cgroups removed
        signal.signal(stop, lambda number, frame: sys.exit(f"stopped by signal {number}"))
    zero, cannot = None, why_not_zero()
    if cannot is None:
        try:
            zero = Zero()
        except OSError as e:
            cannot = f"cannot make its cgroups ({e})"
    machines = {"this machine": None}
    if zero:
        machines[f"emulated Pi Zero 2 W (1.5 ms CPU per 10 ms on core {zero.core}, 512 MB)"] = zero
    else:
        print(f"no emulated Pi Zero 2 W: {cannot}")
    environment = allocator_environment()  # the service's, as the box runs
    results = {machine: {encoder: [] for encoder in ENCODERS} for machine in machines}
    try:
        with tempfile.TemporaryDirectory() as folder:
            source = hand_written_source(folder)
            for run in range(args.runs):
                for machine, group in machines.items():
                    for encoder in ENCODERS if run % 2 == 0 else ENCODERS[::-1]:
                        arguments = [encoder, "--source", str(source), "--port", str(free_port()), "--codes",
                                     str(args.codes)]
                        found, _, _ = child_run(__file__, arguments, environment, group)
                        results[machine][encoder].append(found)
    finally:
        if zero:
            zero.close()
    verdicts = {machine: report(machine, results[machine], group is not None) for machine, group in machines.items()}
    machine = list(machines)[-1]  # the emulated Zero where there is one
    extra_mb, slowest = verdicts[machine]
    where = "on the emulated Zero" if machines[machine] else "here (no emulated Zero: not the Zero's figure)"
    print(f"segno: {extra_mb:+.2f} MB RSS over the hand-written encoder (goal ≤ {GOAL_MB}: "
          f"{'met' if extra_mb <= GOAL_MB else 'NOT met'}); {slowest:.1f} ms a code, the slower text's median, {where} "
          f"(goal ≤ {GOAL_MS}: {'met' if slowest <= GOAL_MS else 'NOT met'})")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: its children ended, its cgroups removed")

"""What a press costs, against a baseline in the same run: a phone's action and a pad's press on a real
`arbitro --mock` (the default pin map: the 12-seat key matrix on mock pins), with 12 phones following the game
live, against the baseline (bench/baseline.py: a bare Flask app on waitress streaming a same-size JSON document
to its 12 phones on each POST).

Each box run starts `arbitro --mock` (no reveal delay: each action is one change), starts Biglietti with 12
seats, pairs a phone to each seat as the host does (POST /api/host/pair, then the phone's /api/pair with the
code) and has each follow its seat's stream (GET /api/stream?view=seat). Then, each after a pause of up to PAUSE
seconds drawn at random:
- ACTS phone actions: a seat whose phone shows a prompt posts one of its choices (POST /api/seats/N/act); the
  time until the last of the 12 phones has received the change, and the box's CPU from it to the next action;
- PRESSES pad presses the rules take: a seat whose phone shows a prompt has its pad's buttons pressed in turn
  (POST /box/press: the virtual box's finger closes the key on the mock pins, so the matrix scan, debounce and
  pad code run as on the Pi) until one moves the table; its CPU, and the CPU of the cursor moves and refused
  presses on the way, apart. A real pad makes no HTTP request: the same route's CPU for a request it refuses
  (400, the finger never moving) is that request's share, and is taken out for the figure beside;
- the host's Menu key held (POST /box/press {"host": "menu", "hold": true}: held until the box asks to power
  off, and half a second more): the box's CPU in % of one core while it is held (from 0.3 s after the press to
  0.7 s before the release: neither the press nor the power-off it asks at the end).
Each baseline run: the same 12 phones following its stream, ACTS POSTs each making its document the size of the
view the box's first phone received for an action, with the same pauses; its CPU per POST, its time to the last
phone, and its CPU idle over the held key's window. A server's CPU is the kernel's count for its threads
(/proc/PID/task/*/schedstat, checked against /proc/PID/stat's over each run), never wall time.

SD card syncs delayed (--sync-delay, default 30 ms) by bench/fsync_delay.c LD_PRELOADed into both servers. As
root with cgroup v1's cpu, cpuset and memory controllers, the servers run in the emulated Pi Zero 2 W
(bench/journal.py's: 1.5 ms of CPU per 10 ms on one core, 512 MB; the phones outside it), else on this machine as
it is, which the output says (`--plain`: both). There the times to the last phone are emulated; the CPU figures
are this machine's CPU time either way (a Zero's core is some 6-10× slower). Box and baseline runs alternate,
RUNS times; each figure is the median of the runs', each ratio the median of the runs' ratios.

Run by hand: `.venv/bin/python bench/presses.py [--runs N] [--acts N] [--presses N] [--sync-delay MS] [--plain]`
(as root, with the emulated Zero: a few minutes), or `--quick` (one short run). Goals: a phone's action reaches
the last of 12 phones in ≤ 1.5× the baseline's time (median); a pad press costs ≤ 2× the CPU of a baseline POST;
the held Menu key ≤ 0.5 % of one core."""
import argparse
import contextlib
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.idle import cpu_seconds  # noqa: E402
from bench.journal import DELAY_MS, sd_card_machines  # noqa: E402
from bench.phones import CpuMarks, Phones  # noqa: E402
from bench.servers import baseline_server, box_server, stop  # noqa: E402
from bench.soak import Client  # noqa: E402

GAME, SEATS = "biglietti", 12  # every seat a phone and a pad (the default pin map's matrix wires 12)
ACTS, PRESSES, REQUESTS, RUNS = 40, 20, 40, 3
QUICK = {"runs": 1, "acts": 10, "presses": 5, "requests": 10}
PAUSE = 0.1  # seconds, at most, before each action (drawn): actions come apart, as people's do
HELD_FROM, HELD_UNTIL = 0.3, 0.7  # the held key's window: after its press, before its release
REFUSED_PRESS = {"seat": 0, "button": 0}  # the virtual box route answers 400: no key is pressed
TICK = os.sysconf("SC_CLK_TCK")


def stat_seconds(pid):
    """The process's CPU by /proc/PID/stat (user and system, every thread's, ended ones too), in ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Run:
    """A server's CPU over a run by both counts: a thread that ended meanwhile is missing from the threads' one,
    which the per-press figures use."""

    def __init__(self, pid):
        self.pid, self.started = pid, (cpu_seconds(pid), stat_seconds(pid))

    def check(self, name):
        threads, stat = (after - before for after, before in zip((cpu_seconds(self.pid), stat_seconds(self.pid)),
                                                                  self.started))
        if threads < stat - 3 / TICK - 0.05 * stat:
            print(f"  warning: {name}'s threads used {threads:.2f} s of CPU, /proc/PID/stat says {stat:.2f} s: "
                  "threads that ended took their CPU with them, the per-press figures are short")


def follow(following, port, phone, ready, path="/api/stream", cookies=None):
    """One phone following the stream at `path` until the server stops."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    with contextlib.suppress(OSError, http.client.HTTPException):  # the server stopped
        following.listen(port, phone, ready, path, headers)


def followed(port, phones, path, cookies):
    """`phones` phones following the stream (phone N with `cookies[N]`), once each has its first view."""
    ready, following = threading.Semaphore(0), Phones(phones)
    for phone in range(phones):
        threading.Thread(target=follow, args=(following, port, phone, ready, path, cookies[phone]),
                         daemon=True).start()
    for _ in range(phones):
        ready.acquire()
    if following.views(0) is None:
        sys.exit("a phone got no first view within 10 s")
    return following


def call(client, method, path, body=None, expect=200):
    status, answer = client.call(method, path, body)
    if status != expect:
        sys.exit(f"{method} {path} {body}: {status} {answer} (expected {expect})")
    return answer


def new_game(host):
    """A new game of the same seats (their phones keep them); its version."""
    return call(host, "POST", "/api/host/game", {"game": GAME, "seats": SEATS, "options": {}}, 201)["version"]


def current(following, version):
    """Each phone's view once every phone has seen `version`."""
    views = following.views(version)
    if views is None:
        sys.exit(f"a phone did not receive version {version} within 10 s")
    return views


def arrived(following, version, started):
    """Seconds from `started` until the last phone received `version`."""
    last = following.last_arrival(version)
    if last is None:
        sys.exit(f"a phone did not receive version {version} within 10 s")
    return last - started


def phone_acts(pid, host, phones, following, version, count, rng):
    """`count` actions on the seats' phones; returns (the figures, the version now)."""
    marks, lasts, versions = CpuMarks(pid), [], []
    while len(lasts) < count:
        views = current(following, version)
        if views[0]["over"]:
            marks()("new game")
            version = new_game(host)
            continue
        choices = [(seat, choice["action"]) for seat, view in enumerate(views) if view.get("prompt")
                   for choice in view["prompt"]["choices"]]
        if not choices:
            sys.exit(f"no phone shows a prompt at version {version}")
        seat, action = rng.choice(choices)
        time.sleep(rng.uniform(0, PAUSE))
        mark, started = marks(), time.perf_counter()
        status, answer = phones[seat].call("POST", f"/api/seats/{seat}/act", {"action": action})
        mark(status == 200)
        if status == 200:
            version = answer["version"]
            lasts.append(arrived(following, version, started))
            versions.append(version)
    cpu = marks.split(cpu_seconds(pid))
    current(following, version)
    return {"last": statistics.median(lasts), "cpu": statistics.fmean(cpu[True]),
            "sizes": [following.size_of(v) for v in versions], "refused": len(cpu.get(False, ()))}, version


def pad_presses(pid, host, following, count, rng):
    """Pad presses, from a new game, until the rules took `count`: a seat whose phone shows a prompt, its buttons
    in turn until one moves the table (a secret pick moves it taken or not: the phones may not tell). Returns (the
    figures, the version now)."""
    marks, lasts, tries, taken_as, version = CpuMarks(pid), [], 0, Counter(), new_game(host)
    while len(lasts) < count:
        tries += 1
        if tries > 10 * count:
            sys.exit(f"the rules took {len(lasts)} of {tries} seats' pad presses: pad presses do not act")
        views = current(following, version)
        if views[0]["over"]:
            marks()("new game")
            version = new_game(host)
            continue
        seats = [seat for seat, view in enumerate(views) if view.get("prompt")]
        if not seats:
            sys.exit(f"no phone shows a prompt at version {version}")
        seat = rng.choice(seats)
        for button in range(1, 9):
            time.sleep(rng.uniform(0, PAUSE))
            mark, started = marks(), time.perf_counter()
            answer = call(host, "POST", "/box/press", {"seat": seat, "button": button})
            taken = answer["version"] > version
            mark(True if taken else answer["status"])  # else a cursor's move, or refused
            if taken:
                version = answer["version"]
                lasts.append(arrived(following, version, started))
                taken_as[answer["status"]] += 1
                break
    cpu = marks.split(cpu_seconds(pid))
    others = [share for said, shares in cpu.items() if said not in (True, "new game") for share in shares]
    return {"cpu": statistics.fmean(cpu[True]), "last": statistics.median(lasts),
            "other": statistics.fmean(others) if others else float("nan"), "others": len(others),
            "taken": ", ".join(f"{n} {status}" for status, n in sorted(taken_as.items()))}, version


def refused_requests(pid, host, count, rng):
    """The CPU of a request to the pad press route that it refuses (400): the HTTP request's own share."""
    marks = CpuMarks(pid)
    for _ in range(count):
        time.sleep(rng.uniform(0, PAUSE))
        mark = marks()
        call(host, "POST", "/box/press", REFUSED_PRESS, 400)
        mark(True)
    return statistics.fmean(marks.split(cpu_seconds(pid))[True])


def held_menu(pid, host):
    """The box's CPU in % of one core while the host's Menu key is held, and over how many seconds."""
    samples, done = [], threading.Event()
    holding = threading.Thread(target=lambda: (call(host, "POST", "/box/press", {"host": "menu", "hold": True}),
                                               done.set()), daemon=True)
    started = time.monotonic()
    holding.start()
    while not done.wait(0.05):
        samples.append((time.monotonic() - started, cpu_seconds(pid)))
    released = time.monotonic() - started
    window = [(at, cpu) for at, cpu in samples if HELD_FROM <= at <= released - HELD_UNTIL]
    (first, cpu_first), (last, cpu_last) = window[0], window[-1]
    return 100 * (cpu_last - cpu_first) / (last - first), last - first


def idle(pid, seconds):
    """A server's CPU in % of one core over `seconds`, nothing asked of it."""
    cpu, wall = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - cpu) / (time.monotonic() - wall)


def box_run(environment, zero, counts, seed):
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as data:
        process, port = box_server(data, environment, zero, "--reveal-delay", "0")
        try:
            pid, host = process.pid, Client(port)
            run = Run(pid)
            version = new_game(host)
            phones = [Client(port) for _ in range(SEATS)]
            for seat, phone in enumerate(phones):
                code = call(host, "POST", "/api/host/pair", {"seat": seat}, 201)["code"]
                call(phone, "POST", "/api/pair", {"code": code})
            following = followed(port, SEATS, "/api/stream?view=seat", [phone.cookies for phone in phones])
            acts, version = phone_acts(pid, host, phones, following, version, counts["acts"], rng)
            pads, version = pad_presses(pid, host, following, counts["presses"], rng)
            request = refused_requests(pid, host, counts["requests"], rng)
            held, seconds = held_menu(pid, host)
            run.check("the box")
        finally:
            stop(process)
    return {"act_last": acts["last"], "act_cpu": acts["cpu"], "pad_cpu": pads["cpu"], "request_cpu": request,
            "pad_less_request": pads["cpu"] - request, "pad_last": pads["last"], "other_cpu": pads["other"],
            "held": held}, {"sizes": acts["sizes"], "seconds": seconds,
                            "counts": f"{acts['refused']} phone actions refused; pad presses taken: "
                                      f"{pads['taken']} (pressed: a secret pick), and {pads['others']} cursor "
                                      "moves or refused"}


def baseline_run(environment, zero, counts, sizes, seconds, seed):
    rng = random.Random(seed)
    process, port = baseline_server(environment, zero)
    try:
        pid, client = process.pid, Client(port)
        run = Run(pid)
        following = followed(port, SEATS, "/api/stream", [None] * SEATS)
        marks, lasts = CpuMarks(pid), []
        for size in (sizes * counts["acts"])[:counts["acts"]]:
            time.sleep(rng.uniform(0, PAUSE))
            mark, started = marks(), time.perf_counter()
            version = call(client, "POST", "/api/press", {"size": size})["version"]
            mark(True)
            lasts.append(arrived(following, version, started))
        cpu = statistics.fmean(marks.split(cpu_seconds(pid))[True])
        quiet = idle(pid, seconds)
        run.check("the baseline")
    finally:
        stop(process)
    return {"act_last": statistics.median(lasts), "act_cpu": cpu, "pad_cpu": cpu, "pad_less_request": cpu,
            "held": quiet}


# (key, what, unit, goal: ("ratio" or "at most", value) or None, emulated where the Zero is (a time), baseline's)
FIGURES = (
    ("act_last", "phone action → last of 12 phones, median", "ms", ("ratio", 1.5), True, "a POST"),
    ("act_cpu", "CPU per phone action", "ms", None, False, "per POST"),
    ("pad_cpu", "CPU per pad press taken (virtual box, HTTP)", "ms", ("ratio", 2.0), False, "per POST"),
    ("request_cpu", "  of which the HTTP request (a refused one)", "ms", None, False, None),
    ("pad_less_request", "  the pad press less that request", "ms", ("ratio", 2.0), False, "per POST"),
    ("pad_last", "pad press → last of 12 phones, median", "ms", None, True, None),
    ("other_cpu", "CPU per cursor move or refused pad press", "ms", None, False, None),
    ("held", "held Menu key, % of one core", "%", ("at most", 0.5), False, "idle"),
)


def summary(machine, runs, emulated, delay, notes):
    print(f"\n{machine}; every sync delayed {delay} ms; {len(runs)} run{'s' * (len(runs) > 1)} of each, alternating "
          f"(load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores). Each figure the median of "
          "the runs'.")
    for note in notes:
        print(f"  {note}")
    header = f"  {'figure':46} {'goal':>8} {'box':>8} {'baseline':>14} {'ratio':>6}  {'met':7} {'emulated':8} runs"
    print(header)
    for key, what, unit, goal, timed, compared in FIGURES:
        box = [r["box"][key] for r in runs]
        base = [r["baseline"][key] for r in runs] if compared else None
        scale = 1000 if unit == "ms" else 1
        value = statistics.median(box) * scale
        shown = "—" if value != value else f"{value:.2f} {unit}" if unit == "%" else f"{value:.1f}"  # NaN: none
        base_shown, ratio_shown, verdict = "", "", ""
        if base:
            base_value = statistics.median(base) * scale
            base_shown = f"{base_value:.2f} % {compared}" if unit == "%" else f"{base_value:.1f} {compared}"
        ratio = statistics.median(b / r for b, r in zip(box, base)) if base and unit != "%" else None
        if ratio is not None:
            ratio_shown = f"{ratio:.2f}×"
        goal_shown = "" if goal is None else (f"≤ {goal[1]}×" if goal[0] == "ratio" else f"≤ {goal[1]} {unit}")
        if goal:
            verdict = "met" if (ratio if goal[0] == "ratio" else value) <= goal[1] else "NOT met"
        each = ", ".join(f"{b * scale:.2f}" + (f"/{r * scale:.2f}" if base else "") for b, r in
                         zip(box, base or box))
        emulation = ("yes" if timed else "no: CPU") if emulated else "no"
        print(f"  {what:46} {goal_shown:>8} {shown:>8} {base_shown:>14} {ratio_shown:>6}  {verdict:7} "
              f"{emulation:8} {each}")
    print("  (runs: box/baseline; ms unless said; CPU is this machine's CPU time, not scaled to a Zero's core; a "
          "pad press includes the key's debounce and the virtual box's HTTP request, which a real pad never makes)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of the box and of the baseline, alternating")
    parser.add_argument("--acts", type=int, default=ACTS, help="phone actions (and baseline POSTs) a run")
    parser.add_argument("--presses", type=int, default=PRESSES, help="pad presses the rules take, a run")
    parser.add_argument("--requests", type=int, default=REQUESTS, help="refused requests to the pad press route")
    parser.add_argument("--sync-delay", type=float, default=DELAY_MS, help="ms every SD card sync is delayed")
    parser.add_argument("--plain", action="store_true", help="on this machine as it is too (with the emulated Zero)")
    parser.add_argument("--quick", action="store_true", help="one short run: " + ", ".join(
        f"{v} {k}" for k, v in QUICK.items()))
    args = parser.parse_args()
    counts = {key: getattr(args, key) for key in ("runs", "acts", "presses", "requests")}
    if args.quick:
        counts.update(QUICK)
    delay = f"{args.sync_delay:g}"
    with sd_card_machines(args.plain, delay) as (environment, machines):
        results = {machine: [] for machine in machines}
        notes = {machine: set() for machine in machines}
        sizes, seconds = None, None
        for run in range(counts["runs"]):
            for machine, zero in machines.items():
                before = zero.throttled() if zero else None
                found = {}
                # the baseline sends views the size of the box's: it goes second on a machine's first run
                for name in ("box", "baseline") if run % 2 == 0 or sizes is None else ("baseline", "box"):
                    if name == "box":
                        found["box"], made = box_run(environment, zero, counts, run)
                        sizes, seconds = made["sizes"], made["seconds"]
                        notes[machine].add(f"run {run + 1}: {made['counts']} on the way; Menu held "
                                           f"{seconds:.1f} s measured")
                    else:
                        found["baseline"] = baseline_run(environment, zero, counts, sizes, seconds, run)
                results[machine].append(found)
                throttled = ""
                if zero:
                    periods, count = (after - was for after, was in zip(zero.throttled(), before))
                    throttled = f" (the Zero's quota throttled {count} of {periods} 10 ms periods)"
                print(f"run {run + 1} on {'the emulated Zero' if zero else 'this machine'}: phone action → last "
                      f"phone {1000 * found['box']['act_last']:.1f} ms (baseline "
                      f"{1000 * found['baseline']['act_last']:.1f}), CPU per pad press "
                      f"{1000 * found['box']['pad_cpu']:.2f} ms{throttled}", flush=True)
    for machine, zero in machines.items():
        summary(machine, results[machine], zero is not None, delay, sorted(notes[machine]))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: its servers ended, its cgroups removed")

"""50 phones following a real `arbitro --mock` live, against the baseline (bench/baseline.py: a bare Flask app
on waitress streaming a same-size JSON document to every phone on each POST: each baseline press the size of the
view the box sent for the same press of the game, run after it) in the same run: the server's CPU
per press, how long until the last phone has seen a press (95th percentile over every round's presses), the
server's memory (RSS) with the phones connected, and the time from start to its first answer. Ponte with 3 seats on the
virtual box's pads, then Biglietti with 12: the seats the public view says may act are pressed, each button in
turn until the rules take one. The CPU is split between the presses: a press the rules took (which the phones
see) is compared with the baseline's; the refused ones (a button a player would not press now, or a cursor's move)
are measured apart and printed beside. Both servers start from compiled bytecode, as an install's (pip compiles
it) does.

A box press starts as the virtual key closes on the mock pins, so it waits out the key's debounce (as a finger's
press does) before the box sees it; a baseline press has nothing to wait for. The last phone is compared with the
baseline once that wait, measured in the same run on the same mock pins, is taken out, and printed with it beside.

Run by hand: `.venv/bin/python bench/phones.py [--phones 50] [--presses 40] [--rounds 5]`. Goals: CPU per
press ≤ 1.0× the baseline, the last phone ≤ 1.2×, RSS ≤ 1.3×, start ≤ 1.5×. A Pi Zero 2 W is 6–10× slower than
this machine."""
import argparse
import compileall
import http.client
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.idle import cpu_seconds  # noqa: E402
from bench.matrix import latencies  # noqa: E402
from bench.servers import baseline_server  # noqa: E402
from device.config import DEFAULT_PINMAP, load_pinmap  # noqa: E402
from device.pads import MatrixPads  # noqa: E402
from device.mock import mock_pins  # noqa: E402
from tests.browser import Server, free_port  # noqa: E402


class Phones:
    """What each phone has seen: every version with when it arrived; the bench waits on it without polling (a
    busy loop would take the interpreter from the phones it measures)."""

    def __init__(self, count):
        self.seen = [[] for _ in range(count)]
        self.changed = threading.Condition()
        self.view = {}  # the latest view the first phone received: who may act
        self.sizes = {}  # version -> the size of its view (bytes of JSON), as the first phone received it
        self.latest = [(None, b"{}")] * count  # each phone's latest view: (its version, its JSON)

    def listen(self, port, phone, ready, path="/api/stream", headers=None):
        """Follow the stream at `path` (the table's view; a seat's with `?view=seat` and its cookie in `headers`)."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        ready.release()
        kind, version = None, None  # the event whose lines come: a `view`, or the box's health (`box`)
        for raw in response:
            if raw.startswith(b"id: "):
                version = int(raw[4:])
                with self.changed:
                    self.seen[phone].append((version, time.perf_counter()))
                    self.changed.notify_all()
            elif raw.startswith(b"event: "):
                kind = raw[7:].strip()
            elif raw.startswith(b"data: {") and kind == b"view":
                view = json.loads(raw[6:]) if phone == 0 else None
                with self.changed:
                    self.latest[phone] = (version, raw[6:])
                    if view is not None:
                        self.view = view
                        self.sizes[view["version"]] = len(raw) - 7  # less "data: " and the newline
                    self.changed.notify_all()

    def views(self, version, timeout=10):
        """Each phone's view once every phone has received that of `version` or a later one (None if one has not
        within `timeout`)."""
        with self.changed:
            if not self.changed.wait_for(lambda: all(seen is not None and seen >= version
                                                     for seen, _ in self.latest), timeout):
                return None
            latest = list(self.latest)
        return [json.loads(data) for _, data in latest]

    def size_of(self, version):
        """The size of the first view at `version` or after it the first phone received (a phone may skip a
        version the box made and replaced at once, as a chance outcome drawn right after a press)."""
        with self.changed:  # the first phone's thread adds to it
            sizes = sorted(self.sizes.items())
        return next(size for seen, size in sizes if seen >= version)

    def last_arrival(self, version, timeout=10):
        """When the last phone saw `version` (or a later one); None if one has not within `timeout`."""
        with self.changed:
            if not self.changed.wait_for(lambda: all(s and s[-1][0] >= version for s in self.seen), timeout):
                return None
            return max(next(t for v, t in seen if v >= version) for seen in self.seen)


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    connection.close()
    return answer


def new_game(port, game, seats):
    post(port, "/api/host/game", {"game": game, "seats": seats, "options": {"deal": "box"} if game == "ponte" else {}})


def acting(view, seats):
    """The seats the public view says may act now (of a round of picks, those that have not picked: a seat that
    has would only change its mind); when it does not say, every seat, whose turn it is and the controller's
    first."""
    if view.get("picking"):
        return [seat for seat in view["picking"] if seat not in view.get("locked", ())]
    first = [view[k] for k in ("turn", "controller") if isinstance(view.get(k), int)]
    return first + [seat for seat in range(seats) if seat not in first]


def box_presses(port, phones, game, seats, mark):
    """Presses on the virtual box's pads: a seat that may act, each button in turn until the rules take one (a new
    game when none can: the game is over). `mark(taken)` is called as each press is sent, saying whether the rules
    took it (False: refused, or a cursor's move the phones do not see). Yields (when the taken press was sent, its
    version) of each press taken."""
    new_game(port, game, seats)
    while True:
        for seat, button in itertools.product(acting(phones.view, seats), range(1, 9)):
            started, cpu = time.perf_counter(), mark()
            answer = post(port, "/box/press", {"seat": seat, "button": button})
            taken = answer.get("status") in ("applied", "held")
            cpu(taken)
            if taken:
                yield started, answer["version"]
                break
        else:
            new_game(port, game, seats)


def baseline_presses(port, mark, sizes):
    """Presses on the baseline, each making its document the size of the next of `sizes` (the box's views, press
    by press: the phones get a same-size event from both)."""
    for size in itertools.cycle(sizes):
        started = time.perf_counter()
        mark()(True)
        yield started, post(port, "/api/press", {"size": size})["version"]


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class CpuMarks:
    """The server's CPU split between presses: each press's share runs from when it is sent to when the next one
    is (its answer, the phones' updates and whatever it left the box to do), so the shares add up to the whole."""

    def __init__(self, pid):
        self.pid, self.marks = pid, []  # (CPU seconds when a press was sent, whether the rules took it)

    def __call__(self):
        """Called as a press is sent; returns a function to say whether the rules took it (or what it was)."""
        cpu = cpu_seconds(self.pid)
        return lambda taken: self.marks.append((cpu, taken))

    def split(self, end):
        """Each press's CPU seconds, up to CPU seconds `end`, by what was said of it (whether the rules took it)."""
        split = {}
        for (cpu, said), (after, _) in zip(self.marks, self.marks[1:] + [(end, None)]):
            split.setdefault(said, []).append(after - cpu)
        return split

    def shares(self, end):
        """(ms per taken press, ms per refused press, refused presses per taken one), up to CPU seconds `end`."""
        split = self.split(end)
        per = {taken: 1000 * statistics.fmean(split[taken]) if split.get(taken) else 0.0 for taken in (True, False)}
        return per[True], per[False], len(split.get(False, ())) / max(1, len(split.get(True, ())))


def measure(port, pid, presses, count, phones):
    """The CPU per press the rules took (ms, from the press to the next one sent: the phones' updates included),
    each press's time to the last phone (ms), the RSS (MB) with the phones, the CPU per press the rules refused
    (ms) and how many of those came for each taken one, and the size of the view each taken press sent the phones
    (bytes). `presses(following, mark)` yields (when sent, version) of each press taken, and calls `mark()` as it
    sends any press."""
    ready, following = threading.Semaphore(0), Phones(phones)
    for phone in range(phones):
        threading.Thread(target=following.listen, args=(port, phone, ready), daemon=True).start()
    for _ in range(phones):
        ready.acquire()
    time.sleep(0.5)
    lasts, marks, versions = [], CpuMarks(pid), []
    for (started, version), _ in zip(presses(following, marks), range(count)):
        arrived = following.last_arrival(version)
        lasts.append(float("inf") if arrived is None else arrived - started)
        versions.append(version)
    taken, refused, ratio = marks.shares(cpu_seconds(pid))
    sizes = [following.size_of(version) for version in versions]
    return taken, [1000 * last for last in lasts], rss_mb(pid), refused, ratio, sizes


def summed(found):
    """One server's rounds as one: the medians of each round's CPU and memory, and the 95th percentile of press →
    last phone over every press of every round (a percentile of 40 presses swings with one slow press)."""
    lasts = sorted(last for measured in found for last in measured[1])
    return [lasts[int(len(lasts) * 0.95)] if what == 1 else statistics.median(column)
            for what, column in enumerate(zip(*found))]


def first_answer(command):
    """Seconds from starting `command` (a server on the port it is given) to its first answer."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen([part.replace("{port}", str(port)) for part in command], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=1).read()
                return time.perf_counter() - started
            except OSError:
                time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(timeout=10)


def key_debounce(pinmap, presses=40):
    """The median ms from a key closing to its report on `pinmap`'s mock pins, by the scanner the box starts: the
    wait for the key to be steady, part of every box press here and of no baseline press."""
    factory, simulated = mock_pins(pinmap)
    pads = MatrixPads(pinmap, lambda *a: None, lambda *a: None, pin_factory=factory)
    try:
        pads.start()
        return 1000 * statistics.median(latencies(pads, simulated, presses))
    finally:
        pads.close()


GAMES = (("ponte", 3), ("biglietti", 12))
STARTS = 15


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds = {}  # what -> the measures of each round: each game on the box, then the baseline with the same
    # views' sizes, take turns, so a neighbour's load on this shared machine falls on all of them alike
    sizes = {}  # game -> the size of the view each taken press sent, over every round (bytes)
    for _ in range(args.rounds):
        for game, seats in GAMES:
            with tempfile.TemporaryDirectory() as data:
                server = Server(Path(data), "--reveal-delay", "0")
                try:
                    *box, sent = measure(server.port, server.process.pid,
                                         lambda phones, mark: box_presses(server.port, phones, game, seats, mark),
                                         args.presses, args.phones)
                    rounds.setdefault(game, []).append(box)
                    sizes.setdefault(game, []).extend(sent)
                finally:
                    server.stop()
            baseline, port = baseline_server()
            try:
                *bare, _ = measure(port, baseline.pid, lambda _, mark: baseline_presses(port, mark, sent),
                                   args.presses, args.phones)
                rounds.setdefault(("baseline", game), []).append(bare)
            finally:
                baseline.terminate()
                baseline.wait(timeout=10)
    pinmap = load_pinmap(DEFAULT_PINMAP)  # the box's, in mock mode
    debounce = key_debounce(pinmap)
    medians = {what: summed(found) for what, found in rounds.items()}
    for part in ("engine", "device", "web_companion", "games", "bench"):
        compileall.compile_dir(ROOT / part, quiet=1)
    with tempfile.TemporaryDirectory() as data:
        commands = ([sys.executable, "-m", "device.cli", "--mock", "--port", "{port}", "--data", data],
                    [sys.executable, str(ROOT / "bench" / "baseline.py"), "--port", "{port}"])
        # The box and the baseline take turns, so a shared machine's slow spell weighs on both alike; a start is
        # short, and a median of a few swung between 1.2× and 1.55× for the same code.
        taken = [[first_answer(command) for command in commands] for _ in range(STARTS)]
        starts = [statistics.median(column) for column in zip(*taken)]
    print(f"{args.phones} phones, {args.presses} presses, {args.rounds} rounds, the box against the "
          "baseline (medians of the rounds; ratio, goal):")
    for game, seats in GAMES:
        box, bare = medians[game], medians[("baseline", game)]
        print(f"  {game}, {seats} seats, against the baseline sending the same views' sizes (mean "
              f"{statistics.mean(sizes[game]):.0f} bytes, largest {max(sizes[game])}): {box[4]:.1f} refused presses "
              f"for each one the rules took (a button the seat may not press now, or a cursor's move), {box[3]:.2f} "
              "ms of CPU each, not counted below:")
        for name, now, base, goal in (("CPU per press taken (ms)", box[0], bare[0], 1.0),
                                      ("press → last phone, 95th, after the key's debounce (ms)", box[1] - debounce,
                                       bare[1], 1.2),
                                      ("RSS with the phones (MB)", box[2], bare[2], 1.3)):
            report(name, now, base, goal)
        print(f"      (a press counts once its key has been steady: {debounce:.1f} ms from the key closing, median, for "
              f"the pin map's {pinmap.debounce_ms} ms debounce; with it the last phone is "
              f"{box[1]:.1f} ms, {box[1] / bare[1]:.2f}× the baseline's)")
    report(f"start → first answer (s), median of {STARTS} each", starts[0], starts[1], 1.5)


def report(name, now, base, goal):
    print(f"    {name}: {now:.2f} against {base:.2f}: {now / base:.2f}× (goal ≤ {goal}×: "
          f"{'met' if now / base <= goal else 'NOT met'})")


if __name__ == "__main__":
    main()

"""A night at the table, fast: a real `arbitro --mock` (four pads wired direct, a short reveal delay) plays the
five games over and over by random legal moves, at full pace: each acting seat's phone (paired by its code every
game) says what it may do, and the move is made on its pad through the virtual box now and then (a fixed pick:
its button; a cursor: moved and confirmed) or on its phone; the seats beyond the pads are the host's to act for.
The host takes back a move now and then and downloads a backup (GET /api/host/backup) twice a game; phones keep
opening and closing the live stream, on the table's view and on their seat's. The box's RSS is sampled as each
game starts (the one before put away) and once after the last. The figure: how much it grows over the games after
the first pass through the five (once every game's rules, pages and pools have been made).

The box starts as the service starts it, with its allocator settings (hardware/arbitro.service's GLIBC_TUNABLES).
The baseline, in the same run and with the same games: the box as it was, without them and with its memory
adapter's calls (device/memory.py: a few malloc arenas; at each new game the last one's cycles collected and the
freed memory handed back; the collector skipping what the start made) and its forgetting of the last game's
pages stubbed. The two play at once, the same games from the same seeds, so a neighbour's load falls on both
alike; in the emulated Pi Zero 2 W (`--zero`: root, cgroup v1) they take turns, a pass each (there glibc sees
one core, and gives the baseline's threads up to 8 arenas where a Zero's four cores give them 32).

Run by hand: `.venv/bin/python bench/soak.py [--games 50] [--seed 1] [--zero]` (some 5 minutes here, the emulated
Zero some 30). Goal: the box's RSS grows by ≤ 2 MB over the `--games` games after the first pass."""
import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.journal import Zero, why_not_zero  # noqa: E402
from bench.phones import rss_mb  # noqa: E402
from tests.browser import free_port  # noqa: E402
from tests.conftest import DIRECT_PINMAP  # noqa: E402

GOAL_MB = 2.0
# The five games, each with seats beyond the four pads where it may have them (the host acts for those), and
# options that keep a game short: Leader 1's two teams of one rider (its supply tiles held by the box: secret
# choices, on the phones alone).
GAMES = (("ponte", 5, {"deal": "box"}), ("lifeboats", 3, {}), ("biglietti", 5, {}),
         ("leader1", 2, {"riders": [["leader"], ["scalatore"]], "supply": "box"}), ("shangrila", 3, {}))
PADS = 4  # seats wired to a pad on the direct pin map
REVEAL_DELAY = "0.02"
NEXT, OK = 2, 8  # cursor keys (device/cursor.py)
PAD_SHARE = 0.25  # of the pad seats' moves, made on the pad (a press waits out its debounce, as a finger's does)
CURSOR_REACH = 3  # a cursor move on the pad runs to one of its first items
UNDO_EVERY, PHONES = 40, 6  # a move taken back about once in UNDO_EVERY; phones coming and going at once
SERVICE = ROOT / "hardware" / "arbitro.service"
BOX = ["-m", "device.cli"]
# The baseline: the box as it was, its memory adapter's calls (device/memory.py) and its forgetting of the last
# game's pages stubbed before the command runs (and without the service's allocator settings).
STUBBED = ("import sys, device.memory as m, device.screens as s; m.limit_arenas = m.release = m.settle = "
           "s.forget_pages = lambda *a, **k: None; from device.cli import main; sys.exit(main(sys.argv[1:]))")


class Client:
    """HTTP to the box, one connection kept alive, as a phone's browser does, with its own cookies."""

    def __init__(self, port):
        self.port, self.cookies, self.connection = port, {}, None

    def call(self, method, path, body=None):
        """(status, the answer's JSON or bytes)."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile is opened again, once
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.connection.request(method, path, data, headers)
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        for header in response.headers.get_all("Set-Cookie") or ():
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";")[0]
        if response.getheader("Content-Type", "").startswith("application/json"):
            return response.status, json.loads(raw)
        return response.status, raw

    def close(self):
        if self.connection:
            self.connection.close()


class Phones:
    """Phones coming and going: each opens the live stream (the table's view, or a seat's with that seat's
    cookie), reads a few events and leaves; then another comes."""

    def __init__(self, port, cookies, rng, count=PHONES):
        """`cookies()`: the seat cookies of the game in play."""
        self.port, self.cookies, self.stopped, self.visits = port, cookies, threading.Event(), 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.come_and_go, args=(random.Random(rng.random()),), daemon=True)
                        for _ in range(count)]
        for thread in self.threads:
            thread.start()

    def come_and_go(self, rng):
        while not self.stopped.is_set():
            cookie = rng.choice(self.cookies() or [None]) if rng.random() < 0.5 else None
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                connection.request("GET", "/api/stream?view=seat" if cookie else "/api/stream",
                                   headers={"Cookie": f"arbitro_seat={cookie}"} if cookie else {})
                response = connection.getresponse()
                events = rng.randint(1, 40)
                for line in response:
                    if line.startswith(b"id: "):
                        events -= 1
                    if events <= 0 or self.stopped.is_set():
                        break
            except (OSError, http.client.HTTPException):
                pass  # the box closed it (a full house, or it stopped): the phone comes again
            finally:
                connection.close()
            with self.lock:
                self.visits += 1

    def stop(self):
        """They leave as the box goes (call `stopped.set()` first)."""
        for thread in self.threads:
            thread.join(timeout=40)


def candidates(view, seats):
    """The seats worth asking first: those still to pick in a round of picks, else whose turn the view says it
    is, then every other seat (a view may not say who acts: its phone's prompt does)."""
    if view.get("picking"):
        return [s for s in view["picking"] if s not in view.get("locked", ())]
    first = [view[k] for k in ("to_act", "turn", "controller") if type(view.get(k)) is int]
    return list(dict.fromkeys(first + list(range(seats))))


class Player:
    """Plays games on the box at random, as the seats, their phones and the host would."""

    def __init__(self, port, rng):
        self.port, self.rng = port, rng
        self.host = Client(port)  # the laptop's own browser: the host in mock mode
        self.phones = {}  # seat -> its phone's Client (the pad seats), paired for the game in play
        self.seats = 0
        self.moves = self.presses = self.undos = self.backups = 0

    def new_game(self, game, seats, options):
        """The host starts a game; a phone is paired with each pad seat."""
        self.seats = seats
        status, answer = self.host.call("POST", "/api/host/game", {"game": game, "seats": seats, "options": options})
        assert status == 201, answer
        for phone in self.phones.values():
            phone.close()
        phones = {}
        for seat in range(min(PADS, seats)):
            status, answer = self.host.call("POST", "/api/host/pair", {"seat": seat})
            assert status == 201, answer
            phone = Client(self.port)
            status, paired = phone.call("POST", "/api/pair", {"code": answer["code"]})
            assert status == 200 and paired["seat"] == seat, paired
            phones[seat] = phone
        self.phones = phones

    def prompt(self, seat):
        if seat in self.phones:
            return self.phones[seat].call("GET", "/api/table?view=seat")[1].get("prompt")
        seats = self.host.call("GET", "/api/host/seats")[1]["seats"]
        return next((v.get("prompt") for v in seats if v["viewer"] == seat), None)

    def play(self):
        """The game in play to its end, at random, the backup downloaded once on the way and once at the end."""
        moves, backup_at = 0, self.rng.randint(5, 30)
        while True:
            status, view = self.host.call("GET", "/api/table")
            if view["over"]:
                break
            if moves and self.rng.randrange(UNDO_EVERY) == 0:
                self.undos += self.host.call("POST", "/api/host/undo", {})[0] == 200
            for seat in candidates(view, self.seats):
                prompt = self.prompt(seat)
                if prompt and prompt["choices"]:
                    self.move(seat, prompt)
                    moves += 1
                    if moves == backup_at:
                        self.backup()
                    break
            else:  # nobody may act: a held pick waits out the reveal delay
                status, _ = self.host.call("GET", f"/api/table?since={view['version']}")
        self.backup()
        self.moves += moves

    def backup(self):
        status, data = self.host.call("GET", "/api/host/backup")
        assert status == 200 and data[:16] == b"SQLite format 3\x00", status
        self.backups += 1

    def move(self, seat, prompt):
        """A random choice of the prompt, made on the seat's pad now and then (a pad seat), else on its phone or by
        the host."""
        choice = self.rng.choice(prompt["choices"])
        if seat in self.phones and self.rng.random() < PAD_SHARE and self.on_pad(seat, prompt, choice):
            return
        if seat in self.phones:
            status, answer = self.phones[seat].call("POST", f"/api/seats/{seat}/act", {"action": choice["action"]})
        else:
            status, answer = self.host.call("POST", f"/api/host/seats/{seat}/act", {"action": choice["action"]})
        assert status == 200, (seat, choice, answer)

    def press(self, seat, button):
        self.presses += 1
        status, answer = self.host.call("POST", "/box/press", {"seat": seat, "button": button})
        assert status == 200, answer
        return answer["status"]

    def on_pad(self, seat, prompt, choice):
        """Make `choice` on the seat's pad, as its player would: its button on a fixed layout; on a cursor, one of
        the first few items (a group, then one of its first few choices) the cursor reaches, confirmed. False when
        the pad did not make a move (a choice only the seat's phone may show)."""
        if prompt["pad"] is not None:
            button = prompt["pad"].index(choice["label"]) + 1 if choice["label"] in prompt["pad"] else None
            return button is not None and self.press(seat, button) in ("applied", "held")
        items = list(dict.fromkeys(c["group"] or c["label"] for c in prompt["choices"]))
        for _ in range(2):  # a group, then a choice in it
            for _ in range(self.rng.randrange(min(CURSOR_REACH, len(items)))):
                if self.press(seat, NEXT) != "moved":
                    return False
            outcome = self.press(seat, OK)
            if outcome in ("applied", "held"):
                return True
            if outcome != "moved":
                return False
            items = items[:CURSOR_REACH]  # within the group: as far as the cursor may go at most
        return False


class Box:
    """A box run: `arbitro --mock` (`start`: the Python arguments that run it) with `environment` added, its data
    in a folder of its own, in `zero`'s cgroups when given; a player, and phones coming and going."""

    def __init__(self, start, environment, zero=None):
        self.folder = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, *start, "--mock", "--port", str(self.port), "--data", self.folder.name,
             "--pinmap", str(DIRECT_PINMAP), "--reveal-delay", REVEAL_DELAY],
            cwd=ROOT, env={**os.environ, **environment}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=zero.enter if zero else None)
        deadline = time.monotonic() + 60
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                Client(self.port).call("GET", "/api/table")
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("arbitro --mock did not start")
        self.player = Player(self.port, random.Random(0))
        self.phones = Phones(self.port, lambda: [p.cookies.get("arbitro_seat") for p in self.player.phones.values()],
                             random.Random(1))
        self.rss = []  # MB as each game starts: the one before put away (and once more after the last)

    def play_pass(self, seed):
        """The five games once, at random from `seed`."""
        self.player.rng.seed(seed)
        for game, seats, options in GAMES:
            self.player.new_game(game, seats, options)
            self.rss.append(rss_mb(self.process.pid))
            self.player.play()

    def put_away(self):
        """The last game put away: its RSS taken."""
        self.player.new_game(*GAMES[0])
        self.rss.append(rss_mb(self.process.pid))

    def stop(self):
        self.phones.stopped.set()
        self.process.terminate()
        self.process.wait(timeout=10)
        self.phones.stop()
        self.folder.cleanup()


def allocator_environment():
    """The C allocator's settings the service starts the box with (hardware/arbitro.service): those glibc reads
    only as a process starts."""
    found = {}
    for line in SERVICE.read_text().splitlines():
        name, _, value = line.removeprefix("Environment=").partition("=")
        if line.startswith("Environment=") and name.startswith(("GLIBC_TUNABLES", "MALLOC_")):
            found[name] = value
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games after the first pass (a multiple of five)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zero", action="store_true", help="in an emulated Pi Zero 2 W (root, cgroup v1)")
    args = parser.parse_args()
    passes = 1 + -(-args.games // len(GAMES))
    for stop in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl-C: the boxes stopped, the cgroups removed
        signal.signal(stop, lambda number, frame: sys.exit(f"stopped by signal {number}"))
    zero = None
    if args.zero:
        cannot = why_not_zero()
        if cannot:
            sys.exit(f"no emulated Pi Zero 2 W here: {cannot}")
        zero = Zero()
    started, environment = time.monotonic(), allocator_environment()
    boxes = {}
    try:
        boxes["box"] = Box(BOX, environment, zero)
        boxes["baseline"] = Box(["-c", STUBBED], {}, zero)
        if zero:  # one emulated core: a pass each in turn
            for n in range(passes):
                for box in boxes.values():
                    box.play_pass(args.seed * 1000 + n)
        else:  # both at once, the same games from the same seeds: a neighbour's load falls on both alike
            playing = [threading.Thread(target=lambda box=box: [box.play_pass(args.seed * 1000 + n)
                                                                for n in range(passes)])
                       for box in boxes.values()]
            for thread in playing:
                thread.start()
            for thread in playing:
                thread.join()
        for box in boxes.values():
            box.put_away()
    finally:
        for box in boxes.values():
            box.stop()
        if zero:
            zero.close()
    first = len(GAMES)
    machine = (f"an emulated Pi Zero 2 W (cgroup v1: 1.5 ms CPU per 10 ms on core {zero.core}, 512 MB)" if zero
               else "this machine")
    print(f"soak on {machine}: {passes * len(GAMES)} games each ({first} in the first pass, then "
          f"{passes * len(GAMES) - first}), random moves at full pace, {PHONES} phones coming and going, in "
          f"{time.monotonic() - started:.0f} s; the box started with "
          f"{' '.join(f'{k}={v}' for k, v in environment.items()) or 'no allocator settings'} (the service's):")
    for name, box in boxes.items():
        player = box.player
        print(f"  {name}: {player.moves} moves ({player.presses} pad presses), {player.undos} undone, "
              f"{player.backups} backups, {box.phones.visits} phone visits; RSS {box.rss[0]:.1f} MB at the start, "
              f"{box.rss[first]:.1f} MB after the first pass, {box.rss[-1]:.1f} MB at the end (least "
              f"{min(box.rss[first:]):.1f}, most {max(box.rss[first:]):.1f}); every fifth game: "
              + " ".join(f"{r:.1f}" for r in box.rss[::len(GAMES)]))
    growth = {name: box.rss[-1] - box.rss[first] for name, box in boxes.items()}
    print(f"  RSS growth over the {passes * len(GAMES) - first} games after the first pass: box "
          f"{growth['box']:+.1f} MB, baseline {growth['baseline']:+.1f} MB (goal ≤ {GOAL_MB} MB: "
          f"{'met' if growth['box'] <= GOAL_MB else 'NOT met'})")


if __name__ == "__main__":
    main()

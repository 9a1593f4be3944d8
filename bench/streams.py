"""Many phones at once: how long a press (POST /box/press) and a plain GET /api/table take while 300 phones follow
the game live and 500 connections sit idle, against the same box with nobody else connected (the baseline, in
the same run). Also checks that every stream saw every version, in order.

Run: `.venv/bin/python bench/streams.py [--streams 300] [--idle 500] [--presses 40]`. Target: ≤ 100 ms."""
import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser import Server  # noqa: E402
from tests.conftest import DIRECT_PINMAP  # noqa: E402
from tests.test_load import Streams  # noqa: E402


def timed(call):
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def measure(server, presses):
    def press(n):
        body = json.dumps({"seat": n % 4, "button": 1 + (n // 4) % 5}).encode()
        urllib.request.urlopen(urllib.request.Request(server.url + "/box/press", body,
                                                      {"Content-Type": "application/json"}), timeout=30).read()
    pressing = [timed(lambda n=n: press(n)) for n in range(presses)]
    getting = [timed(lambda: urllib.request.urlopen(server.url + "/api/table", timeout=30).read())
               for _ in range(presses)]
    return pressing, getting


def summary(name, values):
    values = sorted(values)
    return f"{name}: median {statistics.median(values):.1f} ms, p95 {values[int(len(values) * 0.95) - 1]:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--idle", type=int, default=500)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    for label, streams, idle in (("baseline (nobody connected)", 0, 0),
                                 (f"{args.streams} streams + {args.idle} idle", args.streams, args.idle)):
        with tempfile.TemporaryDirectory() as data:
            server = Server(Path(data), "--pinmap", str(DIRECT_PINMAP), "--game", "ponte", "--seats", "4",
                            "--reveal-delay", "0")
            followers = Streams(server, streams) if streams else None
            sockets = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(idle)]
            reading = threading.Thread(target=lambda: followers and followers.read(args.presses * 0.5 + 5))
            reading.start()
            try:
                pressing, getting = measure(server, args.presses)
                reading.join()
                print(f"{label}:\n  {summary('press', pressing)}\n  {summary('GET /api/table', getting)}")
                if followers:
                    ordered = all(seen == sorted(set(seen)) and seen for seen in followers.seen.values())
                    last = json.load(urllib.request.urlopen(server.url + "/api/table"))["version"]
                    complete = sum(seen[-1] == last for seen in followers.seen.values())
                    print(f"  streams in order: {ordered}; at the last version: {complete} of {streams}")
            finally:
                if followers:
                    followers.close()
                for sock in sockets:
                    sock.close()
                server.stop()


if __name__ == "__main__":
    main()

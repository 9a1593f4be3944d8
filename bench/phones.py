"""50 phones on the live stream of a real `arbitro --mock`: how long until every phone has seen a press.

Run by hand: `.venv/bin/python bench/phones.py [--phones 50] [--presses 20]`."""
import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser import Server  # noqa: E402


def listen(port, seen, ready):
    """One phone: read the stream, note when each version arrives."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/api/stream")
    response = connection.getresponse()
    ready.release()
    for raw in response:
        line = raw.decode().strip()
        if line.startswith("id: "):
            seen.append((int(line[4:]), time.perf_counter()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--presses", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data), "--game", "ponte", "--seats", "4", "--reveal-delay", "0")
        try:
            ready = threading.Semaphore(0)
            phones = [[] for _ in range(args.phones)]
            for seen in phones:
                threading.Thread(target=listen, args=(server.port, seen, ready), daemon=True).start()
            for _ in phones:
                ready.acquire()
            time.sleep(0.5)
            delays, sent = [], 0
            for n in range(args.presses):
                body = json.dumps({"seat": n % 4, "button": 1 + (n // 4) % 5}).encode()
                connection = http.client.HTTPConnection("127.0.0.1", server.port)
                start = time.perf_counter()
                connection.request("POST", "/box/press", body, {"Content-Type": "application/json"})
                version = json.loads(connection.getresponse().read())["version"]
                sent += 1
                deadline = time.perf_counter() + 5
                while time.perf_counter() < deadline and not all(
                        any(v >= version for v, _ in seen) for seen in phones):
                    time.sleep(0.001)
                for seen in phones:
                    arrived = [t for v, t in seen if v >= version]
                    delays.append((arrived[0] - start) * 1000 if arrived else float("inf"))
            missing = sum(1 for d in delays if d == float("inf"))
            finite = sorted(d for d in delays if d != float("inf"))
            print(f"{args.phones} phones, {sent} presses: every phone saw every press: {missing == 0}")
            print(f"press → phone (ms): median {statistics.median(finite):.1f}, "
                  f"95th {finite[int(len(finite) * 0.95)]:.1f}, max {finite[-1]:.1f}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()

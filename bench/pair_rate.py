"""How fast a stranger can guess a pairing link's key: a real `arbitro --mock` with a code open, guessed by
threads on kept-alive connections as fast as the box answers them (POST /api/pair {"key"}), for a few seconds. It
prints the box's rate and what that rate buys in one code's life (docs/architecture.md, "Phones at the table").
This machine answers faster than a Pi Zero 2 W (6–10× slower), so the odds printed are an upper bound for the
box; a client on another machine would not share the box's CPU, so the rate may be up to twice the one here.

Run by hand: `.venv/bin/python bench/pair_rate.py [--seconds 10] [--threads 8]`."""
import argparse
import http.client
import json
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import Server, post  # noqa: E402
from web_companion.pairing import DIGITS, KEY_CHARACTERS, KEY_LENGTH, TYPED_WRONG, WINDOW  # noqa: E402

CODES_AT_ONCE = 13  # the most codes open at once: the host role and 12 seats


def guess(port, until, counts):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    made = 0
    while time.monotonic() < until:
        key = "".join(secrets.choice(KEY_CHARACTERS) for _ in range(KEY_LENGTH))
        connection.request("POST", "/api/pair", json.dumps({"key": key}), {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        assert response.status == 403, response.status
        made += 1
    counts.append(made)
    connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data), "--game", "ponte", "--seats", "4")
        try:
            post(server, "/api/host/pair", {"seat": 0})  # the laptop's browser is the host in mock mode
            counts = []
            until = time.monotonic() + args.seconds
            threads = [threading.Thread(target=guess, args=(server.port, until, counts)) for _ in range(args.threads)]
            start = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            rate = sum(counts) / (time.monotonic() - start)
        finally:
            server.stop()
    keys = len(KEY_CHARACTERS) ** KEY_LENGTH
    in_a_life = rate * WINDOW
    print(f"keys guessed: {rate:.0f} a second on this machine ({args.threads} connections)")
    print(f"in one code's life ({WINDOW:.0f} s): {in_a_life:.3g} guesses; against {keys:.3g} keys the odds are "
          f"{in_a_life / keys:.2g} for one code, {CODES_AT_ONCE * in_a_life / keys:.2g} with {CODES_AT_ONCE} open")
    print(f"typed codes: at most {TYPED_WRONG} checked per code, {TYPED_WRONG / 10 ** DIGITS:.2g}")


if __name__ == "__main__":
    main()

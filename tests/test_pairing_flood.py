"""The best attack on pairing we can think of, over the box's own server: while the OLED shows a code, strangers
guess it from more addresses than the box remembers (IPv4 sources cycled over 127.0.0.0/8, IPv6 sources each in
its own /64), all at once, never guessing the same code twice, and guess its link's key as well. The bound: the box
checks at most TYPED_WRONG guesses against a code, whoever sends them, so a stranger's odds per code are at most
TYPED_WRONG in a million — and during the flood the table's phone pairs by the QR code beside the code."""
import http.client
import json
import random
import threading
from collections import Counter

import pytest

from device.server import make_server
from device.web_port import WebPort
from tests.phones import link_on_oled
from web_companion import create_app
from web_companion import pairing as pairing_module
from web_companion.services import services

STRANGERS_V4 = pairing_module.GUESSERS + 76  # more addresses than the box remembers
STRANGERS_V6 = pairing_module.GUESSERS + 76
KEY_GUESSES = 300
THREADS = 6  # real connections at once
LAST_GUESSES = 10  # each stranger's guesses sent once the table's phone has paired


@pytest.fixture
def served(box):
    """(app, port): the box's web app on the server the box runs."""
    app = create_app(WebPort(box))
    made = make_server(app, services(app).changes, "127.0.0.1", 0)
    threading.Thread(target=made.run, daemon=True).start()
    yield app, made.effective_port
    made.close()


def request(port, method, path, body=None, source="127.0.0.1", cookie=None):
    """One request on its own connection from `source`: (status, JSON answer or page text, Set-Cookie)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if cookie:
            headers["Cookie"] = cookie
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read().decode()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(data) if "json" in kind else data, response.getheader("Set-Cookie")
    finally:
        connection.close()


def test_strangers_on_any_number_of_addresses_have_at_most_five_chances_in_a_million(box, served):
    """Two codes are open: the OLED's, which the table's phone takes mid-flood by its QR code, and one the host's
    phone shows, open all along: every answer to a wrong code is then either `pair_wrong` (the guess was checked
    against both) or `pair_flooded` (no longer checked), so the answers count the guesses each code met."""
    app, port = served
    link = link_on_oled(box, ("seat", 1))
    code = box.display.screen.lines[0].replace(" ", "")
    path = "/" + link.split("/", 3)[3]
    watched = box.pair_code(("seat", 2))  # as the host's phone asks: open through the whole flood
    drawn = random.Random(51).sample(range(10 ** 6), STRANGERS_V4 + STRANGERS_V6 + 2)  # never one code twice
    guesses = iter([f"{n:06d}" for n in drawn if f"{n:06d}" not in (code, watched.code)])
    lock, answers, sent = threading.Lock(), [], [0]
    paired = {}  # when the table's phone had its answer: the number of guesses sent by then
    halfway, table_paired = threading.Event(), threading.Event()

    def answered(kind, status, answer, sent_at):
        with lock:
            answers.append((kind, status, answer.get("code") if isinstance(answer, dict) else None, sent_at))
            if len(answers) >= (STRANGERS_V4 + STRANGERS_V6) // 2:
                halfway.set()

    def next_guess():
        with lock:
            sent[0] += 1
            return sent[0], next(guesses, None)

    def after_the_table(n, last):
        """Each stranger's last guesses wait for the table's phone: the flood goes on after it paired."""
        if n >= last - LAST_GUESSES:
            assert table_paired.wait(120)

    def over_http(first):  # IPv4 strangers, one connection each, each from its own loopback address
        for n in range(first, STRANGERS_V4, THREADS):
            after_the_table(n, STRANGERS_V4 - THREADS)
            at, guess = next_guess()
            status, answer, _ = request(port, "POST", "/api/pair", {"code": guess},
                                        source=f"127.{1 + n // 65536}.{n // 256 % 256}.{n % 256}")
            answered("v4", status, answer, at)

    def in_other_prefixes():  # IPv6 strangers, each in its own /64 (the test client sets the address)
        client = app.test_client()
        for n in range(STRANGERS_V6):
            after_the_table(n, STRANGERS_V6)
            at, guess = next_guess()
            answer = client.post("/api/pair", json={"code": guess},
                                 environ_overrides={"REMOTE_ADDR": f"2001:db8:{n // 65536:x}:{n % 65536:x}::7"})
            answered("v6", answer.status_code, answer.get_json(), at)

    def keys():  # the link's key too, at full rate
        draw = random.Random(7)
        for n in range(KEY_GUESSES):
            key = "".join(draw.choice(pairing_module.KEY_CHARACTERS) for _ in range(pairing_module.KEY_LENGTH))
            status, answer, _ = request(port, "POST", "/api/pair", {"key": key}, source=f"127.9.{n // 256}.{n % 256}")
            answered("key", status, answer, sent[0])

    def table_phone():  # mid-flood, someone at the table scans the QR code beside the code
        try:
            assert halfway.wait(120)
            status, page, _ = request(port, "GET", path, source="127.0.0.1")
            assert status == 200 and "pair_link.js" in page
            key = path.rsplit("/", 1)[1]
            status, answer, cookie = request(port, "POST", "/api/pair", {"key": key}, source="127.0.0.1")
            with lock:
                paired.update(status=status, answer=answer, cookie=cookie.split(";")[0], sent=sent[0])
        finally:
            table_paired.set()

    threads = [threading.Thread(target=over_http, args=(t,)) for t in range(THREADS)]
    threads += [threading.Thread(target=in_other_prefixes), threading.Thread(target=keys),
                threading.Thread(target=table_phone)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
        assert not thread.is_alive()

    assert paired["status"] == 200 and paired["answer"] == {"seat": 1, "host": False}
    status, view, _ = request(port, "GET", "/api/table?view=seat", cookie=paired["cookie"])
    assert view["viewer"] == 1
    assert paired["sent"] < STRANGERS_V4 + STRANGERS_V6  # the flood went on after the table's phone paired
    said = Counter((status, why) for _, status, why, _ in answers)
    assert (200, None) not in said and all(status in (403, 429) for status, _ in said), said
    assert box.pairing.showing(("seat", 2)) == watched  # open all along: no answer was about no code at all
    checked = said[403, "pair_wrong"]  # the guesses checked against each code
    keys_checked = sum(1 for kind, *_ in answers if kind == "key")
    odds = checked / 10 ** pairing_module.DIGITS + keys_checked / len(pairing_module.KEY_CHARACTERS) ** 10
    print(f"\nflood: {len(answers)} guesses from {STRANGERS_V4} IPv4 addresses and {STRANGERS_V6} IPv6 /64s, "
          f"{keys_checked} keys; answers {dict(said)}; guesses checked against each code {checked}, "
          f"odds per code {odds:.2g}; the table's phone paired by the link after {paired['sent']} guesses")
    assert checked <= pairing_module.TYPED_WRONG and odds <= 1e-5
    assert sum(1 for s in app.test_client().get("/api/seats").get_json()["seats"] if s["phone"]) == 1
    status, answer, _ = request(port, "POST", "/api/pair", {"code": watched.code})  # typed: closed by the flood
    assert status == 403 and answer["code"] == "pair_flooded"
    status, answer, _ = request(port, "POST", "/api/pair", {"key": watched.key})  # its link: still good
    assert status == 200 and answer == {"seat": 2, "host": False}


def test_the_code_typed_before_the_strangers_spend_its_budget_pairs(box, served):
    _, port = served
    link_on_oled(box, ("seat", 2))
    code = box.display.screen.lines[0]
    for n in range(pairing_module.TYPED_WRONG - 1):
        wrong = f"{(int(code.replace(' ', '')) + 1 + n) % 10 ** 6:06d}"
        assert request(port, "POST", "/api/pair", {"code": wrong}, source=f"127.0.3.{n}")[1]["code"] == "pair_wrong"
    status, answer, _ = request(port, "POST", "/api/pair", {"code": code}, source="127.0.0.1")
    assert status == 200 and answer == {"seat": 2, "host": False}

"""What the network may send a box on a Pi Zero (512 MB), and the threads phones hold (defects: one 200 MB body
to /api/pair took a box from 46 MB to 715 MB; the server's threads never shrank after a crowd of phones left,
and a phone that closed its stream kept its place until the next change). On a real `arbitro --mock`: a body
over the cap is refused (413) on every route before it is read, and changes nothing; an over-long URL or
headers are refused too; the server's threads come back to their resting number once phones have gone, and a
closed stream frees its place at once."""
import http.client
import json
import selectors
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import waitress

from device.server import MAX_HEAD, SPARE_THREADS, make_server
from device.web_port import WebPort
from tests.browser import Server
from tests.conftest import DIRECT_PINMAP, virtual
from web_companion import MAX_BODY, api, create_app
from web_companion.services import services
from web_companion.waitress_writer import connection_writer

HUGE = 200 * 1024 * 1024  # bytes a request says it sends (sent lazily: the test never holds them)
PIECE = b" " * 65536


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("limits") / "data", "--pinmap", str(DIRECT_PINMAP), "--game", "ponte",
                     "--seats", "4")
    yield running
    running.stop()


def routes(box):
    """Every route of the box in mock mode with each of its methods, its variables filled: a new route is
    covered as soon as it is added."""
    app = create_app(WebPort(box), virtual=virtual(box))
    urls = app.url_map.bind("127.0.0.1")
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield method, urls.build(rule.endpoint, dict.fromkeys(rule.arguments, 0), method=method)


def answer_of(sock):
    """The status and body of the response on `sock`, read to the connection's end."""
    sock.setblocking(True)
    sock.settimeout(30)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:  # the box closed without reading what it refused: its answer came first
        pass
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def oversized(port, method, path, chunked=False):
    """`method` `path` with a body of HUGE bytes, as a Content-Length or in chunks, written as the box takes
    it and no faster: (status, body of the answer, bytes of the body written before the box answered)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {HUGE}\r\n"
    piece = b"%X\r\n%s\r\n" % (len(PIECE), PIECE) if chunked else PIECE
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head.encode() + b"\r\n")
        sock.setblocking(False)
        written, sent = 0, 0
        with selectors.DefaultSelector() as selector:
            selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
            while written < HUGE:
                ready = selector.select(30)
                assert ready, "the box neither answers nor reads"
                if ready[0][1] & selectors.EVENT_READ:
                    break  # answered
                try:
                    sent += sock.send(piece[sent:])
                except (BrokenPipeError, ConnectionResetError):
                    break  # the box answered and closed
                except BlockingIOError:
                    continue
                if sent == len(piece):
                    written, sent = written + len(PIECE), 0
            else:  # the box read it all
                if chunked:
                    sock.setblocking(True)
                    sock.sendall(b"0\r\n\r\n")
        status, body = answer_of(sock)
    return status, body, written


def rss_kb(process):
    status = Path(f"/proc/{process.pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])


def state(server):
    """What a request could have changed: the table, the seats, the games on record."""
    return [urllib.request.urlopen(server.url + path, timeout=10).read()
            for path in ("/api/table", "/api/seats", "/api/host/games", "/api/host")]


def test_a_body_over_the_cap_is_refused_before_it_is_read_on_every_route(server, box):
    """Four at a time, a Content-Length of 200 MB and a chunked body that never ends, to every route: each is
    refused (413, saying why) long before its body could be sent, nothing changes, and the box's memory stays
    as it was."""
    asked = [(method, path, chunked) for method, path in routes(box) for chunked in (False, True)]
    assert len(asked) >= 20 and ("POST", "/api/pair", False) in asked
    before = state(server)
    assert oversized(server.port, "POST", "/api/pair")[0] == 413  # waitress's own first allocations
    rss = rss_kb(server.process)
    four = ThreadPoolExecutor(4)
    try:
        for (method, path, chunked), (status, body, written) in zip(
                asked, four.map(lambda request: oversized(server.port, *request), asked)):
            assert status == 413, (method, path, chunked, status, body)
            assert b"exceeds max_body of %d" % MAX_BODY in body
            assert written < HUGE // 4, (method, path, chunked, written)  # not read: what the kernel buffered
    finally:
        four.shutdown(cancel_futures=True)
    grown = rss_kb(server.process) - rss
    assert grown < 5 * 1024, f"the box grew by {grown} kB"
    assert state(server) == before


def test_the_cap_leaves_a_phones_bodies_alone(server):
    """A body just under the cap reaches the app (which says what is wrong with it); one at the cap does not."""
    for size, refused in ((MAX_BODY - 1, False), (MAX_BODY, True)):
        body = b'{"code": "000000"}'.ljust(size)
        request = urllib.request.Request(server.url + "/api/pair", body, {"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=10)
        assert (answer.value.code == 413) == refused, (size, answer.value.code)


@pytest.mark.parametrize("head", [
    b"GET /api/table?padding=%s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" % (b"x" * MAX_HEAD),
    b"GET /api/table HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nCookie: arbitro_seat=%s\r\n\r\n"
    % (b"x" * MAX_HEAD),
    b"GET /api/table HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n%s\r\n" % b"".join(
        b"X-Padding-%d: %s\r\n" % (n, b"x" * 100) for n in range(MAX_HEAD // 100)),
], ids=["url", "header", "headers"])
def test_an_over_long_url_or_headers_are_refused_saying_why(server, head):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        status, body = answer_of(sock)
    assert status == 431 and b"exceeds max_header of %d" % MAX_HEAD in body


def test_the_app_refuses_a_body_over_the_cap_under_any_server(box):
    client = create_app(WebPort(box)).test_client()
    answer = client.post("/api/pair", data=b" " * (MAX_BODY + 1), content_type="application/json")
    assert answer.status_code == 413 and answer.get_json()["error"]


def threads_of(process):
    return len(list(Path(f"/proc/{process.pid}/task").iterdir()))


def settled(condition, timeout):
    """Whether `condition()` comes to hold within `timeout` seconds (it is asked until it does, no more)."""
    deadline = time.monotonic() + timeout
    while not (held := condition()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return held


def follow(port, count):
    """`count` phones following the box live: their connections, once each has its first view."""
    phones, heard = [], {}
    with selectors.DefaultSelector() as selector:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
            phones.append(sock)
            heard[sock] = b""
        deadline = time.monotonic() + 60
        while any(b"event: view" not in received for received in heard.values()):
            assert time.monotonic() < deadline, "not every phone is following"
            for key, _ in selector.select(1):
                heard[key.fileobj] += key.fileobj.recv(65536)
                assert not heard[key.fileobj].startswith(b"HTTP/1.1 503"), "a phone was refused a place"
    return phones


@pytest.mark.load
def test_the_servers_threads_come_back_to_rest_once_phones_have_gone(server):
    """A crowd of phones follows live (a thread each, and the spare ones beside), then leaves: the box comes
    back to the threads it had before they came, and a smaller crowd after it does the same."""
    at_rest = threads_of(server.process)
    for crowd in (300, 40):
        phones = follow(server.port, crowd)
        assert threads_of(server.process) >= crowd + SPARE_THREADS
        for sock in phones:
            sock.close()
        assert settled(lambda: threads_of(server.process) <= at_rest, 30), (crowd, threads_of(server.process),
                                                                            at_rest)
        assert json.load(urllib.request.urlopen(server.url + "/api/table", timeout=10))


@pytest.fixture
def served(box, monkeypatch):
    """(app, port): the box's web app on the server the box runs, two places to wait, keep-alives an hour
    apart: only a phone's leaving can free its place."""
    monkeypatch.setattr(api, "KEEP_ALIVE", 3600.0)
    app = create_app(WebPort(box))
    services(app).changes.places = 2
    made = make_server(app, services(app).changes, "127.0.0.1", 0)
    threading.Thread(target=made.run, daemon=True).start()
    yield app, made.effective_port
    made.close()


def stream(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/stream")
    return connection, connection.getresponse()


def test_a_phone_that_closes_its_stream_frees_its_place_at_once(served):
    """The place of a phone that leaves is free for the next one before anything changes on the table (defect:
    only the next change, or keep-alive, found it gone)."""
    _, port = served
    phones = [stream(port) for _ in range(2)]
    for _, response in phones:
        assert response.status == 200 and response.readline() == b"retry: 2000\n"
    refused, beyond = stream(port)
    assert beyond.status == 503 and json.loads(beyond.read())["code"] == "streams_full"
    refused.close()
    connection, response = phones.pop()
    response.close(), connection.close()

    def a_place():
        connection, response = stream(port)
        if response.status == 200:
            phones.append((connection, response))
            return True
        connection.close()
        return False
    assert settled(a_place, 10)  # no change, no keep-alive: its leaving alone freed the place
    for connection, response in phones:
        response.close(), connection.close()


def test_a_thread_waiting_on_a_waitress_connection_wakes_as_the_client_leaves():
    """web_companion/waitress_writer.py: waitress wakes a thread waiting on the connection as it closes it."""
    woke = []

    def app(environ, start_response):
        connection = connection_writer(environ)
        assert connection is not None, "waitress no longer hands its channel to the app"
        start_response("200 OK", [("Content-Type", "text/plain")])
        yield b"waiting"
        woke.append(connection.wait(lambda: False, 60))

    made = waitress.create_server(app, host="127.0.0.1", port=0, threads=1, channel_request_lookahead=1)
    threading.Thread(target=made.run, daemon=True).start()
    try:
        with socket.create_connection(("127.0.0.1", made.effective_port), timeout=10) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            while b"waiting" not in client.recv(4096):
                pass
        assert settled(lambda: woke == [True], 10)
    finally:
        made.close()

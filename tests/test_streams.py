"""Phones following live under waitress, the server the box runs: the box writes each change to every phone's
connection from one thread of its own, without waking the phones' threads; a phone that left is let go at once,
one that reads no more at the next change, and every one as the box stops."""
import http.client
import socket
import threading
import time

import pytest
import waitress
from waitress.channel import HTTPChannel

from device.server import SERVER
from device.web_port import WebPort
from engine.rules.protocol import refuse
from tests.conftest import virtual
from web_companion import create_app, streams, waitress_writer
from web_companion.services import services


@pytest.fixture
def served(box):
    """(app, port): the web app on a waitress server of its own, set as the box sets it."""
    app = create_app(WebPort(box))
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8, **SERVER)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server.effective_port
    server.close()


def follow(port):
    """A phone's stream, read as a browser does (http.client undoes the chunked framing, or fails on a bad one)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/stream")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Transfer-Encoding") == "chunked"
    return connection, response


def read_until_view(response, version):
    """The stream's lines up to the `view` event of `version`."""
    lines = []
    while not lines or lines[-1] != b"id: %d\n" % version:
        lines.append(response.readline())
    assert response.readline() == b"event: view\n" and response.readline().startswith(b"data: {")
    return lines


def settled(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_a_change_reaches_every_phone_from_one_thread_without_waking_theirs(box, served, monkeypatch):
    app, port = served
    writes = []
    write_soon = HTTPChannel.write_soon
    monkeypatch.setattr(HTTPChannel, "write_soon", lambda channel, data: (
        writes.append((threading.current_thread().name, data)), write_soon(channel, data))[1])
    phones = [follow(port) for _ in range(5)]
    for _, response in phones:
        read_until_view(response, box.table.version)
    before = box.table.version
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    version = box.table.version
    assert version > before
    for _, response in phones:
        read_until_view(response, version)
    view = [thread for thread, data in writes if b"id: %d\nevent: view" % version in data]
    assert view == ["phones"] * 5  # the box's one thread; no phone's own thread woke to write it
    for connection, response in phones:
        response.close(), connection.close()


def test_a_phone_that_left_is_let_go_at_once(box, served):
    app, port = served
    changes = services(app).changes
    connection, response = follow(port)
    read_until_view(response, box.table.version)
    assert changes.waiters == 1
    response.close(), connection.close()
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    # its place back at once, not at the next keep-alive (15 s): its response has ended
    assert settled(lambda: changes.waiters == 0, timeout=5)


def test_a_phone_that_reads_no_more_is_let_go_not_waited_for(box):
    app = create_app(WebPort(box))

    class Channel:  # a waitress connection whose phone reads no more: its unsent bytes pile up
        total_outbufs_len = waitress_writer.STALLED + 1
        outbuf_lock = threading.Condition()

        def check_client_disconnected(self):
            return False

        def write_soon(self, data):
            raise AssertionError("written to a phone that reads no more")

    response = app.test_client().get("/api/stream", buffered=False, environ_overrides={
        "waitress.client_disconnected": Channel().check_client_disconnected})
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 2000\n\n"
    assert list(chunks) == []  # its stream ends, and nothing more is written to it
    response.close()
    assert services(app).changes.waiters == 0


def test_a_stopping_box_lets_every_waiting_phone_go_at_once(box, served):
    """Defect: `systemctl stop` waited 5 s (waitress's shutdown) for each thread a phone held while it waited for
    the next change (a keep-alive 15 s away, a long poll 25 s)."""
    app, port = served
    changes = services(app).changes
    connection, response = follow(port)
    read_until_view(response, box.table.version)
    polled = []
    polling = threading.Thread(target=lambda: polled.append(changes.wait(box.table.version, 3600)))
    polling.start()
    assert settled(lambda: changes.waiters == 1 and polling.is_alive(), timeout=5)
    changes.close()
    polling.join(timeout=5)
    assert polled == [True]  # answered, with the view as it is
    assert response.read().strip() == b""  # the stream has ended (http.client: the last chunk came)
    assert settled(lambda: changes.waiters == 0, timeout=5)
    connection.close()


def test_a_stopping_box_asks_the_server_for_no_more_threads(box):
    """Defect (a reviewer's): the phones let go as the box stopped each told the server how many still waited,
    which set its threads back up after waitress's shutdown had taken them to none: the stop then waited 5 s."""
    changes = services(create_app(WebPort(box))).changes
    told = []
    changes.when_waiting = told.append
    assert changes.take_place()
    changes.close()
    changes.leave_place()
    late = streams.Follower(lambda: "public")
    changes.follow(late)  # a phone that comes as the box stops is let go at once
    assert told == [1] and list(late.events(3600)) == []


def test_an_http_1_0_phone_gets_its_events_unframed(box, served):
    """Waitress frames a response of unknown length in chunks only under HTTP/1.1: the box writes as it does."""
    app, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as phone:
        phone.sendall(b"GET /api/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while b"event: view" not in received:
            received += (chunk := phone.recv(65536))
            assert chunk, received
        assert virtual(box).press(seat=0, button=1)["status"] == "applied"
        wanted = b"id: %d\nevent: view\ndata: {" % box.table.version
        while wanted not in received:
            received += (chunk := phone.recv(65536))
            assert chunk, received
    head, body = received.split(b"\r\n\r\n", 1)
    assert b"Transfer-Encoding" not in head and body.startswith(b"retry: 2000\n\nevent: box\ndata: {")


def test_the_box_writes_from_a_thread_of_its_own_only_while_a_phone_follows(box, served):
    def writers():  # other tests' boxes may have theirs
        return {thread for thread in threading.enumerate() if thread.name == "phones"}
    app, port = served
    before = writers()
    connection, response = follow(port)
    read_until_view(response, box.table.version)
    (ours,) = writers() - before
    response.close(), connection.close()
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    assert settled(lambda: not ours.is_alive())


class Gated(streams.Queued):
    """A phone's connection the test holds: once closed, a write waits (the box's thread with it) until opened."""

    def __init__(self):
        super().__init__()
        self.open, self.waiting = threading.Event(), threading.Event()
        self.open.set()

    def __call__(self, data):
        if not self.open.is_set():
            self.waiting.set()
            assert self.open.wait(10)
        super().__call__(data)


def test_a_phone_reads_what_happened_in_the_order_it_happened_however_fast_the_box_writes(box):
    """Defect: the box's thread sent the views of a batch before its refusals, so a seat's phone read a refusal
    before or after the view of a later change depending on how fast the thread ran (the two-tables test of
    Leader 1 failed 11 times in 14 under load)."""
    changes = services(create_app(WebPort(box))).changes
    connection = Gated()
    follower = streams.Follower(lambda: 0, connection)
    changes.follow(follower)
    assert changes.written(10)
    connection.taken()  # the box's health and the view as it is
    connection.open.clear()
    box.seat_act(1, box.table.legal_actions(1)[0])  # the box's thread waits in the write of this view
    assert connection.waiting.wait(10)
    first = box.table.version
    changes.refused(0, refuse("nothing_to_do", player=1).message)
    box.seat_act(2, box.table.legal_actions(2)[0])
    changes.refused(0, refuse("not_your_action", player=1, seat=0).message)
    connection.open.set()
    assert changes.written(10)
    sent = [event.split(b"\n")[0] for event in connection.taken()]
    assert sent == [b"id: %d" % first, b"event: refused", b"id: %d" % box.table.version, b"event: refused"]


def test_a_phone_that_fell_behind_is_sent_every_version_in_order_as_another_joins(box):
    """Defect: a phone joining sent every phone following the view as the table stood then, ahead of the changes
    still queued for them: a phone the box's thread was still writing to skipped the versions in between."""
    changes = services(create_app(WebPort(box))).changes
    connection = Gated()
    changes.follow(streams.Follower(lambda: "public", connection))
    assert changes.written(10)
    connection.taken()  # the box's health and the view as it is
    connection.open.clear()
    versions = []
    box.seat_act(1, box.table.legal_actions(1)[0])  # the box's thread waits in the write of this view
    versions.append(box.table.version)
    assert connection.waiting.wait(10)
    changes.follow(streams.Follower(lambda: "public"))  # another phone comes
    for seat in (2, 3):
        box.seat_act(seat, box.table.legal_actions(seat)[0])
        versions.append(box.table.version)
    connection.open.set()
    assert changes.written(10)
    sent = [event.split(b"\n")[0] for event in connection.taken()]
    assert [line for line in sent if line.startswith(b"id: ")] == [b"id: %d" % v for v in versions]


def test_each_view_is_rendered_off_the_press_once_for_every_phone_with_that_viewer(box, monkeypatch):
    """A press only queues the table's new moment: the box's thread renders each viewer's view of it once, however
    many phones follow with that viewer (defect: each view was rendered inside the press, which waited for it)."""
    changes = services(create_app(WebPort(box))).changes
    rendered, view = [], streams.Changes.view
    monkeypatch.setattr(streams.Changes, "view", staticmethod(lambda viewer, view_of: (
        rendered.append((threading.current_thread().name, viewer)), view(viewer, view_of))[1]))
    phones = [streams.Follower(lambda viewer=viewer: viewer) for viewer in ["public", "public", "public", 0, 0]]
    for phone in phones:
        changes.follow(phone)
    assert changes.written(10)
    rendered.clear()
    box.seat_act(1, box.table.legal_actions(1)[0])
    assert changes.written(10)
    assert len(rendered) == 2 and set(rendered) == {("phones", 0), ("phones", "public")}
    assert all(phone.version == box.table.version for phone in phones)


def test_a_long_poll_is_answered_as_the_table_changes_with_no_phone_following(box):
    """Defect: only a change queued for a phone following live woke the long polls: with none following, a poll
    waited out its whole time (25 s) before it was sent the change."""
    changes = services(create_app(WebPort(box))).changes
    since, polled = box.table.version, []
    polling = threading.Thread(target=lambda: polled.append(changes.wait(since, 60)), daemon=True)
    polling.start()
    box.seat_act(1, box.table.legal_actions(1)[0])
    polling.join(timeout=10)
    assert polled == [True]

"""Many phones: with 300 open streams and 500 idle connections a press and a plain request still answer, and
every stream receives every version in order (defect: 100 streams took every server thread and starved
everything else). The timings are bench/streams.py's; this pins the mechanism."""
import json
import selectors
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from device.server import FIRST_THREADS, SPARE_THREADS
from tests.browser import Server
from tests.conftest import DIRECT_PINMAP

pytestmark = pytest.mark.slow

STREAMS, IDLE = 300, 500


def post(server, path, body, timeout=10):
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=timeout))


class Streams:
    """`count` phones following /api/stream on raw sockets, read together: the versions each has seen."""

    def __init__(self, server, count):
        self.selector = selectors.DefaultSelector()
        self.seen, self.buffers = {}, {}
        for n in range(count):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, n)
            self.seen[n], self.buffers[n] = [], b""

    def read(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for key, _ in self.selector.select(0.05):
                chunk = key.fileobj.recv(65536)
                self.buffers[key.data] += chunk
                *events, self.buffers[key.data] = self.buffers[key.data].split(b"\n\n")
                for event in events:
                    for line in event.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.seen[key.data].append(int(line[4:]))

    def close(self):
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


@pytest.mark.load
def test_300_streams_and_500_idle_connections_starve_nothing(tmp_path):
    server = Server(tmp_path / "data", "--pinmap", str(DIRECT_PINMAP), "--game", "ponte", "--seats", "4",
                    "--reveal-delay", "0")
    idle, streams = [], None
    try:
        streams = Streams(server, STREAMS)
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(IDLE)]
        streams.read(3)
        first = json.load(urllib.request.urlopen(server.url + "/api/table", timeout=10))["version"]
        versions = [first]
        for seat in range(4):
            versions.append(post(server, "/box/press", {"seat": seat, "button": 1 + seat})["version"])
            assert json.load(urllib.request.urlopen(server.url + "/api/table", timeout=10))["version"] == versions[-1]
        streams.read(5)
        for n, seen in streams.seen.items():
            assert seen and seen == sorted(set(seen)), (n, seen)  # in order, never twice
            assert seen[-1] == versions[-1], (n, seen, versions)
        extra = Streams(server, 30)  # more than the box has places for
        try:
            extra.read(1)
            with pytest.raises(urllib.error.HTTPError) as beyond:  # a phone beyond the places is told to poll
                urllib.request.urlopen(server.url + "/api/stream", timeout=5)
            assert beyond.value.code == 503
            assert json.load(urllib.request.urlopen(server.url + "/api/table?since=0", timeout=5))  # at once
        finally:
            extra.close()
    finally:
        if streams:
            streams.close()
        for sock in idle:
            sock.close()
        server.stop()


def threads_of(process):
    return len(list(Path(f"/proc/{process.pid}/task").iterdir()))


def test_the_server_starts_with_few_threads_and_grows_them_as_phones_follow_live(tmp_path):
    server = Server(tmp_path / "data", "--pinmap", str(DIRECT_PINMAP))
    streams = None
    try:
        at_start = threads_of(server.process)
        assert at_start <= FIRST_THREADS + 8  # the server's, and the box's own few (display, buzzer, pads)
        streams = Streams(server, 60)
        streams.read(2)
        assert all(seen for seen in streams.seen.values())  # every phone follows: none was kept waiting
        assert threads_of(server.process) >= 60 + SPARE_THREADS  # a thread for each, and the spare ones still free
        assert json.load(urllib.request.urlopen(server.url + "/api/table", timeout=5))
    finally:
        if streams:
            streams.close()
        server.stop()

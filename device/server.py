"""The web server the box runs (waitress), set for a Pi Zero's 512 MB: what the network may send it is capped
before it is read, and the threads phones hold while they follow live are given back as they leave."""
import threading

import waitress

from web_companion import MAX_BODY
from web_companion.streams import WAITERS

SPARE_THREADS = 24  # server threads no waiting phone may take: the host, presses and plain requests
MORE_THREADS = 16  # threads kept beyond the phones that wait and the spare ones, as the server resizes
FIRST_THREADS = SPARE_THREADS + MORE_THREADS  # threads at start, and at rest once every phone has gone
MAX_HEAD = 8 * 1024  # a request's line and headers (a phone's are under 1 KiB): a longer URL is refused too (431)
# Waitress's settings. Idle connections cost no thread; poll() has no 1,024-descriptor limit. A connection
# stays read while its request is served (the lookahead): a phone that leaves its stream is seen at once, and
# its place and thread are freed then. A body of MAX_BODY or more is refused (413) as soon as its
# Content-Length says so, a chunked one once it passes the cap: never read, never buffered; under the cap it
# stays in memory (inbuf_overflow), never in a file on the SD card.
SERVER = {"connection_limit": 2000, "channel_timeout": 60, "asyncore_use_poll": True,
          "channel_request_lookahead": 1, "ident": "arbitro", "max_request_body_size": MAX_BODY,
          "inbuf_overflow": MAX_BODY, "max_request_header_size": MAX_HEAD}


def make_server(app, changes, host, port):
    """The waitress server of `app` on `host`:`port` (not yet serving: `run()` serves), its threads sized to
    the phones that wait on `changes` (web_companion/streams.py's Changes)."""
    server = waitress.create_server(app, host=host, port=port, threads=FIRST_THREADS, **SERVER)
    changes.when_waiting = sized_threads(server.task_dispatcher)
    return server


def sized_threads(dispatcher):
    """`when_waiting(phones)` for the phones' changes: sets the server's threads (waitress's task dispatcher) so
    SPARE_THREADS stay free beside the phones that wait: grown to MORE_THREADS beyond them when they are not, up
    to WAITERS + SPARE_THREADS; shrunk back to that once MORE_THREADS phones have left since, and to
    FIRST_THREADS once every phone has. A thread costs memory and time to start: a box that few phones follow
    does not pay for hundreds, nor keep them once a crowd has left; the margin keeps a phone that comes and goes
    from starting and stopping threads each time. Waitress stops a thread the next time it is idle."""
    lock = threading.Lock()
    threads = FIRST_THREADS

    def when_waiting(phones):
        nonlocal threads
        needed = phones + SPARE_THREADS
        with lock:
            grow = needed > threads
            shrink = threads > FIRST_THREADS and (not phones or threads >= needed + 2 * MORE_THREADS)
            if grow or shrink:
                threads = max(FIRST_THREADS, min(WAITERS + SPARE_THREADS, needed + MORE_THREADS))
                dispatcher.set_thread_count(threads)
    return when_waiting

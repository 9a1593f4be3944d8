"""Live updates: every phone waits on one condition that the table's and the display's subscriptions wake.

Each phone that waits (a stream, a long poll) holds one of the server's threads, so waiting has a fixed number
of places, fewer than the server's threads: whatever number of phones come, threads stay free for the pads' web
twin, the host and every plain request. A phone beyond them is told to poll. The server need not start with a
thread for every place: `when_waiting` hears how many phones wait each time one more does, and the composition
root grows the server's threads to keep some free beside them."""
import json
import logging
import threading
from typing import NamedTuple

log = logging.getLogger(__name__)

WAITERS = 320  # phones that may wait at once: the server runs this many threads and a few more


class Encoded(NamedTuple):
    json: bytes  # the view, for a phone that polls
    event: bytes  # the same, as a stream's `view` event


class Changes:
    def __init__(self, table, display, waiters=WAITERS):
        self.table, self.display = table, display
        self._changed = threading.Condition()
        self.places = waiters  # how many phones may wait at once
        self.waiters = 0  # phones holding a place
        self.when_waiting = None  # callable(phones waiting), told as one more starts to wait
        self._counting = threading.Lock()
        self._encoded = (None, {})  # (version, {viewer: event bytes}): each view encoded once per version
        table.subscribe(self._notify)
        display.subscribe(self._notify)

    def encoded(self, viewer, render):
        """`viewer`'s view at the table's version, as JSON and as a stream's `view` event: rendered (`render()`)
        and encoded once per version, whoever asks, polling or following live. Returns (version, Encoded)."""
        version, cache = self._encoded  # most phones find it here, without queueing for the table's lock
        if version == self.table.version and viewer in cache:
            return version, cache[viewer]
        with self.table.lock:
            version = self.table.version
            if self._encoded[0] != version:
                self._encoded = (version, {})
            cache = self._encoded[1]
            if viewer not in cache:
                shown = render()
                data = json.dumps(shown, ensure_ascii=False).encode()
                cache[viewer] = Encoded(data, b"id: %d\nevent: view\ndata: %s\n\n" % (shown["version"], data))
            return version, cache[viewer]

    def take_place(self):
        """A place for one more phone to wait in; False when every place is taken (the phone should poll)."""
        with self._counting:
            if self.waiters >= self.places:
                return False
            self.waiters += 1
            waiting = self.waiters
        if self.when_waiting is not None:
            try:
                self.when_waiting(waiting)
            except Exception:  # no more threads to be had (memory): this phone has one already, and waits
                log.exception("could not make room for more phones to follow live")
        return True

    def leave_place(self):
        with self._counting:
            self.waiters -= 1

    def _notify(self, _):
        with self._changed:
            self._changed.notify_all()

    def health(self):
        """What the phones say about the box itself (not the game): whether its display answers, and whether
        its storage takes writes ("ok", "full" or "failing": nothing is acknowledged until it does)."""
        return {"display": self.display.status, "storage": self.table.fault or "ok"}

    def wait(self, since, timeout, health=None):
        """Block until the table's version differs from `since`, or the box's health from `health` when given
        (or the timeout); True if one does."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self.table.version != since or (health is not None and self.health() != health), timeout)

"""Live updates. A long poll waits on one condition that the table's and the display's subscriptions wake. The
phones that follow live (`Follower`s) are written to by one thread of their own: the table hands each change over
as a moment (engine/moment.py), which the press only queues; that thread renders and encodes each viewer's view of
it once, for every phone following with that viewer (and every phone polling), and under waitress each phone's
event goes straight to its connection, so a change wakes no phone's thread and a press waits for no phone (with 50
phones, writing and rendering were most of a press's cost). A phone that fell behind is sent every version in
order.

Each phone that waits (a stream, a long poll) still holds one of the server's threads: waitress keeps a
response open only while its thread is in it. So waiting has a fixed number of places, fewer than the server's
threads: whatever number of phones come, threads stay free for the pads' web twin, the host and every plain
request. A phone beyond them is told to poll. The server need not keep a thread for every place: `when_waiting`
hears how many phones wait each time one starts or stops, and the server (device/server.py) grows its threads
to keep some free beside them, and gives them back as phones leave. A phone that closes its stream frees its
place and its thread at once: its own thread waits on its connection, which wakes it as the phone leaves."""
import collections
import json
import logging
import threading
from typing import NamedTuple

from engine.rules import PUBLIC
from engine.words import render

log = logging.getLogger(__name__)

WAITERS = 320  # phones that may wait at once: the server runs this many threads and a few more
KEEP_ALIVE_EVENT = b": keep-alive\n\n"
LAST_NEWS = 0.5  # seconds the box stopping waits for its last news to be written to the phones
KEPT = 8  # versions whose encoded views are kept: the latest, and those a phone behind is yet to be sent


class Encoded(NamedTuple):
    json: bytes  # the view, for a phone that polls
    event: bytes  # the same, as a stream's `view` event


class Changes:
    def __init__(self, box, waiters=WAITERS):
        self.box = box  # a BoxPort
        self._changed = threading.Condition()
        self._closed = False  # the box stops
        self.places = waiters  # how many phones may wait at once
        self.waiters = 0  # phones holding a place
        self.when_waiting = None  # callable(phones waiting), told as one starts or stops waiting
        self._counting = threading.Lock()
        self._encoded = {}  # version -> {viewer: Encoded}: each view encoded once per version, for the last KEPT
        self._caching = threading.Lock()  # over which versions `_encoded` keeps
        self._followers = set()
        # What the followers have yet to be sent, in the order it happened: ("view", version, view_of) for a change
        # of the table (its moment's views), ("refused", seat, reason) for a refused pad press, ("box", version,
        # view_of) for the box's health (the display's, without a view) or a new follower (with the table as it
        # stood, for those sent no view yet). Sent in that order, one event each, so what a phone reads depends on
        # what happened and never on how fast this thread ran.
        self._happened = collections.deque()
        self._writing = False  # the followers' thread is sending what it took
        self._writer = None  # the followers' thread, while anyone follows
        box.subscribe(self._table_changed)
        box.subscribe_display(self._notify)

    def encoded(self, viewer):
        """`viewer`'s view ("public" or a seat) at the table's version, as JSON and as a stream's `view` event.
        Returns (version, Encoded)."""
        version = self.box.version
        found = self._encoded.get(version, {}).get(viewer)  # most phones find it here, rendering nothing
        if found is not None:
            return version, found
        return self.box.snapshot(lambda version, view_of: (version, self._encode(version, viewer, view_of)))

    def _encode(self, version, viewer, view_of):
        """`viewer`'s view at `version`, from `view_of` (one moment's): rendered and encoded once per version,
        whoever asks, polling or following live. Two threads asking at once may both encode it, alike."""
        cache = self._encoded.get(version)
        if cache is None:
            with self._caching:
                cache = self._encoded.setdefault(version, {})
                while len(self._encoded) > KEPT:
                    del self._encoded[min(self._encoded)]
        found = cache.get(viewer)
        if found is None:
            shown = self.view(viewer, view_of)
            data = json.dumps(shown, ensure_ascii=False).encode()
            found = cache.setdefault(viewer, Encoded(data, b"id: %d\nevent: view\ndata: %s\n\n" % (version, data)))
        return found

    @staticmethod
    def view(viewer, view_of):
        """The public view (the keys of `arbitro replay --json`, plus the version), or a seat's own."""
        if viewer == PUBLIC:
            return view_of(PUBLIC)
        return {**view_of(viewer), "viewer": viewer}

    def take_place(self):
        """A place for one more phone to wait in; False when every place is taken (the phone should poll)."""
        with self._counting:
            if self.waiters >= self.places:
                return False
            self.waiters += 1
            self._tell_waiting()
        return True

    def leave_place(self):
        with self._counting:
            self.waiters -= 1
            self._tell_waiting()

    def _tell_waiting(self):
        """Under the count's lock: the server hears the counts in the order they were taken (and none once the
        box stops: the server is taking its threads down)."""
        if self.when_waiting is None or self._closed:
            return
        try:
            self.when_waiting(self.waiters)
        except Exception:  # no more threads to be had (memory): this phone has one already, and waits
            log.exception("could not make room for more phones to follow live")

    def _table_changed(self, moment):
        """Under the table's lock, as the change is made: its moment is queued, no more. The followers' thread
        renders its views, off the press."""
        self._happen(("view", moment.version, moment.view))

    def _notify(self, _):
        self._happen(("box", None, None))

    def _happen(self, what):
        with self._changed:
            if self._followers:  # nobody follows: a new follower is sent the view as it is then
                self._happened.append(what)
            self._changed.notify_all()  # the long polls wait on it too

    def refused(self, seat, message):
        """A press on `seat`'s pad was refused: its reason goes to the phones following as that seat, and to no
        one else (during a secret pick the OLED says nothing of it). Queued between the changes it came between:
        the followers' thread sends it."""
        self._happen(("refused", seat, message))

    def follow(self, follower):
        """Send `follower` every change from now on, starting with the box's health and the view as they are."""
        with self._changed:
            if self._closed:
                follower.end()
                return
            self._followers.add(follower)
            # The table as it stands, read here: every change queued before is of an earlier version (the table
            # moves on before it tells), so the view it is sent is never older than one the others were sent.
            self._happened.append(("box", *self.box.snapshot(lambda version, view_of: (version, view_of))))
            self._changed.notify_all()
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_changes, name="phones", daemon=True)
                self._writer.start()

    def unfollow(self, follower):
        with self._changed:
            self._followers.discard(follower)
            self._changed.notify_all()

    def _write_changes(self):
        box_event = (None, None)  # (health, as a `box` event)
        while True:
            with self._changed:
                self._writing = False
                self._changed.notify_all()
                self._changed.wait_for(lambda: self._happened or not self._followers)
                if not self._followers:  # nobody follows: no thread either, until someone does
                    self._writer = None
                    self._happened.clear()
                    return
                self._writing = True
                followers = list(self._followers)
                happened = list(self._happened)
                self._happened.clear()
            for what in happened:
                if what[0] == "refused":
                    for follower in followers:
                        self._tell_refusal(follower, *what[1:])
                    continue
                health = self.health()
                if box_event[0] != health:
                    box_event = (health, b"event: box\ndata: %s\n\n" % json.dumps(health).encode())
                for follower in followers:
                    self._update(follower, *box_event, *what)

    def written(self, timeout):
        """Block until every change and refusal so far is written to the phones that follow live (or `timeout`
        seconds pass); True if it is. The box stopping lets its last news reach the phones first."""
        with self._changed:
            return self._changed.wait_for(lambda: not (self._happened or self._writing) or self._writer is None,
                                          timeout)

    def _tell_refusal(self, follower, seat, message):
        try:
            if follower.viewer() != seat:
                return
            said = {"error": render(follower.language, message, yours=True), "code": message.key}
            follower.send(b"event: refused\ndata: %s\n\n" % json.dumps(said, ensure_ascii=False).encode())
        except Exception as e:  # a phone gone: its next view's write lets it go
            log.debug("a refusal could not be told to a phone (%s: %s)", type(e).__name__, e)

    def _update(self, follower, health, box_event, kind, version, view_of):
        """Send `follower` the box's health where it changed since it was last sent it, and the view of
        `version` (from `view_of`) where it is the next it is to be sent: a change's, if it was sent an earlier
        one; the table as it stood when a phone came (`kind` "box"), if it was sent none. A phone that is gone or
        reads no more is let go: its own thread then ends its response."""
        try:
            news = [] if follower.health == health else [box_event]
            if view_of is not None and (follower.version is None or kind == "view" and follower.version < version):
                news.append(self._encode(version, follower.viewer(), view_of).event)
            else:
                version = follower.version
        except Exception:
            log.exception("a phone's view could not be made")
            news = None
        try:
            for event in news or ():
                follower.send(event)
        except Exception as e:  # the connection's: its departure is said once, as its response ends
            log.debug("a phone following live could not be written to (%s: %s)", type(e).__name__, e)
            news = None
        if news is None:
            self.unfollow(follower)
            follower.end()
        else:
            follower.health, follower.version = health, version

    def health(self):
        """What the phones say about the box itself (not the game): whether its display answers, and whether
        its storage takes writes ("ok", "full" or "failing": nothing is acknowledged until it does) or lost
        some ("lost": a phone had seen a later version; until the next game)."""
        return {"display": self.box.display_status, "storage": self.box.storage}

    def wait(self, since, timeout):
        """Block until the table's version differs from `since` (or the timeout, or the box stops); True if it
        does."""
        with self._changed:
            return self._changed.wait_for(lambda: self._closed or self.box.version != since, timeout)

    def close(self):
        """The box stops: every phone that waits (following live, or polling) is let go at once, so that the
        server's threads stop with it (their last news written first, for a moment at most); the phones come back
        to the next box on their own."""
        self.written(LAST_NEWS)
        with self._counting, self._changed:
            self._closed = True
            followers = list(self._followers)
            self._changed.notify_all()
        for follower in followers:
            follower.end()


class Follower:
    """A phone following live. `viewer()` says whose view it may see now ("public" or a seat: a phone's token
    may lose its seat). `send(bytes)` writes an event to its connection from the followers' thread (raising once
    the phone is gone): `connection`, waitress's (web_companion/waitress_writer.py); without one (a server other
    than waitress, the tests' client) events queue for the phone's own thread to yield from `events`."""

    def __init__(self, viewer, connection=None, language="en"):
        self.viewer, self.language = viewer, language  # the phone page's language
        self._connection = Queued() if connection is None else connection
        self.version = self.health = None  # what it was sent last
        self._ended = False

    def send(self, data):
        self._connection(data)

    def end(self):
        self._ended = True
        self._connection.wake()

    def events(self, keep_alive):
        """What the phone's own thread writes: the queued events, a comment every `keep_alive` seconds without
        one, until the followers' thread ends it or the phone leaves (seen at once under waitress: the response
        ends, and its place and thread are free)."""
        connection = self._connection
        while True:
            woken = connection.wait(lambda: self._ended, keep_alive)
            if self._ended or connection.gone:
                return
            yield from connection.taken() if woken else [KEEP_ALIVE_EVENT]


class Queued:
    """A follower's connection where the server gives none to write to: its events queue until the phone's own
    thread takes them."""
    gone = False

    def __init__(self):
        self._events = collections.deque()
        self._changed = threading.Condition()

    def __call__(self, data):
        with self._changed:
            self._events.append(data)
            self._changed.notify_all()

    def wait(self, until, timeout):
        """Block until `until()` holds or an event is queued (True), or `timeout` seconds pass (False)."""
        with self._changed:
            return bool(self._changed.wait_for(lambda: until() or self._events, timeout))

    def wake(self):
        with self._changed:
            self._changed.notify_all()

    def taken(self):
        with self._changed:
            taken, self._events = list(self._events), collections.deque()
        return taken

"""Live updates. A long poll waits on one condition that the table's and the display's subscriptions wake. The
phones that follow live (`Follower`s) are written to by one thread of their own, once per change: each viewer's
view is rendered and encoded once, and under waitress each phone's event goes straight to its connection, so a
change wakes no phone's thread (with 50 phones, that was most of a press's cost).

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
        self._encoded = (None, {})  # (version, {viewer: event bytes}): each view encoded once per version
        self._followers = set()
        # What the followers have yet to be sent, in the order it happened: ("view", version, {viewer: Encoded})
        # for a change of the table (the views of that version), ("refused", seat, reason) for a refused pad
        # press, ("box",) for the box's health or a new follower. Sent in that order, one event each, so what a
        # phone reads depends on what happened and never on how fast this thread ran.
        self._happened = collections.deque()
        self._writing = False  # the followers' thread is sending what it took
        self._writer = None  # the followers' thread, while anyone follows
        box.subscribe(self._table_changed)
        box.subscribe_display(self._notify)

    def encoded(self, viewer):
        """`viewer`'s view ("public" or a seat) at the table's version, as JSON and as a stream's `view` event:
        rendered and encoded once per version, whoever asks, polling or following live. Returns (version,
        Encoded)."""
        version, cache = self._encoded  # most phones find it here, without queueing for the table
        if version == self.box.version and viewer in cache:
            return version, cache[viewer]
        return self.box.snapshot(lambda version, view_of: self._encode(version, viewer, view_of))

    def _encode(self, version, viewer, view_of):
        """In one read of the table (no change meanwhile): `viewer`'s view at `version`, cached."""
        if self._encoded[0] != version:
            self._encoded = (version, {})
        cache = self._encoded[1]
        if viewer not in cache:
            shown = self.view(viewer, view_of)
            data = json.dumps(shown, ensure_ascii=False).encode()
            cache[viewer] = Encoded(data, b"id: %d\nevent: view\ndata: %s\n\n" % (shown["version"], data))
        return version, cache[viewer]

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
        version = moment.version
        """Under the table's lock, as the change is made: the views the followers want are rendered now, so
        their thread writes them without waiting for the rest of the press (the OLED, the sounds), each phone
        the view of this very version."""
        with self._changed:
            followers = list(self._followers)
        views = {viewer: self.encoded(viewer)[1] for viewer in {follower.viewer() for follower in followers}}
        self._happen(("view", version, views))

    def _notify(self, _):
        self._happen(("box",))

    def _happen(self, what):
        with self._changed:
            if self._followers:  # nobody follows: a new follower is sent the view as it is then
                self._happened.append(what)
                self._changed.notify_all()

    def refused(self, seat, message):
        """A press on `seat`'s pad was refused: its reason goes to the phones following as that seat, and to no
        one else (during a secret pick the OLED says nothing of it). Called under the table's lock: the
        followers' thread sends it."""
        self._happen(("refused", seat, message))

    def follow(self, follower):
        """Send `follower` every change from now on, starting with the box's health and the view as they are."""
        with self._changed:
            if self._closed:
                follower.end()
                return
            self._followers.add(follower)
            self._happened.append(("box",))
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
                    self._update(follower, *box_event, *what[1:])

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

    def _update(self, follower, health, box_event, version=None, views=None):
        """Send `follower` the box's health where it changed since it was last sent it, and the view of
        `version` (from `views`) if it has not been sent it — without a version, the view as it is now, if it
        has not been sent that. A phone that is gone or reads no more is let go: its own thread then ends its
        response."""
        try:
            news = [] if follower.health == health else [box_event]
            viewer = follower.viewer()
            if version is not None and views and viewer in views:
                encoded = views[viewer]
            else:
                version, encoded = self.encoded(viewer) if follower.version != self.box.version else (None, None)
            if version is not None and (follower.version is None or follower.version < version):
                news.append(encoded.event)
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

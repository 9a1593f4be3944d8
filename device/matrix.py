"""The key matrix: a row per pad, a column per button, a diode per switch. One row at a time is driven low and
the columns, pulled up, are read: a closed switch pulls its column low. Idle rows are high-impedance inputs,
so two rows never fight through two closed keys even on a matrix built without diodes.

The diodes (anode to the column, cathode to the row) make every key independent. Without them, three closed
keys at three corners of a rectangle close the fourth as well: the row being read reaches a second column
back through the other two keys (a ghost key). With them any number of keys may be held (n-key rollover).

Debounce counts scans: a key changes state once it has read the same for `stable_scans` scans in a row, so
chatter shorter than that is ignored. The scan is the clock: while a key is changing the loop runs one every
`period` seconds, and whoever drives the matrix by hand (a test, the doctor before it starts) calls `scan()`.

Between changes the matrix is not scanned: like a keyboard controller, the loop drives every row low and sleeps
until a column's edge (both edges: a key closing pulls its column low, a held key let go lets it up) says
something moved, then scans every `period` until every key has settled again. An idle box reads no pin and
takes no CPU; a press is seen as soon as it closes. A held key (the host's Menu, held 5 s to power off) costs
little more, but one change makes no edge: a key closing on a column a held key already keeps low, or one of
two keys held on a column let go. So while a key is held the loop also looks at its column every `held_period`
(0.1 s), the held key's row let go: the column must read high, else another key is closed on it and a scan
follows (two keys held on one column are scanned every `held_period`). Such a key is seen up to that much later
than any other: the price of not scanning every 5 ms for as long as a key is held (a few percent of a laptop's
core, a fifth or more of a Pi Zero's).

The matrix is a gpiozero composite device: it owns its rows (MatrixRow: driven low, or let go) and its columns
(MatrixColumn: read, or watched for an edge), each a device that alone changes its own pin."""
import itertools
import logging
import threading
import time

from gpiozero import CompositeDevice, GPIODevice, InputDevice

log = logging.getLogger(__name__)


class MatrixRow(GPIODevice):
    """A row of the matrix: high-impedance (an input with no pull) until it is driven low to read its keys."""

    def __init__(self, pin, *, pin_factory=None):
        super().__init__(pin, pin_factory=pin_factory)
        self.pin.function, self.pin.pull = "input", "floating"

    def drive(self):
        self.pin.function = "output"
        self.pin.state = 0

    def release(self):
        self.pin.function = "input"


class MatrixColumn(InputDevice):
    """A column of the matrix, pulled up: it reads low while a closed key joins it to a driven row."""

    def __init__(self, pin, *, pin_factory=None):
        super().__init__(pin, pull_up=True, pin_factory=pin_factory)
        self.pin.edges = "both"  # a key closing, or a held key let go, while every row is driven

    @property
    def is_low(self):
        return not self.pin.state

    def watch(self, callback):
        """callback(ticks, state) on each of the column's edges; None: no longer."""
        self.pin.when_changed = callback


class MatrixScanner(CompositeDevice):
    """The key matrix as one gpiozero device, shaped like a ButtonBoard: `value` is the set of keys held,
    `when_pressed(key)` and `when_released(key)` are told each debounced change, a key being (row, column)."""
    def __init__(self, rows, columns, *, stable_scans=4, period=0.005, held_period=0.1, pin_factory=None):
        self.when_pressed = None  # called with the key, (row, column) counted from 0, once debounced as closed
        self.when_released = None  # the same, once debounced as open
        self.stable_scans = stable_scans
        self.period = period
        self.held_period = held_period
        self._held = set()  # (row, column) of each key held, as debounced
        self._changing = {}  # key -> scans in a row it has read otherwise than `pressed` says
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._woken = threading.Event()  # a column's edge, or stop()
        self._waiting = False  # every row driven while the thread waits for an edge
        self._thread = None
        made = []
        try:
            for p in rows:
                made.append(MatrixRow(p, pin_factory=pin_factory))
            for p in columns:
                made.append(MatrixColumn(p, pin_factory=pin_factory))
        except Exception:
            for device in made:
                device.close()
            raise
        self._rows, self._columns = made[:len(rows)], made[len(rows):]
        super().__init__(*made, pin_factory=pin_factory)

    def read(self):
        """One pass over the matrix, undebounced: the keys that read closed. With no key held nor changing, one
        look with every row driven at once finds the columns of every closed key (a column low for one row reads
        low for all of them); then each row is driven alone and only those columns are read: with nothing
        closed, the 8 columns once, not 13 times. A key held or changing is on a row the last scans saw: those
        rows are read alone, and every other row is looked at together, and read alone only if that look finds
        a column low (driving more rows only ever pulls more columns low, so a row the look clears has nothing
        closed). With one key held, a row alone and twelve together: 8 + 8 reads, 2 drives, not 104 reads (nor
        8 + 13 reads and 14 drives)."""
        columns = self._columns
        if self._waiting:  # a scan from another thread while the matrix waits: the wait's rows let go meanwhile
            self._release(self._rows)
        try:
            seen = {r for r, c in (*self._held, *self._changing)}
            rows = list(enumerate(self._rows))
            known, others = [rw for rw in rows if rw[0] in seen], [rw for rw in rows if rw[0] not in seen]
            found = self._alone(known, range(len(columns)))
            low = self._low_columns([row for _, row in others], columns) if others else []
            return found | self._alone(others, low)
        finally:
            if self._waiting:
                self._drive(self._rows)

    def _alone(self, rows, low):
        """The closed keys of `rows` ((index, row) pairs), each row driven alone, on the columns `low`."""
        if not low:
            return set()
        watched = [self._columns[c] for c in low]
        return {(r, low[i]) for r, row in rows for i in self._low_columns([row], watched)}

    def _low_columns(self, rows, columns):
        """The columns that read low while `rows` are driven low; then the rows are high-impedance again."""
        self._drive(rows)
        low = [c for c, column in enumerate(columns) if column.is_low]
        self._release(rows)
        return low

    @staticmethod
    def _drive(rows):
        for row in rows:
            row.drive()

    @staticmethod
    def _release(rows):
        for row in rows:
            row.release()

    def _wait_for_change(self):
        """Sleep, every row driven low, until a column's level is not what the keys held make it (low on their
        columns, high elsewhere): looked at as the wait starts and at each column's edge. While a key is held,
        each held column is also looked at every `held_period`, its held key's row let go: it must read high,
        or another key has closed on it. Returns when the matrix is to be scanned."""
        with self._lock:
            held = set(self._held)
            self._drive(self._rows)
            self._waiting = True
        held_columns = {c for _, c in held}
        try:
            while not self._stop.is_set():
                self._woken.clear()  # before the look: an edge after it wakes the wait
                with self._lock:
                    if {c for c, column in enumerate(self._columns) if column.is_low} != held_columns:
                        return  # a key closed or let go
                if self._woken.wait(self.held_period if held else None):
                    continue  # an edge: the levels again (the look's own edges come late on a Pi: they end here)
                with self._lock:
                    if not self._alone_on_their_columns(held):
                        return
        finally:
            with self._lock:
                self._release(self._rows)
                self._waiting = False

    def _alone_on_their_columns(self, held):
        """Whether each held key is the only closed key on its column, every row driven: its row let go, the
        column reads high. Two keys held on one column cannot be told apart so: False, for a scan to tell."""
        rows_of = {}
        for r, c in held:
            rows_of.setdefault(c, []).append(r)
        for c, rows in rows_of.items():
            if len(rows) > 1:
                return False
            row = self._rows[rows[0]]
            row.release()
            alone = not self._columns[c].is_low
            row.drive()
            if not alone:
                return False
        return True

    def _edge(self, ticks, state):
        self._woken.set()

    def idle_columns(self):
        """The columns that read low with no row driven: shorted to ground (for `arbitro doctor`)."""
        return [c for c, column in enumerate(self._columns) if column.is_low]

    def scan(self):
        """Read the matrix once and report the keys that changed, each once its new state has been read
        `stable_scans` times in a row. Reports go out under the scan's lock, so a press is handled before
        the next scan."""
        with self._lock:
            closed = self.read()
            changed = []
            for key in sorted((closed ^ self._held) | self._changing.keys()):
                if (key in closed) == (key in self._held):
                    del self._changing[key]  # it bounced back: chatter
                    continue
                count = self._changing.get(key, 0) + 1
                if count < self.stable_scans:
                    self._changing[key] = count
                    continue
                self._changing.pop(key, None)
                self._held.symmetric_difference_update({key})
                changed.append((key, key in self._held))
            for key, pressed in changed:
                report = self.when_pressed if pressed else self.when_released
                try:
                    if report:
                        report(key)
                except Exception:  # the state is settled already: one failing report must not hide the next
                    log.exception("a key change could not be handled")
            return changed

    @property
    def value(self):
        """The keys held, as debounced: a frozenset of (row, column)."""
        return frozenset(self._held)

    @property
    def is_active(self):
        """Whether any key is held."""
        return bool(self._held)

    def ghosts(self):
        """Held keys that could be ghosts: the corners of every rectangle of held keys. With diodes all four
        keys are really held; without, any one of them may be the ghost of the other three."""
        held = self._held
        found = set()
        for (r1, c1), (r2, c2) in itertools.combinations(sorted(held), 2):
            if r1 < r2 and c1 != c2 and (r1, c2) in held and (r2, c1) in held:
                found |= {(r1, c1), (r2, c2), (r1, c2), (r2, c1)}
        return found

    def start(self):
        """Read the matrix on a thread of its own: the columns' edges are listened to from now until stop()."""
        for column in self._columns:
            column.watch(self._edge)
        self._thread = threading.Thread(target=self._run, name="matrix", daemon=True)
        self._thread.start()

    def _run(self):
        failed = False
        while not self._stop.is_set():
            try:
                if not self._changing:
                    self._wait_for_change()
                if self._stop.is_set():
                    break
                self.scan()
                failed = False
            except Exception:  # a pin that fails once must not end the scan for good: logged, then tried again
                if not failed:
                    log.exception("a matrix scan failed; scanning on")
                failed = True
            if self._changing or failed:
                time.sleep(self.period)  # a plain sleep: waking from an Event's timed wait costs more CPU

    def stop(self):
        self._stop.set()
        self._woken.set()
        thread, self._thread = self._thread, None
        if thread:
            thread.join(timeout=2)
            for column in self._columns:
                column.watch(None)

    def close(self):
        self.stop()
        with self._lock:
            super().close()  # every row and column

"""The key matrix: a row per pad, a column per button, a diode per switch. One row at a time is driven low and
the columns, pulled up, are read: a closed switch pulls its column low. Idle rows are high-impedance inputs,
so two rows never fight through two closed keys even on a matrix built without diodes.

The diodes (anode to the column, cathode to the row) make every key independent. Without them, three closed
keys at three corners of a rectangle close the fourth as well: the row being read reaches a second column
back through the other two keys (a ghost key). With them any number of keys may be held (n-key rollover).

Debounce counts scans: a key changes state once it has read the same for `stable_scans` scans in a row, so
chatter shorter than that is ignored. The scan is the clock: while a key is down or changing the loop runs one
every `period` seconds, and a test (or the virtual box) may call `scan()` itself.

An idle matrix is not scanned: like a keyboard controller, the loop drives every row low and sleeps until a
column's falling edge (gpiozero's edge callback) says a key closed, then scans until every key is up and
settled again. An idle box reads no pin and takes no CPU; a press is seen as soon as it closes.

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
        self.pin.edges = "falling"  # a key closing, while every row is driven

    @property
    def is_low(self):
        return not self.pin.state

    def watch(self, callback):
        """callback(ticks, state) on the column's falling edge; None: no longer."""
        self.pin.when_changed = callback


class MatrixScanner(CompositeDevice):
    """The key matrix as one gpiozero device, shaped like a ButtonBoard: `value` is the set of keys held,
    `when_pressed(key)` and `when_released(key)` are told each debounced change, a key being (row, column)."""
    def __init__(self, rows, columns, *, stable_scans=4, period=0.005, pin_factory=None):
        self.when_pressed = None  # called with the key, (row, column) counted from 0, once debounced as closed
        self.when_released = None  # the same, once debounced as open
        self.stable_scans = stable_scans
        self.period = period
        self._held = set()  # (row, column) of each key held, as debounced
        self._changing = {}  # key -> scans in a row it has read otherwise than `pressed` says
        self._lock = threading.Lock()
        self._scanned = threading.Condition(self._lock)  # told after every scan's reports
        self._stop = threading.Event()
        self._woken = threading.Event()  # an edge, or stop()
        self._armed = False
        self._thread = None
        self.scans = 0
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
        if self._armed:  # a scan from another thread while the matrix waits: the wait's rows let go meanwhile
            self._release(self._rows)
        try:
            seen = {r for r, c in (*self._held, *self._changing)}
            rows = list(enumerate(self._rows))
            known, others = [rw for rw in rows if rw[0] in seen], [rw for rw in rows if rw[0] not in seen]
            found = self._alone(known, range(len(columns)))
            low = self._low_columns([row for _, row in others], columns) if others else []
            return found | self._alone(others, low)
        finally:
            if self._armed:
                self._drive(self._rows)

    def _alone(self, rows, low):
        """The closed keys of `rows` ((index, row) pairs), each row driven alone, on the columns `low`."""
        if not low:
            return set()
        watched = [self._columns[c] for c in low]
        return {(r, low[i]) for r, row in rows for i in self._low_columns([row], watched)}

    @property
    def is_idle(self):
        """No key held, none changing: nothing to scan for until one closes."""
        return not self._held and not self._changing

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

    def arm(self):
        """Wait for a key: every row driven low, a callback on each column's falling edge. True if a column
        reads low already (a key closed before the callbacks were set)."""
        with self._lock:
            self._woken.clear()
            for column in self._columns:
                column.watch(self._edge)
            self._drive(self._rows)
            self._armed = True
            return any(column.is_low for column in self._columns)

    @property
    def is_armed(self):
        """Waiting for a key: every row driven, the columns' edges watched."""
        return self._armed

    def _edge(self, ticks, state):
        self._woken.set()

    def disarm(self):
        """Back to scanning: no edge callbacks, every row high-impedance."""
        with self._lock:
            for column in self._columns:
                column.watch(None)
            self._release(self._rows)
            self._armed = False

    def wait_for_key(self, timeout=None):
        """Sleep until a key closes (or stop(), or the timeout); True if an edge came."""
        try:
            return self.arm() or self._woken.wait(timeout)
        finally:
            self.disarm()

    def idle_columns(self):
        """The columns that read low with no row driven: shorted to ground (for `arbitro doctor`)."""
        return [c for c, column in enumerate(self._columns) if column.is_low]

    def scan(self):
        """Read the matrix once and report the keys that changed, each once its new state has been read
        `stable_scans` times in a row. Reports go out under the scan's lock, so a press is handled before
        the next scan."""
        with self._lock:
            closed = self.read()
            self.scans += 1
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
            self._scanned.notify_all()
            return changed

    @property
    def value(self):
        """The keys held, as debounced: a frozenset of (row, column)."""
        return frozenset(self._held)

    @property
    def is_active(self):
        """Whether any key is held."""
        return bool(self._held)

    @property
    def is_scanning(self):
        """Whether the scan runs on its own thread (start()ed and not stopped)."""
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def wait_for_state(self, key, pressed, timeout=1.0):
        """Wait until `key` (row, column) is debounced as `pressed` (held or not) and reported, as whoever closes
        a key and must know it was seen does (`arbitro doctor`, mock mode's finger): scanned here when no thread
        scans, else by the thread (which a closing key wakes). True once it is."""
        if not self.is_scanning:
            for _ in range(self.stable_scans):
                self.scan()
            return (key in self._held) == pressed
        with self._scanned:
            return self._scanned.wait_for(lambda: (key in self._held) == pressed, timeout)

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
        self._thread = threading.Thread(target=self._run, name="matrix", daemon=True)
        self._thread.start()

    def _run(self):
        failed = False
        while not self._stop.is_set():  # a plain sleep: waking from an Event's timed wait costs more CPU
            try:
                if self.is_idle:
                    self.wait_for_key()
                self.scan()
                failed = False
            except Exception:  # a pin that fails once must not end the scan for good: logged, then tried again
                if not failed:
                    log.exception("a matrix scan failed; scanning on")
                failed = True
            time.sleep(self.period)

    def stop(self):
        self._stop.set()
        self._woken.set()
        if self._thread:
            self._thread.join(timeout=2)

    def close(self):
        self.stop()
        with self._lock:
            super().close()  # every row and column

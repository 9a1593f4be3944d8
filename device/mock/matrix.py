"""A key matrix made of gpiozero mock pins, for mock mode and tests: keys are closed and opened by hand, and
each column pin reads low while a closed path leads it to a row driven low. With diodes a path is one key
(current flows from a column to a row only); without, a path may run through any closed keys, which is how
a real matrix shows ghost keys. A column whose level changes fires its edge callback, as a real pin's would;
`reads` counts the columns' reads (what a waiting scanner must not do), `drives` the rows driven low, and
`wait_until` lets whoever closed a key wait for what the scanner makes of it, looking again at each change of a
row (the scanner drives rows to read them, and to wait for the next edge)."""
import threading
import time

from gpiozero.pins.mock import MockFactory


class SimulatedMatrix:
    def __init__(self, factory, rows, columns, *, diodes=True):
        if not isinstance(factory, MockFactory):
            raise TypeError("a simulated matrix needs gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock)")
        self.diodes = diodes
        self.closed = frozenset()  # (row, column) of each key held down: replaced whole, so a read needs no lock
        self._rows_of = {}  # column -> the rows its closed keys join it to (with diodes, all a read needs)
        self.reads = 0
        self.drives = 0
        self.watched = set()  # the columns with an edge callback
        self._watchers = ()  # (seen, event) of each wait_until: replaced whole, so a row's change needs no lock
        # The virtual box closes keys from web threads: one lock, or two at once may lose one's key. A scan
        # reads what they replace whole, without it.
        self._lock = threading.Lock()
        # Each pin is one whose level this matrix decides. They must be made before the scanner asks for them,
        # as the factory keeps one pin object per number.
        row_class = type("MatrixRowPin", (_RowPin, factory.pin_class), {})
        self.rows = [factory.pin(p, pin_class=row_class) for p in rows]
        column_class = type("MatrixColumnPin", (_ColumnPin, factory.pin_class), {})
        self.columns = [factory.pin(p, pin_class=column_class) for p in columns]
        for pins in (self.rows, self.columns):
            for index, pin in enumerate(pins):
                pin.matrix, pin.index = self, index

    def close(self, row, column):
        self._set_closed(lambda closed: closed | {(row, column)})

    def open(self, row, column):
        self._set_closed(lambda closed: closed - {(row, column)})

    def _set_closed(self, change):
        with self._lock:
            closed = change(self.closed)
            rows_of = {}
            for r, c in sorted(closed):
                rows_of.setdefault(c, []).append(r)
            self.closed, self._rows_of = closed, rows_of
        self.edges()

    def wait_until(self, seen, timeout):
        """Wait until `seen()` holds as a row changes, looked at on the thread that changes it: a scanner
        touches its rows again only once its last scan's reports are out, so what `seen` finds has been
        reported. True once it does."""
        watcher = (seen, threading.Event())
        with self._lock:
            self._watchers += (watcher,)
        try:
            return watcher[1].wait(timeout)
        finally:
            with self._lock:
                self._watchers = tuple(w for w in self._watchers if w is not watcher)

    def row_changed(self, row):
        self.edges(row)
        for seen, came in self._watchers:
            if seen():
                came.set()

    def _driven_low(self, row):
        pin = self.rows[row]  # read as the mock pin keeps it: a scan asks this for every row and column
        return pin.function == "output" and not pin.state

    def pulls_low(self, column):
        """Whether a closed path leads the column to a row driven low."""
        if self.diodes:
            return any(self._driven_low(r) for r in self._rows_of.get(column, ()))
        closed = self.closed
        seen_rows, seen_columns, frontier = set(), {column}, [column]
        while frontier:  # every row and column the closed keys join to this column
            c = frontier.pop()
            for row, other in closed:
                if other == c and row not in seen_rows:
                    seen_rows.add(row)
                    for r2, c2 in closed:
                        if r2 == row and c2 not in seen_columns:
                            seen_columns.add(c2)
                            frontier.append(c2)
        return any(self._driven_low(r) for r in seen_rows)

    def edges(self, row=None):
        """Fire the edge callback of each column whose level changed since it was last looked at here. Only
        columns that have a callback are looked at, and when a row changed, with diodes, only the columns of
        its closed keys: a scan, which changes every row, costs nothing more while no key is closed."""
        if not self.watched:
            return
        columns = range(len(self.columns))
        if row is not None and self.diodes:
            columns = sorted({c for r, c in self.closed if r == row})
        for column in columns:
            pin = self.columns[column]
            if pin.when_changed is not None:
                pin.edge()


class _RowPin:
    matrix = None
    index = None

    def _set_function(self, value):
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.row_changed(self.index)

    def _set_state(self, value):
        super()._set_state(value)
        if self.matrix is not None:
            self.matrix.drives += not value
            self.matrix.row_changed(self.index)


class _ColumnPin:
    matrix = None
    index = None
    _level = True  # the level last seen by `edge`

    def _level_now(self):
        if self.matrix is not None and self.function == "input" and self.matrix.pulls_low(self.index):
            return False
        return super()._get_state()

    def _get_state(self):
        if self.matrix is not None:
            self.matrix.reads += 1
        return self._level_now()

    def _set_when_changed(self, value):
        super()._set_when_changed(value)
        if self.matrix is not None:
            (self.matrix.watched.discard if value is None else self.matrix.watched.add)(self.index)
        self._level = self._level_now()  # edges count from when a callback is set

    def edge(self):
        level = self._level_now()
        handler = self.when_changed
        if level != self._level:
            self._level = level
            if handler is not None and self.edges in ("both", "rising" if level else "falling"):
                handler(time.monotonic(), level)

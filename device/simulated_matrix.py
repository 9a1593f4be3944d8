"""A key matrix made of gpiozero mock pins, for mock mode and tests: keys are closed and opened by hand, and
each column pin reads low while a closed path leads it to a row driven low. With diodes a path is one key
(current flows from a column to a row only); without, a path may run through any closed keys, which is how
a real matrix shows ghost keys."""
import threading

from gpiozero.pins.mock import MockFactory


class SimulatedMatrix:
    def __init__(self, factory, rows, columns, *, diodes=True):
        if not isinstance(factory, MockFactory):
            raise TypeError("a simulated matrix needs gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock)")
        self.diodes = diodes
        self.closed = set()  # (row, column) of each key held down
        # The virtual box closes keys from web threads while the scan reads them: one lock, or a scan may see
        # the set change under it.
        self._lock = threading.Lock()
        # Rows are plain mock pins; each column is one whose level this matrix decides. They must be made
        # before the scanner asks for them, as the factory keeps one pin object per number.
        self.rows = [factory.pin(p) for p in rows]
        column_class = type("MatrixColumnPin", (_ColumnPin, factory.pin_class), {})
        self.columns = [factory.pin(p, pin_class=column_class) for p in columns]
        for c, pin in enumerate(self.columns):
            pin.matrix, pin.index = self, c

    def close(self, row, column):
        with self._lock:
            self.closed.add((row, column))

    def open(self, row, column):
        with self._lock:
            self.closed.discard((row, column))

    def _driven_low(self, row):
        pin = self.rows[row]
        return pin.function == "output" and not pin.state

    def pulls_low(self, column):
        """Whether a closed path leads the column to a row driven low."""
        with self._lock:
            closed = frozenset(self.closed)
        if self.diodes:
            return any(self._driven_low(r) for r, c in closed if c == column)
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


class _ColumnPin:
    matrix = None
    index = None

    def _get_state(self):
        if self.matrix is not None and self._function == "input" and self.matrix.pulls_low(self.index):
            return False
        return super()._get_state()

"""The key-matrix scanner on gpiozero's mock pins, against a simulated matrix with and without diodes."""
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gpiozero import CompositeDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from device.config import load_pinmap
from device.matrix import MatrixColumn, MatrixRow, MatrixScanner
from device.mock import Finger
from device.mock.matrix import SimulatedMatrix
from device.mock.pins import KEPT_STATES, MOCK_REVISIONS, BoxMockPin, mock_pins
from device.pads import MatrixPads
from tests.conftest import DIRECT_PINMAP, simulated_pads

ROWS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18]
COLUMNS = [19, 20, 21, 22, 23, 24, 25, 26]


class Reported(list):
    """The changes a scanner reported, (row, column, pressed), in order; `wait_for(n)` until n of them came (from
    the scanner's thread)."""

    def __init__(self):
        super().__init__()
        self._came = threading.Condition()

    def __call__(self, key, pressed):
        with self._came:
            self.append((*key, pressed))
            self._came.notify_all()

    def wait_for(self, count, timeout=5):
        with self._came:
            assert self._came.wait_for(lambda: len(self) >= count, timeout), f"only {self} reported"


@pytest.fixture
def matrix(pin_factory):
    """make(diodes=True) -> (simulated matrix, scanner, the changes it reported)."""
    made = []

    def make(diodes=True, stable_scans=4):
        simulated = SimulatedMatrix(pin_factory, ROWS, COLUMNS, diodes=diodes)
        changes = Reported()
        scanner = MatrixScanner(ROWS, COLUMNS, stable_scans=stable_scans, pin_factory=pin_factory)
        scanner.when_pressed = lambda key: changes(key, True)
        scanner.when_released = lambda key: changes(key, False)
        made.append(scanner)
        return simulated, scanner, changes

    yield make
    for scanner in made:
        scanner.close()


def scans(scanner, count):
    for _ in range(count):
        scanner.scan()


def test_a_single_press_is_reported_once_stable_and_so_is_its_release(matrix):
    simulated, scanner, changes = matrix()
    simulated.close(2, 5)
    scans(scanner, 3)
    assert changes == [] and scanner.value == set()  # three scans are not yet the debounce's four
    scanner.scan()
    assert changes == [(2, 5, True)] and scanner.value == {(2, 5)}
    simulated.open(2, 5)
    scans(scanner, 4)
    assert changes == [(2, 5, True), (2, 5, False)] and scanner.value == set()


def test_idle_rows_are_high_impedance_and_a_pass_drives_one_row_at_a_time(matrix, pin_factory):
    simulated, scanner, _ = matrix()
    driven, pulls_low = [], simulated.pulls_low

    def spy(column):  # which rows are driven at each column read
        driven.append([r for r, pin in enumerate(simulated.rows) if pin.function == "output"])
        return pulls_low(column)

    simulated.pulls_low = spy
    everyone = list(range(len(ROWS)))
    scanner.scan()  # idle: one look with every row driven finds nothing closed
    assert driven == [everyone] * len(COLUMNS)
    simulated.close(5, 5)
    driven.clear()
    scanner.scan()  # something is closed: then a pass, row by row, reading only the column found low
    assert driven == [everyone] * len(COLUMNS) + [[r] for r in everyone]
    assert all(pin.function == "input" and pin.pull == "floating" for pin in simulated.rows)
    assert all(pin.pull == "up" for pin in simulated.columns)


def test_every_seat_pressing_at_once_is_seen_in_the_same_scan(matrix):
    simulated, scanner, changes = matrix()
    for row in range(12):  # twelve seats lock in together, all on button 3
        simulated.close(row, 2)
    scans(scanner, 4)
    assert changes == [(row, 2, True) for row in range(12)]


def test_n_key_rollover_with_diodes_three_corners_are_three_keys_and_four_are_four(matrix):
    simulated, scanner, changes = matrix(diodes=True)
    for key in [(0, 0), (0, 1), (1, 0)]:
        simulated.close(*key)
    scans(scanner, 4)
    assert scanner.value == {(0, 0), (0, 1), (1, 0)} and scanner.ghosts() == set()
    simulated.close(1, 1)
    scans(scanner, 4)
    assert scanner.value == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert scanner.ghosts() == scanner.value  # a rectangle: on a matrix without diodes, one might be a ghost


def test_without_diodes_three_corners_of_a_rectangle_close_a_ghost_fourth(matrix):
    simulated, scanner, changes = matrix(diodes=False)
    for key in [(0, 0), (0, 1), (1, 0)]:
        simulated.close(*key)
    scans(scanner, 4)
    assert (1, 1) in scanner.value and (1, 1, True) in changes  # the ghost: nobody pressed it
    assert scanner.ghosts() == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_without_diodes_keys_that_share_no_row_or_column_stay_apart(matrix):
    simulated, scanner, _ = matrix(diodes=False)
    for key in [(0, 0), (1, 1), (2, 2)]:
        simulated.close(*key)
    scans(scanner, 4)
    assert scanner.value == {(0, 0), (1, 1), (2, 2)} and scanner.ghosts() == set()


def test_contact_chatter_shorter_than_the_debounce_is_no_press(matrix):
    simulated, scanner, changes = matrix()
    for _ in range(10):  # closed for three scans, open for one, again and again
        simulated.close(4, 7)
        scans(scanner, 3)
        simulated.open(4, 7)
        scanner.scan()
    assert changes == []
    simulated.close(4, 7)  # then it settles closed, with a bounce on the way
    scans(scanner, 2)
    simulated.open(4, 7)
    scanner.scan()
    simulated.close(4, 7)
    scans(scanner, 4)
    assert changes == [(4, 7, True)]


def test_a_key_held_across_many_scans_is_one_press(matrix):
    simulated, scanner, changes = matrix()
    simulated.close(12, 0)  # the host panel's Menu, held
    scans(scanner, 500)
    assert changes == [(12, 0, True)] and scanner.value == {(12, 0)}
    simulated.close(3, 3)  # another key comes and goes while it is held
    scans(scanner, 4)
    simulated.open(3, 3)
    scans(scanner, 4)
    assert changes == [(12, 0, True), (3, 3, True), (3, 3, False)] and scanner.value == {(12, 0)}


def test_a_column_shorted_to_ground_reads_low_with_no_row_driven(matrix):
    simulated, scanner, _ = matrix()
    assert scanner.idle_columns() == []
    simulated.columns[6].drive_low()  # a solder bridge to ground
    assert scanner.idle_columns() == [6]


def test_the_scanning_thread_reports_a_press_on_its_own(matrix):
    simulated, scanner, changes = matrix()
    scanner.start()
    simulated.close(9, 1)
    changes.wait_for(1)
    assert changes == [(9, 1, True)] and scanner.value == {(9, 1)}


HOLD = 0.5  # seconds a finger holds a key in the tests of the thread's cost: five of its looks at a held key


def test_a_matrix_left_alone_reads_no_pin_until_a_column_s_edge_wakes_it(matrix):
    """Once every key is up and settled the thread waits for an edge: reading the columns once as it starts to
    wait, then nothing however long nobody presses (bench/matrix.py measures its idle cost)."""
    simulated, scanner, changes = matrix()
    scanner.start()
    simulated.close(4, 6)
    changes.wait_for(1)
    simulated.open(4, 6)
    changes.wait_for(2)
    reads = simulated.reads
    time.sleep(HOLD)  # nobody presses for a while (a span of idleness, not a wait for something)
    assert simulated.reads - reads <= len(COLUMNS)  # at most the columns' one look as the wait began
    assert all(pin.function == "output" and not pin.state for pin in simulated.rows)  # every row driven, waiting
    simulated.close(4, 6)
    changes.wait_for(3)  # the edge woke it, and the press is debounced as ever
    assert changes == [(4, 6, True), (4, 6, False), (4, 6, True)]


def test_a_held_key_costs_a_look_every_held_period_not_a_scan_every_period(matrix):
    """Defect: a held key (the host's Menu, held 5 s to power off) kept the thread scanning every 5 ms: 16 column
    reads a scan, about 3 % of a laptop's core and a fifth of a Pi Zero's. Now the thread waits on the columns'
    edges with every row driven, and every `held_period` only looks at the held key's column, for a key no edge
    can show."""
    simulated, scanner, changes = matrix()
    scanner.start()
    simulated.close(12, 0)  # the host panel's Menu
    changes.wait_for(1)
    reads = simulated.reads
    time.sleep(HOLD)  # the finger holds it
    looks = HOLD / scanner.held_period + 2  # the looks due, and one more on either side
    per_look = 1 + len(COLUMNS)  # the held column, its row let go; then every column's level, as the wait goes on
    assert simulated.reads - reads <= looks * per_look  # the old scanner: ~100 scans of 16 reads in HOLD
    assert changes == [(12, 0, True)] and scanner.value == {(12, 0)}
    simulated.open(12, 0)  # its release makes an edge: seen as any key
    changes.wait_for(2)
    assert changes == [(12, 0, True), (12, 0, False)]


def test_keys_closing_while_a_key_is_held_are_seen_on_its_column_too(matrix):
    """A key on another column makes an edge; one on the held key's column cannot (the column is low already),
    and is found by the next look; so is one of two keys on a column let go."""
    simulated, scanner, changes = matrix()
    scanner.start()
    simulated.close(12, 0)
    changes.wait_for(1)
    simulated.close(3, 5)  # another column: its edge
    changes.wait_for(2)
    simulated.close(7, 0)  # the held key's column: the look
    changes.wait_for(3)
    simulated.open(12, 0)  # column 0 stays low, held by (7, 0): the look again
    changes.wait_for(4)
    assert changes == [(12, 0, True), (3, 5, True), (7, 0, True), (12, 0, False)]
    assert scanner.value == {(3, 5), (7, 0)}


def test_a_key_already_closed_when_the_matrix_starts_is_not_missed(matrix):
    simulated, scanner, changes = matrix()
    simulated.close(12, 0)
    scanner.start()  # its wait looks at the columns once they are watched
    changes.wait_for(1)
    assert changes == [(12, 0, True)]


def test_chatter_that_wakes_a_waiting_matrix_is_no_press_and_the_matrix_waits_again(matrix):
    simulated, scanner, changes = matrix()
    pulls_low, reading, bounced = simulated.pulls_low, threading.Event(), threading.Event()

    def read_after_the_bounce(column):  # the thread's first read waits until the contact has opened again
        if threading.current_thread().name == "matrix" and not bounced.is_set():
            reading.set()
            assert bounced.wait(5)
        return pulls_low(column)

    simulated.pulls_low = read_after_the_bounce
    scanner.start()
    simulated.close(2, 2)  # a bounce, gone before the thread reads
    assert reading.wait(5)
    simulated.open(2, 2)
    bounced.set()
    simulated.close(5, 5)  # then a real press, the first change reported
    changes.wait_for(1)
    assert changes == [(5, 5, True)]


def test_a_scan_from_another_thread_while_the_matrix_waits_reads_each_key_alone(matrix):
    """The thread waits with every row driven; a scan from elsewhere meanwhile still reads row by row (every row
    at once would show the held key in every row, a press of each), and gives the wait its driven rows back."""
    simulated, scanner, changes = matrix()
    scanner.start()
    simulated.close(2, 7)
    changes.wait_for(1)
    for _ in range(10 * scanner.stable_scans):  # whether the thread waits or looks meanwhile
        assert scanner.scan() == []
    assert changes == [(2, 7, True)] and scanner.value == {(2, 7)}


def test_the_scanning_thread_waits_again_once_every_key_is_up(matrix):
    simulated, scanner, changes = matrix()
    scanner.start()
    for press in range(3):  # press and release, three times
        simulated.close(7, 3)
        changes.wait_for(2 * press + 1)
        simulated.open(7, 3)
        changes.wait_for(2 * press + 2)
    reads = simulated.reads
    time.sleep(HOLD)  # nobody presses for a while
    assert simulated.reads - reads <= len(COLUMNS)  # waiting for the next edge again, not scanning
    assert changes == [(7, 3, True), (7, 3, False)] * 3


def test_matrix_pads_name_the_seat_and_button_or_the_host_button(pin_factory):
    pressed = []
    pads, finger = simulated_pads(pin_factory, lambda seat, button: pressed.append((seat, button)) or "seat",
                                  lambda name: pressed.append(name) or "host")
    try:
        assert pads.scanner.stable_scans == 4  # 20 ms of debounce at a scan every 5 ms
        finger.tap(("seat", 11, 8), True)
        assert pressed == [(11, 8)] and pads.is_pressed(("seat", 11, 8))  # seen on return
        finger.tap(("seat", 11, 8), False)
        finger.tap(("host", "undo"), True)
        finger.tap(("host", "undo"), False)
        finger.simulated.close(12, 7)  # the host row's buttons 6–8 are not wired to anything
        for _ in range(4):
            pads.scanner.scan()
        assert pressed == [(11, 8), "undo"] and not pads.is_pressed(("seat", 11, 8))
    finally:
        pads.close()
    simulated_pads(pin_factory, print, print)[0].close()  # closing freed every pin


def test_a_simulated_matrix_needs_mock_pins():
    with pytest.raises(TypeError, match="mock pins"):
        SimulatedMatrix(object(), ROWS, COLUMNS)


def test_mock_mode_makes_the_board_s_mock_pins_and_the_matrix_on_them_and_hands_both_in(monkeypatch):
    """Defect (before): with no factory handed in (as `arbitro --mock` ran), the pads found none and could not
    press. Now the composition root makes both, whatever gpiozero's variables say, and the pads are handed them."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # a builder's shell: mock mode does not read it
    pinmap = load_pinmap()
    factory, simulated = mock_pins(pinmap)
    assert isinstance(factory, MockFactory) and factory.board_info.revision == MOCK_REVISIONS[pinmap.board]
    heard = []
    pads = MatrixPads(pinmap, lambda seat, button: heard.append((seat, button)), print, pin_factory=factory)
    try:
        Finger(pads, simulated).tap(("seat", 0, 1), True)
        assert heard == [(0, 1)]
    finally:
        pads.close()
    assert mock_pins(load_pinmap(DIRECT_PINMAP))[1] is None  # direct wiring: its buttons are mock pins themselves


def test_a_tap_on_started_pads_is_scanned_by_the_scanner_alone_and_seen_on_return(pin_factory):
    """Defect (bench/phones.py): each virtual press ran 8 scans of its own beside the started scanner's, which
    cost more than the rest of the press. Now the scanner's thread sees the tap, as it would a finger's."""
    pressed = []
    pads, finger = simulated_pads(pin_factory, lambda seat, button: pressed.append((seat, button)), print)
    scanned_on, scan = [], pads.scanner.scan
    pads.scanner.scan = lambda: scanned_on.append(threading.current_thread().name) or scan()
    pads.start()
    try:
        finger.tap(("seat", 3, 5), True)
        assert pads.is_pressed(("seat", 3, 5)) and pressed == [(3, 5)]  # seen on return
        finger.tap(("seat", 3, 5), False)
        assert not pads.is_pressed(("seat", 3, 5))
        assert set(scanned_on) == {"matrix"} and len(scanned_on) >= 2 * pads.scanner.stable_scans
    finally:
        pads.close()


def test_the_matrix_is_a_composite_device_owning_its_rows_and_columns(matrix):
    """Its rows and columns are devices of its own, each the only one to change its pin; closing it closes them."""
    _, scanner, _ = matrix()
    assert isinstance(scanner, CompositeDevice) and len(scanner) == len(ROWS) + len(COLUMNS)
    assert [type(d) for d in scanner] == [MatrixRow] * len(ROWS) + [MatrixColumn] * len(COLUMNS)
    assert [d.pin.info.name for d in scanner] == [f"GPIO{p}" for p in ROWS + COLUMNS]
    scanner.close()
    assert scanner.closed and all(d.closed for d in scanner.all)


def test_a_mock_mode_pin_remembers_its_last_changes_only():
    """Defect (bench/phones.py, a box's memory growing press after press): gpiozero's mock pins keep every change
    of level for a test to look at, so a box in mock mode kept each beep of its buzzer for the whole evening. Its
    pins now keep the last KEPT_STATES."""
    pinmap = load_pinmap()
    factory, simulated = mock_pins(pinmap)
    buzzer = DigitalOutputDevice(pinmap.buzzer, pin_factory=factory)
    try:
        for _ in range(5 * KEPT_STATES):
            buzzer.on()
            buzzer.off()
        assert len(buzzer.pin.states) == KEPT_STATES
        assert [s.state for s in buzzer.pin.states][-2:] == [True, False]  # the newest last
        assert all(isinstance(pin, BoxMockPin) for pin in simulated.rows + simulated.columns)
    finally:
        buzzer.close()


def row_by_row(simulated, scanner):
    """The closed keys as a scan that drives every row alone and reads every column finds them."""
    found = set()
    rows, columns = list(scanner)[:len(ROWS)], list(scanner)[len(ROWS):]  # its devices, rows first
    for r, row in enumerate(rows):
        row.drive()
        found |= {(r, c) for c, column in enumerate(columns) if column.is_low}
        row.release()
    return found


@settings(max_examples=150, deadline=None)
@given(diodes=st.booleans(), closed=st.sets(st.tuples(st.integers(0, 12), st.integers(0, 7)), max_size=6),
       seen=st.sets(st.tuples(st.integers(0, 12), st.integers(0, 7)), max_size=4))
def test_a_read_finds_what_reading_every_row_alone_finds_whatever_the_last_scans_saw(diodes, closed, seen):
    """A read looks at the rows the last scans saw (`pressed`, keys changing) alone and at the others together
    first: the keys it finds are those of a read of every row alone, ghosts included without diodes, even when
    what the last scans saw is wrong."""
    factory = MockFactory(revision="a020a0")
    simulated = SimulatedMatrix(factory, ROWS, COLUMNS, diodes=diodes)
    scanner = MatrixScanner(ROWS, COLUMNS, pin_factory=factory)
    try:
        for key in seen:  # what the last scans saw: keys closed then, open now
            simulated.close(*key)
        scans(scanner, scanner.stable_scans)
        for key in seen:
            simulated.open(*key)
        for key in closed:
            simulated.close(*key)
        assert scanner.read() == row_by_row(simulated, scanner)
    finally:
        scanner.close()
        factory.reset()


def test_a_held_key_is_read_on_its_row_and_the_other_rows_are_looked_at_together(matrix):
    """Defect: with one key held every scan drove every row at once and then each of the 13 rows alone (26 row
    drives, 8 + 13 column reads): the scans of a press were most of its CPU in mock mode, and each pin change is a
    call on the Pi too."""
    simulated, scanner, changes = matrix()
    simulated.close(3, 6)
    drives = simulated.drives
    scanner.scan()  # a key just closed: no row known yet, every row at once, then each alone
    assert simulated.drives - drives == 2 * len(ROWS)
    drives, reads = simulated.drives, simulated.reads
    scanner.scan()  # then its row alone, and the twelve others together
    assert simulated.drives - drives == len(ROWS) and simulated.reads - reads == 2 * len(COLUMNS)
    scans(scanner, 2)
    assert changes == [(3, 6, True)]
    simulated.close(9, 6)  # another seat on the same button: found by the look at the other rows
    scans(scanner, 4)
    assert changes == [(3, 6, True), (9, 6, True)]

"""Seat pads and the host panel, wired direct (a pin per button) or as a key matrix (device/matrix.py).

Direct wiring: gpiozero input devices with our own debounce and press/release model.

gpiozero's MockPin ignores bounce_time, and a real contact chatters, so debounce lives here, on an
injectable clock: a change of level is accepted at once unless it comes within `debounce` seconds of the
last accepted change; then the level is looked at again when that window closes. A burst of chatter is one
press, and a press shorter than the window is still seen with its release. Pins are read as
DigitalInputDevices, woken by their edges: no thread per button (a gpiozero Button starts one to time holds),
so an idle box sleeps.
"""
import logging
import math
import threading
import time

from gpiozero import DigitalInputDevice

from .config import BUTTONS_PER_PAD, HOST_BUTTONS
from .matrix import MatrixScanner

SCAN_PERIOD = 0.005  # a matrix scan every 5 ms: a 20 ms debounce is 4 scans
log = logging.getLogger(__name__)


class DebouncedButton:
    def __init__(self, pin, debounce, *, schedule, when_pressed=None, when_released=None, clock=time.monotonic,
                 pin_factory=None):
        self.number = pin
        self.debounce = debounce
        self.when_pressed = when_pressed
        self.when_released = when_released
        self._clock = clock
        self._schedule = schedule
        self._lock = threading.Lock()
        self._settling = False
        self.is_pressed = False
        self._last_change = float("-inf")
        self._button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self._button.when_activated = self._edge
        self._button.when_deactivated = self._edge

    @property
    def is_active(self):
        """The pin's level now, undebounced: whether the contact is closed."""
        return self._button.is_active

    @property
    def pin(self):
        """The gpiozero pin object (a MockPin in mock mode: drive_low() presses the button)."""
        return self._button.pin

    def _edge(self):
        now = self._clock()
        with self._lock:
            level = self._button.is_active
            if level == self.is_pressed:
                return
            since = now - self._last_change
            if since < self.debounce:
                if not self._settling:  # look again when the window closes
                    self._settling = True
                    self._schedule(self.debounce - since, self._settle)
                return
            callback = self._accept(level, now)
        if callback:
            callback()

    def _settle(self):
        with self._lock:
            self._settling = False
            level = self._button.is_active
            callback = self._accept(level, self._clock()) if level != self.is_pressed else None
        if callback:
            callback()

    def _accept(self, level, now):
        self.is_pressed, self._last_change = level, now
        return self.when_pressed if level else self.when_released

    def close(self):
        self._button.close()


def key_rows(seats):
    """The matrix's keys: a row per pad (the host panel's last, with its five buttons), a column per button."""
    return [[("seat", seat, button) for button in range(1, BUTTONS_PER_PAD + 1)]
            for seat in range(seats)] + [[("host", name) for name in HOST_BUTTONS]]


def wires(pinmap):
    """Every key of the pin map, seats' first, with the GPIO it is wired to: direct, its pin; in a matrix, its
    row's and its column's."""
    if pinmap.wiring == "matrix":
        return {key: (pinmap.rows[r], pinmap.columns[c]) for r, row in enumerate(key_rows(len(pinmap.seats)))
                for c, key in enumerate(row)}
    found = {("seat", seat, button): (pin,) for seat, pins in enumerate(pinmap.seats)
             for button, pin in enumerate(pins, start=1)}
    return found | {("host", name): (pin,) for name, pin in pinmap.host.items()}


class DirectKeys:
    """A pin per key, each a DebouncedButton: the key matrix's twin, with its surface (`value`, the keys held as
    debounced; `when_pressed(key)`, `when_released(key)`), a key being whatever names its pin in `pins`."""

    def __init__(self, pins, debounce, *, schedule, clock=time.monotonic, pin_factory=None):
        self.when_pressed = self.when_released = None
        self.buttons = {key: DebouncedButton(pin, debounce, when_pressed=lambda k=key: self._told(self.when_pressed, k),
                                             when_released=lambda k=key: self._told(self.when_released, k),
                                             clock=clock, schedule=schedule, pin_factory=pin_factory)
                        for key, pin in pins.items()}

    @staticmethod
    def _told(report, key):
        if report:
            report(key)

    @property
    def value(self):
        return frozenset(key for key, button in self.buttons.items() if button.is_pressed)

    @property
    def is_active(self):
        return bool(self.value)

    def close(self):
        for button in self.buttons.values():
            button.close()


class _Pads:
    """What both wirings share: a map from each key of the wiring's device (a DirectKeys or a MatrixScanner, with
    the same surface) to what it is on the pads, ("seat", seat, button) or ("host", name). Presses reach
    on_seat(seat, button) with 0-based seats and buttons 1–8, or on_host(name). No error in a handler ends the
    thread that reads the pins: it is logged (once for each kind of error) and the next press is read as usual."""

    def __init__(self, device, names, on_seat, on_host):
        self.device, self.names = device, names  # names: the device's key -> the pads' key
        self.places = {name: key for key, name in names.items()}
        self._on_seat, self._on_host = on_seat, on_host
        self._logged = set()
        device.when_pressed = self._device_pressed

    def _device_pressed(self, key):
        if key in self.names:  # the host row's buttons 6–8 of a matrix are not wired to anything
            self._pressed(self.names[key])

    def is_pressed(self, key):
        return self.places[key] in self.device.value

    def _pressed(self, key):
        kind, *where = key
        handler = self._on_seat if kind == "seat" else self._on_host
        try:
            handler(*where)
        except Exception as e:
            if (type(e), str(e)) not in self._logged:
                self._logged.add((type(e), str(e)))
                log.exception("a handler failed on %s; the pads read on", key)

    def start(self):
        """Start reading on a thread of the pads' own, where they need one (a direct-wired pad needs none)."""

    def close(self):
        self.device.close()


class DirectPads(_Pads):
    """A pin per button: DirectKeys, each key named as on the pads."""

    def __init__(self, pinmap, on_seat, on_host, *, schedule, clock=time.monotonic, pin_factory=None):
        self.debounce = pinmap.debounce_ms / 1000
        keys = DirectKeys({key: pin for key, (pin,) in wires(pinmap).items()}, self.debounce, clock=clock,
                          schedule=schedule, pin_factory=pin_factory)
        super().__init__(keys, {key: key for key in keys.buttons}, on_seat, on_host)
        self.buttons = keys.buttons

    def held(self):
        """The keys whose contact reads closed now (a key held since before the box started included)."""
        return [key for key, button in self.buttons.items() if button.is_active]


class MatrixPads(_Pads):
    """A row per pad (the host panel's last), a column per button, read by a MatrixScanner: on a thread of its
    own once started, or by whoever calls its scan()."""

    def __init__(self, pinmap, on_seat, on_host, *, pin_factory=None, period=SCAN_PERIOD):
        stable = max(2, math.ceil(pinmap.debounce_ms / 1000 / period))
        self.scanner = MatrixScanner(pinmap.rows, pinmap.columns, stable_scans=stable, period=period,
                                     pin_factory=pin_factory)
        rows = key_rows(len(pinmap.seats))
        super().__init__(self.scanner, {(r, c): key for r, row in enumerate(rows) for c, key in enumerate(row)},
                         on_seat, on_host)
        self.rows = len(rows)

    def start(self):
        self.scanner.start()

    def held(self):
        """The keys the scanner holds as pressed (a key held since before the box started included)."""
        return [self.names[key] for key in sorted(self.scanner.value) if key in self.names]


def make_pads(pinmap, on_seat, on_host, *, schedule, clock=time.monotonic, pin_factory=None):
    """The pads of the pin map's wiring, on `pin_factory`'s pins (`schedule(delay, callback)`: a direct key looks
    again when its debounce window closes); call start() to have them read on their own."""
    if pinmap.wiring == "matrix":
        return MatrixPads(pinmap, on_seat, on_host, pin_factory=pin_factory)
    return DirectPads(pinmap, on_seat, on_host, clock=clock, schedule=schedule, pin_factory=pin_factory)

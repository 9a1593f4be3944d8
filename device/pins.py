"""The pins the box runs on, chosen by the composition root (device/cli.py) and handed to every part that makes
a gpiozero device: mock pins in mock mode, with the key matrix simulated on them, else the back-end the builder
names. Nothing downstream looks at environment variables or at which back-end it was given."""
import collections
import os

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from .simulated_matrix import SimulatedMatrix

MOCK_REVISIONS = {"cm": "a020a0", "pi": "a02082"}  # gpiozero board revisions with the pin map's GPIO
KEPT_STATES = 64  # the changes a mock pin remembers, newest last


class BoxMockPin(MockPWMPin):
    """gpiozero's mock pin (PWM-capable, for a passive buzzer) remembering only its last KEPT_STATES changes in
    `states`: gpiozero's keeps every change for a test to look at, and a box in mock mode beeps for a whole
    evening."""

    def clear_states(self):
        super().clear_states()
        self.states = collections.deque(self.states, maxlen=KEPT_STATES)


def mock_pins(pinmap):
    """Mock pins (BoxMockPin) for the pin map's board, and its key matrix simulated on them (None for direct
    wiring, whose buttons are mock pins themselves)."""
    factory = MockFactory(revision=MOCK_REVISIONS[pinmap.board], pin_class=BoxMockPin)
    return factory, simulated_matrix(factory, pinmap)


def simulated_matrix(factory, pinmap):
    """The pin map's key matrix made of `factory`'s mock pins (before any part asks for those pins), or None."""
    return SimulatedMatrix(factory, pinmap.rows, pinmap.columns) if pinmap.wiring == "matrix" else None


def real_pins(pinmap):
    """The back-end GPIOZERO_PIN_FACTORY names (gpiozero's own variable, for a builder trying another), else the
    pin map's `pin_factory`, else gpiozero's own first choice that works here."""
    name = os.environ.get("GPIOZERO_PIN_FACTORY") or pinmap.pin_factory
    if not name:
        Device.ensure_pin_factory()
        return Device.pin_factory
    from importlib.metadata import entry_points  # slow to load: only when a back-end is named
    found = entry_points(group="gpiozero_pin_factories", name=name)
    if not found:
        raise BadPinFactory(f"unknown pin factory {name!r}")
    return next(iter(found)).load()()

"""Mock mode's pins: gpiozero's mock factory of the pin map's board, its pins keeping only their last changes,
and the pin map's key matrix simulated on them."""
import collections

from gpiozero.pins.mock import MockFactory, MockPWMPin

from .matrix import SimulatedMatrix

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

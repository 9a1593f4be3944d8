"""Mock mode's own parts, which the box itself never carries: gpiozero's mock pins with the key matrix simulated
on them (`pins.py`, `matrix.py`), the finger that presses keys on them (`finger.py`, the virtual box's and the
tests'), what stands in for the OLED and the power-off (`stand_ins.py`), and what `arbitro doctor --mock` is
handed (`doctor.py`). Only the composition root (device/cli.py) imports this package, and only in mock mode (an
import-linter contract in pyproject.toml holds that); it hands each part to whatever needs it."""
from .finger import Finger
from .pins import mock_pins, simulated_matrix
from .stand_ins import display, power_off

__all__ = ["Finger", "display", "mock_pins", "power_off", "simulated_matrix"]

"""The pins of a real box: the back-end the builder names, chosen by the composition root (device/cli.py) and
handed to every part that makes a gpiozero device (mock mode's pins are device/mock/'s). Nothing downstream looks
at environment variables or at which back-end it was given."""
import os

from gpiozero import Device
from gpiozero.exc import BadPinFactory


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

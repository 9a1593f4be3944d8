"""What the composition root hands `arbitro doctor --mock`: the mock pins it made, named as such, and no bus to
look for the display on. The doctor itself never asks which pins it was given."""

PINS_LINE = "doctor_mock_backend"  # the line naming the pins, in place of the back-end the doctor would find
NO_DISPLAY = "doctor_mock_display"  # said in place of looking for the display on its bus


def doctor_options(pin_factory):
    """The doctor's keyword arguments for mock pins made by `pin_factory` (device/doctor.py's Doctor and run)."""
    return {"pin_factory": pin_factory, "pins_line": PINS_LINE, "no_display": NO_DISPLAY}

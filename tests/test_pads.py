"""Debounce and the press/release model, on mock pins and a manual clock."""
import pytest

from device.matrix import MatrixScanner
from device.pads import DebouncedButton, DirectKeys
from device.mock.matrix import SimulatedMatrix

DEBOUNCE = 0.02


@pytest.fixture
def button(pin_factory, clock):
    events = []
    made = DebouncedButton(40, DEBOUNCE, when_pressed=lambda: events.append(("press", clock.now)),
                           when_released=lambda: events.append(("release", clock.now)), clock=clock,
                           schedule=clock.schedule, pin_factory=pin_factory)
    made.events = events
    yield made
    made.close()


def test_a_clean_press_and_release(button, clock):
    button.pin.drive_low()
    assert button.is_pressed and button.events == [("press", 0.0)]
    clock.advance(0.1)
    button.pin.drive_high()
    assert not button.is_pressed and button.events == [("press", 0.0), ("release", 0.1)]


def test_a_burst_of_contact_chatter_is_one_press(button, clock):
    for _ in range(5):  # bouncing for 4 ms on the way down
        button.pin.drive_low()
        clock.advance(0.0005)
        button.pin.drive_high()
        clock.advance(0.0003)
    button.pin.drive_low()
    clock.advance(0.1)
    assert button.events == [("press", 0.0)] and button.is_pressed
    for _ in range(3):  # and bouncing on the way up
        button.pin.drive_high()
        clock.advance(0.001)
        button.pin.drive_low()
        clock.advance(0.001)
    button.pin.drive_high()
    clock.advance(0.1)
    assert [kind for kind, _ in button.events] == ["press", "release"]
    assert not button.is_pressed


def test_a_release_inside_the_window_is_seen_when_it_closes(button, clock):
    button.pin.drive_low()
    clock.advance(0.005)
    button.pin.drive_high()  # a very short tap
    assert button.is_pressed
    clock.advance(0.02)
    assert not button.is_pressed
    assert button.events == [("press", 0.0), ("release", pytest.approx(0.025))]


def test_two_presses_outside_the_window_are_two_presses(button, clock):
    for _ in range(2):
        button.pin.drive_low()
        clock.advance(0.05)
        button.pin.drive_high()
        clock.advance(0.05)
    assert [kind for kind, _ in button.events] == ["press", "release", "press", "release"]


def test_the_key_matrix_and_direct_keys_share_one_surface_shaped_like_gpiozero(pin_factory, clock):
    """Both wirings are one device each with the same surface, as gpiozero's ButtonBoard: `value` is the set of
    keys held (debounced), `is_active` whether any is, and `when_pressed(key)` / `when_released(key)` are told each
    change; the pads layer only maps a device's key to a seat's button."""
    direct = DirectKeys({"a": 40, "b": 41}, DEBOUNCE, clock=clock, schedule=clock.schedule, pin_factory=pin_factory)
    simulated = SimulatedMatrix(pin_factory, [5, 6], [12, 13, 16])
    matrix = MatrixScanner([5, 6], [12, 13, 16], stable_scans=2, pin_factory=pin_factory)
    told = []

    def press(device, key, down):
        if device is direct:
            pin = direct.buttons[key].pin
            pin.drive_low() if down else pin.drive_high()
            clock.advance(0.1)
        else:
            simulated.close(*key) if down else simulated.open(*key)
            for _ in range(matrix.stable_scans):
                matrix.scan()
    try:
        for device, key in ((direct, "b"), (matrix, (1, 2))):
            device.when_pressed = lambda k: told.append(("pressed", k))
            device.when_released = lambda k: told.append(("released", k))
            assert device.value == frozenset() and not device.is_active
            press(device, key, True)
            assert device.value == {key} and device.is_active and told[-1] == ("pressed", key)
            press(device, key, False)
            assert device.value == frozenset() and not device.is_active and told[-1] == ("released", key)
        assert len(told) == 4
    finally:
        direct.close()
        matrix.close()

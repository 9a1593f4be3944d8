"""Debounce and the press/release model, on mock pins and a manual clock."""
import pytest

from device.pads import DebouncedButton

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

"""Seat pads and the host panel: gpiozero input devices with our own debounce and press/release model.

gpiozero's MockPin ignores bounce_time, and a real contact chatters, so debounce lives here, on an
injectable clock: a change of level is accepted at once unless it comes within `debounce` seconds of the
last accepted change; then the level is looked at again when that window closes. A burst of chatter is one
press, and a press shorter than the window is still seen with its release. Pins are read as
DigitalInputDevices, woken by their edges: no thread per button (a gpiozero Button starts one to time holds),
so an idle box sleeps.
"""
import threading
import time

from gpiozero import DigitalInputDevice

from engine.timers import later


class DebouncedButton:
    def __init__(self, pin, debounce, *, when_pressed=None, when_released=None, clock=time.monotonic,
                 schedule=later, pin_factory=None):
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


class Pads:
    """Every seat's pad and the host panel of a pin map. on_seat(seat, button) gets 0-based seats and
    buttons 1–8; on_host(name) gets the host button's name."""

    def __init__(self, pinmap, on_seat, on_host, *, clock=time.monotonic, schedule=later, pin_factory=None):
        debounce = pinmap.debounce_ms / 1000
        common = {"clock": clock, "schedule": schedule, "pin_factory": pin_factory}
        self.seats = [[DebouncedButton(pin, debounce, when_pressed=lambda s=seat, b=button: on_seat(s, b), **common)
                       for button, pin in enumerate(pins, start=1)]
                      for seat, pins in enumerate(pinmap.seats)]
        self.host = {name: DebouncedButton(pin, debounce, when_pressed=lambda n=name: on_host(n), **common)
                     for name, pin in pinmap.host.items()}

    def close(self):
        for button in [b for pad in self.seats for b in pad] + list(self.host.values()):
            button.close()

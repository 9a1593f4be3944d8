"""The finger that presses keys of the box's pads on mock pins, as a person's would: the virtual box's, and the
tests'."""
import time

TAP_TIMEOUT = 10  # seconds a tap waits for the scanner's thread to see it, however slow the machine


class Finger:
    """Presses keys of the box's pads on mock pins as a finger would: a key of the simulated matrix closed, or a
    direct key's mock pin driven low; `tap` returns once the pads have seen the change (debounced), as they
    would a finger's. `simulated` is the key matrix on the mock pins (None for direct wiring)."""

    def __init__(self, pads, simulated, *, sleep=time.sleep):
        self.pads, self.simulated, self.sleep = pads, simulated, sleep

    @property
    def settle_time(self):
        """How long a tap must last to be seen, and a release to settle: none for a matrix (a tap waits for its
        scan), past the debounce window for a direct key."""
        return 0 if self.simulated is not None else self.pads.debounce * 1.5

    def tap(self, key, down):
        """Close (down) or open `key`, ("seat", seat, button) or ("host", name)."""
        if self.simulated is None:
            pin = self.pads.buttons[key].pin
            pin.drive_low() if down else pin.drive_high()
            return
        place, scanner = self.pads.places[key], self.pads.device
        self.simulated.close(*place) if down else self.simulated.open(*place)
        if self.simulated.watched:  # the columns' edges are listened to: the scanner's thread reads the matrix
            self.simulated.wait_until(lambda: (place in scanner.value) == down, TAP_TIMEOUT)
            return
        for _ in range(scanner.stable_scans):  # nothing reads it on its own (pads driven by hand): the debounce's
            scanner.scan()

    def press(self, key, hold=None):
        """Close `key` for `hold` seconds (as long as the pads take to see it when None), then open it."""
        self.tap(key, True)
        self.sleep(self.settle_time if hold is None else hold)
        self.tap(key, False)
        self.sleep(self.settle_time)

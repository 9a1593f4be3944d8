"""The buzzer: feedback for a player pressing under the table without looking up. A short tick when a press
is taken, a low double buzz when it is refused, a rising chord (three notes, one after the other: a buzzer
sounds one at a time) at each reveal. Sounds play on a thread of their own, so a press never waits for one;
a backlog is dropped rather than let sounds lag behind the table, and closing stops the sound playing and drops
those waiting (the box powering off does not wait out a chord)."""
import queue
import threading

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.tones import Tone

REST = None
SOUNDS = {  # name -> (frequency in Hz or REST, seconds) in order
    "tick": ((1760, 0.025),),
    "refused": ((220, 0.12), (REST, 0.06), (220, 0.12)),
    "reveal": ((523, 0.09), (659, 0.09), (784, 0.2)),
}
BACKLOG = 3


class Sounds:
    """An active buzzer (`kind = "active"`: it beeps by itself, so notes become beeps of their length) or a
    passive piezo (`"passive"`: the box plays each note's frequency)."""

    def __init__(self, pin, kind, *, pin_factory=None, sleep=None):
        self._stop = threading.Event()
        self.sleep = sleep or self._stop.wait  # a note's length, cut short by close()
        if kind == "passive":
            self.device = TonalBuzzer(pin, octaves=3, pin_factory=pin_factory)
        else:
            self.device = Buzzer(pin, pin_factory=pin_factory)
        self._queue = queue.Queue(BACKLOG)
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, name):
        """Queue the cue `name`; False when it is dropped, the buzzer being behind already (it would come too late
        to mean anything)."""
        try:
            self._queue.put_nowait(name)
        except queue.Full:
            return False
        return True

    def _run(self):
        while (name := self._queue.get()) is not None and not self._stop.is_set():
            self.sound(name)

    def sound(self, name):
        """Play a sound now, on this thread."""
        active = isinstance(self.device, Buzzer)
        for frequency, seconds in SOUNDS[name]:
            if self._stop.is_set():
                break
            if frequency is REST:
                self._quiet(active)
            elif active:
                self.device.on()
            else:
                self.device.play(Tone.from_frequency(frequency))
            self.sleep(seconds)
        self._quiet(active)

    def _quiet(self, active):
        self.device.off() if active else self.device.stop()

    def close(self):
        self._stop.set()
        while True:  # what waits is dropped; then the thread is told to end
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._queue.put(None)
        self._thread.join(timeout=2)
        self.device.close()

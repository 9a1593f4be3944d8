"""The virtual box: the box as a person at a computer works it in mock mode (the virtual box page, and the
tests). A click presses and lets go a key of the mock pins as a finger would, so the same GPIO, debounce and pad
code runs as on the Pi; it also says what each pad's buttons do now and shows the OLED as an image. The
composition root builds it beside the box, on mock pins only; it hears what a press did as a seat's phone does
(`Box.subscribe_presses`) and reads the pads as the OLED does (the face's `seen`): the box knows nothing of it."""
import threading

from engine.games import GAMES

from .cursor import KEY_WORDS, SPARE
from .display import png
from .seen import OnPhone
from .texts import text


class VirtualBox:
    def __init__(self, box, finger):
        """`finger` presses the box's keys on the mock pins (device/mock/finger.py)."""
        self.box, self.finger = box, finger
        self._outcomes = {}  # key -> what its latest press did
        self._handled = threading.Condition()
        box.subscribe_presses(self._press_handled)

    def _press_handled(self, key, outcome):
        with self._handled:
            self._outcomes[key] = outcome
            self._handled.notify_all()

    def press(self, seat=None, button=None, host=None, hold=None):
        """Press and release a button as a finger would: held for `hold` seconds, or as long as the pads take to
        see it (its debounce). Returns what the press did (None when it did nothing)."""
        key = ("host", host) if host is not None else ("seat", seat, button)
        with self._handled:
            self._outcomes.pop(key, None)
        self.finger.press(key, hold)
        with self._handled:  # the box steps presses on a thread of its own once started: wait for it
            self._handled.wait_for(lambda: key in self._outcomes, timeout=10)
            return self._outcomes.pop(key, None)

    def pad_labels(self, seat):
        """What each of the seat's 8 buttons does now (the printed labels of a game, or the cursor's keys), in
        the box's language."""
        seen, lang = self.box.seen, self.box.language.value
        prompt, game = seen.pad(seat), seen.game
        if isinstance(prompt, OnPhone) or prompt is not None and prompt.pad is None:
            # the keys the cursor has, as the face drives it: over public choices only
            keys = dict(zip(SPARE, () if isinstance(prompt, OnPhone) else prompt.keys))
            return [text(lang, KEY_WORDS[b]) if b in KEY_WORDS else
                    text(lang, keys[b], game) if keys.get(b) else "" for b in range(1, 9)]
        if prompt is not None:
            labels = [choice.label if choice else "" for choice in prompt.pad]
        else:
            labels = list(GAMES[game].pad_labels or [""] * 8) if game else [""] * 8
        return [text(lang, label, game) if label else "" for label in labels]

    def oled_png(self):
        """The OLED's image as the panel shows it: each frame is a new image, so it is encoded off every lock."""
        return png(self.box.display.image)

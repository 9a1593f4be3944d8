"""The box's language: one setting that every part drawing the OLED (the box's face, the virtual box) and the
phones read, kept across restarts."""
import logging
import threading

from engine.state_file import StateFileError

log = logging.getLogger(__name__)


class Language:
    def __init__(self, state, default):
        """`state` keeps it across restarts (a StateFile); `default`: the pin map's, until one is chosen."""
        self._state = state
        self.value = state.read().get("language", default)
        self._listeners = []
        self._lock = threading.Lock()  # the menu and a phone choosing at once: written and told in one order

    def subscribe(self, listener):
        """listener(language) each time it changes."""
        self._listeners.append(listener)

    def _changed(self, language):
        self.value = language
        for listener in self._listeners:
            listener(language)

    def keep(self, language):
        """Change it, written down first (a StateFileError when it cannot be: it is then not changed)."""
        with self._lock:
            data = self._state.read()
            data["language"] = language
            self._state.write(data)
            self._changed(language)

    def choose(self, language):
        """From the box's own menu: a language that cannot be written down is still shown, and said in the log."""
        try:
            self.keep(language)
        except StateFileError:
            log.exception("could not keep the language chosen in the menu")
            with self._lock:
                self._changed(language)

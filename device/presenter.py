"""Paces what the OLED shows: results stay, page by page, until an OK or the next input. The table's state
never waits for it. The game's presentation gives its results as chapters with stable keys; a chapter is
queued when it first appears, and an undo that takes one back drops its unread pages."""
from . import screens


class Presenter:
    def __init__(self, language):
        self.language = language  # the box's (device/language.py), read as it draws
        self.pages = []  # result pages queued for reading
        self.index = 0
        self._chapters = {}  # key -> pages of it already queued

    def reset(self):
        self.pages, self.index, self._chapters = [], 0, {}

    def catch_up(self, view):
        """Start afresh on `view` with every result so far counted as read (a resumed game, a new
        language)."""
        self.reset()
        self.update(view)
        self.index = len(self.pages)

    def update(self, view):
        """Queue the result pages that `view` adds."""
        if view.get("game") is None:
            self.reset()
            return
        found = dict(screens.chapters(view, self.language.value))
        if any(found.get(key) != pages for key, pages in self._chapters.items()):
            del self.pages[self.index:]  # an undo took results back: unread pages are stale
            self._chapters = {key: pages for key, pages in self._chapters.items() if found.get(key) == pages}
        for key, pages in found.items():
            if key not in self._chapters:
                self.pages.extend(pages)
                self._chapters[key] = pages

    def mark(self):
        return len(self.pages)

    def dismiss(self, mark):
        """Someone acted: results queued before `mark` are done with."""
        if self.index < mark:
            self.index = mark

    def ok(self):
        """Next page; False when there was none to leave."""
        if self.index < len(self.pages):
            self.index += 1
            return True
        return False

    def back(self):
        if self.index > 0:
            self.index -= 1

    @property
    def is_live(self):
        """No result page is waiting to be read: the table as it stands is shown."""
        return self.index >= len(self.pages)

    def screen(self, view):
        if self.index < len(self.pages):
            return self.pages[self.index]
        return screens.live(view, self.language.value)

"""Paces what the OLED shows: a match's results stay, page by page, until an OK or the next pick.
The table's state never waits for it."""
from . import screens


class Presenter:
    def __init__(self, language):
        self.lang = language
        self.pages = []  # result pages queued for reading
        self.index = 0
        self._shown = {}  # match number -> pages of it already queued

    def reset(self):
        self.pages, self.index, self._shown = [], 0, {}

    def catch_up(self, view):
        """Start afresh on `view` with every result so far counted as read (a resumed game, a new
        language)."""
        self.reset()
        self.update(view, every_match=True)
        self.index = len(self.pages)

    def update(self, view, every_match=False):
        """Queue the result pages that `view` adds (a reveal, moves, an event, the end). Only the last two
        matches can have changed since the last view (an undo reaches back one match at most)."""
        if view.get("game") is None:
            self.reset()
            return
        history = view["history"]
        for match in history if every_match else history[-2:]:
            last = match is history[-1]
            pages = screens.match_pages(match, self.lang)
            if pages and (match["event"] or (view["over"] and last)):
                pages.append(screens.bridge(view, self.lang))
            if view["over"] and last:
                pages.append(screens.result(view, self.lang))
            shown = self._shown.get(match["match"], 0)
            if len(pages) < shown:  # an undo took results back: unread pages are stale
                del self.pages[self.index:]
                shown = len(pages)
            self.pages.extend(pages[shown:])
            self._shown[match["match"]] = len(pages)
        for number in [n for n in self._shown if n > len(history)]:
            del self._shown[number]

    def mark(self):
        return len(self.pages)

    def dismiss(self, mark):
        """A seat picked: results queued before `mark` are done with."""
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

    def screen(self, view):
        if self.index < len(self.pages):
            return self.pages[self.index]
        return screens.live(view, self.lang)

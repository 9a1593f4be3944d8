"""Paces what the OLED shows: results stay, page by page, until an OK or the next input. The table's state
never waits for it. The game's presentation gives its results as chapters with stable keys; a chapter is
queued when it first appears, and an undo that takes one back drops its unread pages. `Pages` is a value: each
change gives the next one, the box's face keeps it."""
from dataclasses import dataclass, replace

from . import screens


@dataclass(frozen=True)
class Pages:
    pages: tuple = ()  # result pages queued for reading
    versions: tuple = ()  # the table's version that queued each page
    index: int = 0  # the page shown; len(pages) when the table as it stands is shown
    chapters: tuple = ()  # (key, pages) of every chapter queued, in order

    def catch_up(self, view, lang):
        """Afresh on `view`, every result so far counted as read (a resumed game, a new language)."""
        caught = Pages().update(view, lang)
        return replace(caught, index=len(caught.pages))

    def update(self, view, lang):
        """The pages with those `view` adds queued (its version tags them)."""
        if view.get("game") is None:
            return Pages()
        found = dict(screens.chapters(view, lang))
        pages, versions, index, chapters = self.pages, self.versions, self.index, self.chapters
        if any(found.get(key) != queued for key, queued in chapters):
            pages, versions = pages[:index], versions[:index]  # an undo took results back: unread pages are stale
            chapters = tuple((key, queued) for key, queued in chapters if found.get(key) == queued)
        known = dict(chapters)
        for key, added in found.items():
            if key not in known:
                pages += tuple(added)
                versions += (view["version"],) * len(added)
                chapters += ((key, added),)
        return Pages(pages, versions, index, chapters)

    def dismiss(self, since):
        """Someone acted at `since`: results queued up to that version are done with."""
        read = sum(1 for version in self.versions if version <= since)
        return replace(self, index=read) if self.index < read else self

    def ok(self):
        """The next page, or None when there was none to leave."""
        return replace(self, index=self.index + 1) if self.index < len(self.pages) else None

    def back(self):
        return replace(self, index=self.index - 1) if self.index > 0 else self

    @property
    def is_live(self):
        """No result page is waiting to be read: the table as it stands is shown."""
        return self.index >= len(self.pages)

    def screen(self, view, lang):
        return self.pages[self.index] if self.index < len(self.pages) else screens.live(view, lang)

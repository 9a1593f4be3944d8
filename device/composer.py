"""What the OLED shows, composed from the table's public view and the box's own state: the host menu first, then
an overlay (a seat's cursor, a phone that joined) until the next input, then the game (its result pages, paced by
the presenter, or the table as it stands with a pad's open cursor). A refusal or a fault takes the title. The
display's own thread puts each screen on the panel."""
import contextlib
import threading
from dataclasses import replace

from . import screens
from .cursor import Cursor
from .presenter import Presenter
from .texts import text


class ScreenComposer:
    def __init__(self, table, menu, display, language, cursors, *, wired_seats, url=None, sound=None,
                 when_new_game=None):
        """`cursors` (seat -> Cursor) are the pads' cursors, which the inputs move; `sound(name)` plays a cue;
        `when_new_game(seats)` is told when a game of another seat count is shown (a new one, or resumed)."""
        self.table, self.menu, self.display, self.language, self.cursors = table, menu, display, language, cursors
        self.wired_seats, self.url = wired_seats, url
        self.presenter = Presenter(language)
        self.overlay = None  # a seat's cursor screen, a phone that joined: until the next input
        self.notice = None  # a refused press, shown in the title until the next input
        self.pressing = False  # a seat's pad press under way: a reveal it causes is told after its tick
        self.revealed = False  # a reveal happened during that press
        self._sound, self._when_new_game = sound or (lambda name: None), when_new_game
        self._game_id = self._seats = None  # the game the presenter has caught up with
        self._undo_told = None  # the version whose undo the title has told
        self._batched = 0  # inputs of the box's own under way: the OLED follows once, when they are done
        self._lock = threading.RLock()  # the composer's own: one input, or one refresh, at a time
        self._stale = False  # the table changed since the OLED last followed it
        table.subscribe(self._table_changed)
        language.subscribe(self._language_changed)

    @property
    def lang(self):
        return self.language.value

    @contextlib.contextmanager
    def batch(self):
        """An input of the box's own, under the composer's lock: the OLED is refreshed once, when the outermost
        input is done, not again for each change the table announces meanwhile."""
        self._lock.acquire()
        try:
            self._batched += 1
            try:
                yield
            finally:
                self._batched -= 1
                if not self._batched:
                    self.refresh()
        finally:
            self._lock.release()
            self._catch_up()

    def _table_changed(self, moment):
        """Under the table's lock: an input under way follows it when done; else (a timer, the web side) the OLED
        follows it now if no input holds the composer, or the input that does, once it is done. Never waits for
        the composer, which waits for the table."""
        self._stale = True
        self._catch_up()

    def _catch_up(self):
        while self._stale and self._lock.acquire(blocking=False):
            try:
                if self._batched:
                    return  # its end refreshes
                self.refresh()
            finally:
                self._lock.release()

    def _language_changed(self, language):
        with self._lock:
            self.presenter.catch_up(self.table.view("public"))  # the pages read so far stay read
            self.refresh()

    def refresh(self):
        with self._lock:
            self._stale = False
            moment = self.table.moment
            view = moment.view("public")
            self._follow(moment, view)
            if self.menu.is_open:
                screen = self.menu.screen()
            elif self.overlay:
                screen = self.overlay
            elif view.get("game") is None:
                screen = screens.no_game(self.lang, self.url)
            else:
                screen = (self.presenter.is_live and not view["over"] and self._waiting_cursor(moment)
                          or self.presenter.screen(view))
            title = self.notice or self._fault(moment)  # a refusal or a fault has the title
            if title:
                screen = replace(screen, title=title)
            self.display.show(screen)  # the display's own thread sends it, off this lock

    def _follow(self, moment, view):
        """Catch up with `view` (of `moment`): a new or resumed game (nothing of it to read yet), result pages it
        adds (a reveal, with its sound), an undo (told in the title, from wherever it came)."""
        if moment.game_id != self._game_id:
            self.presenter.catch_up(view)
            self._game_id = moment.game_id
            self.cursors.clear()
            if moment.seats and moment.seats != self._seats:
                self._seats = moment.seats
                if self._when_new_game:
                    self._when_new_game(self._seats)
        else:
            queued = len(self.presenter.pages)
            self.presenter.update(view)
            if len(self.presenter.pages) > queued and self.pressing:
                self.revealed = True
            elif len(self.presenter.pages) > queued:
                self._sound("reveal")
        undone = view.get("undone")
        if undone and self._undo_told != view["version"]:
            self._undo_told = view["version"]
            self.notice = text(self.lang, "undone_seat", who=screens.seat(self.lang, undone["seat"]))

    def _waiting_cursor(self, moment):
        """The open choice a pad's cursor makes now, from the first frame: where the cursor stands and its
        keys (None when no wired seat chooses by cursor)."""
        for seat in range(min(self.wired_seats, moment.seats)):
            prompt = moment.prompt(seat)
            shown = prompt.on_cursor() if prompt is not None and prompt.pad is None else None  # never a private choice
            if shown is not None:
                cursor = self.cursors.setdefault(seat, Cursor())
                cursor.follow(shown)
                return screens.cursor(self.lang, moment.game, seat, shown, cursor.label(), cursor.group)
        return None

    def _fault(self, moment):
        """The title while the journal cannot be written: nothing is taken until it can."""
        fault = moment.fault
        return text(self.lang, "storage_full" if fault == "full" else "storage_failing") if fault else None

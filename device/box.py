"""The box: a table, its pads and host panel, the host menu and the OLED."""
import contextlib
import logging
import queue
import threading
import time
from dataclasses import replace

from engine.journal import StorageError
from engine.pairing import Pairing
from engine.rules import Rejected
from engine.rules.protocol import refuse
from engine.state_file import MemoryState, StateFileError
from engine.words import render
from engine.timers import later

from . import screens
from .config import HOST_BUTTONS
from .cursor import Cursor
from .display import Display
from .menu import HostMenu
from .pads import make_pads
from .presenter import Presenter
from .sounds import Sounds
from .texts import text

log = logging.getLogger(__name__)


class Box:
    """Wires pads, host panel, menu, presenter and display to one table. Every input and the presentation
    share the table's lock; once started, the pads' presses are applied on the box's own thread (the key scan
    never waits for a commit), and the display's own thread puts each screen on the panel, off that lock. The
    web app is handed this box: the table, the press and act functions, the OLED frame and the pairing; it never
    imports the device.

    No error ends an input: a press that cannot be taken (the journal cannot be written, or anything else
    fails) is refused where the table sees it — the OLED's title, the refusal buzz, a notice on the phones —
    logged once, and the next press works as soon as the fault is gone."""

    host_buttons = HOST_BUTTONS
    power_off_hold = 5.0  # seconds Menu is held before the box asks to power off

    def __init__(self, table, pinmap, device, *, url=None, clock=time.monotonic, schedule=later,
                 pin_factory=None, simulated=None, power_off=None, state=None):
        """`state` keeps the phones' tokens and the box's language across restarts (a StateFile under the data
        directory; in memory when None). Every pin is `pin_factory`'s (gpiozero's default when None); in mock
        mode `simulated` is the key matrix on those mock pins."""
        self.table = table
        self.pinmap = pinmap
        self.state = state or MemoryState()
        self.lang = self.state.read().get("language", pinmap.language)
        self.display = Display(device)
        self.url = url
        self.pairing = Pairing(self.state, clock)
        self.menu = HostMenu(table, self.wired_seats, self.lang, url, power_off, self._menu_language,
                             self.pairing, self.pair_code)
        self.presenter = Presenter(self.lang)
        self.schedule = schedule
        self._menu_presses = 0  # counts Menu presses, so a hold is told from two presses
        self._pressing = self._revealed = False
        self.sounds = (Sounds(pinmap.buzzer, pinmap.buzzer_kind, pin_factory=pin_factory)
                       if pinmap.buzzer is not None else None)
        self.notice = None  # a rejected press, shown in the title until the next input
        # when_pad_refused(seat, message): a press on a seat's pad was refused; its reason is that seat's alone
        # (the web side tells the seat's phone, docs/architecture.md)
        self.when_pad_refused = None
        self.overlay = None  # a seat's cursor screen, shown until the next input
        self.cursors = {}  # seat -> Cursor
        self._failures = set()  # errors already logged, so a fault that lasts is logged once
        self.pads = make_pads(pinmap, self.seat_pressed, self.host_pressed, clock=clock, schedule=schedule,
                              pin_factory=pin_factory, simulated=simulated)
        self._game_id = self._seats = None  # the game the presenter (and the pairing) have caught up with
        self._undo_told = None  # the version whose undo the OLED's title has told
        self._inputs = 0  # inputs of the box's own under way: each refreshes the OLED once, when it is done
        # Once started, the pads only hand their presses over: one thread of the box applies them (the rules,
        # the journal's commit, the OLED), so the key scan never waits for a commit. Each press handled is
        # told to when_handled(key, outcome) (the virtual box answers a click with it).
        self.when_handled = None
        self._presses = queue.SimpleQueue()
        self._applier = None
        table.subscribe(self._table_changed)
        self.refresh()

    def start(self):
        """Start reading the pads on their own (a matrix scans on its thread) and applying their presses on a
        thread of the box's; until then (tests driving the pads by hand) a press is applied where it is read."""
        self._applier = threading.Thread(target=self._apply_presses, name="box-presses", daemon=True)
        self._applier.start()
        self.pads.start()

    def _apply_presses(self):
        while (key := self._presses.get()) is not None:
            self._apply(key)

    def _handed(self, key):
        """A press read on the pads: handed to the box's thread once started, else applied here and now."""
        if self._applier is not None:
            self._presses.put(key)
            return None
        return self._apply(key)

    def _apply(self, key):
        """Apply the press on `key`, and tell when_handled what it did."""
        kind, *where = key
        outcome = (self._seat_pressed if kind == "seat" else self._host_pressed)(*where)
        if self.when_handled is not None:
            self.when_handled(key, outcome)
        return outcome

    @property
    def wired_seats(self):
        return len(self.pinmap.seats)

    # -- inputs -------------------------------------------------------------------------------------
    def seat_pressed(self, seat, button):
        return self._handed(("seat", seat, button))

    def _seat_pressed(self, seat, button):
        with self.table.lock:
            return self._guarded(("seat", seat, button), lambda: self._seat_press(seat, button))

    def _seat_press(self, seat, button):
        self._revealed = False  # a reveal this press causes sounds after its tick
        self._pressing = True
        try:
            outcome = self._seat_input(seat, lambda prompt: self._pad_press(seat, button, prompt), button=button)
        finally:
            self._pressing = False
        # A refused secret press ticks like any other: the buzzer is public (docs/architecture.md)
        self.sound("refused" if outcome["status"] == "rejected" and not outcome.get("secret") else "tick")
        if self._revealed:
            self.sound("reveal")
        return outcome

    # -- phones -------------------------------------------------------------------------------------
    def pair_code(self, target):
        """A code that pairs a phone with `target`, ("seat", n) or ("host",): the host menu shows it on the OLED,
        the host's phone on its own screen. The OLED is refreshed when it expires (the menu then says so)."""
        with self.table.lock:
            seats = self.table.seats if target[0] == "seat" else None
            code = self.pairing.open(target, seats)
            self.schedule(self.pairing.window + 0.1, self.refresh)
            return code

    def pair(self, code, address=None):
        """A phone typed `code`: (what it holds now, its token), told to the whole table on the OLED — so a seat
        taken by the wrong phone is seen at once. Raises PairingRefused."""
        with self.table.lock:
            target, token = self.pairing.enter(code, address)
            self.menu.paired(target)
            self.notice = None
            self.overlay = screens.Screen(text(self.lang, "phone_joined"), (screens.who(self.lang, target),))
            self.sound("reveal")
            self.refresh()
            return target, token

    def _guarded(self, key, handle):
        """handle() for the input on `key`; any error it raises refuses the input where the table sees it."""
        try:
            return handle()
        except StorageError as e:
            error, reason = e, "storage_full" if e.full else "storage_failing"
        except Exception as e:
            error, reason = e, "box_error"
        failure = (type(error), str(error))
        if failure not in self._failures:
            self._failures.add(failure)
            log.error("the box could not take %s", key, exc_info=error)  # its traceback, outside the except
        self.notice = text(self.lang, reason)
        self.sound("refused")
        try:
            self.refresh()
        except Exception:
            log.exception("the OLED could not be updated")
        return {"status": "rejected", "error": reason}



    def _pad_press(self, seat, button, prompt):
        """A press of the seat's pad, its prompt asked once for the whole input (_seat_input)."""
        if not seat < self.table.seats:
            raise refuse("not_at_table", player=seat + 1, seats=self.table.seats)
        if prompt is not None and prompt.pad is None:
            prompt = prompt.on_cursor()  # the public OLED draws the cursor: never over a private choice
            if prompt is None:
                return "phone"  # nothing of it may be shown: the seat answers on its phone
        cursor = self.cursors.setdefault(seat, Cursor())
        action = cursor.press(prompt, seat, button)
        if action is None:  # the cursor moved: show where it stands (an open choice, seen by all)
            return "moved"
        return self.table.act(action)

    def seat_act(self, seat, action):
        """An action from the seat's phone (or from the host for a seat with neither pad nor phone): the same
        rules and rejections as its pad."""
        def act(_prompt):
            if not isinstance(action, dict) or action.get("seat") != seat:
                raise refuse("not_your_action", player=seat + 1, seat=seat)
            return self.table.act(action)
        return self._seat_input(seat, act)

    def _table_changed(self, version):
        if not self._inputs:  # a change from elsewhere (a phone, the host page, a timer): the OLED follows it
            self.refresh()

    @contextlib.contextmanager
    def _input(self):
        """An input of the box's own, under the table's lock: the OLED is refreshed once, when the outermost
        input is done, not again for each change the table announces meanwhile."""
        with self.table.lock:
            self._inputs += 1
            try:
                yield
            finally:
                self._inputs -= 1
                if not self._inputs:
                    self.refresh()

    def _seat_input(self, seat, act, **about):
        """act(the seat's prompt) for an input of `seat`; what the table and the OLED make of its outcome."""
        with self._input():
            mark = self.presenter.mark()
            self.overlay = None
            if self.menu.mode == "seal":  # any key goes on to the game: a seat's first press too, and it shows
                self.menu.mode = None
            asked = self.table.prompt(seat) if self.table.game is not None and seat < self.table.seats else None
            try:
                outcome = {"seat": seat, **about, "status": act(asked)}
                if outcome["status"] == "moved":
                    cursor = self.cursors[seat]
                    self.overlay = screens.cursor(self.lang, self.table.game, seat, cursor.prompt, cursor.label(),
                                                  cursor.group)
                elif outcome["status"] == "phone":  # the table sees only that the seat is choosing
                    self.overlay = screens.secret_choice(self.lang, seat)
                else:
                    self.presenter.dismiss(mark)  # an action ends the reading of earlier results
                self.notice = None
            except Rejected as e:
                # The reason, worded where it is read: the OLED's language here, the phone's by the web side.
                outcome = {"seat": seat, **about, "status": "rejected", "code": e.code,
                           "error": render(self.lang, e.message), "refusal": e}
                if "button" in about and self.when_pad_refused is not None:
                    self.when_pad_refused(seat, e.message)
                if asked is not None and asked.secret:
                    # The OLED is public: a refused secret press shows nothing (its reason, the button, even
                    # that it was refused could tell what the seat holds or picked); the seat reads it alone.
                    outcome["secret"] = True
                    self.notice = None
                else:
                    self.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'rejected')}"
                    self.overlay = screens.refused(outcome["error"])
            return outcome

    def has_phone(self, seat):
        return self.pairing.holds(("seat", seat), self.table.seats)

    def host_pressed(self, name):
        return self._handed(("host", name))

    def _host_pressed(self, name):
        with self.table.lock:
            self.sound("tick")
            if name == "menu":  # held for power_off_hold seconds, it asks to power the box off
                self._menu_presses += 1
                self.schedule(self.power_off_hold, lambda press=self._menu_presses: self._menu_held(press))
            return self._guarded(("host", name), lambda: self._host_press(name))

    def _host_press(self, name):
        with self._input():
            self.overlay = None
            if not self.menu.press(name):
                if name in ("ok", "next"):
                    self.presenter.ok()
                elif name == "prev":
                    self.presenter.back()
            self.notice = None
            return {"host": name, "status": "done", "message": self.menu.message}

    def _menu_held(self, press):
        if press == self._menu_presses and self.pads.is_pressed(("host", "menu")):
            with self.table.lock:
                self.overlay = None
                self.menu.open("poweroff")
                self.refresh()

    def new_game(self, game, seats, options=None):
        """Start a game: seats beyond the pads the pin map wires play from phones (or through the host)."""
        self.host_act(lambda table: table.new_game(game, seats, options))

    def host_act(self, act):
        """A host action from a phone: act(table) under the box's lock, then the OLED follows."""
        with self._input():
            result = act(self.table)
            self.menu.mode = None
            self.cursors.clear()
            return result

    def set_language(self, language):
        """The OLED's language, kept across restarts (a StateFileError when it cannot be written down)."""
        with self.table.lock:
            data = self.state.read()
            data["language"] = language
            self.state.write(data)
            self.lang = self.menu.lang = self.presenter.lang = language
            self.presenter.catch_up(self.table.view("public"))
            self.refresh()

    def _menu_language(self, language):
        """From the box's own menu: a language that cannot be written down is still shown, and said in the log."""
        try:
            self.set_language(language)
        except StateFileError:
            log.exception("could not keep the language chosen in the menu")
            self.lang = self.menu.lang = self.presenter.lang = language

    # -- output -------------------------------------------------------------------------------------
    def refresh(self):
        with self.table.lock:
            view = self.table.view("public")
            if self.table.game_id != self._game_id:  # a new or resumed game: nothing of it to read yet
                self.presenter.catch_up(view)
                self._game_id = self.table.game_id
                self.cursors.clear()
                if self.table.seats and self.table.seats != self._seats:
                    self._seats = self.table.seats
                    self._void_seat_tokens()
            else:
                queued = len(self.presenter.pages)
                self.presenter.update(view)
                if len(self.presenter.pages) > queued and self._pressing:  # something was revealed
                    self._revealed = True
                elif len(self.presenter.pages) > queued:
                    self.sound("reveal")
            undone = view.get("undone")
            if undone and self._undo_told != view["version"]:  # every undo, from anywhere, is told to the table
                self._undo_told = view["version"]
                self.notice = text(self.lang, "undone_seat", who=screens.seat(self.lang, undone["seat"]))
            if self.menu.is_open:
                screen = self.menu.screen()
            elif self.overlay:  # a seat's cursor, a phone that joined: until the next input
                screen = self.overlay
            elif view.get("game") is None:
                screen = screens.no_game(self.lang, self.url)
            else:
                screen = (self.presenter.is_live and not view["over"] and self._waiting_cursor()
                          or self.presenter.screen(view))
            title = self.notice or self._fault()  # a refusal or a fault has the title
            if title:
                screen = replace(screen, title=title)
            self.display.show(screen)  # the display's own thread sends it, off this lock

    def _waiting_cursor(self):
        """The open choice a pad's cursor makes now, from the first frame: where the cursor stands and its
        keys (None when no wired seat chooses by cursor)."""
        for seat in range(min(self.wired_seats, self.table.seats)):
            prompt = self.table.prompt(seat)
            shown = prompt.on_cursor() if prompt is not None and prompt.pad is None else None  # never a private choice
            if shown is not None:
                cursor = self.cursors.setdefault(seat, Cursor())
                cursor.follow(shown)
                return screens.cursor(self.lang, self.table.game, seat, shown, cursor.label(), cursor.group)
        return None

    def _void_seat_tokens(self):
        try:
            self.pairing.new_table(self.table.seats)
        except StateFileError:  # the old tokens stay written; they are checked against the seat count anyway
            log.exception("could not forget the phones of the last seat count")

    def _fault(self):
        """The title while the journal cannot be written: nothing is taken until it can."""
        fault = self.table.fault
        return text(self.lang, "storage_full" if fault == "full" else "storage_failing") if fault else None



    def sound(self, name):
        if self.sounds:
            self.sounds.play(name)

    def close(self):
        self.pads.close()
        if self._applier is not None:  # the presses read before the pads closed are applied first
            self._presses.put(None)
            self._applier.join(10)
        self.display.close()
        if self.sounds:
            self.sounds.close()

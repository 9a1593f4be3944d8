"""The box: a table, its pads and host panel, the host menu and the OLED."""
import time
from dataclasses import replace

from engine.rules import GAMES, Rejected
from engine.timers import later

from . import screens
from .claims import Claims
from .config import HOST_BUTTONS
from .cursor import Cursor
from .display import Display, png
from .menu import HostMenu
from .pads import make_pads
from .presenter import Presenter
from .sounds import Sounds
from .texts import text


class Box:
    """Wires pads, host panel, menu, presenter and display to one table. Every input and the presentation
    share the table's lock; the display's own thread puts each screen on the panel, off that lock. The web app
    is handed this box: the table, the press and act functions, the OLED frame and the claims; it never imports
    the device."""

    host_buttons = HOST_BUTTONS
    power_off_hold = 5.0  # seconds Menu is held before the box asks to power off

    def __init__(self, table, pinmap, device, *, url=None, clock=time.monotonic, schedule=later,
                 sleep=time.sleep, pin_factory=None, power_off=None):
        self.table = table
        self.pinmap = pinmap
        self.lang = pinmap.language
        self.display = Display(device)
        self.url = url
        self.menu = HostMenu(table, self.wired_seats, self.lang, url, power_off)
        self.presenter = Presenter(self.lang)
        self.sleep = sleep
        self.schedule = schedule
        self._menu_presses = 0  # counts Menu presses, so a hold is told from two presses
        self._pressing = self._revealed = False
        self.sounds = (Sounds(pinmap.buzzer, pinmap.buzzer_kind, pin_factory=pin_factory)
                       if pinmap.buzzer is not None else None)
        self.notice = None  # a rejected press, shown in the title until the next input
        self.overlay = None  # a seat's cursor screen, shown until the next input
        self.cursors = {}  # seat -> Cursor
        self.claims = Claims(clock)
        self.pads = make_pads(pinmap, self.seat_pressed, self.host_pressed, clock=clock, schedule=schedule,
                              pin_factory=pin_factory)
        self._game_id = None  # the game the presenter has caught up with
        table.subscribe(lambda version: self.refresh())
        self.refresh()

    @property
    def wired_seats(self):
        return len(self.pinmap.seats)

    # -- inputs -------------------------------------------------------------------------------------
    def seat_pressed(self, seat, button):
        with self.table.lock:
            if self.claims.confirm(("seat", seat)):  # the press proves a phone sits here; no pick
                self.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'phone_joined')}"
                self.refresh()
                self.sound("tick")
                return {"seat": seat, "button": button, "status": "claimed"}
            self._revealed = False  # a reveal this press causes sounds after its tick
            self._pressing = True
            try:
                outcome = self._seat_input(seat, lambda: self._pad_press(seat, button), button=button)
            finally:
                self._pressing = False
            self.sound("refused" if outcome["status"] == "rejected" else "tick")
            if self._revealed:
                self.sound("reveal")
            return outcome

    def _pad_press(self, seat, button):
        if not seat < self.table.seats:
            raise Rejected(f"player {seat + 1} is not at this table of {self.table.seats}")
        cursor = self.cursors.setdefault(seat, Cursor())
        prompt = self.table.prompt(seat)
        action = cursor.press(prompt, seat, button)
        if action is None:  # the cursor moved: show where it stands (an open choice, seen by all)
            return "moved"
        return self.table.act(action)

    def seat_act(self, seat, action):
        """An action from the seat's phone (or from the host for a seat with neither pad nor phone): the same
        rules and rejections as its pad."""
        def act():
            if not isinstance(action, dict) or action.get("seat") != seat:
                raise Rejected(f"not an action of player {seat + 1}: its \"seat\" must be {seat} (counted from 0)")
            return self.table.act(action)
        return self._seat_input(seat, act)

    def _seat_input(self, seat, act, **about):
        with self.table.lock:
            mark = self.presenter.mark()
            self.overlay = None
            try:
                outcome = {"seat": seat, **about, "status": act()}
                if outcome["status"] == "moved":
                    cursor = self.cursors[seat]
                    self.overlay = screens.cursor(self.lang, self.table.game, seat, cursor.prompt, cursor.label(),
                                                  cursor.group)
                else:
                    self.presenter.dismiss(mark)  # an action ends the reading of earlier results
                self.notice = None
            except Rejected as e:
                outcome = {"seat": seat, **about, "status": "rejected", "error": str(e)}
                self.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'rejected')}"
            self.refresh()
            return outcome

    def has_phone(self, seat):
        return self.claims.holds(("seat", seat), self.table.game_id)

    def host_pressed(self, name):
        with self.table.lock:
            self.sound("tick")
            if name == "menu":  # held for power_off_hold seconds, it asks to power the box off
                self._menu_presses += 1
                self.schedule(self.power_off_hold, lambda press=self._menu_presses: self._menu_held(press))
            unwired = [("seat", s) for s in range(self.wired_seats, self.table.seats)]
            if name == "ok" and self.claims.confirm(("host",), *unwired):
                self.refresh()
                return {"host": name, "status": "claimed"}
            self.overlay = None
            if not self.menu.press(name):
                if name in ("ok", "next"):
                    self.presenter.ok()
                elif name == "prev":
                    self.presenter.back()
            self.notice = None
            self.refresh()
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
        with self.table.lock:
            result = act(self.table)
            self.menu.mode = None
            self.cursors.clear()
            self.refresh()
            return result

    def set_language(self, language):
        with self.table.lock:
            self.lang = self.menu.lang = self.presenter.lang = language
            self.presenter.catch_up(self.table.view("public"))
            self.refresh()

    # -- output -------------------------------------------------------------------------------------
    def refresh(self):
        with self.table.lock:
            view = self.table.view("public")
            if self.table.game_id != self._game_id:  # a new or resumed game: nothing of it to read yet
                self.presenter.catch_up(view)
                self._game_id = self.table.game_id
                self.cursors.clear()
            else:
                queued = len(self.presenter.pages)
                self.presenter.update(view)
                if len(self.presenter.pages) > queued and self._pressing:  # something was revealed
                    self._revealed = True
                elif len(self.presenter.pages) > queued:
                    self.sound("reveal")
            if self.menu.is_open:
                screen = self.menu.screen()
            elif view.get("game") is None:
                screen = screens.no_game(self.lang, self.url)
            else:
                screen = self.overlay or self.presenter.screen(view)
            if self.notice:
                screen = replace(screen, title=self.notice)
            self.display.show(screen)  # the display's own thread sends it, off this lock

    def sound(self, name):
        if self.sounds:
            self.sounds.play(name)

    def oled_png(self):
        with self.table.lock:
            return png(self.display.image)

    # -- the virtual box (mock mode) ------------------------------------------------------------------
    def pad_labels(self, seat):
        """What each of the seat's 8 buttons does now (the printed labels of a game, or the cursor's keys), in
        the box's language."""
        with self.table.lock:
            prompt = self.table.prompt(seat) if seat < self.table.seats else None
            if prompt is not None and prompt.pad is None:
                return CURSOR_LABELS
            game = self.table.game
            if prompt is not None:
                labels = [choice.label if choice else "" for choice in prompt.pad]
            else:
                labels = list(getattr(GAMES[game], "PAD_LABELS", [""] * 8)) if game else [""] * 8
            return [text(self.lang, label, game) if label else "" for label in labels]

    def press(self, seat=None, button=None, host=None, hold=None):
        """Press and release a button of the virtual box (mock mode) as a finger would: held past the
        debounce, or for `hold` seconds. Returns what the press did (None when it did nothing)."""
        key = ("host", host) if host is not None else ("seat", seat, button)
        settle = self.pinmap.debounce_ms / 1000 * 1.5
        hold = settle if hold is None else hold
        self.pads.last.pop(key, None)
        self.pads.tap(key, True)
        outcome = self.pads.last.pop(key, None)
        self.sleep(hold)
        self.pads.tap(key, False)
        self.sleep(settle)
        return outcome

    def close(self):
        self.pads.close()
        self.display.close()
        if self.sounds:
            self.sounds.close()


CURSOR_LABELS = ["<", ">", "", "", "", "", "back", "OK"]


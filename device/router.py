"""Every input of the box to the table: a seat's pad (through its cursor when its prompt has no printed buttons), a
phone acting for a seat, the host panel (to the menu, else to the result pages). Once started, the pads only hand
their presses over and the router's own thread applies them (the rules, the journal's commit, the OLED), so the
key scan never waits for a commit.

No error ends an input: a press that cannot be taken (the journal cannot be written, or anything else fails) is
refused where the table sees it (the OLED's title, the refusal buzz, a notice on the phones), logged once, and
the next press works as soon as the fault is gone."""
import logging
import queue
import threading
import time

from engine.journal import StorageError
from engine.rules import Rejected
from engine.rules.protocol import refuse
from engine.words import render

from . import screens
from .cursor import Cursor
from .pads import make_pads
from .texts import text

log = logging.getLogger(__name__)


class InputRouter:
    power_off_hold = 5.0  # seconds Menu is held before the box asks to power off

    def __init__(self, table, pinmap, menu, composer, cursors, *, sound, schedule, clock=time.monotonic,
                 pin_factory=None):
        """The pads of `pinmap` on `pin_factory`'s pins are the router's own; `composer` (device/composer.py)
        is told what each input leaves on the OLED; `cursors` (seat -> Cursor) are the pads' cursors;
        `schedule(delay, callback)` runs the power-off hold and the pads' debounce later."""
        self.table, self.menu, self.composer, self.cursors = table, menu, composer, cursors
        self.wired_seats = len(pinmap.seats)
        self._sound, self._schedule = sound, schedule
        self._menu_presses = 0  # counts Menu presses, so a hold is told from two presses
        self._failures = set()  # errors already logged, so a fault that lasts is logged once
        # when_handled(key, outcome): a press of the pads was applied (the virtual box answers a click with it);
        # when_pad_refused(seat, message): a press on a seat's pad was refused, its reason that seat's alone
        self.when_handled = self.when_pad_refused = None
        self._presses = queue.SimpleQueue()
        self._applier = None
        self.pads = make_pads(pinmap, self.seat_pressed, self.host_pressed, clock=clock, schedule=schedule,
                              pin_factory=pin_factory)

    @property
    def lang(self):
        return self.composer.lang

    def start(self):
        """Start reading the pads on their own (a matrix scans on its thread) and applying their presses on a
        thread of the router's; until then (tests driving the pads by hand) a press is applied where it is read."""
        self._applier = threading.Thread(target=self._apply_presses, name="box-presses", daemon=True)
        self._applier.start()
        self.pads.start()

    def _apply_presses(self):
        while (key := self._presses.get()) is not None:
            self._apply(key)

    def _handed(self, key):
        """A press read on the pads: handed to the router's thread once started, else applied here and now."""
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

    # -- a seat's pad and phone ---------------------------------------------------------------------------
    def seat_pressed(self, seat, button):
        self._sound("tick")  # the key's feedback, as it is read: its sound never waits on what the press does
        return self._handed(("seat", seat, button))

    def _seat_pressed(self, seat, button):
        return self._guarded(("seat", seat, button), lambda: self._seat_press(seat, button))

    def _seat_press(self, seat, button):
        composer = self.composer
        composer.revealed, composer.pressing = False, True  # a reveal this press causes sounds after its tick
        try:
            outcome = self._seat_input(seat, lambda prompt: self._pad_press(seat, button, prompt), button=button)
        finally:
            composer.pressing = False
        if outcome["status"] == "rejected" and not outcome.get("secret"):  # the buzzer is public: a refused
            self._sound("refused")  # secret press sounds its tick alone, as a taken one (docs/architecture.md)
        if composer.revealed:
            self._sound("reveal")
        return outcome

    def _pad_press(self, seat, button, prompt):
        """A press of the seat's pad, its prompt asked once for the whole input (_seat_input): "moved", "phone",
        or the action it makes for the table to answer."""
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
        return action

    def seat_act(self, seat, action):
        """An action from the seat's phone (or from the host for a seat with neither pad nor phone): the same
        rules and rejections as its pad."""
        return self._seat_input(seat, lambda _prompt: action)

    def _seat_input(self, seat, act, **about):
        """act(the seat's prompt) for an input of `seat`, "moved", "phone" or an action for the table to answer;
        what the table and the OLED make of its outcome."""
        composer = self.composer
        with composer.batch():
            mark = composer.presenter.mark()
            composer.overlay = None
            if self.menu.mode == "seal":  # any key goes on to the game: a seat's first press too, and it shows
                self.menu.mode = None
            asked = self.table.prompt(seat) if self.table.game is not None and seat < self.table.seats else None
            # Whose the outcome is: a secret pick's, or what the seat's phone sends where it is offered its
            # private choices (a refusal could name what it holds), are the seat's alone; a pad's cursor runs
            # over public choices only, so the table hears of those as of any other.
            hidden = asked is not None and (asked.secret or (asked.is_private and "button" not in about))
            try:
                made = act(asked)
            except Rejected as e:
                made = e
            refusal = None
            if not isinstance(made, str):  # an action, or a refusal the pad found: the table answers it
                made, refusal, hidden = self.table.answer(seat, made, pad="button" in about)
            if refusal is None:
                outcome = {"seat": seat, **about, "status": made}
                if hidden:
                    outcome["secret"] = True
                if made == "moved":
                    cursor = self.cursors[seat]
                    composer.overlay = screens.cursor(self.lang, self.table.game, seat, cursor.prompt,
                                                      cursor.label(), cursor.group)
                elif made == "phone":  # the table sees only that the seat is choosing
                    composer.overlay = screens.secret_choice(self.lang, seat)
                else:
                    composer.presenter.dismiss(mark)  # an action ends the reading of earlier results
                composer.notice = None
            else:
                # The reason, worded where it is read: the OLED's language here, the phone's by the web side.
                outcome = {"seat": seat, **about, "status": "rejected", "code": refusal.code,
                           "error": render(self.lang, refusal.message), "refusal": refusal}
                if "button" in about and self.when_pad_refused is not None:
                    self.when_pad_refused(seat, refusal.message)
                if hidden:
                    # The OLED is public: a refused secret press shows nothing (its reason, the button, even
                    # that it was refused could tell what the seat holds or picked); the seat reads it alone.
                    outcome["secret"] = True
                    composer.notice = None
                    # A pad's press, seen by the table, of a seat that has picked: refused does all that taken
                    # does, its pick taken again by the table's answer. (Its phone offers only what the seat may
                    # pick: a refusal there is a request of its own making, refused as any bad input.)
                    if "button" in about and asked is not None and asked.current is not None:
                        composer.presenter.dismiss(mark)
                else:
                    composer.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'rejected')}"
                    composer.overlay = screens.refused(outcome["error"])
            return outcome

    # -- the host panel -----------------------------------------------------------------------------------
    def host_pressed(self, name):
        self._sound("tick")
        return self._handed(("host", name))

    def _host_pressed(self, name):
        if name == "menu":  # held for power_off_hold seconds, it asks to power the box off
            self._menu_presses += 1
            self._schedule(self.power_off_hold, lambda press=self._menu_presses: self._menu_held(press))
        return self._guarded(("host", name), lambda: self._host_press(name))

    def _host_press(self, name):
        composer = self.composer
        with composer.batch():
            composer.overlay = None
            if not self.menu.press(name):
                if name in ("ok", "next"):
                    if not composer.presenter.ok() and name == "ok" and self.table.view("public")["over"]:
                        self.menu.after_the_end()
                elif name == "prev":
                    composer.presenter.back()
            composer.notice = None
            return {"host": name, "status": "done", "message": self.menu.message}

    def _menu_held(self, press):
        if press == self._menu_presses and self.pads.is_pressed(("host", "menu")):
            with self.composer.batch():
                self.composer.overlay = None
                self.menu.open("poweroff")

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
        self._sound("refused")
        try:
            with self.composer.batch():  # refreshed as it ends
                self.composer.notice = text(self.lang, reason)
        except Exception:
            log.exception("the OLED could not be updated")
        return {"status": "rejected", "error": reason}

    def close(self):
        self.pads.close()
        if self._applier is not None:  # the presses read before the pads closed are applied first
            self._presses.put(None)
            self._applier.join(10)

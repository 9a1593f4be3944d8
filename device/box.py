"""The box: one table and the parts that make it a box on the table — the pads and the host panel, the OLED, the
buzzer, the language and the phones' pairing — around its face (device/face.py), a pure reducer.

A press goes one way: the pads read a key (its tick sounds at once) and post `Pressed`; the box's one thread
steps the face with it and does the effects it asks for (an action for the table, a code, a sound); what those
lead to — the table's new moments, posted by its subscriber under the table's lock, and the answers — is stepped
right after it, before any press read meanwhile; the OLED shows the face's screen once per batch. The phones
and the host page act on the table from their own threads and post what they did. Nothing is rendered under the
table's lock, and nothing the face decides depends on a secret: it sees the table only as device/seen.py draws it.

The web side reaches the box through one port (device/web_port.py), never directly."""
import collections
import contextlib
import itertools
import logging
import threading
import time

from engine.journal import StorageError
from engine.rules import Rejected
from engine.state_file import MemoryState, StateFileError
from engine.timers import Scheduler
from web_companion.pairing import Pairing

from . import face, memory, screens
from .config import HOST_BUTTONS
from .display import Display
from .effects import (Act, Acted, Answered, ChooseLanguage, CloseCode, CodeOpened, CodeOver, Failed, HostAct,
                      HostActed, HostDone, Joined, LanguageChanged, OpenCode, PowerOff, PoweredOff,
                      Pressed, Sound, TableChanged, WaitHeld, Held)
from .language import Language
from .pads import make_pads
from .seen import NOTHING, seen as seen_of
from .sounds import Sounds

log = logging.getLogger(__name__)

POWER_OFF_HOLD = 5.0  # seconds Menu is held before the box asks to power off


class Box:
    host_buttons = HOST_BUTTONS
    power_off_hold = POWER_OFF_HOLD

    def __init__(self, table, pinmap, device, *, power_off, url=None, clock=time.monotonic, schedule=None,
                 pin_factory=None, state=None):
        """`device` is the OLED's luma device; `state` keeps the phones' tokens and the box's language across
        restarts (a StateFile under the data directory; in memory when None). Every pin is `pin_factory`'s
        (gpiozero's default when None). `power_off()` shuts the box down: None once it is going down, else the
        message id of why not. `schedule(delay, callback)` runs every delay of the box (the composition root's
        one Scheduler, or the tests' clock; one of the box's own, closed with it, when None)."""
        self._own_scheduler = Scheduler() if schedule is None else None
        self.schedule = schedule or self._own_scheduler
        self.table, self.pinmap, self.url = table, pinmap, url
        self.state = state or MemoryState()
        self.language = Language(self.state, pinmap.language)
        self.display = Display(device)
        self.pairing = Pairing(self.state, clock)
        self.sounds = (Sounds(pinmap.buzzer, pinmap.buzzer_kind, pin_factory=pin_factory)
                       if pinmap.buzzer is not None else None)
        self._seats = None  # the seat count whose phones the pairing keeps
        self._seats_changed()
        self._power_off = power_off
        self._failures = set()  # errors already logged, so a fault that lasts is logged once
        self._listeners = []  # listener(key, outcome) for every press's outcome
        self._events = collections.deque()
        self._next = collections.deque()  # what the event being stepped led to: stepped before any other
        self._waiting = threading.Condition()
        self._stepping = threading.Lock()  # held by whoever steps the face: its thread, or a test's before start
        self._stepper = None  # the thread stepping the face now
        self._thread = None
        self._moments = itertools.count()  # the order the table's moments came in, told at each TableChanged
        self._seen_at = -1
        self.seen = NOTHING  # until the first TableChanged, stepped before this returns
        self.face = face.start(face.Panel(self.wired_seats, url, self.pairing.window), self.language.value)
        self.pads = make_pads(pinmap, self.seat_pressed, self.host_pressed, clock=clock, schedule=self.schedule,
                              pin_factory=pin_factory)
        # Under the table's lock, so the moments are counted in the order they were made
        self._unsubscribe = table.subscribe(lambda moment: self.post(TableChanged(moment, next(self._moments))))
        self.language.subscribe(lambda language: self.post(LanguageChanged(language)))
        order = next(self._moments)  # counted before it is read: a later moment posted first makes it stale
        self.post(TableChanged(table.moment, order))  # catch up with the table as it stands (a game resumed)

    @property
    def wired_seats(self):
        return len(self.pinmap.seats)

    @property
    def menu(self):
        """The host menu as it stands (device/menu.py)."""
        return self.face.menu

    def subscribe_presses(self, listener):
        """listener(key, outcome) once the press of each pad or host key has done what it does (the virtual box
        answers a click with it; a seat's phone hears its pad's refusals). Called on the box's thread."""
        self._listeners.append(listener)

    # -- the face's one thread ----------------------------------------------------------------------------
    def start(self):
        """Read the pads on their own and step the face on the box's thread; until then (tests driving the pads by
        hand) whoever posts an event steps it."""
        self._thread = threading.Thread(target=self._run, name="box", daemon=True)
        self._thread.start()
        self.pads.start()

    def post(self, *events):
        """Queue events for the face: stepped in the order they came, after those before them. What the event
        being stepped leads to (its effects' answers, the table's moments they made) is stepped right after it."""
        if threading.get_ident() == self._stepper:
            self._next.extend(events)
            return
        with self._waiting:
            self._events.extend(events)
            self._waiting.notify()
        if self._thread is None:
            while self._stepping.acquire(blocking=False):  # busy elsewhere (or further up this thread): it steps it
                try:
                    self._step_queued()
                finally:
                    self._stepping.release()
                with self._waiting:
                    if not self._events:
                        return

    @contextlib.contextmanager
    def _input(self):
        """An input from a phone or the host page, which the table answers and the face then hears of: until the
        box is started, its events are stepped once it is done (one screen for it, as on the box's thread)."""
        if self._thread is not None:
            yield
            return
        try:
            with self._stepping:  # posts meanwhile only queue
                yield
        finally:
            self.post()

    def _run(self):
        while True:
            with self._waiting:
                self._waiting.wait_for(lambda: self._events)
                if self._events[0] is None:
                    return
            with self._stepping:
                self._step_queued()

    def _step_queued(self):
        """Step every event queued, each followed by what it led to, then show the screen once."""
        self._stepper = threading.get_ident()
        try:
            while True:
                with self._waiting:
                    if not self._events or self._events[0] is None:
                        break
                    self._next.append(self._events.popleft())
                while self._next:
                    self._step(self._next.popleft())
        finally:
            self._stepper = None
        try:
            self.display.show(face.screen(self.face, self.seen))  # the display's own thread sends it
        except Exception:
            log.exception("the OLED could not be updated")

    def _step(self, event):
        """Step the face with `event` and do its effects. No error stops the box: it is logged once, and the key
        whose press it was refused where the table sees it (the next press works as soon as the fault is gone)."""
        try:
            if isinstance(event, TableChanged):
                if event.order < self._seen_at:
                    return  # a later moment was stepped already (posted from another thread first)
                self.seen, self._seen_at = seen_of(event.moment, self.wired_seats), event.order
            self.face, effects = face.step(self.face, event, self.seen)
            for effect in effects:
                self._do(effect)
        except Exception as e:  # a refusal that fails in turn is only logged
            self._failed(None if isinstance(event, Failed) else getattr(event, "key", None), e)

    def _failed(self, key, error):
        """Log `error` once (a fault that lasts is logged once) and refuse `key`'s press, if a key's it was."""
        failure = (type(error), str(error))
        if failure not in self._failures:
            self._failures.add(failure)
            log.error("the box could not take %s", key, exc_info=error)
        if key is not None:
            storage = isinstance(error, StorageError)
            self.post(Failed(key, ("storage_full" if error.full else "storage_failing") if storage else "box_error"))

    # -- what the face asks for ----------------------------------------------------------------------------
    def _do(self, effect):
        kind = type(effect)
        if kind is Sound:
            self.sound(effect.name)
        elif kind is Answered:
            for listener in self._listeners:
                listener(effect.key, effect.outcome)
        elif kind is Act:
            self._asked(effect.key, lambda: Acted(effect.seat, effect.key,
                                                  self.table.answer(effect.seat, effect.action, pad=True),
                                                  effect.since))
        elif kind is HostAct:
            self._asked(effect.key, lambda: self._host_act(effect))
        elif kind is OpenCode:
            self._asked(effect.key, lambda: CodeOpened(self.pair_code(effect.target), effect.key))
        elif kind is CloseCode:
            if self.pairing.showing(effect.code.target) == effect.code:  # never a newer code, the host's phone's
                self.pairing.close(effect.code.target)
        elif kind is ChooseLanguage:
            self.language.choose(effect.language)
        elif kind is PowerOff:
            self._asked(effect.key, lambda: PoweredOff(self._power_off(), effect.key))
        elif kind is WaitHeld:
            self.schedule(self.power_off_hold, lambda: self._menu_held(effect.press))
        else:
            raise TypeError(f"not an effect of the box: {effect!r}")

    def _asked(self, key, answer):
        """Post what answer() gives; any error refuses the key's press where the table sees it, logged once."""
        try:
            self.post(answer())
        except Exception as e:
            self._failed(key, e)

    def _host_act(self, effect):
        try:
            if effect.kind == "new_game":
                self._new_game(*effect.args)
            else:
                (self.table.undo if effect.kind == "undo" else self.table.end_game)()
        except Rejected as e:
            return HostDone(effect.kind, effect.key, e)
        return HostDone(effect.kind, effect.key)

    def _menu_held(self, press):
        if self.pads.is_pressed(("host", "menu")):
            self.post(Held(press))

    # -- inputs -----------------------------------------------------------------------------------------
    def seat_pressed(self, seat, button):
        self.sound("tick")  # the key's feedback, as it is read: its sound never waits on what the press does
        self.post(Pressed(("seat", seat, button)))

    def host_pressed(self, name):
        self.sound("tick")
        self.post(Pressed(("host", name)))

    def seat_act(self, seat, action):
        """An action from the seat's phone (or from the host for a seat with neither pad nor phone): the same
        rules and rejections as its pad. Its outcome, its refusal's words in the box's language."""
        with self._input():
            since = self.table.version
            answer = self.table.answer(seat, action)
            self.post(Acted(seat, None, answer, since))
        return face.outcome(seat, None, answer, self.language.value)

    # -- the host's actions from the host's phone ---------------------------------------------------------
    def _new_game(self, game, seats, options=None):
        """The last game's pages are forgotten and the memory it held is handed back to the system."""
        self.table.new_game(game, seats, options)
        self._seats_changed()
        screens.forget_pages()
        memory.release()

    def _seats_changed(self):
        """A game of another seat count is in play (started, or resumed at start): the phones of the last count
        are forgotten, before any code for the new one can be asked for."""
        seats = self.table.seats
        if not seats or seats == self._seats:
            return
        self._seats = seats
        try:
            self.pairing.new_table(seats)
        except StateFileError:  # the old tokens stay written; they are checked against the seat count anyway
            log.exception("could not forget the phones of the last seat count")

    def new_game(self, game, seats, options=None):
        with self._input():
            self._new_game(game, seats, options)
            self.post(HostActed("new_game"))

    def undo(self):
        with self._input():
            self.table.undo()
            self.post(HostActed("undo"))

    def end_game(self):
        with self._input():
            self.table.end_game()
            self.post(HostActed("end"))

    def set_language(self, language):
        """The box's language, kept across restarts (a StateFileError when it cannot be written down)."""
        self.language.keep(language)

    # -- phones ----------------------------------------------------------------------------------------
    def pair_code(self, target):
        """A code that pairs a phone with `target`, ("seat", n) or ("host",): the host menu shows it on the OLED,
        the host's phone on its own screen. A code it replaces, and this one when it expires, are over."""
        seats = self.table.seats if target[0] == "seat" else None
        before = self.pairing.showing(target)
        code = self.pairing.open(target, seats)
        if before is not None and before != code:
            self.post(CodeOver(before))
        self.schedule(self.pairing.window + 0.1, lambda: self.post(CodeOver(code)))
        return code

    def pair(self, code, address=None):
        """A phone typed `code`: (what it holds now, its token), told to the whole table on the OLED — so a seat
        taken by the wrong phone is seen at once. Raises PairingRefused."""
        return self._joined(self.pairing.enter(code, address))

    def pair_link(self, key):
        """A phone opened the link of a code's QR code: as `pair`."""
        return self._joined(self.pairing.follow(key))

    def _joined(self, entered):
        target, token = entered
        self.post(Joined(target))
        return target, token

    def has_phone(self, seat):
        return self.pairing.holds(("seat", seat), self.table.seats)

    # -- output ----------------------------------------------------------------------------------------
    def sound(self, name):
        if self.sounds:
            self.sounds.play(name)

    def close(self):
        """The presses already read are applied, then the OLED says the box stopped (unless it says it powers
        off) and every part closes."""
        self.pads.close()
        self._unsubscribe()
        if self._thread is not None:
            with self._waiting:
                self._events.append(None)
                self._waiting.notify()
            self._thread.join(10)
        if self.face.menu.mode != "off":
            self.display.show(screens.box_message(self.language.value, "stopped"))
        self.display.close()
        if self.sounds:
            self.sounds.close()
        if self._own_scheduler:
            self._own_scheduler.close()

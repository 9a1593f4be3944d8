"""The box: one table and the parts that make it a box on the table. It only composes them:

- the input router (device/router.py): the pads and the host panel, and a phone's actions for a seat, to the table;
- the screen composer (device/composer.py): what the OLED shows, over the display's own thread;
- the host menu (device/menu.py), whose host actions take the phones' path (`new_game`, `undo`, `end_game` here);
- the box's language (device/language.py), one setting every part reads as it draws;
- the phones' pairing (engine/pairing.py) and the buzzer's sounds.

The web side reaches it through one port (device/web_port.py), never directly."""
import logging
import time

from web_companion.pairing import Pairing
from engine.state_file import MemoryState, StateFileError
from engine.timers import Scheduler

from . import memory, screens
from .composer import ScreenComposer
from .config import HOST_BUTTONS
from .display import Display
from .language import Language
from .menu import HostMenu
from .router import InputRouter
from .sounds import Sounds
from .texts import text

log = logging.getLogger(__name__)


class Box:
    host_buttons = HOST_BUTTONS
    power_off_hold = InputRouter.power_off_hold

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
        cursors = {}  # seat -> the Cursor of its pad: moved by the inputs, drawn by the composer
        self.menu = HostMenu(table, self, self.wired_seats, self.language, url=url, power_off=power_off,
                             pairing=self.pairing, pair_code=self.pair_code)
        self.composer = ScreenComposer(table, self.menu, self.display, self.language, cursors,
                                       wired_seats=self.wired_seats, url=url, sound=self.sound,
                                       when_new_game=self._void_seat_tokens)
        self.router = InputRouter(table, pinmap, self.menu, self.composer, cursors, sound=self.sound, clock=clock,
                                  schedule=self.schedule, pin_factory=pin_factory)
        self.pads = self.router.pads
        self.composer.refresh()

    @property
    def wired_seats(self):
        return len(self.pinmap.seats)

    def start(self):
        """Read the pads on their own and apply their presses on the router's thread."""
        self.router.start()

    # -- the host's actions: the host's phone and the host menu alike ---------------------------------------
    def host_act(self, act):
        """act(table) as the host, under the table's lock; the menu closes, the cursors start over and the OLED
        follows once."""
        with self.composer.batch():
            result = act(self.table)
            self.menu.mode = None
            self.composer.cursors.clear()
            return result

    def new_game(self, game, seats, options=None):
        """Start a game: seats beyond the pads the pin map wires play from phones (or through the host). The last
        game's pages are forgotten and the memory it held is handed back to the system (device/memory.py)."""
        self.host_act(lambda table: table.new_game(game, seats, options))
        screens.forget_pages()
        memory.release()

    def undo(self):
        self.host_act(lambda table: table.undo())

    def end_game(self):
        self.host_act(lambda table: table.end_game())

    def seat_act(self, seat, action):
        return self.router.seat_act(seat, action)

    def set_language(self, language):
        """The box's language, kept across restarts (a StateFileError when it cannot be written down)."""
        with self.table.lock:
            self.language.keep(language)

    # -- phones ----------------------------------------------------------------------------------------
    def pair_code(self, target):
        """A code that pairs a phone with `target`, ("seat", n) or ("host",): the host menu shows it on the OLED,
        the host's phone on its own screen. The OLED is refreshed when it expires (the menu then says so)."""
        with self.table.lock:
            seats = self.table.seats if target[0] == "seat" else None
            code = self.pairing.open(target, seats)
            self.schedule(self.pairing.window + 0.1, self.composer.refresh)
            return code

    def pair(self, code, address=None):
        """A phone typed `code`: (what it holds now, its token), told to the whole table on the OLED — so a seat
        taken by the wrong phone is seen at once. Raises PairingRefused."""
        return self._joined(lambda: self.pairing.enter(code, address))

    def pair_link(self, key):
        """A phone opened the link of a code's QR code: as `pair`."""
        return self._joined(lambda: self.pairing.follow(key))

    def _joined(self, enter):
        with self.composer.batch():
            target, token = enter()
            self.menu.paired(target)
            lang = self.language.value
            self.composer.notice = None
            self.composer.overlay = screens.Screen(text(lang, "phone_joined"), (screens.who(lang, target),))
            self.sound("reveal")
            return target, token

    def has_phone(self, seat):
        return self.pairing.holds(("seat", seat), self.table.seats)

    def _void_seat_tokens(self, seats):
        try:
            self.pairing.new_table(seats)
        except StateFileError:  # the old tokens stay written; they are checked against the seat count anyway
            log.exception("could not forget the phones of the last seat count")

    # -- output ----------------------------------------------------------------------------------------
    def sound(self, name):
        if self.sounds:
            self.sounds.play(name)

    def close(self):
        """The presses already read are applied, then the OLED says the box stopped (unless it says it powers
        off) and every part closes."""
        self.router.close()
        if self.menu.mode != "off":
            self.display.show(screens.box_message(self.language.value, "stopped"))
        self.display.close()
        if self.sounds:
            self.sounds.close()
        if self._own_scheduler:
            self._own_scheduler.close()

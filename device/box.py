"""The box: a table, its pads and host panel, the OLED, and (in mock mode) the virtual box on the web."""
import argparse
import logging
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from gpiozero.exc import GPIOZeroError
from luma.core.error import Error as LumaError

from engine.journal import Journal, JournalError
from engine.rules import Rejected
from engine.table import Table
from engine.texts import text
from engine.timers import later

from . import screens
from .claims import Claims
from .config import DEFAULT_PINMAP, ConfigError, load_pinmap
from .display import Display, open_device
from .menu import HostMenu
from .network import box_url
from .pads import Pads
from .presenter import Presenter


class Box:
    """Wires pads, host panel, menu, presenter and display to one table. Every input, the presentation
    and the display share the table's lock."""

    def __init__(self, table, pinmap, device, *, url=None, clock=time.monotonic, schedule=later,
                 sleep=time.sleep, pin_factory=None):
        self.table = table
        self.pinmap = pinmap
        self.lang = pinmap.language
        self.display = Display(device)
        self.url = url
        self.menu = HostMenu(table, len(pinmap.seats), self.lang, url)
        self.presenter = Presenter(self.lang)
        self.sleep = sleep
        self.last_outcome = None
        self.notice = None  # a rejected press, shown in the title until the next input
        self.claims = Claims(clock)
        self.pads = Pads(pinmap, self.seat_pressed, self.host_pressed, clock=clock, schedule=schedule,
                         pin_factory=pin_factory)
        self._game_id = None  # the game the presenter has caught up with
        table.subscribe(lambda version: self.refresh())
        self.refresh()

    # -- inputs -------------------------------------------------------------------------------------
    def seat_pressed(self, seat, button):
        with self.table.lock:
            if self.claims.confirm(("seat", seat)):  # the press proves a phone sits here; no pick
                self.last_outcome = {"seat": seat, "button": button, "status": "claimed"}
                self.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'phone_joined')}"
                self.refresh()
                return self.last_outcome
            return self._seat_input(seat, lambda: self.table.press(seat, button), button=button)

    def seat_pick(self, seat, card):
        """A pick from the seat's phone: the same rules and rejections as its pad."""
        return self._seat_input(seat, lambda: self.table.act({"seat": seat, "pick": card}))

    def _seat_input(self, seat, act, **about):
        with self.table.lock:
            mark = self.presenter.mark()
            try:
                self.last_outcome = {"seat": seat, **about, "status": act()}
                self.presenter.dismiss(mark)  # a pick ends the reading of earlier results
                self.notice = None
            except Rejected as e:
                self.last_outcome = {"seat": seat, **about, "status": "rejected", "error": str(e)}
                self.notice = f"{screens.seat(self.lang, seat)}: {text(self.lang, 'rejected')}"
            self.refresh()
            return self.last_outcome

    def host_pressed(self, name):
        with self.table.lock:
            if name == "ok" and self.claims.confirm(("host",)):
                self.last_outcome = {"host": name, "status": "claimed"}
                self.refresh()
                return
            if not self.menu.press(name):
                if name == "ok":
                    self.presenter.ok()
                elif name == "prev":
                    self.presenter.back()
                elif name == "next":
                    self.presenter.ok()
            self.last_outcome = {"host": name, "status": "done", "message": self.menu.message}
            self.notice = None
            self.refresh()

    def new_game(self, game, seats, options=None):
        """Start a game the pads can play: no more seats than the pin map wires."""
        wired = len(self.pinmap.seats)
        if isinstance(seats, int) and not isinstance(seats, bool) and seats > wired:
            raise Rejected(f"this box wires {wired} seats, not {seats}")
        self.host_act(lambda table: table.new_game(game, seats, options))

    def host_act(self, act):
        """A host action from a phone: act(table) under the box's lock, then the OLED follows."""
        with self.table.lock:
            result = act(self.table)
            self.menu.mode = None
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
            else:
                self.presenter.update(view)
            if self.menu.is_open:
                screen = self.menu.screen()
            elif view.get("game") is None:
                screen = screens.no_game(self.lang, self.url)
            else:
                screen = self.presenter.screen(view)
            if self.notice:
                screen = replace(screen, title=self.notice)
            try:
                self.display.show(screen)
            except (OSError, LumaError):  # a loose display cable must not stop the game
                logging.getLogger(__name__).exception("the OLED did not take the frame")

    # -- the virtual box (mock mode) ------------------------------------------------------------------
    def pin_of(self, seat=None, button=None, host=None):
        """The pin of a seat's button (1–8) or of a host button, by name."""
        return (self.pads.host[host] if host is not None else self.pads.seats[seat][button - 1]).pin

    def click(self, pin):
        """Press and release a mock pin as a finger would: held past the debounce window. Returns what the
        press did (None when it did nothing)."""
        hold = self.pinmap.debounce_ms / 1000 * 1.5
        with self.table.lock:
            self.last_outcome = None
            pin.drive_low()
            outcome = self.last_outcome
        self.sleep(hold)
        pin.drive_high()
        self.sleep(hold)
        return outcome

    def close(self):
        self.pads.close()


MOCK_REVISIONS = {"cm": "a020a0", "pi": "a02082"}  # gpiozero board revisions with the pin map's GPIO


def box_main(argv):
    parser = argparse.ArgumentParser(prog="arbitro", description="Run the Arbitro box. "
                                     "`arbitro replay LOG` replays a game log instead.")
    parser.add_argument("--mock", action="store_true", help="desktop mock mode: mock pins, emulated OLED, "
                        "the virtual box at /box")
    parser.add_argument("--host", default=None, help="address to serve on (default: 127.0.0.1 with --mock, "
                        "else 0.0.0.0)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("ARBITRO_DATA", "data")),
                        help="where the journal lives (default: ./data)")
    parser.add_argument("--pinmap", type=Path, default=DEFAULT_PINMAP)
    parser.add_argument("--game", help="start this game unless one is unfinished")
    parser.add_argument("--seats", type=int, help="seats for --game")
    parser.add_argument("--reveal-delay", type=float, help="seconds picks may change after the last lock-in")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="arbitro: %(message)s")
    if (args.game is None) != (args.seats is None):
        parser.error("--game and --seats go together")
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        parser.exit(2, f"arbitro: {e}\n")
    if args.mock:
        os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
        os.environ.setdefault("GPIOZERO_MOCK_REVISION", MOCK_REVISIONS[pinmap.board])
    try:
        table = Table(Journal(args.data / "journal.sqlite3"),
                      reveal_delay=pinmap.reveal_delay if args.reveal_delay is None else args.reveal_delay)
    except JournalError as e:
        parser.exit(2, f"arbitro: {e}\n")
    host = args.host or ("127.0.0.1" if args.mock else "0.0.0.0")
    url = box_url(host, args.port)
    try:
        box = Box(table, pinmap, open_device(pinmap, args.mock), url=url)
    except (GPIOZeroError, LumaError, OSError) as e:
        table.close()
        parser.exit(2, f"arbitro: the box's hardware is not answering ({type(e).__name__}: {e}); "
                       "on a computer without the box, run `arbitro --mock`\n")
    if args.game and (table.game is None or table.view()["over"]):
        try:
            box.new_game(args.game, args.seats)
        except Rejected as e:
            box.close()
            table.close()
            parser.exit(2, f"arbitro: {e}\n")
    elif table.game:
        print(f"arbitro: resuming the unfinished {table.game} game from {args.data}", file=sys.stderr)

    import waitress

    from web_companion import create_app
    print(f"arbitro: serving on {url}" + (f" — the virtual box is at {url}/box" if args.mock else ""),
          file=sys.stderr, flush=True)
    try:
        # Each phone's live stream holds a thread: room for 50 phones and their requests.
        waitress.serve(create_app(box, mock=args.mock), host=host, port=args.port, threads=100,
                       connection_limit=250, channel_timeout=120, ident="arbitro")
    finally:
        box.close()
        table.close()
    return 0

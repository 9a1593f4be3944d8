"""The host panel's menu: choose a game, the players and the options, start; confirm undo and ending a game.
The whole box is usable without a phone. Every screen shows one thing at a time, so nothing is cut and the
cursor never scrolls out of sight; every menu opens on a harmless entry."""
from engine.games import GAMES
from engine.rules import Rejected
from engine.rules.options import CHOICE, SEAT
from engine.words import render

from .network import LOCAL_URL
from .screens import Screen, box_message, join, pairing_code, seat, who, wrap
from .texts import text

# The menu's entries while a game is played, and when none is; the first only closes the menu
PLAYING = ("back", "join", "new", "language", "end")
IDLE = ("back", "new", "join", "language")
SHOWN = 3  # entries on the panel at once, the chosen one always among them
LANGUAGE_ORDER = ("it", "en")


class HostMenu:
    def __init__(self, table, host, wired_seats, language, *, power_off, url=None, pairing=None, pair_code=None):
        """`table` is read; the host's actions go to `host` (new_game, undo, end_game: the phones' path, the
        box's). `language`: the box's (device/language.py). `power_off()` shuts the box down: None once it is
        going down, else the message id of why not."""
        self.table, self.host = table, host
        self.pairing = pairing  # the phones paired (engine/pairing.py)
        self.pair_code = pair_code  # opens a code that pairs a phone with a seat or the host role (device/box.py)
        self.power_off = power_off
        self.language = language
        self.url = url  # where phones join; shown as a QR code
        self.wired_seats = wired_seats
        # None (closed), "setup", "seal" (a new game's draws sealed), "undo", "main", "join" (the QR code), "pair"
        # (whom a phone is for), "code" (its code), "end", "poweroff" (asking), "off" (going down) or "failed" (it
        # could not power off: said on the OLED until a key)
        self.mode = None
        self.step = 0  # the setup step shown
        self.entry = 0  # the chosen entry of the main menu
        self.target = 0  # whom a phone is paired with: the host role, then each seat
        self.code = None  # the pairing code shown
        self.games = list(GAMES)  # in the order they are registered
        self.game = self.games[0]
        self.seats = GAMES[self.game].seats[0]
        self.options = self._defaults()
        self.message = None

    @property
    def lang(self):
        return self.language.value

    @property
    def is_open(self):
        return self.mode is not None

    def _menu_options(self):
        """The options the OLED menu can set (a list option keeps its default here; the host page sets it)."""
        return [o for o in GAMES[self.game].options if o.values(self.seats) is not None]

    def _defaults(self):
        return {o.name: o.default_for(self.seats) for o in self._menu_options()}

    def steps(self):
        """The setup's steps: the game, the seat count, then each option the menu sets."""
        return ["game", "seats"] + [o.name for o in self._menu_options()]

    def open(self, mode):
        self.mode, self.step, self.entry, self.target = mode, 0, 0, 0

    def after_the_end(self):
        """OK on a finished game's last screen: the menu, on "Nuova partita"."""
        self.open("main")
        self.entry = IDLE.index("new")

    def _entries(self):
        return PLAYING if self.table.game and not self.table.view()["over"] else IDLE

    def _targets(self):
        return [("host",)] + [("seat", s) for s in range(self.table.seats if self.table.game else 0)]

    def paired(self, target):
        """A phone typed the code for `target`: its screen has done its job."""
        if self.mode == "code" and self.code.target == target:
            self.mode = self.code = None

    def press(self, name):
        """Handle a host button; returns True when the menu used it (else the presentation may)."""
        self.message = None
        if self.mode == "off":  # the Pi is shutting down: nothing more to do
            return True
        if name == "undo":
            if self.table.game is None:
                return True
            self.mode = None if self.mode == "undo" else "undo"
            return True
        if self.mode is None:
            if name == "menu" or (name == "ok" and self.table.game is None):
                self.open("main" if name == "menu" else "setup")
                return True
            return False
        if self.mode in ("undo", "end", "poweroff"):
            return self._confirm(name)
        if self.mode == "join" and name == "ok":
            self.open("pair")
            return True
        if self.mode == "pair":
            return self._pair(name)
        if self.mode == "code":  # any key: the code leaves the screen, and ends
            self.pairing.close(self.code.target)
            self.mode = self.code = None
            return True
        if self.mode in ("join", "seal", "failed"):
            self.mode = None
            return True
        if self.mode == "main":
            entries = self._entries()
            if name in ("prev", "next"):
                self.entry = (self.entry + (1 if name == "next" else -1)) % len(entries)
            elif name == "ok":
                chosen = entries[self.entry % len(entries)]
                if chosen == "language":  # the other language at once; the menu stays open, in it
                    other = LANGUAGE_ORDER[(LANGUAGE_ORDER.index(self.lang) + 1) % len(LANGUAGE_ORDER)]
                    self.language.choose(other)
                elif chosen == "new":  # the game in play ends when the new one starts (it stays in the history)
                    self.open("setup")
                else:
                    self.mode = None if chosen == "back" else chosen
            else:
                self.mode = None
            return True
        if name == "menu":
            if self.step:
                self.step -= 1
            else:
                self.mode = None
        elif name in ("prev", "next"):
            self._change(1 if name == "next" else -1)
        elif name == "ok":
            if self.step + 1 < len(self.steps()):
                self.step += 1
            else:
                self._start()
        return True

    def _pair(self, name):
        """Whom a phone is for: ◀ ▶ choose, OK shows the code, Menu closes."""
        targets = self._targets()
        if name in ("prev", "next"):
            self.target = (self.target + (1 if name == "next" else -1)) % len(targets)
        elif name == "ok":
            self.code = self.pair_code(targets[self.target % len(targets)])
            self.mode = "code"
        else:
            self.mode = None
        return True


    def _values(self, key):
        if key == "game":
            return self.games
        if key == "seats":
            low, high = GAMES[self.game].seats
            return list(range(low, high + 1))
        return next(o for o in self._menu_options() if o.name == key).values(self.seats)

    def _change(self, step):
        key = self.steps()[self.step]
        values = self._values(key)
        current = {"game": self.game, "seats": self.seats}.get(key, self.options.get(key))
        new = values[(values.index(current) + step) % len(values)] if current in values else values[0]
        if key == "game":
            self.game = new
            low, high = GAMES[self.game].seats
            self.seats = max(low, min(self.seats, high))
        elif key == "seats":
            self.seats = new
        else:
            self.options[key] = new
            return
        self.options = self._defaults()  # defaults may depend on the game and the seat count

    def _start(self):
        self.mode = None
        try:
            self.host.new_game(self.game, self.seats, self.options)
        except Rejected as e:
            self.message = render(self.lang, e.message)
            return
        if GAMES[self.game].draws and "commitment" in self.table.view()["chance"]:
            self.mode = "seal"  # the draws' seal before the first frame of play; any key goes on to the game

    def _confirm(self, name):
        mode, self.mode = self.mode, None
        if name != "ok":
            return True
        if mode == "poweroff":
            why_not = self.power_off()
            if why_not is None:
                self.mode = "off"
            else:
                self.mode, self.message = "failed", text(self.lang, why_not)
            return True
        try:
            if mode == "undo":
                self.host.undo()
                self.message = text(self.lang, "undone")
            else:
                self.host.end_game()
                self.open("setup")
        except Rejected as e:
            if e.code == "game_sealed":  # said until OK: the table must know why its undo did nothing
                self.mode, self.message = "failed", text(self.lang, "game_sealed")
            else:
                self.message = text(self.lang, "nothing_to_undo")
        return True

    def _value_label(self, key, value):
        lang = self.lang
        if key == "game":
            return GAMES[value].title
        if key == "seats":
            return str(value)
        kind = next(o.kind for o in self._menu_options() if o.name == key)
        if kind == CHOICE:
            return text(lang, f"{key}_{value}", self.game)
        return seat(lang, value) if kind == SEAT else str(value)

    def screen(self):
        lang = self.lang
        if self.mode == "join":
            return join(lang, self.url or LOCAL_URL, text(lang, "ok_pair"))
        if self.mode == "pair":
            targets = self._targets()
            return Screen(text(lang, "pair_title"), (f"> {who(lang, targets[self.target % len(targets)])}",
                                                     text(lang, "change"), text(lang, "ok_code")))
        if self.mode == "code":
            if self.pairing.showing(self.code.target) != self.code:  # it expired
                return Screen(text(lang, "title"), (*wrap(text(lang, "code_over"), indent=""), text(lang, "ok_back")))
            return pairing_code(lang, self.code, self.url or LOCAL_URL, round(self.pairing.window / 60))
        if self.mode == "seal":
            return Screen(text(lang, "seal_title"), (seal_fingerprint(self.table.view()["chance"]["commitment"]),
                                                     *wrap(text(lang, "seal_later"), indent=""), text(lang, "ok_play")))
        if self.mode == "main":
            listed = self._entries()
            chosen = self.entry % len(listed)
            first = max(0, min(chosen - 1, len(listed) - SHOWN))
            entries = [(i, text(lang, f"menu_{entry}")) for i, entry in enumerate(listed)][first:first + SHOWN]
            return Screen(text(lang, "menu"), tuple(f"{'>' if i == chosen else ' '}{entry}"
                                                    for i, entry in entries) + (text(lang, "ok_choose"),))
        if self.mode == "off":
            return box_message(lang, "powering_off")
        if self.mode == "failed":
            said = wrap(self.message or text(lang, "poweroff_failed"), indent="")
            return Screen(text(lang, "title"), (*said, text(lang, "ok_back")))
        if self.mode in ("undo", "end", "poweroff"):
            question = text(lang, f"{self.mode}_confirm")
            return Screen(text(lang, "title"), (*wrap(question, indent=""), text(lang, "ok_yes")))
        steps = self.steps()
        key = steps[self.step]
        label = {"game": text(lang, "choose_game"), "seats": text(lang, "choose_seats")}.get(key)
        label = label or text(lang, key, self.game)
        value = {"game": self.game, "seats": self.seats}.get(key, self.options.get(key))
        lines = [f"{label}:", *wrap(self._value_label(key, value), indent="")]
        if key == "seats" and self.seats > self.wired_seats:  # the seats the pin map does not wire
            unwired = range(self.wired_seats, self.seats)
            ends = sorted({unwired[0], unwired[-1]})
            lines.append(text(lang, "phones_only", seats="-".join(seat(lang, s) for s in ends)))
        elif len(lines) < 3:
            lines.append(text(lang, "change"))
        lines.append(text(lang, "start") if self.step == len(steps) - 1 else text(lang, "ok_next"))
        return Screen(f"{text(lang, 'new_game')} {self.step + 1}/{len(steps)}", tuple(lines))


def seal_fingerprint(commitment):
    """The start of a commitment as the phones show it (12 hex digits), in groups of four to read aloud."""
    return " ".join(commitment[i:i + 4] for i in range(0, 12, 4))

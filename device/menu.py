"""The host panel's menu: choose a game, the players and the options, start; confirm undo and ending a game.
The whole box is usable without a phone. Every screen shows one thing at a time, so nothing is cut and the
cursor never scrolls out of sight; every menu opens on a harmless entry.

`Menu` is a value read from the table's public view alone (device/seen.py): a key gives the next menu and what
it asks of the box (device/effects.py) — a game started, an undo, a code, the power off — whose answer comes
back later (`done`, `opened`, `powered`)."""
from dataclasses import dataclass, field, replace

from engine.games import GAMES
from engine.rules.options import CHOICE, SEAT
from engine.words import render

from .effects import ChooseLanguage, CloseCode, HostAct, OpenCode, PowerOff
from .network import LOCAL_URL
from .screens import Screen, box_message, join, pairing_code, seat, who, wrap
from .texts import text

# The menu's entries while a game is played, and when none is; the first only closes the menu
PLAYING = ("back", "join", "new", "language", "end")
IDLE = ("back", "new", "join", "language")
SHOWN = 3  # entries on the panel at once, the chosen one always among them
LANGUAGE_ORDER = ("it", "en")


@dataclass(frozen=True)
class Menu:
    # None (closed), "setup", "seal" (a new game's draws sealed), "undo", "main", "join" (the QR code), "pair"
    # (whom a phone is for), "code" (its code), "end", "poweroff" (asking), "off" (going down) or "failed" (it
    # could not power off, or an undo was refused: said on the OLED until a key)
    mode: str | None = None
    step: int = 0  # the setup step shown
    entry: int = 0  # the chosen entry of the main menu
    target: int = 0  # whom a phone is paired with: the host role, then each seat
    code: object = None  # the pairing code shown
    code_over: bool = False  # its time ran out (or another took its place)
    game: str = ""
    seats: int = 0
    options: dict = field(default_factory=dict)
    message: str | None = None  # what the last key's action said

    @classmethod
    def first(cls):
        """The menu as the box starts: closed, on the first game the registry lists."""
        game = next(iter(GAMES))
        return cls(game=game, seats=GAMES[game].seats[0])._defaults()

    @property
    def is_open(self):
        return self.mode is not None

    def _menu_options(self):
        """The options the OLED menu can set (a list option keeps its default here; the host page sets it)."""
        return [o for o in GAMES[self.game].options if o.values(self.seats) is not None]

    def _defaults(self):
        return replace(self, options={o.name: o.default_for(self.seats) for o in self._menu_options()})

    def steps(self):
        """The setup's steps: the game, the seat count, then each option the menu sets."""
        return ["game", "seats"] + [o.name for o in self._menu_options()]

    def open(self, mode):
        return replace(self, mode=mode, step=0, entry=0, target=0)

    def closed(self):
        return replace(self, mode=None)

    def after_the_end(self):
        """OK on a finished game's last screen: the menu, on "Nuova partita"."""
        return replace(self.open("main"), entry=IDLE.index("new"))

    def paired(self, target):
        """A phone joined `target`: a code shown for it has done its job."""
        if self.mode == "code" and self.code.target == target:
            return replace(self, mode=None, code=None)
        return self

    def expired(self, code):
        return replace(self, code_over=True) if self.mode == "code" and self.code == code else self

    def press(self, name, key, seen, lang):
        """(the menu after the host button `name`, what it asks of the box, whether the menu used the key: if not,
        the result pages may)."""
        menu = replace(self, message=None)
        if menu.mode == "off":  # the Pi is shutting down: nothing more to do
            return menu, [], True
        if name == "undo":
            if seen.game is None:
                return menu, [], True
            return replace(menu, mode=None if menu.mode == "undo" else "undo"), [], True
        if menu.mode is None:
            if name == "menu" or (name == "ok" and seen.game is None):
                return menu.open("main" if name == "menu" else "setup"), [], True
            return menu, [], False
        if menu.mode in ("undo", "end", "poweroff"):
            return menu._confirm(name, key)
        if menu.mode == "join" and name == "ok":
            return menu.open("pair"), [], True
        if menu.mode == "pair":
            return menu._pair(name, key, seen)
        if menu.mode == "code":  # any key: the code leaves the screen, and ends
            return replace(menu, mode=None, code=None), [CloseCode(menu.code)], True
        if menu.mode in ("join", "seal", "failed"):
            return menu.closed(), [], True
        if menu.mode == "main":
            return menu._main(name, key, seen, lang)
        return menu._setup(name, key)

    def _main(self, name, key, seen, lang):
        entries = _entries(seen)
        if name in ("prev", "next"):
            return replace(self, entry=(self.entry + (1 if name == "next" else -1)) % len(entries)), [], True
        if name != "ok":
            return self.closed(), [], True
        chosen = entries[self.entry % len(entries)]
        if chosen == "language":  # the other language at once; the menu stays open, in it
            other = LANGUAGE_ORDER[(LANGUAGE_ORDER.index(lang) + 1) % len(LANGUAGE_ORDER)]
            return self, [ChooseLanguage(other)], True
        if chosen == "new":  # the game in play ends when the new one starts (it stays in the history)
            return self.open("setup"), [], True
        return replace(self, mode=None if chosen == "back" else chosen), [], True

    def _setup(self, name, key):
        if name == "menu":
            return (replace(self, step=self.step - 1) if self.step else self.closed()), [], True
        if name in ("prev", "next"):
            return self._change(1 if name == "next" else -1), [], True
        if name == "ok":
            if self.step + 1 < len(self.steps()):
                return replace(self, step=self.step + 1), [], True
            return self.closed(), [HostAct("new_game", key, (self.game, self.seats, dict(self.options)))], True
        return self, [], True

    def _pair(self, name, key, seen):
        """Whom a phone is for: ◀ ▶ choose, OK shows the code, Menu closes."""
        targets = _targets(seen)
        if name in ("prev", "next"):
            return replace(self, target=(self.target + (1 if name == "next" else -1)) % len(targets)), [], True
        if name == "ok":
            return self, [OpenCode(targets[self.target % len(targets)], key)], True
        return self.closed(), [], True

    def opened(self, code):
        """The code the box opened for whom the menu chose: shown until a key, a phone joins or it ends."""
        return replace(self, mode="code", code=code, code_over=False)

    def _values(self, key):
        if key == "game":
            return list(GAMES)
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
            low, high = GAMES[new].seats
            return replace(self, game=new, seats=max(low, min(self.seats, high)))._defaults()
        if key == "seats":  # defaults may depend on the game and the seat count
            return replace(self, seats=new)._defaults()
        return replace(self, options={**self.options, key: new})

    def _confirm(self, name, key):
        mode, menu = self.mode, self.closed()
        if name != "ok":
            return menu, [], True
        if mode == "poweroff":
            return menu, [PowerOff(key)], True
        return menu, [HostAct("undo" if mode == "undo" else "end", key)], True

    def done(self, kind, refusal, seen, lang):
        """A host action the menu asked for is done (`refusal`: the rules' Rejected, or None)."""
        menu = self.closed()
        if kind == "new_game":
            if refusal is not None:
                return replace(menu, message=render(lang, refusal.message))
            if GAMES[self.game].draws and "commitment" in seen.view.get("chance", {}):
                return replace(menu, mode="seal")  # the draws' seal before the first frame of play; any key plays
            return menu
        if refusal is None:
            return menu.open("setup") if kind == "end" else replace(menu, message=text(lang, "undone"))
        if refusal.code == "game_sealed":  # said until OK: the table must know why its undo did nothing
            return replace(menu, mode="failed", message=text(lang, "game_sealed"))
        return replace(menu, message=text(lang, "nothing_to_undo"))

    def powered(self, why_not, lang):
        """The box was asked to power off: going down (None), or why not (a message id)."""
        if why_not is None:
            return replace(self, mode="off")
        return replace(self, mode="failed", message=text(lang, why_not))

    def _value_label(self, key, value, lang):
        if key == "game":
            return GAMES[value].title
        if key == "seats":
            return str(value)
        kind = next(o.kind for o in self._menu_options() if o.name == key)
        if kind == CHOICE:
            return text(lang, f"{key}_{value}", self.game)
        return seat(lang, value) if kind == SEAT else str(value)

    def screen(self, seen, lang, *, url, wired_seats, window):
        """What the OLED shows while the menu is open (`window`: a pairing code's life, in seconds)."""
        if self.mode == "join":
            return join(lang, url or LOCAL_URL, text(lang, "ok_pair"))
        if self.mode == "pair":
            targets = _targets(seen)
            return Screen(text(lang, "pair_title"), (f"> {who(lang, targets[self.target % len(targets)])}",
                                                     text(lang, "change"), text(lang, "ok_code")))
        if self.mode == "code":
            if self.code_over:
                return Screen(text(lang, "title"), (*wrap(text(lang, "code_over"), indent=""), text(lang, "ok_back")))
            return pairing_code(lang, self.code, url or LOCAL_URL, round(window / 60))
        if self.mode == "seal":
            return Screen(text(lang, "seal_title"), (seal_fingerprint(seen.view["chance"]["commitment"]),
                                                     *wrap(text(lang, "seal_later"), indent=""), text(lang, "ok_play")))
        if self.mode == "main":
            listed = _entries(seen)
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
        return self._setup_screen(lang, wired_seats)

    def _setup_screen(self, lang, wired_seats):
        steps = self.steps()
        key = steps[self.step]
        label = {"game": text(lang, "choose_game"), "seats": text(lang, "choose_seats")}.get(key)
        label = label or text(lang, key, self.game)
        value = {"game": self.game, "seats": self.seats}.get(key, self.options.get(key))
        lines = [f"{label}:", *wrap(self._value_label(key, value, lang), indent="")]
        if key == "seats" and self.seats > wired_seats:  # the seats the pin map does not wire
            unwired = range(wired_seats, self.seats)
            ends = sorted({unwired[0], unwired[-1]})
            lines.append(text(lang, "phones_only", seats="-".join(seat(lang, s) for s in ends)))
        elif len(lines) < 3:
            lines.append(text(lang, "change"))
        lines.append(text(lang, "start") if self.step == len(steps) - 1 else text(lang, "ok_next"))
        return Screen(f"{text(lang, 'new_game')} {self.step + 1}/{len(steps)}", tuple(lines))


def _entries(seen):
    return PLAYING if seen.game and not seen.over else IDLE


def _targets(seen):
    return [("host",)] + [("seat", s) for s in range(seen.seats if seen.game else 0)]


def seal_fingerprint(commitment):
    """The start of a commitment as the phones show it (12 hex digits), in groups of four to read aloud."""
    return " ".join(commitment[i:i + 4] for i in range(0, 12, 4))

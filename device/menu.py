"""The host panel's menu: choose a game, the seats and the options, start; confirm undo and ending a game.
The whole box is usable without a phone."""
from engine.rules import GAMES, Rejected
from engine.texts import text

from .screens import Screen, join, wrap

INGAME = ("join", "end")


class HostMenu:
    def __init__(self, table, wired_seats, language, url=None):
        self.table = table
        self.url = url  # where phones join; shown as a QR code
        self.wired_seats = wired_seats
        self.lang = language
        self.mode = None  # None (closed), "game", "seats", an option name, "undo", "ingame", "join" or "end"
        self.ingame = 0  # the chosen entry of the in-game menu
        self.games = sorted(GAMES)
        self.game = self.games[0]
        self.seats = self._seat_range()[0]
        self.options = dict(GAMES[self.game].OPTIONS)
        self.message = None

    @property
    def is_open(self):
        return self.mode is not None

    def _seat_range(self):
        low, high = GAMES[self.game].SEATS
        return list(range(low, min(high, self.wired_seats) + 1))

    def _steps(self):
        return ["game", "seats"] + list(GAMES[self.game].OPTION_CHOICES)

    def press(self, name):
        """Handle a host button; returns True when the menu used it (else the presentation may)."""
        self.message = None
        if name == "undo":
            if self.table.game is None:
                return True
            self.mode = None if self.mode == "undo" else "undo"
            return True
        if self.mode is None:
            if name == "menu" or (name == "ok" and self.table.game is None):
                self.mode = "ingame" if self.table.game and not self.table.view()["over"] else "game"
                return True
            return False
        if self.mode in ("undo", "end"):
            return self._confirm(name)
        if self.mode == "join":
            self.mode = None
            return True
        if self.mode == "ingame":
            if name in ("prev", "next"):
                self.ingame = 1 - self.ingame
            elif name == "ok":
                self.mode = INGAME[self.ingame]
            else:
                self.mode = None
            return True
        steps = self._steps()
        at = steps.index(self.mode)
        if name == "menu":
            self.mode = steps[at - 1] if at else None
        elif name in ("prev", "next"):
            self._change(1 if name == "next" else -1)
        elif name == "ok":
            if at + 1 < len(steps):
                self.mode = steps[at + 1]
            else:
                self._start()
        return True

    def _change(self, step):
        if self.mode == "game":
            self.game = self.games[(self.games.index(self.game) + step) % len(self.games)]
            self.seats = max(self._seat_range()[0], min(self.seats, self._seat_range()[-1]))
            self.options = dict(GAMES[self.game].OPTIONS)
        elif self.mode == "seats":
            seats = self._seat_range()
            self.seats = seats[(seats.index(self.seats) + step) % len(seats)]
        else:
            choices = GAMES[self.game].OPTION_CHOICES[self.mode]
            self.options[self.mode] = choices[(choices.index(self.options[self.mode]) + step) % len(choices)]

    def _start(self):
        self.mode = None
        try:
            self.table.new_game(self.game, self.seats, self.options)
        except Rejected as e:
            self.message = str(e)

    def _confirm(self, name):
        mode, self.mode = self.mode, None
        if name != "ok":
            return True
        try:
            if mode == "undo":
                self.table.undo()
                self.message = text(self.lang, "undone")
            else:
                self.table.end_game()
                self.mode = "game"
        except Rejected:
            self.message = text(self.lang, "nothing_to_undo")
        return True

    def screen(self):
        lang = self.lang
        if self.mode == "join":
            return join(lang, self.url or "http://127.0.0.1", text(lang, "ok_back"))
        if self.mode == "ingame":
            entries = [text(lang, "menu_join"), text(lang, "menu_end")]
            return Screen(text(lang, "menu"), tuple(f"{'>' if i == self.ingame else ' '}{entry}"
                                                    for i, entry in enumerate(entries)) + (text(lang, "ok_choose"),))
        if self.mode in ("undo", "end"):
            question = text(lang, "undo_confirm" if self.mode == "undo" else "end_confirm")
            return Screen(text(lang, "title"), (*wrap(question, indent=""), text(lang, "ok_yes")))
        title = GAMES[self.game].TITLE
        rows = [(text(lang, "choose_game"), "game", title[:14]),
                (text(lang, "choose_seats"), "seats", str(self.seats))]
        for option, value in self.options.items():
            rows.append((text(lang, option), option, text(lang, f"{option}_{value}")))
        lines = [f"{'>' if key == self.mode else ' '}{label}: {value}"[:21] for label, key, value in rows]
        lines.append(text(lang, "start") if self.mode == self._steps()[-1] else text(lang, "ok_next"))
        return Screen(title[:21], tuple(lines[-4:] if len(lines) > 4 else lines))

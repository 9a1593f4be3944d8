"""A game as its log: the header, the applied lines, and the states they lead to.

Both the running table and `arbitro replay` build games through this one class, so a game played on the box
and its exported log cannot disagree.
"""
from .rules import CHANCE, Rejected, game_module

FORMAT = 1
UNDO = {"host": "undo"}


def header(game, seats, options=None):
    return {"arbitro": FORMAT, "game": game, "seats": seats, "options": dict(options or {})}


def check_header(line):
    if not isinstance(line, dict):
        raise Rejected("the first line must be the table: an object")
    unknown = sorted(set(line) - {"arbitro", "game", "seats", "options"})
    if unknown:
        raise Rejected(f"unknown key {unknown[0]!r} in the table line")
    if line.get("arbitro") != FORMAT:
        raise Rejected(f"not an Arbitro log of format {FORMAT} (\"arbitro\": {line.get('arbitro')!r})")
    return line["game"] if "game" in line else None, line.get("seats"), line.get("options", {})


class GameRecord:
    def __init__(self, table_line):
        game, seats, options = check_header(table_line)
        self.rules = game_module(game)
        self.states = [self.rules.setup(seats, options)]
        self.header = header(game, seats, options)
        self.lines = []  # every applied line, undo lines included: the log
        self._undo_points = []  # len(states) before each seat or host action still in effect

    @property
    def state(self):
        return self.states[-1]

    @property
    def can_undo(self):
        return bool(self._undo_points)

    @property
    def needs_chance(self):
        return self.rules.current_actors(self.state) == CHANCE

    def check(self, line):
        """The state `line` would lead to; raises Rejected and changes nothing."""
        if line == UNDO:
            if not self._undo_points:
                raise Rejected("nothing to undo")
            return self.states[self._undo_points[-1] - 1]
        if isinstance(line, dict) and "host" in line:
            raise Rejected(f"unknown host action {line.get('host')!r}")
        if isinstance(line, dict) and "chance" in line and not self.needs_chance:
            raise Rejected(f"no {line.get('chance')!r} chance outcome is due now")
        if isinstance(line, dict) and "chance" not in line and self.needs_chance:
            raise Rejected("a chance outcome is due before any seat may act")
        return self.rules.apply(self.state, line)

    def apply(self, line):
        """Check and apply `line`; raises Rejected and changes nothing when it breaks a rule."""
        new_state = self.check(line)
        if line == UNDO:
            del self.states[self._undo_points.pop():]
        else:
            if "chance" not in line:
                self._undo_points.append(len(self.states))
            self.states.append(new_state)
        self.lines.append(line)
        return new_state

    def view(self, viewer):
        return self.rules.view(self.state, viewer)

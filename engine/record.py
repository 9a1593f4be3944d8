"""A game as its log: the header, the applied lines, and the states they lead to.

Both the running table and `arbitro replay` build games through this one class, so a game played on the box
and its exported log cannot disagree.

The rules are pure, so a state is its lines replayed: the record keeps the current state and one state every
CHECKPOINT lines, and finds any other (an undo's, an export's) by replaying at most CHECKPOINT - 1 lines from
the checkpoint before it. Its memory grows with the lines, not with a copy of the state per line.
"""
import hashlib
from collections.abc import Callable
from typing import Any, cast

from .chance import canonical
from .games import game
from .rules import CHANCE, TERMINAL, Rejected
from .rules.protocol import JSON, Action, View, Viewer, refuse
from .rules import picks as secret

FORMAT = 1
UNDO: Action = {"host": "undo"}
CHECKPOINT = 32  # lines between the states the record keeps


def header(game: JSON, seats: JSON, options: JSON = None) -> dict[str, JSON]:
    if options is not None and not isinstance(options, dict):
        raise refuse("options_object")
    return {"arbitro": FORMAT, "game": game, "seats": seats, "options": dict(options or {})}


def check_header(line: JSON) -> tuple[JSON, JSON, JSON]:
    if not isinstance(line, dict):
        raise refuse("table_line")
    unknown = sorted(set(line) - {"arbitro", "game", "seats", "options", "chance"})
    if unknown:
        raise refuse("table_key", key=unknown[0])
    if line.get("arbitro") != FORMAT:
        raise refuse("log_format", format=FORMAT, found=line.get("arbitro"))
    if not isinstance(line.get("options", {}), dict):
        raise refuse("options_object")
    if not isinstance(line.get("chance", {}), dict):
        raise refuse("chance_object")
    return line["game"] if "game" in line else None, line.get("seats"), line.get("options", {})


class GameRecord:
    def __init__(self, table_line: JSON) -> None:
        name, seats, options = check_header(table_line)
        line = cast(dict[str, JSON], table_line)  # check_header refused anything but an object
        self.game = game(name)
        self.rules = self.game.rules
        self._state = self.rules.setup(seats, options)
        self._checkpoints = [self._state]  # [k]: the state after the first k * CHECKPOINT applied lines
        self.header = header(name, seats, options)
        if "chance" in line:  # the draws' commitment (and, once revealed, their seed): docs/chance.md
            self.header["chance"] = dict(cast(dict[str, JSON], line["chance"]))
        self.draws = 0  # fresh chance outcomes drawn so far: the next draw's index (an undo never moves it back)
        self.lines: list[Action] = []  # every applied line, undo lines included: the log
        self._log = hashlib.sha256()  # the digest of `lines`, that a game's draws mix in (engine/chance.py)
        self._hashed = 0  # brought up to date when a draw asks: a game without chance never hashes a line
        self.applied: list[Action] = []  # the lines in effect, in order
        self._undo_points: list[int] = []  # len(applied) before each seat or host action still in effect
        self._redraws: list[Action] = []  # chance lines an undo took back, drawn again in order: no re-roll

    @property
    def state(self) -> Any:  # the game's own state: only its rules look into it
        return self._state

    @property
    def states_kept(self) -> int:
        """How many states the record holds (the checkpoints and the current one)."""
        return len(self._checkpoints) + 1

    def state_after(self, count: int) -> Any:
        """The state after the first `count` applied lines, replayed from the checkpoint before it."""
        if count == len(self.applied):
            return self._state
        state = self._checkpoints[count // CHECKPOINT]
        for line in self.applied[count - count % CHECKPOINT:count]:
            state = self.rules.apply(state, line)
        return state

    def steps(self) -> list[tuple[Any, Action]]:
        """(the state before, the line) for every line in effect, replayed from the start: for an export."""
        state, found = self._checkpoints[0], []
        for line in self.applied:
            found.append((state, line))
            state = self.rules.apply(state, line)
        return found

    @property
    def can_undo(self) -> bool:
        return bool(self._undo_points) and not self.is_over

    @property
    def undone_next(self) -> Action | None:
        """The seat's line an undo would take back now, or None."""
        return self.applied[self._undo_points[-1]] if self._undo_points else None

    @property
    def is_over(self) -> bool:
        return self.rules.current_actors(self.state) == TERMINAL

    @property
    def needs_chance(self) -> bool:
        return self.rules.current_actors(self.state) == CHANCE

    def check(self, line: JSON) -> Any:
        """The state `line` would lead to; raises Rejected and changes nothing."""
        if line == UNDO:
            if self.is_over:  # its seed is public: reopened, every draw to come could be computed
                raise refuse("game_sealed")
            if not self._undo_points:
                raise refuse("nothing_to_undo")
            return self.state_after(self._undo_points[-1])
        if isinstance(line, dict) and "host" in line:
            raise refuse("host_action", action=line.get("host"))
        if isinstance(line, dict) and "chance" in line and not self.needs_chance:
            raise refuse("chance_not_due", kind=line.get("chance"))
        if isinstance(line, dict) and "chance" not in line and self.needs_chance:
            raise refuse("chance_due")
        return self.rules.apply(self.state, line)

    def apply(self, line: JSON) -> Any:
        """Check and apply `line`; raises Rejected and changes nothing when it breaks a rule."""
        new_state = self.check(line)
        assert isinstance(line, dict)  # the rules took it: a log line is an object
        if line == UNDO:
            cut = self._undo_points.pop()
            self._redraws[:0] = [old for old in self.applied[cut:] if "chance" in old]
            del self.applied[cut:], self._checkpoints[cut // CHECKPOINT + 1:]
        else:
            if "chance" in line:
                if self._due_redraw():  # this line stands for the outcome an undo took back
                    self._redraws.pop(0)
                else:
                    self.draws += 1
            else:
                self._undo_points.append(len(self.applied))
            self.applied.append(line)
            if len(self.applied) % CHECKPOINT == 0:
                self._checkpoints.append(new_state)
        self.lines.append(line)
        self._state = new_state
        return new_state

    def log_digest(self) -> bytes:
        """The SHA-256 digest of the log's lines so far (after its table line)."""
        for line in self.lines[self._hashed:]:
            self._log.update(canonical(line) + b"\n")
        self._hashed = len(self.lines)
        return self._log.digest()

    def draw_due(self, fresh: Callable[[], Action]) -> list[Action]:
        """Apply every chance outcome the game needs now: those an undo took back first (undo never re-rolls),
        then `fresh()` ones. Returns the lines applied. The table and `arbitro replay` both draw through it."""
        lines = []
        while self.needs_chance:
            action = self.next_chance()
            if action is None:
                action = fresh()
            self.apply(action)
            lines.append(action)
        return lines

    def next_chance(self) -> Action | None:
        """The chance outcome an undo took back, if it is still possible now: the same actions after an undo
        draw the same outcomes. None when a fresh draw is due."""
        return self._redraws[0] if self._due_redraw() else None

    def _due_redraw(self) -> bool:
        """Drop the taken-back outcomes that cannot come now (the game went another way); True when one is
        due. It depends only on the lines applied, so a journal read back after a power cut agrees."""
        while self._redraws:
            try:
                self.rules.apply(self.state, self._redraws[0])
                return True
            except Rejected:
                self._redraws.pop(0)
        return False

    def export_lines(self) -> list[Action]:
        """The log to export: every line once the game is over; during a game, only what every player may
        already know (undone lines are left out: they may hold a secret)."""
        if self.is_over:
            return [self.header] + self.lines
        public = self.game.public_lines or secret.public_lines
        return [self.header] + public(self.steps())

    def view(self, viewer: Viewer) -> View:
        shown = self.rules.view(self.state, viewer)
        if "chance" in self.header:
            shown["chance"] = self.header["chance"]
        return shown

"""Replaying a game log (docs/log-format.md): line by line, stopping at the first line that breaks a rule."""
import json
import random
from collections.abc import Iterator
from typing import cast

from .chance import Committed, Unverifiable, draw
from .record import GameRecord
from .rules import Rejected
from .rules.protocol import SHARED, Action, Message, Param
from .words import render


def why(key: str, **params: Param) -> Message:
    """Why a log does not replay or verify: a `log` message of the shared catalog."""
    return Message(SHARED, key, params, context="log")


class LogError(ValueError):
    """A log line that does not replay: its number, why (a Message, worded in any language by `said`) and the
    ruling it breaks, for whoever checks the log. str() is the English."""

    def __init__(self, line_number: int, reason: Message, rule: str | None = None) -> None:
        self.line_number, self.reason, self.rule = line_number, reason, rule
        super().__init__(self.said("en"))

    def said(self, language: str) -> str:
        line = render(language, why("log_line", n=self.line_number, why=self.reason))
        return f"{line} ({self.rule})" if self.rule else line


class Unchecked(LogError):
    """A log whose draws cannot be checked, or do not check: which line and why."""


def _parse(number: int, text: str) -> Action:
    try:
        line = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(number, why("log_not_json", error=e.msg)) from None
    if not isinstance(line, dict):
        raise LogError(number, why("log_not_object"))
    return cast(Action, line)


def _broken(number: int, error: Rejected) -> LogError:
    """A line that breaks a rule: its message, and the ruling it breaks (for the person checking a log)."""
    return LogError(number, error.message, error.rule)


def _read(text: str) -> Iterator[tuple[int, Action]]:
    """The log's lines that are not blank, each parsed when reached: (line number, object), the table first."""
    rows = [(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
    if not rows:
        raise LogError(1, why("log_empty"))
    return ((number, _parse(number, line)) for number, line in rows)


def _started(number: int, table_line: Action) -> GameRecord:
    try:
        return GameRecord(table_line)
    except Rejected as e:
        raise _broken(number, e) from None


def _apply(record: GameRecord, number: int, line: Action) -> None:
    try:
        record.apply(line)
    except Rejected as e:
        raise _broken(number, e) from None


def _draw_chance(record: GameRecord, number: int, rng: random.Random | None) -> None:
    """Draw the chance outcomes the game needs before line `number`: those an undo took back first (undo
    never re-rolls), then from the seed's generator: the game's draws are then no longer the ones it committed to,
    and its view says they cannot be checked."""
    def fresh() -> Action:
        if rng is None:
            kind = record.rules.chance_outcomes(record.state)[0][0]["chance"]
            raise LogError(number, why("log_chance_needed", kind=kind))
        record.header["chance"] = dict(Unverifiable.marked)
        return draw(record.rules, record.state, rng)
    record.draw_due(fresh)


def replay(text: str, seed: int | None = None) -> GameRecord:
    """The GameRecord a log leads to. Raises LogError naming the line that is malformed or breaks a rule."""
    rng = random.Random(seed) if seed is not None else None
    lines = _read(text)
    number, table_line = next(lines)
    record = _started(number, table_line)
    for number, line in lines:
        if "chance" not in line and "host" not in line:
            _draw_chance(record, number, rng)
        _apply(record, number, line)
    if rng is not None:
        _draw_chance(record, number + 1, rng)
    return record


def verify(text: str) -> int:
    """Check every draw of a finished game's log against its revealed seed: the seed matches the commitment
    of the log's first line, and each chance line is the outcome the seed gives at its index (or the outcome an
    undo took back, drawn again). Returns the number of draws checked; raises Unchecked or LogError."""
    lines = _read(text)
    number, table_line = next(lines)
    found = table_line.get("chance")
    chance = found if isinstance(found, dict) else {}
    if "commitment" not in chance:
        raise Unchecked(1, why("log_not_verifiable"))
    if "seed" not in chance:
        raise Unchecked(1, why("log_seed_hidden"))
    try:
        seed = bytes.fromhex(cast(str, chance["seed"]))
    except (TypeError, ValueError):
        raise Unchecked(1, why("log_seed_not_hex")) from None
    dice = Committed.of(seed, table_line)  # what the table drew from (its log mixed in, when it says so)
    if dice.commitment != chance["commitment"]:
        raise Unchecked(1, why("log_seed_mismatch"))
    record = _started(number, table_line)
    checked = 0
    for number, line in lines:
        if "chance" in line and record.needs_chance:
            expected = record.next_chance()
            if expected is None:
                expected = dice.draw(record.rules, record.state, record.draws, record.log_digest())
            if line != expected:
                raise Unchecked(number, why("log_draw_mismatch", expected=json.dumps(expected, ensure_ascii=False)))
            checked += 1
        _apply(record, number, line)
    return checked

"""Replaying a game log (docs/log-format.md): line by line, stopping at the first line that breaks a rule."""
import json
import random

from .record import GameRecord
from .rules import Rejected


class LogError(ValueError):
    def __init__(self, line_number, message):
        super().__init__(f"line {line_number}: {message}")
        self.line_number = line_number


def _parse(number, text):
    try:
        line = json.loads(text)
    except ValueError as e:
        raise LogError(number, f"not valid JSON ({e.msg})") from None
    if not isinstance(line, dict):
        raise LogError(number, "each line must be a JSON object")
    return line


def _broken(number, error):
    """A line that breaks a rule: its message, and the ruling it breaks (for the person checking a log)."""
    return LogError(number, f"{error} ({error.rule})" if error.rule else str(error))


def _draw_chance(record, number, rng):
    """Draw the chance outcomes the game needs before line `number`: those an undo took back first (undo
    never re-rolls), then from the seed's generator."""
    while record.needs_chance:
        taken_back = record.next_chance()
        if taken_back is not None:
            record.apply(taken_back)
            continue
        if rng is None:
            kind = record.rules.chance_outcomes(record.state)[0][0]["chance"]
            raise LogError(number, f"the game needs a chance line ({kind!r}) here; add it or pass --seed N")
        outcomes = record.rules.chance_outcomes(record.state)
        record.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def replay(text, seed=None):
    """The GameRecord a log leads to. Raises LogError naming the line that is malformed or breaks a rule."""
    rng = random.Random(seed) if seed is not None else None
    rows = [(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
    if not rows:
        raise LogError(1, "the log is empty: its first line must be the table")
    try:
        record = GameRecord(_parse(*rows[0]))
    except Rejected as e:
        raise _broken(rows[0][0], e) from None
    for number, text_line in rows[1:]:
        line = _parse(number, text_line)
        if "chance" not in line and "host" not in line:
            _draw_chance(record, number, rng)
        try:
            record.apply(line)
        except Rejected as e:
            raise _broken(number, e) from None
    if rng is not None:
        _draw_chance(record, rows[-1][0] + 1, rng)
    return record

"""Backups of the box's games, and their restore.

A backup is a copy of the journal (engine/journal.py `Journal.backup`): every game the box refereed that is no
longer in play, complete, and marked as a backup; the game in play stays out of it (its secret picks and its
seed must not leave the box before the rules reveal them). `restore` puts one back in a data folder: it is
checked first — ours, undamaged, in a format this box reads, every game replaying by the rules — and the
journal it replaces is kept beside it, never deleted. Only the backup's rows are read (its games' lines, start
times and seeds, each checked); they are written into a journal the box makes itself, so nothing else in the
file — its schema, triggers, views, other tables or counters — ever reaches the box.
"""
import json
import os
import sqlite3
import tempfile
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

from .journal import FORMAT, KINDS, DamagedGame, Journal, JournalError, KeptRows, is_row_id, refuse_emptied
from .rules.protocol import Action
from .table import Table

JOURNAL = "journal.sqlite3"
MAX_ROW = 65_536  # characters: a game's table line or log line is far shorter; a longer row is no backup of ours


class BackupError(ValueError):
    """A file that cannot be restored: the message says why, and nothing was changed."""


def _rows(path: Path) -> KeptRows:
    """The games a backup holds, as rows, each checked: refused when the file is not one of our backups, is
    damaged, is newer than this box, or holds a row no box writes. The file is read, never run: SQLite runs no
    trigger on a read, and only the tables named here are read."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)) as db:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(f"{path} is damaged: it cannot be restored")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            marked = "meta" in tables and db.execute("SELECT 1 FROM meta WHERE key = 'backup'").fetchone()
            found = db.execute("PRAGMA user_version").fetchone()[0]
            if not marked or "entries" not in tables:
                raise BackupError(f"{path} is not an Arbitro backup (download one from the host page)")
            if found > FORMAT:
                raise BackupError(f"{path} is in format {found}, newer than this box's ({FORMAT}): upgrade the box "
                                  "first")
            entries = db.execute("SELECT game, kind, substr(body, 1, ?) FROM entries ORDER BY id",
                                 (MAX_ROW + 1,)).fetchall()
            started = db.execute("SELECT game, substr(at, 1, 64) FROM started").fetchall() \
                if "started" in tables else []
            seeds = db.execute("SELECT game, substr(seed, 1, 128) FROM seeds").fetchall() if "seeds" in tables else []
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not an Arbitro backup ({e})") from None
    lines: list[tuple[int, str, Action]] = []
    for game, kind, body in entries:
        if not is_row_id(game) or kind not in KINDS or not isinstance(body, str) or len(body) > MAX_ROW:
            raise BackupError(f"{path} holds a row no box writes (game {str(game)[:20]}): it cannot be restored")
        try:
            line = json.loads(body)
        except (ValueError, RecursionError):
            line = None
        if not isinstance(line, dict):
            raise BackupError(f"{path} holds a damaged line of game {game}: it cannot be restored")
        lines.append((game, kind, line))
    for game, text in [*started, *seeds]:
        if not is_row_id(game) or not isinstance(text, str):
            raise BackupError(f"{path} holds a row no box writes: it cannot be restored")
    if any(len(seed) != 64 or not all(c in "0123456789abcdef" for c in seed) for _, seed in seeds):
        raise BackupError(f"{path} holds a damaged seed: it cannot be restored")
    return lines, dict(started), dict(seeds)


def replay_all(path: str | Path) -> list[int]:
    """Open the journal `path` as the box would (brought up to its format) and replay every game it keeps by
    the rules; returns their ids. Raises JournalError naming the first that does not replay."""
    table = Table(Journal(path))
    try:
        games = table.games_kept()
        for game in games:
            table.export(game)
        return games
    finally:
        table.close()


def check_resumable(data: str | Path) -> tuple[int, int]:
    """Whether this box's code resumes the data folder `data`: a copy of its journal is opened and every game
    replayed (the journal itself is left as it is, in its own format, for the code that wrote it). Returns
    (games, the journal's format); raises JournalError with the reason."""
    path = Path(data) / JOURNAL
    if not path.exists():
        return 0, FORMAT
    refuse_emptied(path)  # as the box does at its start: the two agree
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / JOURNAL
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as source, \
                    closing(sqlite3.connect(copy)) as target:
                source.backup(target)
                found = int(source.execute("PRAGMA user_version").fetchone()[0] or 1)
        except sqlite3.DatabaseError as e:
            raise JournalError(f"the journal {path} cannot be read ({e})") from None
        return len(replay_all(copy)), found


def restore(backup_file: str | Path, data_folder: str | Path) -> tuple[int, Path | None]:
    """Restore `backup_file` into the data folder; returns (games restored, where the journal it replaced
    was kept, or None). Raises BackupError, or JournalError when a box is using that folder."""
    backup, data = Path(backup_file), Path(data_folder)
    rows = _rows(backup)
    data.mkdir(parents=True, exist_ok=True)
    current = Journal(data / JOURNAL)  # refused while a box uses the folder; held until the swap is done
    try:
        handle, staged = tempfile.mkstemp(dir=data, prefix="restoring-", suffix=".sqlite3")
        os.close(handle)
        os.unlink(staged)  # the box makes the journal itself, in its own schema
        try:
            fresh = Journal(staged)
            try:
                fresh.load(rows, version=current.version + 1)  # the version phones follow never goes back
            finally:
                fresh.close()
            try:
                games = replay_all(staged)
            except DamagedGame as e:  # named by its game and line: the staged file's name says nothing
                raise BackupError(f"{backup} holds a game that does not replay: {e.where}") from None
            kept = None
            if current.games():
                kept = data / f"{JOURNAL}.before-restore-{datetime.now(timezone.utc):%Y%m%dT%H%M%S}"
                os.link(data / JOURNAL, kept)
            os.replace(staged, data / JOURNAL)
            directory = os.open(data, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
        finally:
            for left in (staged, staged + ".lock"):
                if os.path.exists(left):
                    os.unlink(left)
    finally:
        current.close()
    return len(games), kept

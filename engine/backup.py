"""Backups of the box's games, and their restore.

A backup is a copy of the journal (engine/journal.py `Journal.backup`): every game the box refereed that is no
longer in play, complete, and marked as a backup; the game in play stays out of it (its secret picks and its
seed must not leave the box before the rules reveal them). `restore` puts one back in a data folder: it is
checked first — ours, undamaged, in a format this box reads, every game replaying by the rules — and the
journal it replaces is kept beside it, never deleted.
"""
import os
import sqlite3
import tempfile
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

from .journal import FORMAT, Journal, JournalError
from .table import Table

JOURNAL = "journal.sqlite3"


class BackupError(ValueError):
    """A file that cannot be restored: the message says why, and nothing was changed."""


def _check_ours(path: Path) -> None:
    """Refuse a file that is not one of our backups, is damaged, or is newer than this box."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(f"{path} is damaged: it cannot be restored")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            marked = "meta" in tables and db.execute("SELECT 1 FROM meta WHERE key = 'backup'").fetchone()
            found = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not an Arbitro backup ({e})") from None
    if not marked or "entries" not in tables:
        raise BackupError(f"{path} is not an Arbitro backup (download one from the host page)")
    if found > FORMAT:
        raise BackupError(f"{path} is in format {found}, newer than this box's ({FORMAT}): upgrade the box first")


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
    _check_ours(backup)
    data.mkdir(parents=True, exist_ok=True)
    current = Journal(data / JOURNAL)  # refused while a box uses the folder; held until the swap is done
    try:
        handle, staged = tempfile.mkstemp(dir=data, prefix="restoring-", suffix=".sqlite3")
        os.close(handle)
        try:
            with closing(sqlite3.connect(backup)) as source, closing(sqlite3.connect(staged)) as target:
                source.backup(target)
            try:
                games = replay_all(staged)
            except JournalError as e:
                raise BackupError(f"{backup} holds a game that does not replay: {e}") from None
            with closing(sqlite3.connect(staged)) as db, db:  # the version phones follow never goes back
                db.execute("DELETE FROM meta WHERE key = 'backup'")
                db.execute("UPDATE meta SET value = MAX(value, ?) + 1 WHERE key = 'version'", (current.version,))
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

"""Backups of the box's games, and their restore.

A backup is a copy of the journal (engine/journal.py `Journal.backup`): every game the box refereed that is no
longer in play, complete, and marked as a backup; the game in play stays out of it (its secret picks and its
seed must not leave the box before the rules reveal them). `restore` puts one back in a data folder: it is
checked first — ours, undamaged, in a format this box reads, every game replaying by the rules — and the
journal it replaces is kept beside it, never deleted. Only the backup's rows are read (its games' lines, start
times and seeds, each checked); they are written into a journal the box makes itself, so nothing else in the
file — its schema, triggers, views, other tables or counters — ever reaches the box. A restore swaps whole files
(the old journal closed cleanly first, so no log of it is left to be applied to the new one, the new one made
aside, synced and renamed into place): stopped at any instant, it leaves the old journal or the new one, whole.

`check_resumable` opens a copy of the data folder's journal exactly as the box opens it (the same checks of what
lies beside it): the two agree. `recover` resumes a journal whose log was lost from its main file alone.
"""
import contextlib
import fcntl
import itertools
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from .journal import (FORMAT, KINDS, DamagedGame, Journal, JournalError, KeptRows, is_row_id, refuse_emptied,
                      take_lock)
from .sidefiles import beside, is_log_lost, marks_alone, read_only
from .state_file import sync_folder
from .rules.protocol import Action, Message
from .table import Table
from .worded import Worded, stored

JOURNAL = "journal.sqlite3"
MAX_ROW = 65_536  # characters: a game's table line or log line is far shorter; a longer row is no backup of ours


class BackupError(Worded, ValueError):
    """A file that cannot be restored: the message says why, and nothing was changed."""


def _rows(path: Path) -> KeptRows:
    """The games a backup holds, as rows, each checked: refused when the file is not one of our backups, is
    damaged, is newer than this box, or holds a row no box writes. The file is read, never run: SQLite runs no
    trigger on a read, and only the tables named here are read."""
    try:
        with closing(read_only(path, immutable=True)) as db:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(stored("backup_damaged", path=str(path)))
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            marked = "meta" in tables and db.execute("SELECT 1 FROM meta WHERE key = 'backup'").fetchone()
            found = db.execute("PRAGMA user_version").fetchone()[0]
            if not marked or "entries" not in tables:
                raise BackupError(stored("backup_not_ours", path=str(path)))
            if found > FORMAT:
                raise BackupError(stored("backup_newer", path=str(path), found=found, format=FORMAT))
            entries = db.execute("SELECT game, kind, substr(body, 1, ?) FROM entries ORDER BY id",
                                 (MAX_ROW + 1,)).fetchall()
            started = db.execute("SELECT game, substr(at, 1, 64) FROM started").fetchall() \
                if "started" in tables else []
            seeds = db.execute("SELECT game, substr(seed, 1, 128) FROM seeds").fetchall() if "seeds" in tables else []
    except sqlite3.DatabaseError as e:
        raise BackupError(stored("backup_unreadable", path=str(path), error=str(e))) from None
    lines: list[tuple[int, str, Action]] = []
    for game, kind, body in entries:
        if not is_row_id(game) or kind not in KINDS or not isinstance(body, str) or len(body) > MAX_ROW:
            raise BackupError(stored("backup_odd_game_row", path=str(path), game=str(game)[:20]))
        try:
            line = json.loads(body)
        except (ValueError, RecursionError):
            line = None
        if not isinstance(line, dict):
            raise BackupError(stored("backup_damaged_line", path=str(path), game=game))
        lines.append((game, kind, line))
    for game, text in [*started, *seeds]:
        if not is_row_id(game) or not isinstance(text, str):
            raise BackupError(stored("backup_odd_row", path=str(path)))
    if any(len(seed) != 64 or not all(c in "0123456789abcdef" for c in seed) for _, seed in seeds):
        raise BackupError(stored("backup_damaged_seed", path=str(path)))
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
    """Whether this box's code resumes the data folder `data`: a copy of its journal (and what lies beside it) is
    opened as the box opens it and every game replayed; the folder itself is left as it is, in its own format, for
    the code that wrote it, and nothing is made in it (the check may run as another user than the box). Returns
    (games, the journal's format); raises JournalError with the reason, naming the folder's files."""
    path = Path(data) / JOURNAL
    if not path.exists() and not beside(path):
        return 0, FORMAT
    refuse_emptied(path)  # as the box does at its start: the two agree
    with tempfile.TemporaryDirectory() as folder, _unused(path):
        for source in [path, *beside(path)]:
            if source.exists():
                shutil.copyfile(source, Path(folder) / source.name)
        copy = Path(folder) / JOURNAL
        try:
            found = FORMAT
            with contextlib.suppress(sqlite3.DatabaseError):  # none, or a damaged one: the box's own words, below
                with closing(read_only(copy, immutable=True)) as db:
                    found = int(db.execute("PRAGMA user_version").fetchone()[0] or 1)
            return len(replay_all(copy)), found
        except JournalError as e:
            e.message = _moved(e.message, folder, str(Path(data)))  # the folder's files, not the copy's
            raise


def _moved(message: Message | str, old: str, new: str) -> Message | str:
    """`message` with the folder `old` named `new` in its words and parameters, those of its parameters too."""
    if isinstance(message, str):
        return message.replace(old, new)
    return replace(message, params={name: _moved(value, old, new) if isinstance(value, (str, Message)) else value
                                    for name, value in message.params.items()})


@contextlib.contextmanager
def _unused(path: Path) -> Iterator[None]:
    """While no box uses the journal `path` (its files are copied one after another: a box writing meanwhile would
    mix two moments). Its lock file is opened to read, never made: the check may run as another user than the
    box, who must still be able to open it."""
    try:
        lockfile = open(f"{path}.lock")
    except FileNotFoundError:
        yield  # no box has run here
        return
    with lockfile:
        try:
            fcntl.flock(lockfile, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            raise JournalError(stored("journal_in_use", path=str(path))) from None
        yield


def _aside(path: Path, before: str) -> Path:
    """A name beside `path` for it as it was before a restore or a recovery (`before`), taken by no other file."""
    stamp = f"{path.name}.before-{before}-{datetime.now(timezone.utc):%Y%m%dT%H%M%S}"
    return next(kept for n in itertools.count(1)
                if not (kept := path.with_name(stamp if n == 1 else f"{stamp}-{n}")).exists())


def restore(backup_file: str | Path, data_folder: str | Path) -> tuple[int, Path | None]:
    """Restore `backup_file` into the data folder; returns (games restored, where the journal it replaced
    was kept, or None). Raises BackupError, or JournalError when a box is using that folder or its journal is
    refused as the box would refuse it."""
    backup, data = Path(backup_file), Path(data_folder)
    rows = _rows(backup)
    data.mkdir(parents=True, exist_ok=True)
    path = data / JOURNAL
    lock = take_lock(str(path))  # refused while a box uses the folder; held until the swap is done
    try:
        handle, staged = tempfile.mkstemp(dir=data, prefix="restoring-", suffix=".sqlite3")
        os.close(handle)
        os.unlink(staged)  # the box makes the journal itself, in its own schema
        try:
            fresh = Journal(staged)
            try:
                fresh.load(rows)
            finally:
                fresh.close()
            try:
                games = replay_all(staged)
            except DamagedGame as e:  # named by its game and line: the staged file's name says nothing
                raise BackupError(stored("backup_game_damaged", path=str(backup), where=e.where)) from None
            # The journal in place, opened as the box opens it (a log left by a stop without a clean close is
            # applied) and closed cleanly: the main file alone holds its games, and no log beside it can be applied
            # to the journal that replaces it. One the box refuses (damaged, its log lost or not its own) is what a
            # restore is for: it is moved aside whole, every file of it.
            try:
                current = Journal(path, lock=lock)
            except JournalError as e:
                refused: JournalError | None = e
                version, had_games = _version_alone(path), True
            else:
                refused, version = None, current.version
                had_games = bool(current.games())
                current.close()
                if Path(f"{path}-wal").exists():
                    raise JournalError(stored("restore_not_closed", path=str(path)), full=True)
            fresh = Journal(staged)
            try:
                fresh.advance(version + 1)  # the version phones follow never goes back
            finally:
                fresh.close()
            kept = None
            if refused is not None:
                kept = _aside(path, "restore")
                for found in [path, *beside(path)]:
                    if found.exists():
                        os.replace(found, f"{kept}{found.name[len(path.name):]}")
            elif had_games:
                kept = _aside(path, "restore")
                os.link(path, kept)
            for side in beside(path):  # an index left empty by the clean close: nothing of the old journal
                os.unlink(side)
            os.replace(staged, path)
            sync_folder(data)
        finally:
            for left in (staged, *(f"{staged}{side}" for side in (".lock", "-wal", "-shm"))):
                if os.path.exists(left):
                    os.unlink(left)
    finally:
        lock.close()
    return len(games), kept


def _version_alone(path: Path) -> int:
    """The version the main file `path` holds alone, or 0 where it cannot be read."""
    try:
        return marks_alone(path).version or 0
    except sqlite3.DatabaseError:
        return 0


def recover(data_folder: str | Path) -> Path:
    """Resume the journal of `data_folder` from its main file alone when its write-ahead log was lost (the box
    refuses it by name until then): what the log held is gone, at most the last seconds of play
    (docs/architecture.md). The main file is first kept as it was beside it; returns where. Raises JournalError
    when there is nothing to recover or a box uses the folder."""
    path = Path(data_folder) / JOURNAL
    if not path.exists():
        raise JournalError(stored("recover_none", path=str(path)))
    lock = take_lock(str(path))
    try:
        try:
            lost = is_log_lost(path)
        except sqlite3.DatabaseError as e:
            raise JournalError(stored("recover_damaged", path=str(path), error=str(e))) from None
        if not lost:
            raise JournalError(stored("recover_not_lost", path=str(path)))
        kept = _aside(path, "recover")
        try:
            shutil.copyfile(path, kept)
            with open(kept, "rb+") as copy:
                os.fsync(copy.fileno())
        except OSError as e:
            kept.unlink(missing_ok=True)
            raise JournalError(stored("recover_no_copy", path=str(path), error=str(e.strerror))) from None
        try:
            with closing(sqlite3.connect(path, isolation_level=None)) as db:
                db.execute("UPDATE meta SET value = 0 WHERE key = 'open'")  # synced in a log of its own, then closed
        except sqlite3.DatabaseError as e:
            raise JournalError(stored("recover_damaged", path=str(path), error=str(e))) from None
        Journal(path, lock=lock).close()  # it opens as the box would open it
    finally:
        lock.close()
    return kept

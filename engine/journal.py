"""The journal: every applied line, in SQLite, written before the table acknowledges it.

One row per entry; a version number (in `meta`) moves on with every write, a held pick's too, and never back,
across restarts. Undo is a row of its own (never a deletion). Kinds: 'table' (a game's first line), 'line' (an applied
action, chance outcome or undo), 'end' (the host ended the game). A pick that completes a round and waits out
the reveal delay is kept in `held` (one row per game) until it is applied: acknowledged is journaled.
One box at a time: the journal is locked while it is open.

The journal's format is its SQLite `user_version`: 1 (0 on the file: before it was numbered) had no seeds;
2 keeps each game's chance seed (`seeds`). An older journal is brought up to date when it is opened (the new
tables are added; nothing is rewritten); a newer one is refused by name.
"""
import contextlib
import fcntl
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO, TypeAlias, cast

from .rules.protocol import JSON, Action, Message
from .sidefiles import SideFileError, holds_frames, inspect, read_only
from .worded import Worded, stored

log = logging.getLogger(__name__)

# A game as the journal keeps it: (id, table line, lines, ended, when it started: ISO time or None).
KeptGame: TypeAlias = tuple[int, dict[str, JSON], list[Action], bool, str | None]
# Games as rows, for a restore: (game, kind, body) in order, and each game's start time and seed (hex).
KeptRows: TypeAlias = tuple[list[tuple[int, str, Action]], dict[int, str], dict[int, str]]

FORMAT = 2
# SQLite's page cache, per connection (its default is 2 MB): the start's check reads every page, so a journal of a
# season's games would keep 2 MB of a Pi Zero's memory for good. The box appends and reads one game's lines.
CACHE_KIB = 256

# How a write reaches the disk: a commit appends to the write-ahead log and syncs it (WAL, synchronous=FULL), one
# sync (two when the log starts over), where the rollback journal with synchronous=EXTRA made five (the journal
# twice, the database, the directory; each some 30 ms on an SD card). A power cut loses nothing acknowledged: the
# log is replayed when the journal is next opened. The log is copied into the main file (a checkpoint, two more
# syncs) off the acknowledged path, at most CHECKPOINT_AFTER seconds after the first write it has not copied yet,
# however busy the table (`Checkpoints`): a passive checkpoint, which never blocks a write. So the main file alone
# holds every action acknowledged more than a checkpoint's round ago, and the log restarts from its beginning
# after each checkpoint that copied all of it, cut back to WAL_LIMIT bytes when it grew past them.
CHECKPOINT_AFTER = 1.0
ROOM = 1 << 20  # bytes a disk has left, at least, when a journal that fails to open is not taken for a full one
WAL_LIMIT = 1 << 20
DURABILITY = ("journal_mode=WAL", "synchronous=FULL", "wal_autocheckpoint=0", f"journal_size_limit={WAL_LIMIT}")

KINDS = ("table", "line", "end")  # of an entry: a game's table line, a line of its log, its end

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(f"'{kind}'" for kind in KINDS)})),
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_game ON entries (game, id);
CREATE TABLE IF NOT EXISTS held (game INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS started (game INTEGER PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seeds (game INTEGER PRIMARY KEY, seed TEXT NOT NULL);
INSERT OR IGNORE INTO meta (key, value) SELECT 'version', COALESCE(MAX(id), 0) FROM entries;
"""


class StorageError(Worded, RuntimeError):
    """Something the box keeps on its disk cannot be read or written, and why (`said` in a language). `full` when
    the disk has no room left: the box refuses what it cannot write, and takes inputs again once there is room."""

    def __init__(self, message: Message | str, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


class JournalError(StorageError):
    """The journal cannot be read or written."""


class DamagedGame(JournalError):
    """A journaled game that does not replay; `where` names its game (and line) and what is wrong, without the
    journal's path (a restore names its backup file instead)."""

    def __init__(self, path: object, where: Message | str) -> None:
        super().__init__(stored("journal_game_damaged", path=str(path), where=where))
        self.where = where


def is_row_id(value: object) -> bool:
    """Whether `value` may name a row: SQLite's integers are 64-bit, and a larger one would not even bind."""
    return type(value) is int and 0 <= value < 2 ** 63


def refuse_emptied(path: Path) -> None:
    """SQLite takes an empty file for an empty journal: a journal cut to nothing would start at version 0 as
    though no game had ever been played. The box makes the file itself, and never empty."""
    if path.exists() and path.stat().st_size == 0:
        raise JournalError(stored("journal_emptied", path=str(path)))


def _full(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorname", "") == "SQLITE_FULL"


def on_read_only_disk(path: Path) -> bool:
    """Whether the journal `path` lies on a file system mounted read-only."""
    try:
        return path.is_file() and bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def has_room(folder: Path) -> bool:
    """Whether the disk of `folder` has ROOM left (where a journal's start failed, less is taken for a full disk)."""
    try:
        found = os.statvfs(folder)
    except OSError:
        return True
    return found.f_bavail * found.f_frsize >= ROOM


def take_lock(path: str) -> TextIO:
    """The lock of the journal `path`'s folder, held while the file returned stays open. Two boxes on one journal
    would interleave two games: the second is refused."""
    try:
        lockfile = open(path + ".lock", "a")
    except OSError as e:
        raise JournalError(stored("lock_cannot_open", path=path, error=str(e.strerror))) from None
    try:
        fcntl.flock(lockfile, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lockfile.close()
        raise JournalError(stored("journal_in_use", path=path)) from None
    return lockfile


class Checkpoints:
    """Copies the journal's write-ahead log into its main file `after` seconds after the first write it has not
    copied, on a thread and a connection of their own: no acknowledged action waits for it, and later writes do not
    put it off. What a checkpoint could not copy (a write came meanwhile, a reader held it back, a full disk where
    the main file cannot grow) is tried again a round later; the log stays as it is, synced, until then. `copied`:
    a version the main file holds at least, once a checkpoint copied the whole log (the journal writes it into the
    log's next commit as its `base`: engine/sidefiles.py refuses an older main file beside that log)."""

    def __init__(self, path: str, after: float) -> None:
        # Opened here, with the journal, never later by its path: the thread may first run once the file has moved
        # (a restore renames its staged journal) or its folder has gone. synchronous=FULL (SQLite's default): a
        # checkpoint syncs the log, then the main file.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self._after = after
        self._due: float | None = None
        self._closed = False
        self.copied: int | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoints", daemon=True)
        self._thread.start()

    def written(self) -> None:
        with self._changed:
            if self._due is None:
                self._due = time.monotonic() + self._after
                self._changed.notify()

    def _run(self) -> None:
        try:
            while self._wait():
                try:  # the version read first: the checkpoint copies that much at least
                    version = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
                    busy, logged, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:
                    busy, logged, copied = 1, 1, 0
                if busy or copied < logged:
                    self.written()
                else:
                    self.copied = version
        finally:
            self._db.close()

    def _wait(self) -> bool:
        """Until a checkpoint is due (True) or the journal is closed (False)."""
        with self._changed:
            while not self._closed and (self._due is None or time.monotonic() < self._due):
                self._changed.wait(None if self._due is None else self._due - time.monotonic())
            self._due = None
            return not self._closed

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join()


class Journal:
    """Committed rows are synced before a write returns (see DURABILITY), and copied into the main file within a
    checkpoint's round: from then on what was acknowledged survives the loss or damage of every file beside it. A
    damaged main file, or files beside it that opening it would lose or destroy (engine/sidefiles.py), are refused
    by name, never started over. `fault` is "full" when the journal opened but cannot take a write for want of
    room (the box starts, refuses presses and says so, until there is room again).

    The start draws a new session, marks the journal open and copies the log into the main file; a clean `close`
    marks it closed and leaves the main file alone, no log beside it. `lock`: the folder's lock when the caller
    holds it already (a restore), kept when the journal closes."""

    def __init__(self, path: str | Path = ":memory:", after: float = CHECKPOINT_AFTER,
                 lock: TextIO | None = None) -> None:
        self.path = str(path)
        self.fault: str | None = None
        self._checkpoints: Checkpoints | None = None
        self._opened = False  # the session's marks are written
        self._read_only = self.path != ":memory:" and on_read_only_disk(Path(self.path))
        if self._read_only:
            self._open_read_only("failing")
            return
        if self.path != ":memory:":
            self._usable_directory(Path(self.path).parent)
            refuse_emptied(Path(self.path))
        self._lock = threading.Lock()
        self._own_lock = lock is None
        self._lockfile = self._take_lock() if lock is None else lock
        try:
            if self.path != ":memory:":
                inspect(Path(self.path))
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            for pragma in DURABILITY:
                self._db.execute(f"PRAGMA {pragma}")
            checked = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise sqlite3.DatabaseError(checked)
            found = self._db.execute("PRAGMA user_version").fetchone()[0]
            if found > FORMAT:
                self._give_up()
                raise JournalError(stored("journal_newer", path=self.path, found=found, format=FORMAT))
            if found != FORMAT:  # a new journal (or an older format's): its tables, in one transaction
                self._db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version = {FORMAT}; COMMIT;")
            self._db.execute("SELECT id, game, kind, body FROM entries LIMIT 1").fetchall()
        except SideFileError as e:
            self._give_up()
            raise JournalError(e.message) from None
        except sqlite3.DatabaseError as e:
            self._give_up()
            named = getattr(e, "sqlite_errorname", "")
            cannot_make = named.startswith(("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN"))
            if cannot_make and Path(self.path).is_file() and not has_room(Path(self.path).parent):
                # no room even for the log's index (as after a clean stop): read, and say the disk is full
                self._read_only = True
                self._open_read_only("full")
                return
            if "readonly" in str(e) or "unable to open" in str(e):
                raise JournalError(stored("journal_not_writable", path=self.path, error=str(e))) from None
            raise JournalError(stored("journal_damaged", path=self.path, error=str(e)), full=_full(e)) from None
        try:
            self._write([])  # the session's marks; a box that cannot write must say so before it serves anyone
            if self.path != ":memory:":
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # alone at the start: the main file has it all
                with self._transaction():  # and the log takes a write from its first byte: there is room
                    self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('open', 1)")
        except (JournalError, sqlite3.Error) as e:
            full = e.full if isinstance(e, JournalError) else _full(e)
            if not full:
                self._give_up()
                why = e.message if isinstance(e, JournalError) else str(e)
                raise JournalError(stored("first_write_failed", error=why), full=full) from None
            log.error("the journal %s cannot take a write: the disk is full", self.path)
            self.fault = "full"  # the box starts, shows the games and refuses presses until there is room
        if self.path != ":memory:":
            self._checkpoints = Checkpoints(self.path, after)

    def _open_read_only(self, fault: str) -> None:
        """The journal on a disk mounted read-only (an SD card the kernel stopped writing; `fault` "failing"), or
        on one with no room even for the log's index (`fault` "full"): opened to be read, so the box shows its
        games and says why it takes no press (every write is refused, until the box starts again on a disk that
        takes them). Nothing writes the folder meanwhile: no lock to take, no log to check; SQLite reads the log
        where one holds anything, else the main file alone."""
        path = Path(self.path)
        # a full disk's folder may be freed meanwhile: the lock (its file is there) keeps another box out
        self._lock, self._own_lock = threading.Lock(), True
        self._lockfile = take_lock(self.path) if fault == "full" else None
        log_left = holds_frames(Path(f"{path}-wal"))
        try:
            self._db = read_only(path, immutable=not log_left, check_same_thread=False, isolation_level=None)
            found = self._db.execute("PRAGMA user_version").fetchone()[0]
            self._db.execute("SELECT id, game, kind, body FROM entries LIMIT 1").fetchall()
        except sqlite3.DatabaseError as e:
            self._give_up()
            raise JournalError(stored("journal_read_only_unreadable", path=self.path, error=str(e))) from None
        if found != FORMAT:
            self._give_up()
            raise JournalError(stored("journal_read_only_format", path=self.path, found=found, format=FORMAT))
        log.error("the journal %s is on a disk %s: the box shows its games and takes no press", self.path,
                  "mounted read-only" if fault == "failing" else "with no room left")
        self.fault = fault

    @staticmethod
    def _usable_directory(directory: Path) -> None:
        try:
            if directory.exists() and not directory.is_dir():
                raise JournalError(stored("data_is_file", directory=str(directory)))
            directory.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise JournalError(stored("data_cannot_make", directory=str(directory))) from None
        except OSError as e:
            raise JournalError(stored("data_unusable", directory=str(directory), error=str(e.strerror),
                                      fix=stored("data_fix"))) from None
        if not os.access(directory, os.W_OK | os.X_OK):
            raise JournalError(stored("data_not_writable", directory=str(directory), fix=stored("data_fix")))

    def _give_up(self) -> None:
        try:
            self._db.close()
        except (AttributeError, sqlite3.Error):
            pass
        if self._lockfile and self._own_lock:
            self._lockfile.close()

    def _take_lock(self) -> TextIO | None:
        return None if self.path == ":memory:" else take_lock(self.path)

    def close(self) -> None:
        """Mark the journal closed, copy the log into the main file and remove it: the main file alone holds every
        game. Where that cannot be written (a full disk), the log stays, synced, and is read at the next start."""
        if self._checkpoints:
            self._checkpoints.close()
        if self._read_only:
            self._db.close()
            if self._lockfile:
                self._lockfile.close()
            return
        keeper = None
        with self._lock:
            try:
                self._db.execute("UPDATE meta SET value = 0 WHERE key = 'open'")
            except sqlite3.Error as e:
                if self.path == ":memory:":
                    raise
                log.error("the journal %s could not be closed cleanly (%s): its log is read at the next start",
                          self.path, e)
                # Still marked open, so its log must stay: the last connection to close is a read-only one, which
                # never copies the log in nor removes it.
                keeper = read_only(self.path)
                keeper.execute("SELECT 1 FROM meta").fetchall()
            else:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()  # the last connection: SQLite removes the log (and its index) once all of it is copied
        if keeper:
            keeper.close()
        if self._lockfile and self._own_lock:
            self._lockfile.close()

    def _write(self, rows: Sequence[tuple[int, str, JSON]], held: tuple[int, JSON] | tuple[()] = (),
               started: tuple[int, str] | None = None, seed: tuple[int, str] | None = None) -> int:
        """One transaction: `rows` (game, kind, body) appended, a game's held pick set or cleared (`held`:
        (game, body or None)), a new game's start time (`started`: (game, ISO time)), and the
        version moved on by one. Returns the new version."""
        opening = not self._opened
        copied = self._checkpoints.copied if self._checkpoints else None
        with self._transaction():
            if opening:
                self._open_session()
            if copied is not None:  # the meta page is written anyway: the version moves in it
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('base', ?)", (copied,))
            if started:
                self._db.execute("INSERT INTO started (game, at) VALUES (?, ?)", started)
            if seed:
                self._db.execute("INSERT INTO seeds (game, seed) VALUES (?, ?)", seed)
            for game, kind, body in rows:
                self._db.execute("INSERT INTO entries (game, kind, body) VALUES (?, ?, ?)",
                                 (game, kind, json.dumps(body, ensure_ascii=False)))
            if held:
                game, body = held
                self._db.execute("DELETE FROM held WHERE game = ?", (game,))
                if body is not None:
                    self._db.execute("INSERT INTO held (game, body) VALUES (?, ?)",
                                     (game, json.dumps(body, ensure_ascii=False)))
            self._db.execute("UPDATE meta SET value = value + ? WHERE key = 'version'", (1 if rows or held else 0,))
            version = int(self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])
        self._opened = True  # committed
        return version

    def _open_session(self) -> None:
        """Inside the first write: mark the journal open, in a new session (engine/sidefiles.py reads the marks)."""
        session = secrets.randbits(62)
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) SELECT 'previous', value FROM meta "
                         "WHERE key = 'session'")
        self._db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                             [("session", session), ("open", 1)])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, under the lock: committed whole, or rolled back and refused by name."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                full = _full(e) or (self._read_only and self.fault == "full")
                raise JournalError(stored("journal_write_failed", path=self.path, error=str(e)), full=full) from None
            if self._checkpoints:
                self._checkpoints.written()

    def start_game(self, table_line: dict[str, JSON], lines: Sequence[Action] = (), end: int | None = None,
                   at: str | None = None, seed: bytes | None = None) -> tuple[int, int]:
        """Journal a new game with its first chance lines and its chance seed (bytes; it never leaves the box
        before the game ends), ending game `end` in the same breath; returns (game id, version)."""
        with self._lock:
            game = int(self._db.execute("SELECT COALESCE(MAX(game), 0) + 1 FROM entries").fetchone()[0])
        ended: list[tuple[int, str, JSON]] = [(end, "end", {})] if end is not None else []
        return game, self._write([*ended, (game, "table", table_line), *((game, "line", x) for x in lines)],
                                 held=(end, None) if end is not None else (),
                                 started=(game, at) if at else None, seed=(game, seed.hex()) if seed else None)

    def append(self, game: int, lines: Sequence[Action], revealed: bool = False) -> int:
        """Journal applied lines of one input together; returns the new version. `revealed`: they begin with the
        game's held pick, which is no longer held. Another seat's line during the reveal delay leaves it held."""
        return self._write([(game, "line", line) for line in lines], held=(game, None) if revealed else ())

    def end_game(self, game: int) -> int:
        return self._write([(game, "end", {})], held=(game, None))

    def hold(self, game: int, line: Action | None) -> int:
        """Keep the held pick of `game` (None: there is none any more), durably, before it is acknowledged;
        returns the new version."""
        return self._write([], held=(game, line))

    def held(self, game: int) -> Action | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM held WHERE game = ?", (game,)).fetchone()
        try:
            return cast(Action, json.loads(row[0])) if row else None
        except ValueError as e:
            raise JournalError(stored("journal_damaged_held", path=self.path, error=str(e))) from None

    @property
    def version(self) -> int:
        """Moves on with every write (a held pick too) and never back, across restarts."""
        with self._lock:
            return int(self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])

    def last_game(self) -> tuple[int, dict[str, JSON], list[Action], bool] | None:
        """(game id, table line, lines, ended) of the newest game, or None."""
        with self._lock:
            row = self._db.execute("SELECT MAX(game) FROM entries").fetchone()
        found = None if row[0] is None else self.game(row[0])
        return None if found is None else found[:4]

    def game(self, game: object) -> KeptGame | None:
        """(game id, table line, lines, ended, started: ISO time or None) of game `game`, or None."""
        if not is_row_id(game):
            return None
        with self._lock:
            rows = self._db.execute("SELECT id, kind, body FROM entries WHERE game = ? ORDER BY id",
                                    (game,)).fetchall()
            started = self._db.execute("SELECT at FROM started WHERE game = ?", (game,)).fetchone()
        if not rows:
            return None
        try:
            parsed = [(kind, json.loads(body)) for _, kind, body in rows]
        except ValueError as e:
            raise JournalError(stored("journal_damaged_row", path=self.path, error=str(e))) from None
        if parsed[0][0] != "table":
            raise JournalError(stored("journal_no_table_line", path=self.path, game=cast(int, game)))
        lines = [body for kind, body in parsed[1:] if kind == "line"]
        return (cast(int, game), parsed[0][1], lines, any(kind == "end" for kind, _ in parsed),
                started[0] if started else None)

    def seed(self, game: int) -> bytes | None:
        """The chance seed of `game` (bytes), or None (a game whose draws commit to nothing)."""
        with self._lock:
            row = self._db.execute("SELECT seed FROM seeds WHERE game = ?", (game,)).fetchone()
        try:
            return bytes.fromhex(row[0]) if row else None
        except ValueError:
            raise JournalError(stored("journal_damaged_seed", path=self.path, game=game)) from None

    def backup(self, target: str | Path, leave_out: Iterable[int] = (), newer_than: int | None = None) -> None:
        """A copy of the journal in `target` (a consistent snapshot, in this format) without the games
        `leave_out` and those numbered above `newer_than` (games in play: their secret picks and seeds stay on
        the box), and marked as a backup. It reads through a connection of its own, read-only: in WAL mode no
        write of the journal waits for it (on a disk that takes no write, through the journal's own: nothing
        writes it then, and SQLite could make no index for another)."""
        try:
            source = self._db if self._read_only else read_only(self.path, timeout=10)
            copy = sqlite3.connect(target)
            try:
                with self._lock if self._read_only else contextlib.nullcontext():
                    source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, readable alone: no write-ahead log beside it
                for table in ("entries", "held", "started", "seeds"):
                    for game in leave_out:
                        copy.execute(f"DELETE FROM {table} WHERE game = ?", (game,))
                    if newer_than is not None:
                        copy.execute(f"DELETE FROM {table} WHERE game > ?", (newer_than,))
                copy.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('backup', 1)")
                copy.execute("DELETE FROM meta WHERE key IN ('open', 'session', 'previous', 'base')")  # the box's marks
                copy.commit()
                copy.execute("VACUUM")  # what was deleted leaves no trace in the file's free pages
            finally:
                copy.close()
                if source is not self._db:
                    source.close()
        except sqlite3.Error as e:
            raise JournalError(stored("backup_write_failed", path=self.path, error=str(e)), full=_full(e)) from None

    def load(self, rows: KeptRows) -> None:
        """Put games in whole, in one transaction, into this journal (new and empty): a restore's."""
        entries, started, seeds = rows
        with self._transaction():
            self._db.executemany("INSERT INTO entries (game, kind, body) VALUES (?, ?, ?)",
                                 [(g, k, json.dumps(b)) for g, k, b in entries])  # escaped: whatever it holds
            self._db.executemany("INSERT INTO started (game, at) VALUES (?, ?)", started.items())
            self._db.executemany("INSERT INTO seeds (game, seed) VALUES (?, ?)", seeds.items())

    def advance(self, version: int) -> int:
        """Move the version on to `version` at least (a restored journal starts after the one it replaces, a table
        past a version phones saw and the journal lost); returns the new version."""
        with self._transaction():
            self._db.execute("UPDATE meta SET value = MAX(value, ?) WHERE key = 'version'", (version,))
            return int(self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])

    def games(self, newest: int = 50) -> list[int]:
        """The ids of the newest games the journal holds, newest first (`newest=-1`: every one)."""
        with self._lock:
            return [int(row[0]) for row in self._db.execute(
                "SELECT DISTINCT game FROM entries ORDER BY game DESC LIMIT ?", (newest,))]

"""The journal: every applied line, in SQLite, written before the table acknowledges it.

One row per entry; the row id only grows, so it doubles as the table's version number across restarts.
Undo is a row of its own (never a deletion). Kinds: 'table' (a game's first line), 'line' (an applied
action, chance outcome or undo), 'end' (the host ended the game). A pick that completes a round and waits out
the reveal delay is kept in `held` (one row per game) until it is applied: acknowledged is journaled.
One box at a time: the journal is locked while it is open.
"""
import fcntl
import json
import sqlite3
import threading
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('table', 'line', 'end')),
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_game ON entries (game, id);
CREATE TABLE IF NOT EXISTS held (game INTEGER PRIMARY KEY, body TEXT NOT NULL);
"""


class JournalError(RuntimeError):
    """The journal cannot be read or written. The box stops rather than lose or overwrite a game."""


class Journal:
    def __init__(self, path=":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._lockfile = self._take_lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._db.execute("SELECT id, game, kind, body FROM entries LIMIT 1").fetchall()
        except sqlite3.DatabaseError as e:
            raise JournalError(f"the journal {self.path} is damaged ({e}); move it aside to start afresh, "
                               f"it is left untouched") from None

    def _take_lock(self):
        """Two boxes on one journal would interleave two games: the second is refused."""
        if self.path == ":memory:":
            return None
        lockfile = open(self.path + ".lock", "w")
        try:
            fcntl.flock(lockfile, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lockfile.close()
            raise JournalError(f"another box is using the journal {self.path}: stop it first") from None
        return lockfile

    def close(self):
        self._db.close()
        if self._lockfile:
            self._lockfile.close()

    def _write(self, rows):
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for game, kind, body in rows:
                    cur = self._db.execute("INSERT INTO entries (game, kind, body) VALUES (?, ?, ?)",
                                           (game, kind, json.dumps(body, ensure_ascii=False)))
                    self._db.execute("DELETE FROM held WHERE game = ?", (game,))
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"could not write the journal {self.path}: {e}") from None
            return cur.lastrowid

    def start_game(self, table_line):
        """Journal a new game; returns (game id, version)."""
        with self._lock:
            game = self._db.execute("SELECT COALESCE(MAX(game), 0) + 1 FROM entries").fetchone()[0]
        return game, self._write([(game, "table", table_line)])

    def append(self, game, lines):
        """Journal applied lines of one input together; returns the new version."""
        return self._write([(game, "line", line) for line in lines])

    def end_game(self, game):
        return self._write([(game, "end", {})])

    def hold(self, game, line):
        """Keep the held pick of `game` (None: there is none any more), durably, before it is acknowledged."""
        with self._lock:
            try:
                if line is None:
                    self._db.execute("DELETE FROM held WHERE game = ?", (game,))
                else:
                    self._db.execute("INSERT OR REPLACE INTO held (game, body) VALUES (?, ?)",
                                     (game, json.dumps(line, ensure_ascii=False)))
            except sqlite3.Error as e:
                raise JournalError(f"could not write the journal {self.path}: {e}") from None

    def held(self, game):
        with self._lock:
            row = self._db.execute("SELECT body FROM held WHERE game = ?", (game,)).fetchone()
        try:
            return json.loads(row[0]) if row else None
        except ValueError as e:
            raise JournalError(f"the journal {self.path} holds a damaged held pick ({e})") from None

    @property
    def version(self):
        with self._lock:
            return self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()[0]

    def last_game(self):
        """(game id, table line, lines, ended) of the newest game, or None."""
        with self._lock:
            row = self._db.execute("SELECT MAX(game) FROM entries").fetchone()
            if row[0] is None:
                return None
            rows = self._db.execute("SELECT id, kind, body FROM entries WHERE game = ? ORDER BY id",
                                    (row[0],)).fetchall()
        try:
            parsed = [(kind, json.loads(body)) for _, kind, body in rows]
        except ValueError as e:
            raise JournalError(f"the journal {self.path} holds a damaged row ({e})") from None
        if not parsed or parsed[0][0] != "table":
            raise JournalError(f"the journal {self.path} has game {row[0]} without its table line")
        lines = [body for kind, body in parsed[1:] if kind == "line"]
        return row[0], parsed[0][1], lines, any(kind == "end" for kind, _ in parsed)

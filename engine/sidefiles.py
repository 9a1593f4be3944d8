"""What lies beside the journal, checked before the box opens it for writing.

SQLite keeps a WAL journal in up to three files: the main file, its write-ahead log (`-wal`: the actions
acknowledged since the last checkpoint) and the log's index (`-shm`, rebuilt from the log by the first connection).
Opened for writing, SQLite applies whatever log lies beside the main file and, on close, copies it in for good; it
cannot tell a log that belongs to the main file from one that does not, nor a missing log from an empty one. So
the box keeps two marks in the journal's `meta` (the main file alone holds them after every start, see
engine/journal.py): `open`, 1 from a start to a clean stop, and `session`, a random number each start draws (with
`previous`, the one before it). Every commit carries them in the log, so:

- a log, an index or a rollback journal with no main file beside it: the main file is gone, refused;
- the main file says the box did not stop cleanly, and no log lies beside it: the log is gone, refused;
- a log whose last commit names another session (and not this one as its previous): another journal's, refused;
- a log whose last commit is older than the main file alone: an older copy of this one's, refused (SQLite would
  lay its old pages over the newer main file); and a main file older than the one the log was written beside (its
  `base`: what the last whole checkpoint had copied), an older copy of the main file, refused (the log holds only
  what came after);
- a log beside a main file in rollback mode: refused (SQLite would apply it on the switch to WAL).

These checks read: they open the journal read-only, which never copies a log into the main file, so a refusal
leaves every file as it was (but the log's index, which SQLite rebuilds from the log at will). A log damaged or cut short is read by SQLite up to its last whole commit; what lies
after that is lost, and nothing on the card can tell (docs/architecture.md says what that may cost).
"""
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from .worded import Worded, stored

SIDES = ("-wal", "-shm", "-journal")
WAL_MODE = 2  # bytes 18 and 19 of the main file's header (its read and write versions) in WAL mode


class Marks(NamedTuple):
    """The journal's marks, as the main file alone holds them or as the log has them."""
    open: int | None
    session: int | None
    previous: int | None
    version: int | None
    base: int | None  # in the log: a version the main file held at least when it was written


class SideFileError(Worded):
    """A file beside the journal that opening it would lose or destroy; the message names it and what to do."""


def beside(path: Path) -> list[Path]:
    return [Path(f"{path}{side}") for side in SIDES if Path(f"{path}{side}").exists()]


def marks(db: sqlite3.Connection) -> Marks:
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "meta" not in tables:
        return Marks(None, None, None, None, None)
    found = dict(db.execute("SELECT key, value FROM meta").fetchall())
    return Marks(found.get("open"), found.get("session"), found.get("previous"), found.get("version"),
                 found.get("base"))


def holds_frames(log: Path) -> bool:
    """Whether the write-ahead log `log` may hold anything: past its 32-byte header (an empty one holds nothing)."""
    return log.exists() and log.stat().st_size > 32


def read_only(path: str | Path, immutable: bool = False, **options: Any) -> sqlite3.Connection:
    """A read-only connection to the SQLite file `path`: it never copies a log into the main file nor removes one.
    `immutable`: the main file alone (no log read, no index made beside it). `options`: sqlite3.connect's."""
    uri = f"{Path(path).resolve().as_uri()}?mode=ro{'&immutable=1' if immutable else ''}"
    connection: sqlite3.Connection = sqlite3.connect(uri, uri=True, **options)
    return connection


def marks_alone(path: Path) -> Marks:
    """The marks the main file `path` holds alone (read immutable: no log read, no file made beside it)."""
    with closing(read_only(path, immutable=True)) as db:
        return marks(db)


def is_log_lost(path: Path) -> bool:
    """Whether the journal `path` was left open (no clean stop) and its write-ahead log is gone."""
    return path.exists() and not Path(f"{path}-wal").exists() and bool(marks_alone(path).open)


def inspect(path: Path) -> None:
    """Raise SideFileError when opening the journal `path` for writing would lose or destroy what lies beside it;
    sqlite3.DatabaseError when the main file (or the log applied to it) is damaged. Changes nothing."""
    found = beside(path)
    if not path.exists():
        if found:
            names = ", ".join(f.name for f in found)
            raise SideFileError(stored("side_main_missing", names=names, path=str(path)))
        return
    log = Path(f"{path}-wal")
    with open(path, "rb") as main:
        header = main.read(20)
    in_wal_mode = len(header) == 20 and header[18] == WAL_MODE
    if not in_wal_mode and Path(f"{path}-journal").exists():
        return  # a rollback journal: SQLite's to roll back as the box opens the main file (read alone, it may be torn)
    alone = marks_alone(path)
    if log.exists() and not in_wal_mode:
        raise SideFileError(stored("side_log_not_wal", log=str(log)))
    if alone.open and not log.exists():
        raise SideFileError(stored("side_log_missing", log=str(log), data=str(path.parent)))
    if not holds_frames(log):
        return
    try:
        with closing(read_only(path)) as db:
            checked = db.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise sqlite3.DatabaseError(checked)
            logged = marks(db)  # read-only: the log is read, never copied in
    except sqlite3.DatabaseError as e:
        with closing(read_only(path, immutable=True)) as db:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise  # the main file itself
        raise SideFileError(stored("side_log_misfit", log=str(log), error=str(e))) from None
    if logged.session != alone.session and logged.previous != alone.session:
        raise SideFileError(stored("side_log_foreign", log=str(log)))
    if (alone.version or 0) < (logged.base or 0):
        raise SideFileError(stored("side_main_older", path=str(path), version=alone.version, base=logged.base))
    if (logged.version or 0) < (alone.version or 0):
        raise SideFileError(stored("side_log_older", log=str(log), logged=logged.version, version=alone.version))

"""The box says what it is, reads the previous journal format, and backs its games up and restores them (engine/
backup.py): what is in play stays on the box, and a file that is not ours, is damaged or does not replay is
refused with a reason and changes nothing."""
import json
import os
import sqlite3
import subprocess
import sys
import tomllib
from contextlib import closing
from pathlib import Path

import pytest

from device.cli import main
from device.config import DEFAULT_PINMAP
from device.web_port import WebPort
from engine.backup import BackupError, restore
from engine.journal import FORMAT, Journal, JournalError
from engine.table import Table
from engine.version import about, version
from tests.phones import take
from web_companion import create_app

ROOT = Path(__file__).resolve().parent.parent

# The journal as format 1 wrote it (before seeds were kept): what an upgrade finds on a box.
FORMAT_1 = """
CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('table', 'line', 'end')), body TEXT NOT NULL);
CREATE INDEX entries_game ON entries (game, id);
CREATE TABLE held (game INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE started (game INTEGER PRIMARY KEY, at TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('version', 3);
INSERT INTO entries (game, kind, body) VALUES (1, 'table', '{"arbitro": 1, "game": "ponte", "seats": 3, "options": {}}');
INSERT INTO entries (game, kind, body) VALUES (1, 'line', '{"seat": 0, "pick": "vertigini"}');
INSERT INTO entries (game, kind, body) VALUES (1, 'line', '{"seat": 1, "pick": "passo_prudente"}');
"""


def seeded(path, seed=7):
    return Table(Journal(path), seeds=lambda: bytes([seed]) * 32)


def test_the_box_says_its_version_and_journal_format(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"arbitro {version()} (journal format {FORMAT})"
    assert version().startswith(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def test_an_installed_box_finds_its_default_pin_map_inside_the_package():
    assert DEFAULT_PINMAP.parent == ROOT / "device" and DEFAULT_PINMAP.is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["device"]
    assert "pinmap.toml" in data
    assert (ROOT / "hardware" / "pinmap.toml").resolve() == DEFAULT_PINMAP  # the builder's copy is the same file


def test_a_journal_of_the_previous_format_resumes_its_game_and_is_brought_up_to_date(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(FORMAT_1)
    table = Table(Journal(path))
    assert table.view()["locked"] == [0, 1] and table.view()["chance"] == {"verifiable": False}
    table.act({"seat": 2, "pick": "salto_atletico"})  # the game goes on, its draws from the secure source
    assert table.view()["match"] == 2
    table.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT


def test_a_journal_newer_than_the_box_is_refused_by_name(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {FORMAT + 1}")
    with pytest.raises(JournalError, match=f"is in format {FORMAT + 1}, newer than this box's"):
        Journal(path)


def test_a_backup_holds_every_game_but_the_one_in_play(tmp_path):
    table = seeded(tmp_path / "box" / "journal.sqlite3")
    table.new_game("ponte", 3, {"deal": "box"})  # specials dealt by the box: a secret of each seat
    finished_seed = (bytes([7]) * 32).hex()
    table.end_game()
    table.new_game("ponte", 3)
    table.act({"seat": 0, "pick": "vertigini"})  # a secret pick, not revealed
    table.backup(tmp_path / "backup.sqlite3")
    raw = (tmp_path / "backup.sqlite3").read_bytes()
    assert b"vertigini" not in raw  # nothing of the game in play, not even in free pages
    # one file, whole: not in write-ahead-log mode as the journal is (SQLite's header bytes 18 and 19: 1 for a
    # rollback journal, 2 for WAL), so nothing beside it is needed to read it
    assert raw[18:20] == b"\x01\x01" and sorted(p.name for p in tmp_path.iterdir()) == ["backup.sqlite3", "box"]
    with sqlite3.connect(tmp_path / "backup.sqlite3") as db:
        assert [row[0] for row in db.execute("SELECT DISTINCT game FROM entries")] == [1]
        assert db.execute("SELECT seed FROM seeds").fetchall() == [(finished_seed,)]  # ended: may be checked
    table.close()


def test_a_backup_restores_into_a_new_box_and_keeps_the_journal_it_replaces(tmp_path, capsys):
    backup, data, log = good_backup(tmp_path, games=13)  # a box further on: its version is higher than the backup's
    kept = Journal(data / "journal.sqlite3")
    before = kept.version
    kept.close()
    assert main(["restore", str(backup), "--data", str(data)]) == 0
    said = capsys.readouterr().out
    assert "restored 1 game into" in said and "journal.sqlite3.before-restore-" in said
    restored = Table(Journal(data / "journal.sqlite3"))
    assert restored.export(1) == log and restored.version > before  # phones never see the version go back
    restored.close()
    assert len(list(data.glob("journal.sqlite3.before-restore-*"))) == 1


def test_a_file_that_is_not_a_sound_backup_is_refused_and_changes_nothing(tmp_path):
    table = seeded(tmp_path / "box" / "journal.sqlite3")
    table.new_game("ponte", 3)
    table.end_game()
    table.backup(tmp_path / "good.sqlite3")
    table.close()
    data = tmp_path / "box"

    def rows():
        with closing(sqlite3.connect(data / "journal.sqlite3")) as db:
            return db.execute("SELECT * FROM entries").fetchall(), db.execute("SELECT * FROM meta").fetchall()
    journal = rows()
    (tmp_path / "text.sqlite3").write_text("not a database")
    with pytest.raises(BackupError, match="is not an Arbitro backup"):
        restore(tmp_path / "text.sqlite3", data)
    with pytest.raises(BackupError, match="is not an Arbitro backup"):
        restore(data / "journal.sqlite3", tmp_path / "elsewhere")  # a journal is not a backup
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes((tmp_path / "good.sqlite3").read_bytes())
    with sqlite3.connect(broken) as db:
        db.execute("""UPDATE entries SET body = '{"seat": 9, "pick": "vertigini"}' WHERE kind = 'table'""")
    with pytest.raises(BackupError, match="holds a game that does not replay"):
        restore(broken, data)
    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes((tmp_path / "good.sqlite3").read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {FORMAT + 1}")
    with pytest.raises(BackupError, match="newer than this box's"):
        restore(newer, data)
    cut = tmp_path / "cut.sqlite3"
    cut.write_bytes((tmp_path / "good.sqlite3").read_bytes()[:1500])
    with pytest.raises(BackupError):
        restore(cut, data)
    assert rows() == journal
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3", "journal.sqlite3.lock"]


def test_a_backup_is_not_restored_under_a_running_box(tmp_path):
    table = seeded(tmp_path / "box" / "journal.sqlite3")
    table.new_game("ponte", 3)
    table.end_game()
    table.backup(tmp_path / "backup.sqlite3")
    with pytest.raises(JournalError, match="another box is using the journal"):
        restore(tmp_path / "backup.sqlite3", tmp_path / "box")
    table.close()


def test_the_host_downloads_the_backup_and_sees_what_software_the_box_runs(make_box):
    box = make_box()
    client = create_app(WebPort(box)).test_client()
    assert client.get("/api/host/backup").status_code == 403
    take(client, box, ("host",))
    box.table.new_game("ponte", 3)
    box.table.end_game()
    answer = client.get("/api/host/backup")
    assert answer.status_code == 200 and "arbitro-backup-" in answer.headers["Content-Disposition"]
    assert answer.data.startswith(b"SQLite format 3")
    assert client.get("/api/host").get_json()["version"] == about()["version"]
    assert f"Arbitro {version()}" in client.get("/?lang=it").get_data(as_text=True)  # every page's footer


def test_arbitro_restore_refuses_a_missing_file(tmp_path):
    done = subprocess.run([sys.executable, "-m", "device.cli", "restore", str(tmp_path / "none"), "--data",
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT, env={"LANG": "C"})
    assert done.returncode == 2 and "no such file" in done.stderr
    assert json.dumps(about())  # plain data, for the host page


def test_check_says_whether_this_code_resumes_a_data_folder_and_changes_nothing(tmp_path, capsys):
    data = tmp_path / "box"
    data.mkdir()
    with sqlite3.connect(data / "journal.sqlite3") as db:
        db.executescript(FORMAT_1)
    assert main(["check", "--data", str(data)]) == 0
    assert "1 game, journal format 1: arbitro" in capsys.readouterr().out
    with sqlite3.connect(data / "journal.sqlite3") as db:  # the check read a copy: still format 1
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
        db.execute("""INSERT INTO entries (game, kind, body) VALUES (1, 'line', '{"seat": 1, "pick": "nessuna"}')""")
    assert main(["check", "--data", str(data)]) == 1  # a game in play these rules cannot resume
    assert "game 1, line 4: " in capsys.readouterr().err


def good_backup(tmp_path, games=1):
    """A backup of one finished game of Ponte, and the data folder of a box with `games` games of its own."""
    table = seeded(tmp_path / "box" / "journal.sqlite3")
    table.new_game("ponte", 3)
    for seat, card in enumerate(["vertigini", "passo_prudente", "salto_atletico"]):
        table.act({"seat": seat, "pick": card})
    table.end_game()
    log = table.export(1)
    table.backup(tmp_path / "good.sqlite3")
    table.close()
    other = seeded(tmp_path / "other" / "journal.sqlite3", seed=9)
    for _ in range(games):
        other.new_game("lifeboats", 3)
    other.close()
    return tmp_path / "good.sqlite3", tmp_path / "other", log


def crafted(tmp_path, name, *sql):
    path = tmp_path / f"{name}.sqlite3"
    path.write_bytes((tmp_path / "good.sqlite3").read_bytes())
    with sqlite3.connect(path) as db:
        for statement in sql:
            db.execute(statement)
    return path


# What a crafted file may carry: none of it reaches the box (defect: the file was copied whole).
HARMLESS = {
    "a trigger that deletes every later move": [
        "CREATE TRIGGER wipe AFTER INSERT ON entries BEGIN DELETE FROM entries WHERE id > 1; END"],
    "a trigger that blocks every write": [
        "CREATE TRIGGER block BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'no'); END"],
    "a trigger on meta": ["CREATE TRIGGER m AFTER UPDATE ON meta BEGIN DELETE FROM entries; END"],
    "a view and an extra table": ["CREATE VIEW v AS SELECT * FROM entries", "CREATE TABLE extra (x)",
                                  "INSERT INTO extra VALUES (zeroblob(1000))"],
    "a huge version": ["UPDATE meta SET value = 9223372036854775807 WHERE key = 'version'"],
}


@pytest.mark.parametrize("harm", sorted(HARMLESS))
def test_a_crafted_backup_restores_its_games_and_nothing_else(tmp_path, harm):
    good, data, log = good_backup(tmp_path)
    restored_games, _ = restore(crafted(tmp_path, "crafted", *HARMLESS[harm]), data)
    assert restored_games == 1
    with sqlite3.connect(data / "journal.sqlite3") as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")}
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
    assert not names and "extra" not in tables and version < 1000
    table = Table(Journal(data / "journal.sqlite3"))
    try:
        assert table.export(1) == log
        table.new_game("ponte", 3)  # the restored box takes moves, and keeps them
        table.act({"seat": 0, "pick": "vertigini"})
        kept = table.version
    finally:
        table.close()
    again = Table(Journal(data / "journal.sqlite3"))
    assert again.view()["locked"] == [0] and again.version == kept and isinstance(again.version, int)
    again.close()


REFUSED = {
    "a huge row": (["UPDATE entries SET body = '{\"x\": \"' || hex(zeroblob(1000000)) || '\"}' WHERE kind = 'end'"],
                   "holds a row no box writes"),
    "a row of another kind": (["PRAGMA ignore_check_constraints = ON",
                               "INSERT INTO entries (game, kind, body) VALUES (1, 'evil', '{}')"],
                              "holds a row no box writes"),
    "a line that is not JSON": (["UPDATE entries SET body = 'not json' WHERE kind = 'end'"], "damaged line"),
    "a game id past 64 bits": (["UPDATE entries SET game = 18446744073709551616"], "holds a row no box writes"),
    "a damaged seed": (["UPDATE seeds SET seed = 'zz'"], "damaged seed"),
    "a game its rules refuse": (["UPDATE entries SET body = '{\"seat\": 0, \"pick\": \"volo\"}' WHERE id = "
                                 "(SELECT MAX(id) FROM entries WHERE kind = 'line')"], "does not replay"),
}


@pytest.mark.parametrize("harm", sorted(REFUSED))
def test_a_crafted_backup_that_holds_what_no_box_writes_is_refused_in_one_short_line(tmp_path, harm):
    good, data, _ = good_backup(tmp_path)
    sql, reason = REFUSED[harm]
    before = (data / "journal.sqlite3").read_bytes()
    with pytest.raises(BackupError, match=reason) as refused:
        restore(crafted(tmp_path, "crafted", *sql), data)
    said = str(refused.value)
    assert said.startswith(str(tmp_path / "crafted.sqlite3")) and "restoring-" not in said
    assert len(said) - len(str(tmp_path)) < 200 and "\n" not in said
    assert (data / "journal.sqlite3").read_bytes() == before
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3", "journal.sqlite3.lock"]


def test_check_and_the_box_agree_on_an_emptied_journal(tmp_path, capsys):
    """Defect: `arbitro check` said an emptied journal was fine (exit 0) while the box refused to start on it."""
    data = tmp_path / "box"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"")
    assert main(["check", "--data", str(data)]) == 1
    assert "is empty: it was damaged" in capsys.readouterr().err
    with pytest.raises(JournalError, match="is empty: it was damaged"):
        Journal(data / "journal.sqlite3")


def press_while_inside(box, monkeypatch, method, call, when=lambda *args: True):
    """Run `call()` on a thread of its own; while it is inside Journal.`method` (called with arguments `when`
    accepts), press a pad. The press must be applied without waiting for it (it fails after 10 s if it
    waited). Returns what `call` returned."""
    import threading

    from engine.journal import Journal
    from tests.conftest import virtual
    inside, pressed, returned = threading.Event(), threading.Event(), []
    real = getattr(Journal, method)

    def waiting(journal, *args, **kwargs):
        if when(*args):
            inside.set()
            assert pressed.wait(10), "the press waited"
        return real(journal, *args, **kwargs)

    monkeypatch.setattr(Journal, method, waiting)
    worker = threading.Thread(target=lambda: returned.append(call()))
    worker.start()
    assert inside.wait(10)
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    pressed.set()
    worker.join(10)
    assert not worker.is_alive() and returned
    return returned[0]


def test_a_backup_during_play_does_not_hold_up_a_pad_press(make_box, tmp_path, monkeypatch):
    """Defect: the backup copied and VACUUMed the journal under the table's lock: every pad waited for a backup
    download. Here the press comes while the backup is inside its copy, and must not wait for it."""
    box = make_box()
    box.table.new_game("ponte", 3)
    press_while_inside(box, monkeypatch, "backup", lambda: box.table.backup(tmp_path / "during.sqlite3"))
    assert (tmp_path / "during.sqlite3").exists()


def a_box_after_a_past_game(make_box):
    """A box playing its second game of Ponte, the first ended by the host: (the box, the past game's id)."""
    box = make_box()
    box.table.new_game("ponte", 3)
    past = box.table.game_id
    box.table.end_game()
    box.table.new_game("ponte", 3)
    return box, past


def test_the_history_replays_past_games_without_holding_up_a_pad_press(make_box, monkeypatch):
    """Defect: the host's history replayed every past game under the table's lock."""
    box, past = a_box_after_a_past_game(make_box)
    history = press_while_inside(box, monkeypatch, "game", box.table.history, when=lambda game: game == past)
    assert [(e["playing"], e["ended"]) for e in history] == [(True, False), (False, True)]


def test_a_game_started_while_a_backup_is_made_stays_out_of_it(make_box, tmp_path, monkeypatch):
    """The backup no longer holds the table: a game started meanwhile is in play, and keeps its secrets."""
    from engine.journal import Journal
    box = make_box()
    box.table.new_game("ponte", 3)
    box.table.end_game()  # a game no longer in play: it goes in the backup
    real = Journal.backup

    def start_meanwhile(journal, *args, **kwargs):
        box.table.new_game("ponte", 4)
        return real(journal, *args, **kwargs)

    monkeypatch.setattr(Journal, "backup", start_meanwhile)
    box.table.backup(tmp_path / "meanwhile.sqlite3")
    with sqlite3.connect(tmp_path / "meanwhile.sqlite3") as db:
        kept = [row[0] for row in db.execute("SELECT DISTINCT game FROM entries")]
        seeds = [row[0] for row in db.execute("SELECT game FROM seeds")]
    assert kept == [box.table.game_id - 1] and box.table.game_id not in seeds


def test_a_past_games_log_is_replayed_without_holding_up_a_pad_press(make_box, monkeypatch):
    """Defect: a past game's log download replayed it under the table's lock."""
    box, past = a_box_after_a_past_game(make_box)
    log = press_while_inside(box, monkeypatch, "game", lambda: box.table.export(past))
    assert json.loads(log.splitlines()[0])["game"] == "ponte"


class Cut(BaseException):
    """The power, cut at a step of a restore."""


@pytest.mark.parametrize("step", range(12))
def test_a_restore_stopped_at_any_step_leaves_the_old_journal_or_the_new_one_whole(tmp_path, monkeypatch, step):
    """Every file operation a restore makes is a step it may be stopped at (a power cut, a kill): the folder then
    holds the journal it had, or the restored one, whole — never a mix, never the old log over the new file."""
    from engine import backup as backup_module
    backup, data, log = good_backup(tmp_path, games=2)
    before = Table(Journal(data / "journal.sqlite3"))
    old = [before.export(game) for game in before.games_kept()]
    before.close()
    calls = []

    def cutting(name, real):
        def call(*args, **kwargs):
            calls.append(name)
            if len(calls) == step + 1:
                raise Cut()
            return real(*args, **kwargs)
        return call
    for name in ("link", "unlink", "replace"):
        monkeypatch.setattr(backup_module.os, name, cutting(name, getattr(os, name)))
    monkeypatch.setattr(backup_module, "sync_folder", cutting("fsync", backup_module.sync_folder))
    monkeypatch.setattr(backup_module.Journal, "close", cutting("close", backup_module.Journal.close))
    try:
        restore(backup, data)
        cut = False
    except Cut:
        cut = True
    monkeypatch.undo()
    assert cut == (step < len(calls)), calls
    if step == 11:
        assert not cut, "more steps than the test cuts at: widen its range"
    after = Table(Journal(data / "journal.sqlite3"))
    kept = [after.export(game) for game in after.games_kept()]
    after.close()
    assert kept in (old, [log])
    if "replace" not in calls[:step]:  # stopped before the new file was renamed into place
        assert kept == old


@pytest.mark.parametrize("broken", ["main file damaged", "log lost", "index alone"])
def test_a_backup_restores_over_a_journal_the_box_refuses_and_keeps_it_whole(tmp_path, broken):
    """Defect: a restore refused the very folders that need one (a damaged journal, a lost log, an index left
    alone), saying to move them aside or recover. It moves every file of the refused journal aside, whole."""
    backup, data, log = good_backup(tmp_path, games=2)
    path = data / "journal.sqlite3"
    table = Table(Journal(path, after=3600))
    table.new_game("ponte", 3)
    files = {name: (data / name).read_bytes() for name in ("journal.sqlite3", "journal.sqlite3-wal")}
    table.close()
    for name, content in files.items():  # as a box killed mid-play leaves it
        (data / name).write_bytes(content)
    if broken == "main file damaged":
        path.write_bytes(b"\0" * 100 + path.read_bytes()[100:])
    elif broken == "log lost":
        (data / "journal.sqlite3-wal").unlink()
    else:
        path.unlink()
        (data / "journal.sqlite3-wal").rename(data / "journal.sqlite3-shm")
    left = {p.name: p.read_bytes() for p in data.iterdir() if p.name.startswith("journal.sqlite3-") or p == path}
    with pytest.raises(JournalError):
        Journal(path)
    games, kept = restore(backup, data)
    assert games == 1 and kept is not None
    aside = {p.name.replace(kept.name, "journal.sqlite3"): p.read_bytes() for p in data.glob(f"{kept.name}*")}
    assert aside == left  # every file of it, as it was
    restored = Table(Journal(path))
    assert restored.export(1) == log
    restored.close()

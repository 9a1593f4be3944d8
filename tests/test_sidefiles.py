"""The files beside the journal (engine/sidefiles.py): a write-ahead log lost, cut short, damaged or another
journal's, a main file gone, each after a stop without a clean close. Each ends in a refusal by name or in nothing
acknowledged lost — or, where nothing on the card can tell, in a loss no larger than what the log held (a
checkpoint's round) — and `arbitro check` says what the box does, on every variant."""
import os
import shutil
import subprocess
import sys
import time
from contextlib import closing

import pytest

from device.cli import main
from engine.backup import check_resumable
from engine.journal import Journal, JournalError
from engine.sidefiles import marks, marks_alone, read_only
from engine.table import Table
from tests.test_faults import play

JOURNAL = "journal.sqlite3"


def crashed(folder, actions, seed=1, before=0):
    """A data folder as a box leaves it when it stops without closing its journal: `before` actions of a box
    stopped cleanly and the start's checkpoint in the main file, the `actions` after it only in the synced log.
    Returns (the version acknowledged last, the version the main file alone holds)."""
    if before:
        table = Table(Journal(folder / JOURNAL), seeds=lambda: bytes([seed]) * 32)
        table.new_game("ponte", 3)
        play(table, before)
        table.close()
    table = Table(Journal(folder / JOURNAL, after=3600), seeds=lambda: bytes([seed]) * 32)
    alone = table.version  # the start copied everything into the main file
    if table.game is None:
        table.new_game("ponte", 3)
    play(table, actions)
    copy = folder.parent / f"{folder.name}-crashed"
    copy.mkdir()
    for name in (JOURNAL, f"{JOURNAL}-wal"):  # what the card holds: no write is under way
        shutil.copy(folder / name, copy / name)
    version = table.version
    table.close()
    shutil.rmtree(folder)
    copy.rename(folder)
    return version, alone


def outcome(folder):
    """What `arbitro check` says of the folder, then what the box does with it: ("refused", message) from both,
    or ("opened", games) and the box's version."""
    try:
        checked = ("opened", check_resumable(folder)[0])
    except JournalError as e:
        checked = ("refused", str(e))
    try:
        table = Table(Journal(folder / JOURNAL))
    except JournalError as e:
        return checked, ("refused", str(e)), None
    version = table.version
    games = len(table.games_kept())
    table.close()
    return checked, ("opened", games), version


def damage(folder, how, tmp_path):
    log = folder / f"{JOURNAL}-wal"
    if how == "log deleted":
        log.unlink()
    elif how == "log cut short":
        log.write_bytes(log.read_bytes()[:len(log.read_bytes()) // 2])
    elif how == "log garbage":
        log.write_bytes(os.urandom(log.stat().st_size))
    elif how == "another journal's log":
        other = tmp_path / "other"
        other.mkdir()
        crashed(other, 9, seed=2)
        shutil.copy(other / f"{JOURNAL}-wal", log)
    elif how == "main file deleted":
        (folder / JOURNAL).unlink()
    elif how == "index alone":
        (folder / JOURNAL).unlink()
        log.rename(folder / f"{JOURNAL}-shm")


REFUSED = {"log deleted": "-wal is missing", "another journal's log": "another journal",
           "main file deleted": "is missing", "index alone": "-shm"}


def files(folder):
    """The folder's files and what they hold, but the lock's and the log's index (SQLite rebuilds it at will)."""
    return sorted((p.name, p.read_bytes()) for p in folder.iterdir() if not p.name.endswith((".lock", "-shm")))


@pytest.mark.parametrize("how", ["nothing", "log deleted", "log cut short", "log garbage", "another journal's log",
                                 "main file deleted", "index alone"])
def test_a_damaged_log_is_refused_by_name_or_loses_no_more_than_it_held_and_check_agrees(tmp_path, how):
    """Defect: 9 of 10 damaged logs started the box at an older version without a word, and `arbitro check` said
    all was well; a main file gone with its log left started a new journal at version 0 over the old log."""
    folder = tmp_path / "data"
    folder.mkdir()
    acknowledged, alone = crashed(folder, 12, before=5)
    damage(folder, how, tmp_path)
    before = files(folder)
    checked, opened, version = outcome(folder)
    assert checked == opened  # the check says what the box does, word for word
    if how in REFUSED:
        assert opened[0] == "refused" and REFUSED[how] in opened[1] and str(folder) in opened[1]
        assert files(folder) == before  # refused, and left as it was
    elif how == "nothing":
        assert version == acknowledged  # nothing lost
    else:  # nothing on the card tells what the log held: at most that is lost
        assert alone <= version <= acknowledged


def test_recover_resumes_from_the_main_file_alone_and_keeps_it(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    crashed(folder, 6, before=5)
    (folder / f"{JOURNAL}-wal").unlink()
    main_file = (folder / JOURNAL).read_bytes()
    assert main(["check", "--data", str(folder)]) == 1
    assert f"arbitro recover --data {folder}" in capsys.readouterr().err
    assert main(["recover", "--data", str(folder)]) == 0
    assert "resumes from its main file" in capsys.readouterr().out
    kept = list(folder.glob(f"{JOURNAL}.before-recover-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == main_file
    table = Table(Journal(folder / JOURNAL))
    assert table.game == "ponte"
    table.close()
    assert main(["recover", "--data", str(folder)]) == 1  # nothing lost now: nothing to recover
    assert "nothing to recover" in capsys.readouterr().err


def test_check_and_the_box_agree_on_a_hot_rollback_journal(tmp_path):
    """Defect: `arbitro check` refused a rollback journal left beside the main file (read-only, it could not roll
    it back), which the box rolls back and starts on. Here a box of the rollback journal's time (before WAL) died
    in the middle of a commit that had begun to write the main file."""
    folder = tmp_path / "data"
    table = Table(Journal(folder / JOURNAL))
    table.new_game("ponte", 3)
    play(table, 5)
    version, log = table.version, table.export(1)
    table.close()
    code = ("import os, sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('PRAGMA journal_mode=DELETE')\n"
            "db.execute('PRAGMA cache_size=1')\n"  # the commit's pages spill into the main file before it ends
            "db.execute('BEGIN')\n"
            "for n in range(300):\n"
            "    db.execute(\"INSERT INTO entries (game, kind, body) VALUES (1, 'line', ?)\", ('{}' + ' ' * 900,))\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(folder / JOURNAL)], check=True)
    assert (folder / f"{JOURNAL}-journal").stat().st_size > 0
    assert check_resumable(folder) == (1, 2)
    table = Table(Journal(folder / JOURNAL))
    assert table.version == version and table.export(1) == log  # rolled back, nothing lost
    table.close()


def test_a_phone_that_saw_a_later_version_tells_the_box_its_log_was_cut_short(make_box):
    """Where nothing on the card tells that the log lost its last commits, a phone at the table does: it was shown a
    later version than the box has. The box says so on every phone (until the next game) and moves its version
    past the one seen, so no phone takes the views to come for ones it has. A phone off the table, or a claim
    beyond what a log can hold, is not believed."""
    from device.web_port import WebPort
    from tests.phones import take
    from web_companion import create_app
    from web_companion.api import LOST_AT_MOST

    box = make_box()
    box.table.new_game("ponte", 3)
    app = create_app(WebPort(box))
    seat, anyone = app.test_client(), app.test_client()
    take(seat, box, ("seat", 1))
    version = box.table.version
    assert anyone.get(f"/api/table?since={version + 5}").status_code == 200  # no token: not at the table
    assert seat.get(f"/api/table?since={version + LOST_AT_MOST + 1}").status_code == 200  # beyond a log
    assert box.table.version == version and anyone.get("/api/box").get_json()["storage"] == "ok"
    answer = seat.get("/api/stream?view=seat", headers={"Last-Event-ID": str(version + 5)}, buffered=False)
    answer.close()
    assert box.table.version > version + 5
    assert anyone.get("/api/box").get_json()["storage"] == "lost"
    assert anyone.get("/api/table").get_json()["version"] == box.table.version
    moved = box.table.version
    assert seat.get(f"/api/table?since={moved + 5}").status_code == 200  # told once a game
    assert box.table.version == moved
    host = app.test_client()
    take(host, box, ("host",))
    box.table.new_game("ponte", 3)
    assert anyone.get("/api/box").get_json()["storage"] == "ok"
    assert host.get(f"/api/table?since={box.table.version + 3}").status_code == 200  # the host's phone counts
    assert anyone.get("/api/box").get_json()["storage"] == "lost"
    box.table.new_game("ponte", 3)
    assert anyone.get("/api/box").get_json()["storage"] == "ok"


def test_a_log_cut_short_is_told_by_the_first_phone_that_comes_back(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    acknowledged, _ = crashed(folder, 12, before=5)
    damage(folder, "log cut short", tmp_path)
    table = Table(Journal(folder / JOURNAL))
    before = table.version
    assert before < acknowledged and table.lost is None
    table.seen(acknowledged)  # what the phone at the table saw last
    assert table.lost == (before, acknowledged) and table.version > acknowledged
    table.close()
    table = Table(Journal(folder / JOURNAL))  # the version moved on for good
    assert table.version > acknowledged
    table.close()


def test_an_older_copy_of_the_log_is_refused_and_check_agrees(tmp_path):
    """Defect: a log copied from this journal's own folder earlier in the same run (the session the same), put
    back beside a main file a checkpoint had since moved on, took the journal back to the copy's version and lost
    what the main file held for good."""
    folder = tmp_path / "data"
    table = Table(Journal(folder / JOURNAL, after=0.01))
    table.new_game("ponte", 3)
    play(table, 3)
    older = (folder / f"{JOURNAL}-wal").read_bytes()
    play(table, 6)
    deadline = time.monotonic() + 30
    while marks_alone(folder / JOURNAL).version != table.version:  # the checkpoint has copied it all in
        assert time.monotonic() < deadline, "no checkpoint came"
        time.sleep(0.01)
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copy(folder / JOURNAL, crashed / JOURNAL)
    (crashed / f"{JOURNAL}-wal").write_bytes(older)
    table.close()
    before = files(crashed)
    checked, opened, _ = outcome(crashed)
    assert checked == opened and opened[0] == "refused" and "older copy of this journal" in opened[1]
    assert files(crashed) == before


def test_a_stray_rollback_journal_does_not_hide_a_lost_log(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    crashed(folder, 6, before=5)
    (folder / f"{JOURNAL}-wal").unlink()
    (folder / f"{JOURNAL}-journal").write_bytes(b"")
    checked, opened, _ = outcome(folder)
    assert checked == opened and opened[0] == "refused" and "-wal is missing" in opened[1]


def logged(path):
    """The marks of the journal `path` as its log has them (read-only: nothing copied in)."""
    with closing(read_only(path)) as db:
        return marks(db)


def test_an_older_copy_of_the_main_file_beside_a_newer_log_is_refused_and_check_agrees(tmp_path):
    """Defect (a reviewer's): the main file copied mid-session and put back, after a crash, beside the log of later
    play opened with every check passing and the version right, holding 1 game of 4: the log held only the
    pages written since its last checkpoint."""
    folder = tmp_path / "data"
    table = Table(Journal(folder / JOURNAL, after=0.01))
    table.new_game("ponte", 3)
    play(table, 3)
    older, copied_at = (folder / JOURNAL).read_bytes(), table.version
    for _ in range(3):
        table.new_game("ponte", 3)
        play(table, 6)
    deadline = time.monotonic() + 30
    while (logged(folder / JOURNAL).base or 0) <= copied_at:  # a whole checkpoint since, told in the log
        assert time.monotonic() < deadline, "no checkpoint came"
        play(table, 1)
        time.sleep(0.02)
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    (crashed / JOURNAL).write_bytes(older)
    shutil.copy(folder / f"{JOURNAL}-wal", crashed / f"{JOURNAL}-wal")
    table.close()
    before = files(crashed)
    checked, opened, _ = outcome(crashed)
    assert checked == opened and opened[0] == "refused" and "is an older copy" in opened[1]
    assert files(crashed) == before

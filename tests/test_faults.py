"""Faults the box must survive: a handler that raises in an input thread, a journal that cannot be written (a
full disk), damage to the files under --data, restarts. Nothing acknowledged is lost, nothing unwritten is
acknowledged, and the next press works as soon as the fault is gone."""
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from device.config import DEFAULT_PINMAP
from device.mock.matrix import SimulatedMatrix
from device.web_port import WebPort
from engine import table as table_module
from engine.backup import recover, restore
from engine.games import GAMES
from engine.journal import CACHE_KIB, Journal, JournalError
from engine.rules import TERMINAL, Rejected
from engine.sidefiles import is_log_lost
from engine.table import Table
from engine.timers import Scheduler
from games.ponte import rules as ponte
from tests.conftest import held_round, press, simulated_pads, virtual
from web_companion import create_app

ROOT = Path(__file__).parent.parent


class Disk:
    """Fills and frees the journals' disk: while full, every write of a journal (its public writes: a game's
    start, a line, a held pick, an end) fails as SQLite fails on a full disk, and nothing is written."""

    def __init__(self, monkeypatch):
        self.full = False
        for name in ("start_game", "append", "hold", "end_game"):
            monkeypatch.setattr(Journal, name, self._failing(getattr(Journal, name)))

    def _failing(self, write):
        def failing(journal, *args, **kwargs):
            if self.full:
                raise JournalError(f"could not write the journal {journal.path}: database or disk is full",
                                   full=True)
            return write(journal, *args, **kwargs)
        return failing


def rows(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT id, kind, body FROM entries ORDER BY id").fetchall()
    finally:
        db.close()


# -- input threads ----------------------------------------------------------------------------------------
def test_matrix_pads_start_no_thread_until_started(pin_factory):
    """Defect: MatrixPads started a real 5 ms scan thread at once, racing a test's own scans (1 run in 4)."""
    before = threading.active_count()
    pads, _ = simulated_pads(pin_factory, print, print)
    try:
        assert threading.active_count() == before
        pads.start()
        assert threading.active_count() == before + 1
    finally:
        pads.close()


def test_an_error_in_a_press_handler_does_not_end_the_scan_thread(pin_factory, caplog):
    """Defect: one JournalError raised inside the scan thread left every pad dead until a restart."""
    taken, fail = [], [True, True]

    def on_seat(seat, button):
        if fail:
            fail.pop()
            raise JournalError("could not write the journal: database or disk is full", full=True)
        taken.append((seat, button))
        return "taken"

    pads, finger = simulated_pads(pin_factory, on_seat, print)
    pads.start()
    try:
        for _ in range(3):  # each press and release waited out as the scan thread debounces it, however slow
            finger.tap(("seat", 4, 3), True)
            assert pads.is_pressed(("seat", 4, 3))
            finger.tap(("seat", 4, 3), False)
            assert not pads.is_pressed(("seat", 4, 3))
        assert taken == [(4, 3)]  # the third press reached its handler: the thread scans on
        assert caplog.text.count("a handler failed") == 1  # logged once, however often it happens
    finally:
        pads.close()


def test_a_key_closed_while_a_scan_reads_the_keys_never_changes_what_that_scan_reads(pin_factory):
    """Defect: an HTTP thread closing a key while the scan read the set: `Set changed size during iteration`.
    A click replaces the set of closed keys; a scan goes on reading the one it took."""
    matrix = SimulatedMatrix(pin_factory, list(range(4, 17)), list(range(17, 25)), diodes=False)
    matrix.close(2, 3)
    read = matrix.closed  # what a scan under way reads
    matrix.close(0, 0)  # a click from another thread, meanwhile
    matrix.open(2, 3)
    assert read == {(2, 3)} and matrix.closed == {(0, 0)}


def test_a_box_error_refuses_the_press_visibly_and_the_next_press_works(make_box, tmp_path, monkeypatch, caplog):
    """Defect: a refused input on a full disk was logged as "NoneType: None", without its cause."""
    box = make_box()
    box.table.new_game("ponte", 3)
    disk = Disk(monkeypatch)
    sounds = []
    monkeypatch.setattr(box.sounds, "play", sounds.append)
    version, before = box.table.version, rows(tmp_path / "data" / "journal.sqlite3")
    disk.full = True
    assert virtual(box).press(seat=0, button=1) == {"seat": 0, "button": 1, "status": "rejected",
                                                    "error": "storage_full", "secret": True}
    # A secret pick's press fails as a refused one does, with its tick alone: a held card would buzz where one
    # not held is refused silently, so the buzzer would tell the table what the seat holds. The title says why.
    assert box.display.screen.title == "Memoria piena!" and sounds[-1] == "tick"
    assert "disk is full" in caplog.text and "NoneType: None" not in caplog.text
    assert box.table.fault == "full" and box.table.version == version
    assert box.table.view()["locked"] == [] and rows(tmp_path / "data" / "journal.sqlite3") == before
    assert virtual(box).press(host="undo")["status"] == "done"  # the host panel goes on (undo asks first)
    assert virtual(box).press(host="ok")["message"] == "Niente da annullare"
    disk.full = False
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    assert box.table.fault is None and box.table.view()["locked"] == [0]


# -- a full disk at every step -------------------------------------------------------------------------------
def test_a_full_disk_during_the_reveal_delay_keeps_the_held_pick_and_reveals_it_once_there_is_room(
        tmp_path, clock, monkeypatch):
    """Defect: the reveal could not be written, the live view dropped the held pick (same version, phones not
    told) while the journal kept it, and a restart revealed it."""
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    disk = Disk(monkeypatch)
    heard = []
    table.subscribe(heard.append)
    press(table, 0, 1)
    press(table, 1, 2)
    assert press(table, 2, 3) == "held"
    disk.full = True
    clock.advance(1.0)
    shown = table.view()
    assert shown["locked"] == [0, 1, 2] and shown["history"][0]["reveal"] is None  # still held, live
    assert table.fault == "full" and heard  # the phones and the OLED heard of the fault
    clock.advance(table_module.RETRY)
    assert table.view()["locked"] == [0, 1, 2]
    reopened = sqlite3.connect(path).execute("SELECT body FROM held").fetchall()
    assert len(reopened) == 1  # the journal holds what the table shows
    disk.full = False
    clock.advance(table_module.RETRY)
    assert table.view()["history"][0]["reveal"] == [ponte.CARDS[0], ponte.CARDS[1], ponte.CARDS[2]]
    assert table.fault is None
    table.close()


def test_a_full_disk_refuses_each_kind_of_input_and_changes_nothing(tmp_path, clock, monkeypatch):
    path = tmp_path / "j.sqlite3"
    table = held_round(path, clock)
    disk = Disk(monkeypatch)
    disk.full = True
    before, view, version = rows(path), table.view(2), table.version
    attempts = [lambda: press(table, 2, 4), lambda: table.undo(), lambda: table.new_game("ponte", 4),
                lambda: table.end_game()]
    for attempt in attempts:
        with pytest.raises(JournalError):
            attempt()
        assert rows(path) == before and table.view(2) == view and table.version == version
    disk.full = False
    assert table.undo() == "undone" and table.view()["locked"] == [0, 1]
    table.close()


def test_a_phone_on_a_full_disk_is_told_by_name(make_box, monkeypatch):
    box = make_box()
    box.table.new_game("ponte", 3)
    client = create_app(WebPort(box), virtual=virtual(box)).test_client()
    virtual(box).press(seat=0, button=1)
    Disk(monkeypatch).full = True
    answer = client.post("/api/host/undo", json={})
    assert answer.status_code == 507 and answer.get_json() == {
        "error": "The box's storage is full: it takes no new moves until there is room. No move it accepted is lost.",
        "code": "storage_full"}
    answer = client.post("/api/host/undo", json={}, headers={"Accept-Language": "it"})
    assert answer.get_json()["error"].startswith("La memoria del box è piena")
    answer = client.post("/api/host/game", json={"game": "ponte", "seats": 4, "options": {}})
    assert answer.status_code == 507
    assert client.get("/api/box").get_json()["storage"] == "full"


def a_legal_action(table, n):
    """The first legal action of the n-th seat (modulo) that has one."""
    seats = [seat for seat in table.actors() if table.legal_actions(seat)]
    return table.legal_actions(seats[n % len(seats)])[0]


@contextlib.contextmanager
def small_disk(folder, size):
    """A tmpfs of `size` mounted on `folder` for the test (skipped where the test may not mount one)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        pytest.skip(f"this machine does not let a test mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=False)  # also when a failed test left it open


def test_a_real_full_filesystem(tmp_path):
    """A small tmpfs, filled for real: the press that does not fit is refused, the game stays whole. The main
    file cannot grow first: what the write-ahead log still takes is acknowledged, synced there, and kept.
    Defect: a box started again on the still full disk said its storage was fine until the first press."""
    with small_disk(tmp_path / "small", "256k") as mount:
        table = Table(Journal(mount / "journal.sqlite3"))
        table.new_game("ponte", 3)
        with open(mount / "ballast", "ab", buffering=0) as ballast:  # fill every byte that is left
            try:
                while True:
                    ballast.write(b"x" * 4096)
                    ballast.flush()
            except OSError:
                pass
        refused = 0
        for n in range(2000):  # games after games, until the disk refuses three inputs
            try:
                if table.actors() == TERMINAL:
                    table.new_game("ponte", 3)
                else:
                    table.act(a_legal_action(table, n))
            except JournalError as e:
                assert e.full, e
                refused += 1
                if refused == 3:
                    break
        assert refused == 3 and table.fault == "full"
        version, view = table.version, table.view()
        table.close()
        stopped = sorted(p.name for p in mount.iterdir())
        full = Table(Journal(mount / "journal.sqlite3"))  # started again on the still full disk: it says so
        assert full.fault == "full" and full.version == version and full.view() == view
        with pytest.raises(JournalError):
            full.act(a_legal_action(full, 0))
        full.close()
        assert sorted(p.name for p in mount.iterdir()) == stopped  # its log kept, read at the next start
        (mount / "ballast").unlink()
        again = Table(Journal(mount / "journal.sqlite3"))
        assert again.fault is None and again.version == version and again.view() == view
        assert again.act(a_legal_action(again, 0)) in ("applied", "held")
        again.close()


def test_a_box_stopped_cleanly_starts_on_a_disk_filled_since_and_says_it_is_full(tmp_path):
    """Defect: after a clean stop (no log, no index beside the main file) a disk filled since left no room for
    the log's index: the box refused to start, calling its journal damaged, and every later start blamed the
    empty log it had left. Now it shows the games and says the disk is full; with room again, it goes on."""
    with small_disk(tmp_path / "small", "512k") as mount:
        table = Table(Journal(mount / "journal.sqlite3"))
        table.new_game("ponte", 3)
        play(table, 4)
        version, view = table.version, table.view()
        table.close()
        with open(mount / "ballast", "ab", buffering=0) as ballast:
            with contextlib.suppress(OSError):
                while True:
                    ballast.write(b"x" * 4096)
        for _ in range(2):  # and again, over what the first start on the full disk left
            full = Table(Journal(mount / "journal.sqlite3"))
            assert full.fault == "full" and full.version == version and full.view() == view
            with pytest.raises(JournalError) as refused:
                full.act(a_legal_action(full, 0))
            assert refused.value.full
            full.close()
        (mount / "ballast").unlink()
        again = Table(Journal(mount / "journal.sqlite3"))
        assert again.fault is None and again.version == version
        assert again.act(a_legal_action(again, 0)) in ("applied", "held")
        again.close()


def test_a_disk_mounted_read_only_shows_its_games_and_says_it_takes_no_press(tmp_path):
    """Defect: an SD card the kernel remounted read-only stopped the box at its start (the table saw nothing);
    now it starts, shows the games as they were and says why it takes no press, on the OLED and every phone."""
    with small_disk(tmp_path / "card", "1m") as mount:
        for crashed in (False, True):  # stopped cleanly, or with its log left beside it
            table = Table(Journal(mount / "journal.sqlite3"))
            if crashed:
                table.end_game()  # a game on record, beside the one in play
            table.new_game("ponte", 3)
            play(table, 4)
            version, view = table.version, table.view()
            left = ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm")
            if crashed:
                for name in left:
                    shutil.copy(mount / name, tmp_path / name)
            table.close()
            if crashed:  # as a power cut leaves it: the log and its index beside the main file
                for name in left:
                    shutil.copy(tmp_path / name, mount / name)
            subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
            files = sorted(p.name for p in mount.iterdir())
            shown = Table(Journal(mount / "journal.sqlite3"))
            assert shown.fault == "failing" and shown.version == version and shown.view() == view
            with pytest.raises(JournalError):
                shown.act(a_legal_action(shown, 0))
            assert shown.view() == view
            shown.backup(tmp_path / f"backup{crashed}.sqlite3")  # the host may still take its games away
            assert restore(tmp_path / f"backup{crashed}.sqlite3", tmp_path / f"elsewhere{crashed}")[0] == crashed
            shown.close()
            assert sorted(p.name for p in mount.iterdir()) == files
            subprocess.run(["mount", "-o", "remount,rw", str(mount)], check=True)
            again = Table(Journal(mount / "journal.sqlite3"))  # writable again: on it goes
            assert again.fault is None and again.act(a_legal_action(again, 0)) in ("applied", "held")
            again.close()


# -- restarts and damaged files --------------------------------------------------------------------------------
def test_the_version_never_goes_backwards_across_restarts(tmp_path, clock):
    """Defect: a held pick moved the version in memory only; 34 of 60 restarts went backwards."""
    path = tmp_path / "j.sqlite3"
    seen = 0
    for n in range(12):
        table = Table(Journal(path), reveal_delay=1.0, schedule=clock.schedule)
        assert table.version >= seen
        if table.game is None or table.view()["over"]:
            table.new_game("ponte", 3)
        for seat in range(3):
            if table.prompt(seat):
                press(table, seat, 1 + (n + seat) % 5)
        assert table.version > seen
        seen = table.version
        table.close()
        clock.jobs.clear()


def play(table, actions):
    """Play `actions` legal actions, each the first its seat has, seats in turn."""
    for n in range(actions):
        seats = [s for s in [(n + k) % table.seats for k in range(table.seats)] if table.legal_actions(s)]
        if not seats:  # the game is over
            return
        table.act(table.legal_actions(seats[0])[0])


def played(path, actions=6):
    table = Table(Journal(path))
    table.new_game("ponte", 3)
    play(table, actions)
    version, shown = table.version, table.view()
    table.close()
    return version, shown


def main_file_alone(path, folder):
    """The journal's main file copied alone into `folder` (as it is now), opened as the box would once told to go
    on without its log (`arbitro recover`: the box refuses a main file marked open with no log beside it)."""
    folder.mkdir(exist_ok=True)
    shutil.copy(path, folder / "journal.sqlite3")
    if is_log_lost(folder / "journal.sqlite3"):
        recover(folder)
    return Table(Journal(folder / "journal.sqlite3"))


def test_an_acknowledged_action_is_in_the_main_file_alone_a_checkpoints_round_later(tmp_path):
    """Defect: a write-ahead log cut in half, damaged or deleted rolled the game back silently. An acknowledged
    action is synced in the log before it is acknowledged, and copied into the main file a round later (here 50 ms
    after the first write not yet copied): from then on nothing beside the main file is needed to find it."""
    path = tmp_path / "data" / "journal.sqlite3"
    path.parent.mkdir()
    table = Table(Journal(path, after=0.05))
    table.new_game("ponte", 3)
    for n in range(4):
        play(table, 1 + n)
        deadline = time.monotonic() + 10
        while True:  # until the checkpoint has run: the copy then holds what the table acknowledged
            with closing(main_file_alone(path, tmp_path / f"copy{n}")) as alone:
                if alone.version == table.version:
                    assert alone.view() == table.view()
                    break
            assert time.monotonic() < deadline, "the log was never copied into the main file"
            time.sleep(0.01)
    table.close()
    assert sorted(p.name for p in path.parent.iterdir()) == ["journal.sqlite3", "journal.sqlite3.lock"]


def test_no_checkpoint_runs_before_its_round_and_closing_copies_all(tmp_path):
    """The log is copied in off the acknowledged path, a round after the first write it does not hold: until then
    the main file keeps what it had (acknowledged actions are in the synced log meanwhile), and closing copies all."""
    path = tmp_path / "journal.sqlite3"
    table = Table(Journal(path, after=3600))
    table.new_game("ponte", 3)
    with closing(main_file_alone(path, tmp_path / "before")) as before:
        started = before.version
    play(table, 6)
    with closing(main_file_alone(path, tmp_path / "meanwhile")) as meanwhile:
        assert meanwhile.version == started < table.version
    version, view = table.version, table.view()
    table.close()
    with closing(main_file_alone(path, tmp_path / "closed")) as closed:
        assert closed.version == version and closed.view() == view


def test_the_journal_is_read_through_a_small_page_cache_new_or_reopened(tmp_path, monkeypatch):
    """SQLite keeps up to 2 MB of pages per connection by default, and the start's check reads every page: a
    journal of a season's games kept 2 MB of a Pi Zero's memory. The box's connection is capped."""
    from engine import journal as journal_module
    path, opened, connect = tmp_path / "journal.sqlite3", [], sqlite3.connect
    def spied(*args, **kwargs):  # the journal's own connections, shared with its threads (not the start's checks)
        connection = connect(*args, **kwargs)
        if kwargs.get("check_same_thread") is False:
            opened.append(connection)
        return connection
    monkeypatch.setattr(journal_module.sqlite3, "connect", spied)
    for _ in range(2):  # new, then reopened with its games
        first = len(opened)
        journal = Journal(path)
        table = Table(journal)
        try:
            assert opened[first].execute("PRAGMA cache_size").fetchone()[0] == -CACHE_KIB  # the box's connection
            table.new_game("ponte", 3)
            play(table, 6)
        finally:
            table.close()
    journal = Journal(path)
    assert len(journal.games()) == 2
    journal.close()


@pytest.mark.parametrize("leftover", ["-wal", "-journal"])
@pytest.mark.parametrize("damage", ["garbage", "half of a real one"])
def test_a_stray_damaged_log_beside_the_journal_loses_nothing(tmp_path, leftover, damage):
    path = tmp_path / "journal.sqlite3"
    version, shown = played(path)
    data = os.urandom(8192) if damage == "garbage" else (b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + os.urandom(600))
    Path(str(path) + leftover).write_bytes(data)
    try:
        table = Table(Journal(path))
    except JournalError as e:  # refused by name is allowed; a silent loss is not
        assert str(path) in str(e)
        return
    assert table.version == version and table.view() == shown
    table.close()


@pytest.mark.parametrize("damage", ["empty", "garbage", "cut in half", "header wiped"])
def test_a_damaged_main_file_is_refused_by_name_and_left_as_it_was(tmp_path, damage):
    """Defect: a zero-length main file started over at version 0."""
    path = tmp_path / "journal.sqlite3"
    played(path, actions=60)
    data = path.read_bytes()
    damaged = {"empty": b"", "garbage": os.urandom(len(data)), "cut in half": data[:len(data) // 2],
               "header wiped": b"\0" * 100 + data[100:]}[damage]
    path.write_bytes(damaged)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(path) in str(refused.value) and ("damaged" in str(refused.value) or "empty" in str(refused.value))
    assert path.read_bytes() == damaged


# -- an unusable --data -----------------------------------------------------------------------------------------
NOBODY = 65534


def start(data, user=None):
    """`arbitro --mock --data DATA`, as `user` when given, until it serves or stops: (exit code or None, what it
    printed). Forked rather than run afresh, so another user needs no access to this Python's own files; the pin
    map it reads is a copy in a folder every user may read, and the catalogs are read before the fork: the
    checkout may lie where that user cannot enter (a 0700 folder)."""
    import gzip  # noqa: F401  (what starting imports, loaded while this Python's own files can be read)
    import ipaddress  # noqa: F401

    import waitress  # noqa: F401
    from luma.core.device import dummy  # noqa: F401

    import device.box  # noqa: F401
    import device.network  # noqa: F401
    import web_companion  # noqa: F401
    from engine import words
    for language in words.LANGUAGES:  # read now: the child may not enter the checkout to read them
        for domain in (words.SHARED, *GAMES):
            words.catalog(language, domain)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder).chmod(0o755)
        pinmap = Path(shutil.copy(DEFAULT_PINMAP, folder))
        pinmap.chmod(0o644)
        return forked(data, user, pinmap)


def forked(data, user, pinmap):
    from device import cli
    from tests.browser import free_port
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        code = 3
        try:
            os.dup2(writer, 1)
            os.dup2(writer, 2)
            sys.stdout = sys.stderr = os.fdopen(writer, "w", buffering=1)
            if user is not None:
                os.setgroups([])
                os.setgid(user)
                os.setuid(user)
            code = cli.main(["--mock", "--port", str(free_port()), "--data", str(data), "--pinmap", str(pinmap)])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(writer)
    deadline, out = time.monotonic() + 15, b""
    os.set_blocking(reader, False)
    while time.monotonic() < deadline:
        try:
            chunk = os.read(reader, 65536)
        except BlockingIOError:
            chunk = None
        if chunk:
            out += chunk
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            os.set_blocking(reader, True)
            out += os.read(reader, 65536)
            os.close(reader)
            return os.waitstatus_to_exitcode(status), out.decode()
        time.sleep(0.05)
    os.kill(child, 9)
    os.waitpid(child, 0)
    os.close(reader)
    return None, out.decode()


def unusable(tmp_path, case):
    """A --data directory that cannot be used (in `tmp_path`, which every user may look into)."""
    data = tmp_path / "data"
    if case == "a file":
        data.write_text("not a directory")
    elif case == "under a file":
        data.write_text("a file")
        data = data / "inner"
    elif case == "not writable by the service user":
        data.mkdir()
        data.chmod(0o755)
    elif case == "a lock file owned by root":
        data.mkdir()
        data.chmod(0o777)
        (data / "journal.sqlite3.lock").write_text("")
        (data / "journal.sqlite3.lock").chmod(0o600)
    elif case == "journal files owned by root":
        played(data / "journal.sqlite3")
        data.chmod(0o777)
        for name in os.listdir(data):
            (data / name).chmod(0o644)
    elif case == "read-only, no journal yet":
        data = tmp_path / "ro"
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
    return data


@pytest.mark.parametrize("case", ["a file", "under a file", "read-only, no journal yet",
                                  "not writable by the service user", "a lock file owned by root",
                                  "journal files owned by root"])
def test_an_unusable_data_directory_is_one_line_naming_it_before_serving(tmp_path, case):
    """Defect: a traceback, or "resuming" and then a 500 on every press. (A read-only disk that holds a journal
    starts, to show its games: test_a_disk_mounted_read_only_shows_its_games_and_says_it_takes_no_press.)"""
    user = None
    if case not in ("a file", "under a file"):
        if os.geteuid() != 0:
            pytest.skip("needs root: to mount a read-only disk, or to hand files to root and run as another user")
        user = None if case.startswith("read-only") else NOBODY
    tmp_path = Path(tempfile.mkdtemp(dir=tempfile.gettempdir()))  # pytest's own is for its user alone
    tmp_path.chmod(0o755)
    with small_disk(tmp_path / "ro", "1m") if case.startswith("read-only") else contextlib.nullcontext():
        data = unusable(tmp_path, case)
        code, out = start(data, user)
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("arbitro: ") and "Traceback" not in out, out
    assert str(data if case != "under a file" else data.parent) in lines[0]
    assert "serving" not in out and "resuming" not in out


def test_a_reveal_the_full_disk_refuses_shows_no_pick_and_closes_the_round(tmp_path, clock, monkeypatch):
    """Defect: the reveal that could not be written drew every held pick on the OLED ("Memoria piena! / G1 Passo
    prudente / …") before anything was written, then seat 1 changed its pick and won the match with it. Nothing
    is shown before the reveal is journaled; once the reveal is due no pick changes."""
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    disk = Disk(monkeypatch)
    seen = []
    table.subscribe(lambda moment: seen.append(moment.view()))  # what the OLED and the phones draw when told
    press(table, 0, 1)
    press(table, 1, 2)
    assert press(table, 2, 3) == "held"
    assert press(table, 0, 4) == "applied"  # within the delay a pick may still change
    disk.full = True
    seen.clear()
    clock.advance(1.0)
    assert seen and all(shown["history"][0]["reveal"] is None for shown in seen)
    with pytest.raises(Rejected, match="the round is closed") as refused:
        press(table, 0, 1)
    assert refused.value.code == "reveal_due"
    disk.full = False
    clock.advance(table_module.RETRY)
    assert table.view()["history"][0]["reveal"] == [ponte.CARDS[3], ponte.CARDS[1], ponte.CARDS[2]]
    table.close()


# -- the scheduler -----------------------------------------------------------------------------------------
def test_one_scheduler_thread_runs_every_delay_in_due_order_and_close_cancels_what_is_left():
    """Defect: every delay (the reveal, the power-off hold, a code's end, a debounce) started a threading.Timer
    of its own, and closing the box cancelled none. One thread runs them all now, soonest first."""
    before = threading.active_count()
    scheduler = Scheduler()
    ran, done = [], threading.Event()
    scheduler(0.2, lambda: (ran.append("late"), done.set()))
    scheduler(0.1, lambda: ran.append("soon"))
    cancelled = scheduler(0.05, lambda: ran.append("cancelled"))
    scheduler(0.0, lambda: 1 / 0)  # a failing callback ends none of the others
    for _ in range(20):
        scheduler(3600, lambda: ran.append("never"))
    cancelled()
    assert threading.active_count() == before + 1  # (the failing one may have run already: it is due at once)
    assert done.wait(10)
    assert ran == ["soon", "late"] and scheduler.pending == 20
    scheduler.close()
    assert threading.active_count() == before and scheduler.pending == 0
    scheduler(0, lambda: ran.append("after close"))
    assert scheduler.pending == 0 and ran == ["soon", "late"]


def test_a_table_made_without_a_scheduler_runs_its_own_and_closing_it_ends_every_thread(tmp_path):
    """The reveal delay pending on the table's own scheduler is cancelled when the table closes, and no thread
    of it (the scheduler's, the journal's checkpoints) is left behind."""
    before = threading.active_count()
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=3600)
    table.new_game("ponte", 3)
    for seat in range(3):
        press(table, seat, 1 + seat)
    assert table.view()["locked"] == [0, 1, 2]  # the round held for its reveal, an hour from now
    assert {t.name for t in threading.enumerate()} >= {"scheduler", "journal-checkpoints"}
    table.close()
    assert threading.active_count() == before


def test_the_checkpoint_thread_opens_nothing_by_the_journal_s_path_when_it_first_runs(tmp_path, monkeypatch):
    """Defect (a thread exception, 1 run of the quick tests in 5): the checkpoint thread opened its connection
    by the journal's path when it first ran; by then the journal's folder may be gone or renamed (a restore
    renames its staged journal). Here the thread is first let run once the folder has moved."""
    from engine import journal as journal_module
    started, failures = [], []
    real_start = threading.Thread.start
    monkeypatch.setattr(journal_module.threading.Thread, "start", lambda thread: started.append(thread))
    monkeypatch.setattr(threading, "excepthook", failures.append)
    journal = Journal(tmp_path / "before" / "journal.sqlite3", after=0)
    table = Table(journal)
    table.new_game("ponte", 3)
    monkeypatch.undo()
    monkeypatch.setattr(threading, "excepthook", failures.append)
    (tmp_path / "before").rename(tmp_path / "after")
    for thread in started:
        real_start(thread)
    table.close()  # the checkpoint thread's last checkpoint, on the connection it was given
    assert "journal-checkpoints" in [thread.name for thread in started]
    assert failures == [] and not (tmp_path / "before").exists()
    with closing(main_file_alone(tmp_path / "after" / "journal.sqlite3", tmp_path / "copy")) as alone:
        assert alone.game == "ponte"

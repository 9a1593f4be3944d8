"""`arbitro` refuses to start half-configured, with one clear line, in the terminal's language."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import GAMES
from engine.journal import Journal
from tests.browser import free_port

ROOT = Path(__file__).parent.parent


ENGLISH = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}  # whatever this machine's is
ITALIAN = [{"LANGUAGE": "it"}, {"LANG": "it_IT.UTF-8"}]


def arbitro(*args, language=ENGLISH, command=("-m", "device.cli")):
    """`arbitro ARGS`, in English unless `language` (environment variables) says otherwise."""
    return subprocess.run([sys.executable, *command, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=60, env={**os.environ, **ENGLISH, **language})


@pytest.mark.parametrize("args, message", [
    (["--game", "ponte", "--seats", "2"], "arbitro: this game takes 3 to 6 players, not 2"),
    (["--game", "chess", "--seats", "4"], "arbitro: unknown game 'chess'"),
    (["--game", "ponte"], "--game and --seats go together"),
    (["--port", "99999"], "argument --port: must be from 1 to 65535, not 99999"),
    (["--port", "http"], "argument --port: not a number: 'http'"),
    (["--reveal-delay", "-1"], "argument --reveal-delay: must be from 0 to 10, not -1"),
    (["--chance", "3,5"], 'argument --chance: a JSON array of {"chance": …, "outcome": …} lines'),
    (["--chance", '[{"chance": "d12"}]'], "argument --chance: a JSON array of"),
    (["--chance", "/no/such/file.json"], "argument --chance: a JSON array of"),
])
def test_the_box_refuses_what_it_cannot_do(tmp_path, args, message):
    done = arbitro("--mock", "--data", tmp_path, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_scripted_draws_are_for_mock_mode_only(tmp_path):
    done = arbitro("--data", tmp_path, "--chance", '[{"chance": "d12", "outcome": 3}]')
    assert done.returncode == 2 and "--chance is for mock mode only" in done.stderr


def test_the_box_refuses_a_damaged_journal_and_leaves_it_alone(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(b"not a database" * 200)
    done = arbitro("--mock", "--data", tmp_path, "--port", "8765")
    assert done.returncode == 2
    assert "is damaged" in done.stderr and "move it aside" in done.stderr
    assert journal.read_bytes() == b"not a database" * 200


def test_a_busy_port_is_one_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = arbitro("--mock", "--data", tmp_path, "--port", port)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"arbitro: cannot serve on 127.0.0.1:{port} (")


def test_two_boxes_on_one_data_directory_are_refused(tmp_path):
    running = Journal(tmp_path / "journal.sqlite3")  # the first box holds the journal
    try:
        done = arbitro("--mock", "--data", tmp_path, "--port", "8765")
    finally:
        running.close()
    assert done.returncode == 2
    assert f"arbitro: another box is using the journal {tmp_path / 'journal.sqlite3'}: stop it first" in done.stderr


def test_a_phone_that_leaves_its_stream_is_one_log_line(tmp_path):
    """Not waitress's "Client disconnected" on top: one line of ours per stream that closes."""
    import json
    import time
    import urllib.request

    from tests.browser import Server
    server = Server(tmp_path / "data")
    try:
        for _ in range(3):
            with urllib.request.urlopen(server.url + "/api/stream") as stream:
                stream.read(20)
        # the box notices a phone has gone when writing to it fails: changes make it write
        for _ in range(3):
            start = urllib.request.Request(server.url + "/api/host/game", method="POST",
                                           data=json.dumps({"game": "ponte", "seats": 3, "options": {}}).encode(),
                                           headers={"Content-Type": "application/json"})
            urllib.request.urlopen(start).read()
            deadline = time.monotonic() + 5  # until the change has been written to every phone still following
            while server.said().count("stopped following") < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
    finally:
        server.stop()
    said = server.said()
    assert said.count("a phone stopped following the game live (table)") == 3, said
    assert "Client disconnected" not in said


STARTED = """
import sys, waitress.server, device.cli
from werkzeug.test import Client

def run(server):  # the server's first answers, instead of serving for good
    for page in ("/", "/api/table", "/api/games"):
        answer = Client(server.application).get(page, environ_base={"REMOTE_ADDR": "127.0.0.1"})
        assert answer.status_code == 200, page

waitress.server.MultiSocketServer.run = waitress.server.TcpWSGIServer.run = run
device.cli.main(sys.argv[1:])
print(" ".join(sorted(name for name, module in sys.modules.items() if module is not None)))
"""


def test_the_box_starts_and_answers_without_loading_what_only_a_few_pages_or_commands_need(tmp_path):
    done = subprocess.run([sys.executable, "-c", STARTED, "--mock", "--port", str(free_port()), "--data", tmp_path],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    packages = {name.split(".")[0] for name in loaded}
    assert {"flask", "gpiozero", "PIL", "engine", "device"} <= packages
    # Markdown (the rules pages), Babel (writing catalogs: the box reads them with gettext), ReportLab (labels)
    assert not packages & {"markdown", "babel", "reportlab"}
    # what Pillow would load and the box never uses: FreeType, the codecs of images other than PNG (the font's
    # glyph sheet is a PNG)
    assert {"PIL.ImageDraw", "PIL.ImageFont"} <= loaded
    assert not loaded & {"PIL._imagingft", "PIL.BmpImagePlugin", "PIL.GifImagePlugin", "PIL.JpegImagePlugin",
                         "PIL.PpmImagePlugin"}
    # every game's declaration (the menu, the host page's list of games), no game's rules
    assert {game.declaration.__name__ for game in GAMES.values()} <= loaded
    assert not loaded & {game.rules.__name__ for game in GAMES.values()}


@pytest.mark.parametrize("game, seats", [("biglietti", 5), ("leader1", 2)])
def test_a_box_loads_the_rules_of_the_game_it_plays_only(tmp_path, game, seats):
    done = subprocess.run([sys.executable, "-c", STARTED, "--mock", "--port", str(free_port()), "--data", tmp_path,
                           "--game", game, "--seats", str(seats)], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert loaded & {g.rules.__name__ for g in GAMES.values()} == {GAMES[game].rules.__name__}


def said_by(main, argv):
    """(exit status, what `main(argv)` printed on stdout and stderr), run here."""
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:
            status = e.code
    return status, out.getvalue() + err.getvalue()


def commands_said(tmp_path):
    """What the commands print for a help, bad arguments and the storage errors, in this process's language."""
    from device.cli import main
    (tmp_path / "not-a-backup.sqlite3").write_bytes(b"not a database" * 200)
    (tmp_path / "damaged").mkdir(exist_ok=True)
    (tmp_path / "damaged" / "journal.sqlite3").write_bytes(b"not a database" * 200)
    return [said_by(main, argv) for argv in (
        ["--help"], ["--bogus"], ["--port", "http"], ["replay"], ["labels", "--game", "chess", "--out", "x.svg"],
        ["recover", "--data", str(tmp_path)], ["restore", str(tmp_path / "not-a-backup.sqlite3"), "--data",
                                                str(tmp_path)], ["check", "--data", str(tmp_path / "damaged")])]


@pytest.mark.parametrize("language", ITALIAN, ids=lambda env: "=".join(*env.items()))
def test_every_command_speaks_italian_when_the_terminal_does(tmp_path, monkeypatch, language):
    """Defect: argparse's own words (usage, headings, its errors) and the journal's and backups' errors were
    English whatever LANGUAGE or LANG said."""
    for name, value in {**ENGLISH, **language}.items():
        monkeypatch.setenv(name, value)
    journal = tmp_path / "journal.sqlite3"
    said = commands_said(tmp_path)
    assert [status for status, _ in said] == [0, 2, 2, 2, 2, 1, 1, 1]
    help_, bogus, port, replay, labels, recover, restore, check = [words for _, words in said]
    assert help_.startswith("uso: arbitro [-h]")
    assert "\nopzioni:\n  -h, --help            mostra questo aiuto ed esce" in help_
    assert "arbitro: errore: argomenti sconosciuti: --bogus" in bogus
    assert "arbitro: errore: argomento --port: non è un numero: 'http'" in port
    assert "arbitro replay: errore: mancano questi argomenti: log" in replay
    assert "argomento --game: scelta non valida: 'chess' (scegli tra 'biglietti'" in labels
    assert recover == f"arbitro recover: non c'è un archivio {journal} da riprendere\n"
    assert restore.startswith(f"arbitro restore: {tmp_path / 'not-a-backup.sqlite3'} non è una copia di sicurezza "
                              "di Arbitro (")
    assert check.startswith(f"arbitro check: l'archivio {tmp_path / 'damaged' / 'journal.sqlite3'} è danneggiato (")


def test_every_command_speaks_english_otherwise(tmp_path, monkeypatch):
    for name, value in {**ENGLISH, "LANG": "en_GB.UTF-8"}.items():
        monkeypatch.setenv(name, value)
    help_, bogus, port, replay, labels, recover, restore, check = [words for _, words in commands_said(tmp_path)]
    assert help_.startswith("usage: arbitro [-h]") and "\noptions:\n  -h, --help            show this help" in help_
    assert "arbitro replay: error: the following arguments are required: log" in replay
    assert recover == f"arbitro recover: there is no journal {tmp_path / 'journal.sqlite3'} to recover\n"
    assert "is not an Arbitro backup (" in restore and "is damaged (" in check


@pytest.mark.parametrize("language", ITALIAN, ids=lambda env: "=".join(*env.items()))
def test_the_box_starts_and_refuses_in_italian(tmp_path, language):
    """`make run`'s line, and a box refused its journal, in the terminal's language."""
    port = free_port()
    done = arbitro("--mock", "--port", port, "--data", tmp_path, language=language, command=("-c", STARTED))
    assert done.returncode == 0, done.stderr
    assert f"arbitro: in servizio su http://127.0.0.1:{port} — il box virtuale è su http://127.0.0.1:{port}/box" \
        in done.stderr
    running = Journal(tmp_path / "journal.sqlite3")  # the first box holds the journal
    try:
        done = arbitro("--mock", "--data", tmp_path, "--port", port, language=language)
    finally:
        running.close()
    assert done.returncode == 2
    assert f"arbitro: un altro box sta usando l'archivio {tmp_path / 'journal.sqlite3'}: prima fermalo" in done.stderr

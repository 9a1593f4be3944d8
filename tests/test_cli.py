"""`arbitro` refuses to start half-configured, with a clear message."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def arbitro(*args):
    return subprocess.run([sys.executable, "-m", "device.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


@pytest.mark.parametrize("args, message", [
    (["--game", "ponte", "--seats", "6"], "arbitro: this box wires 4 seats, not 6"),
    (["--game", "ponte", "--seats", "2"], "arbitro: this game takes 3 to 6 seats, not 2"),
    (["--game", "chess", "--seats", "4"], "arbitro: unknown game 'chess'"),
    (["--game", "ponte"], "--game and --seats go together"),
])
def test_the_box_refuses_a_game_it_cannot_referee(tmp_path, args, message):
    done = arbitro("--mock", "--data", tmp_path, "--port", "0", *args)
    assert done.returncode == 2
    assert message in done.stderr


def test_the_box_refuses_a_damaged_journal_and_leaves_it_alone(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(b"not a database" * 200)
    done = arbitro("--mock", "--data", tmp_path, "--port", "0")
    assert done.returncode == 2
    assert "is damaged" in done.stderr and "move it aside" in done.stderr
    assert journal.read_bytes() == b"not a database" * 200

"""The gate does not depend on the machine's load: CI shares its machine. The tests whose events come from threads
of the box's own (the two-tables forks, the phones' streams, the pads' thread) pass with two cores kept busy
beside them. Defect: the two-tables test of Leader 1 failed 11 times in 14 under load (its stream's order depended
on scheduling) and turned a fresh clone's `make check` red."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
ORDERED = ["tests/test_contract.py::test_two_tables_differing_in_one_secret_pick_look_the_same_to_everyone_else",
           "tests/test_contract.py::test_two_tables_differing_in_one_secret_draw_look_the_same_to_everyone_else",
           "tests/test_contract.py::test_two_tables_differing_in_one_secret_pick_look_and_sound_the_same_whatever_"
           "its_seat_presses",
           "games/biglietti/tests/test_biglietti_secrecy.py", "tests/test_streams.py", "tests/test_pads.py",
           "tests/test_sounds.py"]
HOGS = 2


def test_the_tests_whose_events_come_from_threads_pass_beside_two_busy_cores():
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    try:
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", *ORDERED],
                             cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]

"""The layers import only downward, and a game's parts only as its folder's layering allows: the import-linter
contracts in pyproject.toml, run over the code as it is, and over a copy with one forbidden import added."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINTER = Path(sys.executable).parent / "lint-imports"
PACKAGES = ("engine", "device", "web_companion", "games")


def lint(root):
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINTER)], cwd=root, capture_output=True, text=True, env=env)


def test_the_layering_contracts_hold():
    ran = lint(ROOT)
    assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.parametrize("module, line, contract", [
    ("games/ponte/rules.py", "import device.display", "a game's rules and declaration import only"),
    ("games/ponte/rules.py", "import engine.journal", "a game's rules and declaration import only"),
    ("games/ponte/oled.py", "from . import phone", "a game's OLED pages never import its phone parts"),
    ("games/lifeboats/phone.py", "from . import oled", "a game's phone data never imports its OLED pages"),
    ("games/biglietti/rules.py", "import games.ponte.rules", "no game imports another"),
    ("device/box.py", "import games.ponte", "the box imports no game"),
    ("device/box.py", "from .mock import Finger", "only the composition root imports mock mode's parts"),
    ("device/face.py", "import engine.table", "a press goes one way"),
    ("device/menu.py", "import gpiozero", "a press goes one way"),
    ("device/seen.py", "from . import display", "a press goes one way"),
    ("device/matrix.py", "from . import face", "the pads hand keys up and the table hands moments up"),
    ("web_companion/api.py", "import device.box", "the web side imports neither the box nor a game"),
    ("engine/table.py", "import games.leader1", "the engine imports neither"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.mo",
                                                                                             "static", "fonts"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    with open(tmp_path / module, "a", encoding="utf-8") as code:
        code.write(f"\n{line}\n")
    ran = lint(tmp_path)
    assert ran.returncode != 0
    broken = ran.stdout.split("Broken contracts")[-1]
    assert contract in broken.replace("\n", " ")

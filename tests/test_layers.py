"""The layers import only downward: the import-linter contracts in pyproject.toml, run over the code as it is."""
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_layering_contracts_hold():
    linter = Path(sys.executable).parent / "lint-imports"
    ran = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert f"{len(contracts)} kept, 0 broken" in ran.stdout  # every contract ran

"""The layers import only downward: the import-linter contracts in pyproject.toml, run over the code as it is."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_layering_contracts_hold():
    linter = Path(sys.executable).parent / "lint-imports"
    ran = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "3 kept, 0 broken" in ran.stdout

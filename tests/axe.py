"""axe-core at its newest release, run by axe-playwright-python: the small adapter between them. The newest
axe.min.js comes in the pytest-playwright-axe wheel (tests/axe-core.txt says why it is installed apart); it is read
as a file, never imported (its Python needs 3.12)."""
import importlib.util
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe

VERSION = "4.14.0"  # the release tests/axe-core.txt pins


def script() -> Path:
    """Where the installed wheel keeps axe-core's script (found without importing the package)."""
    spec = importlib.util.find_spec("pytest_playwright_axe")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("axe-core's wheel is missing: `make test` installs tests/axe-core.txt")
    return Path(spec.submodule_search_locations[0]) / "resources" / "axe.min.js"


def axe() -> Axe:
    return Axe.from_file(script())


def serious(page):
    """axe's serious and critical findings on the page as it stands: (rule, first node's HTML)."""
    found = axe().run(page).response["violations"]
    return [(v["id"], v["nodes"][0]["html"][:120]) for v in found if v["impact"] in ("serious", "critical")]

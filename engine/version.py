"""What software the box runs: the package's version, and in a git checkout its commit too, with the journal
format it writes. Said by `arbitro --version`, `arbitro doctor`, the host page and the phones' footer."""
import functools
import subprocess
from pathlib import Path

from .journal import FORMAT

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def version() -> str:
    """"0.1.0", or "0.1.0+9f04076" (the checkout's `git describe`) when run from a git checkout."""
    from importlib.metadata import PackageNotFoundError, version as package_version  # slow to load: when asked

    try:
        found = package_version("arbitro")
    except PackageNotFoundError:
        found = "0+unknown"
    if (ROOT / ".git").exists():
        try:
            described = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                                       capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            return found
        if described.returncode == 0 and described.stdout.strip():
            found += "+" + described.stdout.strip()
    return found


def about() -> dict[str, object]:
    """The version and the journal format, as data."""
    return {"version": version(), "journal_format": FORMAT}

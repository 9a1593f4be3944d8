"""What moved between two versions of requirements.lock: `python hardware/lock_changes.py OLD NEW` (make lock)."""
import re
import sys
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)", re.M)


def pins(path: str) -> dict[str, str]:
    return dict(PIN.findall(Path(path).read_text()))


def changes(old: dict[str, str], new: dict[str, str]) -> list[str]:
    lines = [f"{name} {old[name]} -> {new[name]}" for name in sorted(old.keys() & new.keys()) if old[name] != new[name]]
    lines += [f"{name} {new[name]} (new)" for name in sorted(new.keys() - old.keys())]
    lines += [f"{name} {old[name]} (gone)" for name in sorted(old.keys() - new.keys())]
    return lines


if __name__ == "__main__":
    moved = changes(pins(sys.argv[1]), pins(sys.argv[2]))
    print("\n".join(moved) if moved else "nothing moved")

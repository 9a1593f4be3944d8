"""A small JSON file under the box's data directory (the phones' tokens, the box's language), replaced whole
and durably: written beside, flushed to the disk, then renamed over the old one, so a power cut leaves either
the old file or the new one, never half of each."""
import errno
import json
import os
from pathlib import Path
from typing import cast

from .journal import StorageError
from .rules.protocol import JSON


def sync_folder(folder: Path) -> None:
    """Sync the folder itself: a rename or a new file in it survives a power cut."""
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class StateFileError(StorageError):
    """The file cannot be read (damaged) or written (a full disk, no permission); the message names it."""


class StateFile:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, JSON]:
        """What the file holds ({} when there is no file yet). A damaged file is refused, never overwritten."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as e:
            raise StateFileError(f"cannot read {self.path}: {e.strerror or e}") from None
        try:
            found = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            raise StateFileError(f"{self.path} is damaged ({e}): move it aside and start again "
                                 "(phones will ask for their seats again)") from None
        if not isinstance(found, dict):
            raise StateFileError(f"{self.path} is damaged (not a JSON object): move it aside and start again")
        return found

    def write(self, data: dict[str, JSON]) -> None:
        """Replace the file with `data`; raises StateFileError (and leaves the old file whole) when it cannot."""
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            with open(temporary, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, sort_keys=True)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
            sync_folder(self.path.parent)
        except OSError as e:
            try:
                temporary.unlink(missing_ok=True)
            except OSError:
                pass
            raise StateFileError(f"cannot write {self.path}: {e.strerror or e}",
                                 full=e.errno in (errno.ENOSPC, errno.EDQUOT)) from None


class MemoryState:
    """The same interface kept in memory, for a box without a data directory (tests, the doctor)."""

    def __init__(self, data: dict[str, JSON] | None = None) -> None:
        self.data = data or {}

    def read(self) -> dict[str, JSON]:
        return cast(dict[str, JSON], json.loads(json.dumps(self.data)))

    def write(self, data: dict[str, JSON]) -> None:
        self.data = json.loads(json.dumps(data))

"""Compiles the message catalogs: each ``<domain>.po`` (the source people edit) into the ``<domain>.mo`` beside
it, which is what the box reads (parsing .po files took a fifth of the box's start). Run
``python -m engine.catalogs`` (or ``make catalogs``) after editing a .po; a test fails while a .mo is stale.
A .mo is stale when its messages or plural rule differ from its .po's, never for its bytes: another version of
Babel writes the same catalog in other bytes (its header names the version)."""
import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine import mofile


def compiled(po_path: Path) -> bytes:
    """The .mo bytes of one .po file."""
    language, domain = Path(po_path).parent.parent.name, Path(po_path).stem
    with open(po_path, "rb") as po:
        catalog = read_po(po, locale=language, domain=domain)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    return mo.getvalue()


def meaning(data: bytes) -> tuple[dict[tuple[str | None, str], mofile.Text], str]:
    """What the box reads of compiled bytes: the messages and the plural rule."""
    read = mofile.parse(data)
    return read.messages, read.plural_expr


def is_stale(po_path: Path) -> bool:
    """Whether the .mo beside `po_path` is missing or says other than the .po."""
    return _differs(Path(po_path).with_suffix(".mo"), compiled(po_path))


def _differs(mo: Path, data: bytes) -> bool:
    """Whether the .mo file `mo` is missing or says other than the compiled bytes `data`."""
    return not mo.exists() or meaning(mo.read_bytes()) != meaning(data)


def sources(*roots: str | Path) -> list[Path]:
    """Every .po under `roots` (by default the engine's, every game folder's and the tests')."""
    here = Path(__file__).resolve().parent
    defaults = (here, here.parent / "games", here.parent / "tests")
    return sorted(po for root in roots or defaults for po in Path(root).rglob("*.po"))


def main(argv: list[str] | None = None) -> int:
    for po in sources(*(argv if argv is not None else sys.argv[1:])):
        mo, data = po.with_suffix(".mo"), compiled(po)
        if _differs(mo, data):
            mo.write_bytes(data)
            print(f"compiled {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

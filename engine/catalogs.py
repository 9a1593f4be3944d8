"""Compiles the message catalogs: each ``<domain>.po`` (the source people edit) into the ``<domain>.mo`` beside
it, which is what the box reads (parsing .po files took a fifth of the box's start). Run
``python -m engine.catalogs`` (or ``make catalogs``) after editing a .po; a test fails while a .mo is stale."""
import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


def compiled(po_path):
    """The .mo bytes of one .po file."""
    language, domain = Path(po_path).parent.parent.name, Path(po_path).stem
    with open(po_path, "rb") as po:
        parsed = read_po(po, locale=language, domain=domain)
    mo = io.BytesIO()
    write_mo(mo, parsed)
    return mo.getvalue()


def sources(*roots):
    """Every .po under `roots` (the engine's and the tests' by default)."""
    here = Path(__file__).resolve().parent
    return sorted(po for root in roots or (here, here.parent / "tests") for po in Path(root).rglob("*.po"))


def main(argv=None):
    for po in sources(*(argv if argv is not None else sys.argv[1:])):
        mo, data = po.with_suffix(".mo"), compiled(po)
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            print(f"compiled {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

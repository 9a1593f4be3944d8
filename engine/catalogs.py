"""Compiles the message catalogs: each ``<domain>.po`` (the source people edit) into the ``<domain>.mo`` beside
it, which is what the box reads (parsing .po files took a fifth of the box's start). Run
``python -m engine.catalogs`` (or ``make catalogs``) after editing a .po; a test fails while a .mo is stale.
A .mo is stale when its messages, plural rule or plural table differ from its .po's, never for its bytes: another
version of Babel writes the same catalog in other bytes (its header names the version).

Each .mo's header also holds its plural rule as a table (``X-Plural-Table``, engine/mofile.py's `PluralTable`),
worked out here from the rule and checked against it: the box and the phones look a count's form up in it, and
neither evaluates the rule (nor loads Babel, here only at build time). A rule no short table gives stops the
compile, naming its .po."""
import functools
import gettext
import io
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileParser

from engine import mofile

HEAD_MOST = 200  # counts a table may list before its forms repeat
CYCLE_MOST = 1000  # counts a cycle may hold: a rule on a count's last three digits at most
CHECKED = 10 ** 5  # the table is checked against the rule for every count below, and then around each power of ten
FAR = 10 ** 18


class _Tabled(Catalog):
    """A catalog whose header names its plural table too (Babel writes only the header fields it knows)."""

    @property
    def mime_headers(self) -> list[tuple[str, str]]:
        headers = super().mime_headers
        after_rule = next((i + 1 for i, (name, _) in enumerate(headers) if name == "Plural-Forms"), len(headers))
        return [*headers[:after_rule], (mofile.TABLE_FIELD, str(plural_table(self.plural_expr))),
                *headers[after_rule:]]

    @mime_headers.setter
    def mime_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        Catalog.mime_headers.fset(self, headers)  # type: ignore[attr-defined]  # (mypy reads it as overloads)


def compiled(po_path: Path) -> bytes:
    """The .mo bytes of one .po file. ValueError when its plural rule makes no table."""
    language, domain = Path(po_path).parent.parent.name, Path(po_path).stem
    catalog = _Tabled(locale=language, domain=domain)
    with open(po_path, "rb") as po:
        PoFileParser(catalog).parse(po)
    mo = io.BytesIO()
    try:
        write_mo(mo, catalog)
    except ValueError as error:
        raise ValueError(f"{po_path}: {error}") from None
    return mo.getvalue()


@functools.cache
def plural_table(expr: str) -> mofile.PluralTable:
    """The shortest table of the plural rule `expr` (a C expression in ``n``). ValueError when it has none within
    HEAD_MOST counts and a cycle of CYCLE_MOST, or the table found disagrees with the rule somewhere checked."""
    rule: Callable[[int], int] = getattr(gettext, "c2py")(expr)  # the standard library's reader of the rule
    forms = bytes(rule(n) for n in range(CHECKED))  # a form's index is small: bytes compare fastest
    best: mofile.PluralTable | None = None
    for cycle in range(1, CYCLE_MOST + 1):
        if best is not None and cycle >= len(best.head) + len(best.cycle):
            break  # no shorter table is left to find
        head = _repeating_from(forms, cycle)
        if head is not None and (best is None or head + cycle < len(best.head) + len(best.cycle)):
            best = mofile.PluralTable(tuple(forms[:head]), tuple(forms[head:head + cycle]))
    far = (n + d for n in (10 ** k for k in range(5, 19)) for d in range(-CYCLE_MOST, CYCLE_MOST))
    if best is None or any(best(n) != rule(n) for n in far):
        raise ValueError(f"the plural rule {expr!r} makes no table: its forms do not repeat in a cycle of at most "
                         f"{CYCLE_MOST} counts after the first {HEAD_MOST} (the box and the phones read a table)")
    return best


def _repeating_from(forms: bytes, cycle: int) -> int | None:
    """The first count from which `forms` repeat every `cycle` counts, if it is at most HEAD_MOST."""
    if forms[HEAD_MOST:len(forms) - cycle] != forms[HEAD_MOST + cycle:]:
        return None
    return next((n + 1 for n in range(HEAD_MOST - 1, -1, -1) if forms[n] != forms[n + cycle]), 0)


def meaning(data: bytes) -> tuple[dict[tuple[str | None, str], mofile.Text], str, mofile.PluralTable]:
    """What the box reads of compiled bytes: the messages, the plural rule and its table."""
    read = mofile.parse(data)
    return read.messages, read.plural_expr, read.plural


def is_stale(po_path: Path) -> bool:
    """Whether the .mo beside `po_path` is missing or says other than the .po."""
    return _differs(Path(po_path).with_suffix(".mo"), compiled(po_path))


def _differs(mo: Path, data: bytes) -> bool:
    """Whether the .mo file `mo` is missing, unreadable (one compiled before it held a plural table) or says other
    than the compiled bytes `data`."""
    try:
        return not mo.exists() or meaning(mo.read_bytes()) != meaning(data)
    except ValueError:
        return True


def sources(*roots: str | Path) -> list[Path]:
    """Every .po under `roots` (by default the engine's, every game folder's and the tests')."""
    here = Path(__file__).resolve().parent
    defaults = (here, here.parent / "games", here.parent / "tests")
    return sorted(po for root in roots or defaults for po in Path(root).rglob("*.po"))


def main(argv: list[str] | None = None) -> int:
    for po in sources(*(argv if argv is not None else sys.argv[1:])):
        try:
            mo, data = po.with_suffix(".mo"), compiled(po)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        if _differs(mo, data):
            mo.write_bytes(data)
            print(f"compiled {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

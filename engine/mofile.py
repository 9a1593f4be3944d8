"""Reads a compiled message catalog (a GNU ``.mo`` file, the format Babel writes: engine/catalogs.py) into its
messages and plural rule. The standard library's reader keeps its messages in a private table and Babel's public
``read_mo`` costs ten times as long at the box's start, so the box reads the file format, which is public and
fixed (GNU gettext's manual, "The Format of GNU MO Files"); tests/test_catalogs.py checks it reads every catalog
as Babel's ``read_mo`` does.

The plural rule is read as a table (`PluralTable`, the header field `X-Plural-Table` that `make catalogs` writes
from the catalog's rule): the box and the phones' pages choose a count's form by looking it up, so neither
evaluates an expression (a strict Content-Security-Policy forbids a page to), and the box never loads Babel."""
import re
import struct
from dataclasses import dataclass
from pathlib import Path

_MAGIC = {0x950412DE: "<", 0xDE120495: ">"}  # the byte order the file was written in
_PLURAL_RULE = re.compile(r"plural=(.*?);?\s*$")
TABLE_FIELD = "X-Plural-Table"
_TABLE = re.compile(r"head((?: \d+)*); cycle((?: \d+)+)")

Text = str | list[str]  # a message, or a plural message's forms


@dataclass(frozen=True)
class PluralTable:
    """A plural rule as a table: the index of the form of each count in `head` (0, 1, 2…), then of every larger
    count in `cycle`, which repeats (count len(head) takes cycle[0]): (n != 1) is head 1 0, cycle 1. The rules
    gettext's catalogs use read a count's last digits, so they make short tables (engine/catalogs.py refuses one
    that does not). A negative count takes the form of its size, as in CLDR's rules."""
    head: tuple[int, ...]
    cycle: tuple[int, ...]

    def __call__(self, n: int) -> int:
        n = abs(n)
        return self.head[n] if n < len(self.head) else self.cycle[(n - len(self.head)) % len(self.cycle)]

    def __str__(self) -> str:
        """As the header field holds it: ``head 1 0; cycle 1``."""
        return f"head{''.join(f' {i}' for i in self.head)}; cycle{''.join(f' {i}' for i in self.cycle)}"

    @classmethod
    def parse(cls, text: str) -> "PluralTable":
        found = _TABLE.fullmatch(text)
        if found is None:
            raise ValueError(f"{text!r} is not a plural table")
        return cls(*(tuple(int(i) for i in part.split()) for part in found.groups()))


@dataclass(frozen=True)
class Compiled:
    """A catalog's messages by (context or None, id), its header's fields and its plural rule (a C expression in
    ``n``, as written in the .po, and its table: `plural(n)` is the index of the count's form)."""
    messages: dict[tuple[str | None, str], Text]
    header: dict[str, str]
    plural_expr: str
    plural: PluralTable


def read(path: Path) -> Compiled:
    return parse(path.read_bytes(), str(path))


def parse(data: bytes, name: str = "the catalog") -> Compiled:
    order = _MAGIC.get(struct.unpack("<I", data[:4])[0]) if len(data) >= 20 else None
    if order is None:
        raise ValueError(f"{name} is not a compiled message catalog")
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    messages: dict[tuple[str | None, str], Text] = {}
    header: dict[str, str] = {}
    for index in range(count):
        key = _string(data, order, originals + 8 * index)
        text = _string(data, order, translations + 8 * index)
        msgid = key.split(b"\x00")[0].decode()
        if not msgid:
            fields = (line.split(":", 1) for line in text.decode().splitlines() if ":" in line)
            header = {field.strip().lower(): value.strip() for field, value in fields}
            continue
        context, _, msgid = msgid.rpartition("\x04")
        forms = text.decode().split("\x00")
        messages[context or None, msgid] = forms if b"\x00" in key else forms[0]
    found = _PLURAL_RULE.search(header.get("plural-forms", "plural=(n != 1);"))
    table = header.get(TABLE_FIELD.lower())
    if table is None:
        raise ValueError(f"{name} has no plural table ({TABLE_FIELD}): compile it with `make catalogs`")
    return Compiled(messages, header, found[1] if found else "(n != 1)", PluralTable.parse(table))


def _string(data: bytes, order: str, at: int) -> bytes:
    length, offset = struct.unpack(order + "2I", data[at:at + 8])
    return data[offset:offset + length]


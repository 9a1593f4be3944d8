"""Reads a compiled message catalog (a GNU ``.mo`` file, the format Babel writes: engine/catalogs.py) into its
messages and plural rule. The standard library's reader keeps its messages in a private table and Babel's public
``read_mo`` costs ten times as long at the box's start, so the box reads the file format, which is public and
fixed (GNU gettext's manual, "The Format of GNU MO Files"); tests/test_catalogs.py checks it reads every catalog
as Babel's ``read_mo`` does."""
import gettext
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

_MAGIC = {0x950412DE: "<", 0xDE120495: ">"}  # the byte order the file was written in
_PLURAL_RULE = re.compile(r"plural=(.*?);?\s*$")

Text = str | list[str]  # a message, or a plural message's forms


@dataclass(frozen=True)
class Compiled:
    """A catalog's messages by (context or None, id), its header's fields and its plural rule (a C expression in
    ``n``, and as a function from a count to the index of its form)."""
    messages: dict[tuple[str | None, str], Text]
    header: dict[str, str]
    plural_expr: str
    plural: Callable[[int], int]


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
    expr = found[1] if found else "(n != 1)"
    return Compiled(messages, header, expr, _plural(expr))


def _string(data: bytes, order: str, at: int) -> bytes:
    length, offset = struct.unpack(order + "2I", data[at:at + 8])
    return data[offset:offset + length]


def _plural(expr: str) -> Callable[[int], int]:
    """The C expression as a Python function: the standard library's own translator of it (gettext.c2py, which
    its GNUTranslations uses), not in its __all__; tests/test_catalogs.py pins what the box relies on."""
    translate: Callable[[str], Callable[[int], int]] = getattr(gettext, "c2py")
    return translate(expr)

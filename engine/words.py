"""Every word people read, from Babel message catalogs: ``engine/locale/<language>/LC_MESSAGES/<domain>.po``, one
domain per game (in the folder its descriptor names) plus the shared ``arbitro``, read as the ``.mo`` compiled
beside each (engine/catalogs.py). Messages are ids with parameters
(``{n}``); the context (``msgctxt``) names the surface: ``box`` (the OLED, the pads' labels, the choices' names
every surface shares), ``phone`` (the phones and the host page), ``virtual`` (the virtual box), ``refusal`` (the
rules' refusals), ``cli`` (what builders read in a terminal).

A plural message takes its count as ``n``. A choice label ``key:7`` with no message of its own is worded by the
message ``key:#`` with ``n=7`` ("7 caselle"), so a range of numbers is one plural message, not one per number.
"""
import functools
import re
from collections.abc import Iterable

from engine import mofile
from engine.games import GAMES, LOCALE
from engine.rules.protocol import LABEL, SHARED, Message

LANGUAGES = ("it", "en")
_NUMBERED = re.compile(r"^(.*:)(\d+)$")


@functools.cache
def catalog(language: str, domain: str) -> mofile.Compiled:
    """The compiled catalog of `domain` in `language`."""
    folder = GAMES[domain].locale if domain in GAMES else LOCALE  # a game's catalogs where it keeps them
    path = folder / language / "LC_MESSAGES" / f"{domain}.mo"
    if not path.exists():
        raise LookupError(f"no {language} catalog for {domain!r}")
    return mofile.read(path)


def lookup(language: str, domain: str, context: str | None, key: str, /, **values: object) -> str | None:
    """The message `key` of `context` in `domain`, its parameters filled; None when the catalog has none."""
    found = catalog(language, domain)
    text = found.messages.get((context, key))
    if text is None:
        numbered = _NUMBERED.match(key)
        text = found.messages.get((context, numbered[1] + "#")) if numbered else None
        if text is None or numbered is None:
            return None
        values = {"n": int(numbered[2]), **values}
    if isinstance(text, list):
        count = values["n"]
        text = text[found.plural(count if isinstance(count, int) else 0)]
    return text.format(**values)


def say(language: str, domain: str, context: str | None, key: str, /, **values: object) -> str:
    """`lookup`, for a message that must exist: a missing one is a bug the catalog tests catch, shown as its id
    rather than crash a screen at the table."""
    found = lookup(language, domain, context, key, **values)
    return key if found is None else found


def as_json(language: str, domains: Iterable[str]) -> dict[str, object]:
    """What a phone needs to speak `language`: every message of `domains` by context, a plural message as its
    list of forms, and the catalogs' plural rule as its table (engine/mofile.py's `PluralTable`: the page looks a
    count's form up as the box does, and evaluates no code)."""
    table = catalog(language, SHARED).plural
    found: dict[str, object] = {"plural": {"head": list(table.head), "cycle": list(table.cycle)}}
    for domain in domains:
        contexts: dict[str | None, dict[str, mofile.Text]] = {}
        for (context, key), text in catalog(language, domain).messages.items():
            contexts.setdefault(context, {})[key] = text
        found[domain] = contexts
    return found


def render(language: str, message: Message, *, yours: bool = False) -> str:
    """A rules Message (engine/rules/protocol.py) in `language`: its domain's catalog, then the shared one; its
    Message parameters worded too. A message no catalog has is shown as its id (the catalog tests catch it).
    `yours`: a refusal said to the seat it is about (its own phone), in the second person where the catalog has
    it (context `yours`); the OLED, the host and a replay read it in the third."""
    values = {name: render(language, value) if isinstance(value, Message) else value
              for name, value in message.params.items()}
    contexts = (("phone", "box") if message.context == LABEL else
                ("yours", "refusal") if yours and message.context == "refusal" else (message.context,))
    for domain in dict.fromkeys((message.domain, SHARED)):
        for context in contexts:
            found = lookup(language, domain, context, message.key, **values)
            if found is not None:
                return found
    return message.key

"""Every word people read, from Babel message catalogs: ``engine/locale/<language>/LC_MESSAGES/<domain>.po``, one
domain per game (in the folder its descriptor names) plus the shared ``arbitro``. Messages are ids with parameters
(``{n}``); the context (``msgctxt``) names the surface: ``box`` (the OLED, the pads' labels, the choices' names
every surface shares), ``phone`` (the phones and the host page), ``virtual`` (the virtual box), ``refusal`` (the
rules' refusals), ``cli`` (what builders read in a terminal).

A plural message takes its count as ``n``. A choice label ``key:7`` with no message of its own is worded by the
message ``key:#`` with ``n=7`` ("7 caselle"), so a range of numbers is one plural message, not one per number.
"""
import functools
import io
import re

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from engine.games import GAMES, LOCALE
from engine.rules.protocol import SHARED, Message

LANGUAGES = ("it", "en")
_NUMBERED = re.compile(r"^(.*:)(\d+)$")


@functools.cache
def catalog(language, domain):
    """The parsed .po catalog (babel.messages.catalog.Catalog)."""
    folder = GAMES[domain].locale if domain in GAMES else LOCALE  # a game's catalogs where it keeps them
    path = folder / language / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        raise LookupError(f"no {language} catalog for {domain!r}")
    with path.open("rb") as po:
        return read_po(po, locale=language, domain=domain)


@functools.cache
def _translations(language, domain):
    """The catalog compiled in memory, and which (context, id) it holds, each marked plural or not."""
    parsed = catalog(language, domain)
    mo = io.BytesIO()
    write_mo(mo, parsed)
    mo.seek(0)
    known = {(m.context, m.id[0] if m.pluralizable else m.id): m.pluralizable for m in parsed if m.id}
    return Translations(mo, domain=domain), known


def lookup(language, domain, context, key, /, **values):
    """The message `key` of `context` in `domain`, its parameters filled; None when the catalog has none."""
    translations, known = _translations(language, domain)
    plural = known.get((context, key))
    if plural is None:
        numbered = _NUMBERED.match(key)
        if not numbered or (context, numbered[1] + "#") not in known:
            return None
        key, plural, values = numbered[1] + "#", known[(context, numbered[1] + "#")], {"n": int(numbered[2]),
                                                                                       **values}
    if plural:
        found = translations.npgettext(context, key, key, values["n"])
    else:
        found = translations.pgettext(context, key)
    return found.format(**values)


def say(language, domain, context, key, /, **values):
    """`lookup`, for a message that must exist: a missing one is a bug the catalog tests catch, shown as its id
    rather than crash a screen at the table."""
    found = lookup(language, domain, context, key, **values)
    return key if found is None else found


def as_json(language, domains):
    """What a phone needs to speak `language`: every message of `domains` by context, a plural message as its
    list of forms, and the catalog's plural rule (a C expression in ``n``)."""
    found = {"plural": catalog(language, SHARED).plural_expr}
    for domain in domains:
        contexts = found.setdefault(domain, {})
        for message in catalog(language, domain):
            if message.id:
                key = message.id[0] if message.pluralizable else message.id
                contexts.setdefault(message.context, {})[key] = (list(message.string) if message.pluralizable
                                                                 else message.string)
    return found


def render(language, message):
    """A rules Message (engine/rules/protocol.py) in `language`: its domain's catalog, then the shared one; its
    Message parameters worded too. A message no catalog has is shown as its id (the catalog tests catch it)."""
    values = {name: render(language, value) if isinstance(value, Message) else value
              for name, value in message.params.items()}
    for domain in dict.fromkeys((message.domain, SHARED)):
        found = lookup(language, domain, message.context, message.key, **values)
        if found is not None:
            return found
    return message.key

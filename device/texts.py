"""What the OLED and the pads' labels say (the `box` messages of the catalogs, engine/words.py, a game's own
before the shared ones), and what builders read in a terminal (the `cli` messages)."""
import os

from engine.words import SHARED, lookup, say


def text(language, key, game=None, /, **values):
    """The words for `key`: the game's own first (when `game` is given), then the shared ones. A key of several
    space-separated words (a choice's label: "place guaritore v:3") is worded word by word; an unknown word is
    shown as it is rather than crash the display."""
    def word(part):
        found = lookup(language, game, "box", part, **values) if game else None
        return lookup(language, SHARED, "box", part, **values) if found is None else found

    found = word(key)
    if found is None:
        found = " ".join(word(part) or part for part in key.split(" "))
    return found


def terminal_language(environ=os.environ):
    """The terminal's language as gettext finds it (the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is
    set): Italian when that names Italian, else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return "it" if environ[name].lower().startswith("it") else "en"
    return "en"


def said(key, /, **values):
    """A `cli` message, in the terminal's language."""
    return say(terminal_language(), SHARED, "cli", key, **values)

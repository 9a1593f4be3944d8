"""What the OLED and the pads' labels say (the `box` messages of the catalogs, engine/words.py, a game's own
before the shared ones), and what builders read in a terminal (the `cli` messages, and argparse's own words)."""
import gettext
import os

from engine.games import LOCALE
from engine.words import LANGUAGES, SHARED, lookup, say


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
    """The terminal's language as gettext finds it: the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set,
    a list (`fr:it`) read up to the first language the catalogs have or to C; English when none is found."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            for each in environ[name].split(":"):
                language = each.split("@")[0].split(".")[0].split("_")[0].lower()
                if language in LANGUAGES:
                    return language
                if language in ("c", "posix"):
                    break
            return "en"
    return "en"


def argparse_speaks_the_terminals_language():
    """argparse words its usage, headings and errors through gettext's default domain (as the Python
    documentation's argparse howto says to translate it): that domain is made the `argparse` catalogs beside
    ours, which gettext picks in the language terminal_language names. Before any parser is made: a parser words
    its headings as it is made."""
    gettext.bindtextdomain("argparse", LOCALE)
    gettext.textdomain("argparse")


def said(key, /, **values):
    """A `cli` message, in the terminal's language."""
    return say(terminal_language(), SHARED, "cli", key, **values)

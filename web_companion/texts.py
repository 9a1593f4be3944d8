"""The phone page's words: the catalogs' messages (engine/words.py) in the page's language, and what each game's
panels need beside its words (web_companion/games.py)."""
from engine.games import GAMES
from engine.words import SHARED, as_json, say

from .games import data


def page_words(language):
    """Everything the page's scripts need to speak: every catalog's messages, the games' titles and data."""
    return {**as_json(language, (SHARED, *GAMES)), "titles": {n: g.title for n, g in GAMES.items()},
            "data": {n: data(g) for n, g in GAMES.items()}, "draws": [n for n, g in GAMES.items() if g.draws]}


def word(language, key, **values):
    """One of the page's shared words (the templates' and the server's own messages)."""
    return say(language, SHARED, "phone", key, **values)

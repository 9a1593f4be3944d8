"""What the OLED and the pads' labels say: the `box` messages of the catalogs (engine/words.py), a game's own
before the shared ones."""
from engine.words import SHARED, lookup


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

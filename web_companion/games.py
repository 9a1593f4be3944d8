"""What a game's phone panels need beside its words: the data its descriptor's loader gives (engine/games.py
`Phone.load_data`: a game's `phone.py`). Its words are in the catalogs."""


def data(game):
    """The phone data of `game` (a Game), {} when its panels need none."""
    return game.phone.load_data() if game.phone.load_data else {}

"""What a game's phone panels need beside its words: the `DATA` of the module its descriptor names
(engine/games.py `Phone.data`: a game's `phone.py`). Its words are in the catalogs."""
import importlib


def data(game):
    """The phone data of `game` (a Game), {} when its panels need none."""
    return importlib.import_module(game.phone.data).DATA if game.phone.data else {}

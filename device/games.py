"""Each game's presentation on the box, in the module its descriptor names (engine/games.py `Game.oled`: a game's
`oled.py`): its result pages (`chapters`), its live screen, its final screen (`result`) and its
replay summary (`summary`). Its words are in its catalog."""
import importlib

from engine.games import GAMES


def presentation(game):
    return importlib.import_module(GAMES[game].oled)

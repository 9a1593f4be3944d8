"""Each game's presentation on the box, from the loader its descriptor holds (engine/games.py `Game.load_oled`:
a game's `oled.py`): its result pages (`chapters`), its live screen, its final screen (`result`) and its replay
summary (`summary`). Its words are in its catalog."""
from engine.games import GAMES


def presentation(game):
    return GAMES[game].load_oled()

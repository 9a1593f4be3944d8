"""Each game's presentation on the box lives in a module named after the game (device/games/<name>.py):
its words (TEXTS), its result pages (chapters), its live screen, its final screen and its replay summary."""
import importlib


def presentation(game):
    return importlib.import_module(f"{__name__}.{game}")

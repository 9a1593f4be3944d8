"""Each game's phone presentation: words and data for its panels (web_companion/games/<name>.py, `texts`),
its panels (static/games/<name>.js) and its rules pages (rules/<name>.<lang>.md)."""
import importlib


def phone(game):
    return importlib.import_module(f"{__name__}.{game}")

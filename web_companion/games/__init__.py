"""What a game's phone panels need beside its words: data in web_companion/games/<name>.py (`DATA`), its panels
(static/games/<name>.js) and its rules pages (rules/<name>.<lang>.md). Its words are in the catalogs."""
import importlib
import importlib.util


def data(game):
    name = f"{__name__}.{game}"
    return importlib.import_module(name).DATA if importlib.util.find_spec(name) else {}

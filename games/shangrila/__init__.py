"""I ponti di Shangri-La: the whole game in this folder, declared here (what its menu shows, where each layer finds its
parts)."""
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.games import Rulebook, one_folder

from . import declaration


def load_rules() -> Rulebook[Any]:
    """Its rules, imported when a game of it is first played: the type checker holds them to the contract here."""
    from . import rules
    return Rulebook[rules.State](rules)


def load_oled() -> ModuleType:  # its OLED pages, for the box
    from . import oled
    return oled


GAME = one_folder(Path(__file__).parent, declaration, load_rules, load_oled)

"""Il ponte traballante: the whole game in this folder, declared here (what its menu shows, where each layer finds its
parts)."""
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.games import Rulebook, one_folder

from . import declaration


def load_rules() -> Rulebook[Any]:
    """Its rules, imported when a game of it is first played: the type checker holds them to the contract here."""
    from . import rules
    return Rulebook[rules.State](rules, public_lines=rules.public_lines)


def load_oled() -> ModuleType:  # its OLED pages, for the box
    from . import oled
    return oled


def load_phone() -> Mapping[str, Any]:  # its phone panels' data, for the web side
    from . import phone
    return phone.DATA


GAME = one_folder(Path(__file__).parent, declaration, load_rules, load_oled, load_phone, draws=True)

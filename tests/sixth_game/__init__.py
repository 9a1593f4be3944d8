"""A sixth game that lives only under tests/: "Moneta" (each seat secretly calls heads or tails, then the box
tosses a coin; who called it wins). One folder, in the shape of every game's: its descriptor is all a layer needs
to find its parts."""
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.games import Rulebook, one_folder

from . import rules


def load_rules() -> Rulebook[Any]:
    return Rulebook[rules.State](rules)


def load_oled() -> ModuleType:
    from . import oled
    return oled


MONETA = one_folder(Path(__file__).parent, rules, load_rules, load_oled, draws=True)

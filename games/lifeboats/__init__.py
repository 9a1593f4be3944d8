"""Rette sich wer kann: the whole game in this folder, declared here (what its menu shows, its rules, its parts)."""
from typing import TYPE_CHECKING

from engine.games import Rules, one_folder, register

from . import declaration

GAME = register(one_folder(__name__, declaration, order=2))

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from . import rules

    RULES: Rules[rules.State] = rules

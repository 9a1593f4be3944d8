"""A sixth game that lives only under tests/: "Moneta" (each seat secretly calls heads or tails, then the box
tosses a coin; who called it wins). One folder, in the shape of every game's: its descriptor is all a layer needs
to find its parts."""
from typing import TYPE_CHECKING

from engine.games import one_folder

from . import rules

if TYPE_CHECKING:  # the type checker holds its rules to the contract, as every game's descriptor does
    from engine.games import Rules

    RULES: Rules[rules.State] = rules

MONETA = one_folder(__name__, rules, draws=True)

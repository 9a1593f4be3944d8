"""Biglietti, prego!, declared: what its menu shows, its rules and where each layer finds its parts."""
from typing import TYPE_CHECKING

from ..rules import biglietti_options
from . import Rules, ours

GAME = ours(biglietti_options, order=4, capabilities=("public_lines",))

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from ..rules import biglietti

    RULES: Rules[biglietti.State] = biglietti

"""I ponti di Shangri-La, declared: what its menu shows, its rules and where each layer finds its parts."""
from typing import TYPE_CHECKING

from ..rules import shangrila_options
from . import Rules, ours

GAME = ours(shangrila_options, order=5, open_information=True)

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from ..rules import shangrila

    RULES: Rules[shangrila.State] = shangrila

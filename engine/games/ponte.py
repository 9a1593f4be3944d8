"""Il ponte traballante, declared: what its menu shows, its rules and where each layer finds its parts."""
from typing import TYPE_CHECKING

from ..rules import ponte_options
from . import Rules, ours

GAME = ours(ponte_options, order=1, data="web_companion.games.ponte", capabilities=("public_lines",), draws=True)

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from ..rules import ponte

    RULES: Rules[ponte.State] = ponte

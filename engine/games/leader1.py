"""Leader 1, declared: what its menu shows, its rules and where each layer finds its parts."""
from typing import TYPE_CHECKING

from ..rules import leader1_options
from . import Rules, ours

GAME = ours(leader1_options, order=3, capabilities=("public_lines", "secret_draw"),
            secret_options=leader1_options.SECRET_OPTIONS, draws=True)

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from ..rules import leader1

    RULES: Rules[leader1.State] = leader1

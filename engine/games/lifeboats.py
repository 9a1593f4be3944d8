"""Rette sich wer kann, declared: what its menu shows, its rules and where each layer finds its parts."""
from typing import TYPE_CHECKING

from ..rules import lifeboats_options
from . import Rules, ours

GAME = ours(lifeboats_options, order=2, data="web_companion.games.lifeboats")

if TYPE_CHECKING:  # the type checker holds the rules to the contract; the box imports them when first played
    from ..rules import lifeboats

    RULES: Rules[lifeboats.State] = lifeboats

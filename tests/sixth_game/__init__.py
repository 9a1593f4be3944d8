"""A sixth game that lives only under tests/: "Moneta" (each seat secretly calls heads or tails, then the box
tosses a coin; who called it wins). Its descriptor is all a layer needs to find its parts."""
from pathlib import Path

from typing import TYPE_CHECKING

from engine.games import Game, Phone

from . import rules

HERE = Path(__file__).parent

if TYPE_CHECKING:  # the type checker holds its rules to the contract, as every game's descriptor does
    from engine.games import Rules

    RULES: Rules[rules.State] = rules

MONETA = Game(rules, rules.__name__, oled="tests.sixth_game.oled", rules_pages=HERE / "pages",
              locale=HERE / "locale", phone=Phone(script="moneta.js", style="moneta.css", folder=HERE / "static"),
              draws=True)

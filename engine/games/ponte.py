"""Il ponte traballante, declared: what its menu shows, its rules and where each layer finds its parts."""
from ..rules import ponte_options
from . import ours

GAME = ours(ponte_options, order=1, data="web_companion.games.ponte", capabilities=("public_lines",))

"""Il ponte traballante, declared: its rules and where each layer finds its parts."""
from ..rules import ponte
from . import ours

GAME = ours(ponte, order=1, data="web_companion.games.ponte", pad_labels=ponte.PAD_LABELS,
            public_lines=ponte.public_lines)

"""I ponti di Shangri-La, declared: what its menu shows, its rules and where each layer finds its parts."""
from ..rules import shangrila_options
from . import ours

GAME = ours(shangrila_options, order=5, open_information=True)

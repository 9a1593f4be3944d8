"""I ponti di Shangri-La, declared: its rules and where each layer finds its parts."""
from ..rules import shangrila
from . import ours

GAME = ours(shangrila, order=5, open_information=True)

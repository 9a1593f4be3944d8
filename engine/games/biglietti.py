"""Biglietti, prego!, declared: its rules and where each layer finds its parts."""
from ..rules import biglietti
from . import ours

GAME = ours(biglietti, order=4, pad_labels=biglietti.PAD_LABELS, public_lines=biglietti.public_lines)

"""Biglietti, prego!, declared: what its menu shows, its rules and where each layer finds its parts."""
from ..rules import biglietti_options
from . import ours

GAME = ours(biglietti_options, order=4, capabilities=("public_lines",))

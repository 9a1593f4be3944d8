"""Rette sich wer kann, declared: what its menu shows, its rules and where each layer finds its parts."""
from ..rules import lifeboats_options
from . import ours

GAME = ours(lifeboats_options, order=2, data="web_companion.games.lifeboats")

"""Rette sich wer kann, declared: its rules and where each layer finds its parts."""
from ..rules import lifeboats
from . import ours

GAME = ours(lifeboats, order=2, data="web_companion.games.lifeboats", pad_labels=lifeboats.PAD_LABELS)

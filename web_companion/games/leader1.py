"""Leader 1 on the phone: its words (the box's choice words serve the prompt's buttons too)."""
from device.games.leader1 import TEXTS


def texts(language):
    return TEXTS[language]

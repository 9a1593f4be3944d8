"""I ponti di Shangri-La as the box's menu and the host page show it before a game is chosen: its name, seats and
options (its pads follow the prompt: nothing printed on them). The rules (shangrila.py) read them from here."""
from engine.rules.options import SEAT, Option

NAME = "shangrila"
TITLE = "I ponti di Shangri-La"
SEATS = (3, 4)
OPTIONS = (Option("start", SEAT, 0),)
PAD_LABELS = ()

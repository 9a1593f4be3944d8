"""Biglietti, prego! as the box's menu and the host page show it before a game is chosen: its name, seats,
options and the words printed on its pads. The rules (biglietti.py) read them from here."""
from engine.rules.options import CHOICE, SEAT, Option

NAME = "biglietti"
TITLE = "Biglietti, prego!"
SEATS = (5, 12)

BIGLIETTO, SCUSA, ACCUSA, IMPARZIALE, NASCONDITI, POLFER = CARDS = (
    "biglietto", "scusa", "accusa", "imparziale", "nasconditi", "polfer")
NO, YES = "no", "si"
PAD_LABELS = CARDS + (NO, YES)  # a traveller's pad: the six cards, then No and Yes

OPTIONS = (
    Option("controller", SEAT, 0),
    Option("ring", CHOICE, "travellers", choices=("travellers", "table")),
)

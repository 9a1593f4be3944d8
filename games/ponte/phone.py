"""Il ponte traballante on the phone: the cards' names (as printed, always Italian) and each numbered card's
green and red numbers."""
from .declaration import CARD_NAMES, CARDS, GREEN, RED

DATA = {"card_names": CARD_NAMES, "card_numbers": {c: [GREEN[i], RED[i]] for i, c in enumerate(CARDS[:5])}}

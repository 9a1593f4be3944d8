"""Il ponte traballante as the box's menu and the host page show it before a game is chosen: its name, seats,
options and its cards (as printed on the pads, with their numbers: the phone page shows them). The rules
(ponte.py) read them from here."""
from engine.rules.options import CHOICE, Option

NAME = "ponte"
TITLE = "Il ponte traballante"
SEATS = (3, 6)
OPTIONS = (Option("deal", CHOICE, "table", choices=("table", "box")),)

# Pad buttons 1–8 map to these ids, in this order (docs/log-format.md).
CARDS = ("salto_atletico", "scatto_repentino", "paura_improvvisa", "passo_prudente", "vertigini",
         "spunto_interessante", "ordine_del_capo_spedizione", "passo_pesante")
# Names as printed on the cards.
CARD_NAMES = {"salto_atletico": "Salto atletico", "scatto_repentino": "Scatto repentino",
              "paura_improvvisa": "Paura improvvisa", "passo_prudente": "Passo prudente",
              "vertigini": "Vertigini", "spunto_interessante": "Spunto interessante",
              "ordine_del_capo_spedizione": "Ordine del capo spedizione", "passo_pesante": "Passo pesante",
              "calma_piatta": "Calma piatta", "vento_da_est": "Vento da Est", "vento_da_ovest": "Vento da Ovest"}
GREEN = (3, 4, 0, 2, 1)  # the green and red numbers of the five numbered cards
RED = (1, 0, 4, 2, 3)

PAD_LABELS = tuple(CARD_NAMES[c] for c in CARDS)  # the printed pad labels: button n is the n-th card

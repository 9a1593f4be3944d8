"""What the box says, in Italian and English. Card and event names are always Italian, as printed."""
from .rules.ponte import CARD_NAMES

LANGUAGES = ("it", "en")

TEXTS = {
    "it": {
        "title": "Arbitro", "press_menu": "Menu: scegli un gioco", "no_game": "Nessuna partita",
        "choose_game": "Gioco", "choose_seats": "Giocatori", "choose_option": "Opzione",
        "start": "OK: inizia", "ok_next": "OK: avanti", "seats_n": "{n} giocatori",
        "match": "Match {n}", "picks": "Match {n}: scelte", "locked": "pronto", "waiting": "...",
        "reveal": "Match {n}: carte", "spunto_pick": "Spunto: sostituisce", "replacements": "Spunto",
        "no_card": "nessuna carta: 3 Est", "moves": "Match {n}: mosse", "event": "Evento",
        "bridge": "Ponte  O 1..21 E", "over": "Fine partita", "winners": "Vince", "losers": "Perde",
        "draw": "Pareggio", "seat": "G{n}", "west": "Ovest {n}", "east": "Est {n}", "stay": "fermo",
        "undo_confirm": "Annullare l'ultima azione?", "end_confirm": "Terminare la partita?",
        "ok_yes": "OK: si  Menu: no", "undone": "Annullato", "nothing_to_undo": "Niente da annullare",
        "deal": "Speciali", "deal_table": "dal tavolo", "deal_box": "dalla scatola",
        "ponte": "Il ponte traballante", "rejected": "Non valido", "url": "Telefono:",
        "phone_joined": "telefono ok", "menu": "Menu", "menu_join": "Telefoni (QR)",
        "menu_end": "Termina partita", "ok_choose": "OK: scegli", "ok_back": "OK: torna", "ok_menu": "OK: menu",
    },
    "en": {
        "title": "Arbitro", "press_menu": "Menu: choose a game", "no_game": "No game",
        "choose_game": "Game", "choose_seats": "Players", "choose_option": "Option",
        "start": "OK: start", "ok_next": "OK: next", "seats_n": "{n} players",
        "match": "Match {n}", "picks": "Match {n}: picks", "locked": "ready", "waiting": "...",
        "reveal": "Match {n}: cards", "spunto_pick": "Spunto: replacing", "replacements": "Spunto",
        "no_card": "no card: 3 East", "moves": "Match {n}: moves", "event": "Event",
        "bridge": "Bridge  W 1..21 E", "over": "Game over", "winners": "Wins", "losers": "Loses",
        "draw": "Draw", "seat": "P{n}", "west": "West {n}", "east": "East {n}", "stay": "stays",
        "undo_confirm": "Undo the last action?", "end_confirm": "End the game?",
        "ok_yes": "OK: yes  Menu: no", "undone": "Undone", "nothing_to_undo": "Nothing to undo",
        "deal": "Specials", "deal_table": "from the table", "deal_box": "from the box",
        "ponte": "Il ponte traballante", "rejected": "Not allowed", "url": "Phone:",
        "phone_joined": "phone joined", "menu": "Menu", "menu_join": "Phones (QR)",
        "menu_end": "End the game", "ok_choose": "OK: choose", "ok_back": "OK: back", "ok_menu": "OK: menu",
    },
}


def text(language, key, **values):
    return TEXTS[language][key].format(**values)


def card_name(card):
    return CARD_NAMES[card]

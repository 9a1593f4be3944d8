"""What the OLED says, in Italian and English: the words every game shares. A game's own words live in its
presentation module (device/games/<name>.py, TEXTS) and are looked up after these."""
from engine.texts import LANGUAGES

from .games import presentation

TEXTS = {
    "it": {
        "title": "Arbitro", "press_menu": "Menu: scegli un gioco", "new_game": "Nuova partita",
        "choose_game": "Gioco", "choose_seats": "Giocatori", "start": "OK: inizia", "ok_next": "OK: avanti",
        "change": "< > cambia", "locked": "pronto", "waiting": "...", "over": "Fine partita",
        "winners": "Vince", "losers": "Perde", "draw": "Pareggio", "seat": "G{n}",
        "undo_confirm": "Annullare l'ultima azione?", "end_confirm": "Terminare la partita?",
        "ok_yes": "OK: sì  Menu: no", "undone": "Annullato", "nothing_to_undo": "Niente da annullare",
        "rejected": "Non valido", "url": "Telefono:", "phone_joined": "Telefono collegato", "menu": "Menu",
        "player_n": "Giocatore {n}", "host": "host", "phone_asks": "Telefono per {who}",
        "phones_ask": "Telefoni: {who}", "storage_full": "Memoria piena!", "storage_failing": "Memoria guasta!",
        "box_error": "Errore: riprova",
        "menu_back": "Torna al gioco", "menu_join": "Telefoni (QR)", "menu_end": "Termina partita",
        "ok_choose": "OK: scegli", "ok_back": "OK: torna", "ok_menu": "OK: menu", "phones_only": "{seats}: telefono",
        "cursor_keys": "1< 2> 7 indietro 8 OK", "no_prompt": "G{n}: niente da fare ora",
        "yes": "sì", "no": "no",
        "labels_note": "In piccolo, sotto: cosa fa il tasto quando il box fa scegliere col cursore.",
        "key_prev": "cursore <", "key_next": "cursore >", "key_back": "indietro", "key_ok": "OK",
        "poweroff_confirm": "Spegnere la scatola?", "powering_off": "Si spegne: stacca la corrente a LED verde "
        "spento", "poweroff_failed": "Non si spegne: vedi il log",
    },
    "en": {
        "title": "Arbitro", "press_menu": "Menu: choose a game", "new_game": "New game",
        "choose_game": "Game", "choose_seats": "Players", "start": "OK: start", "ok_next": "OK: next",
        "change": "< > change", "locked": "ready", "waiting": "...", "over": "Game over",
        "winners": "Wins", "losers": "Loses", "draw": "Draw", "seat": "P{n}",
        "undo_confirm": "Undo the last action?", "end_confirm": "End the game?",
        "ok_yes": "OK: yes  Menu: no", "undone": "Undone", "nothing_to_undo": "Nothing to undo",
        "rejected": "Not allowed", "url": "Phone:", "phone_joined": "Phone joined", "menu": "Menu",
        "player_n": "Player {n}", "host": "host", "phone_asks": "Phone for {who}",
        "phones_ask": "Phones: {who}", "storage_full": "Storage full!", "storage_failing": "Storage failing!",
        "box_error": "Error: try again",
        "menu_back": "Back to the game", "menu_join": "Phones (QR)", "menu_end": "End the game",
        "ok_choose": "OK: choose", "ok_back": "OK: back", "ok_menu": "OK: menu", "phones_only": "{seats}: phone",
        "cursor_keys": "1< 2> 7 back 8 OK", "no_prompt": "P{n}: nothing to do now",
        "yes": "yes", "no": "no",
        "labels_note": "Small, below: what the key does when the box asks you to choose with the cursor.",
        "key_prev": "cursor <", "key_next": "cursor >", "key_back": "back", "key_ok": "OK",
        "poweroff_confirm": "Power the box off?", "powering_off": "Shutting down: unplug once the green LED is "
        "off", "poweroff_failed": "Not powering off: see the log",
    },
}
assert all(set(TEXTS[lang]) == set(TEXTS["it"]) for lang in LANGUAGES)


def text(language, key, game=None, **values):
    """The words for `key`: the game's own first (when `game` is given), then the shared ones. A key of several
    space-separated words (a choice's label: "place guaritore v:3") is worded word by word; an unknown word is
    shown as it is rather than crash the display."""
    words = presentation(game).TEXTS[language] if game else {}

    def word(part):
        return words.get(part, TEXTS[language].get(part))

    found = word(key)
    if found is None:
        found = " ".join(word(part) or part for part in key.split(" "))
    return found.format(**values)

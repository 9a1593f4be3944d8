"""Il ponte traballante on the phone: its words, and the cards' names and numbers for its panels."""
from engine.rules.ponte import CARD_NAMES, CARDS, GREEN, RED

WORDS = {
    "it": {
        "match": "Match {n} di 6", "phase_pick": "Scelte segrete in corso", "phase_spunto": "Spunto: sostituzioni",
        "phase_event": "Evento", "phase_over": "Partita finita", "phase_deal": "Distribuzione",
        "phase_repick": "Carta speciale doppia: chi l'ha rivelata sceglie di nuovo",
        "space": "casella {n}", "cards": "{n} carte", "bridge": "Il ponte", "west": "Ovest (salvezza)",
        "east": "Est (cannibali)", "reveal": "Carte giocate", "replacement": "sostituisce Spunto con",
        "void": "Rivelazione nulla: troppe copie di una speciale", "moves": "Movimenti",
        "move_west": "{n} Ovest", "move_east": "{n} Est", "no_moves": "nessuno si muove",
        "step_spunto": "Spunto", "step_resolution": "Risoluzione", "step_event": "Evento", "event": "Evento",
        "discard": "Scarti", "events_left": "{n} carte nel mazzo eventi", "history": "Storia dei match",
        "your_hand": "La tua mano", "special": "La tua carta speciale",
        "special_unknown": "se è la tua speciale", "green": "Ovest {n}", "red": "Est {n}",
        "deal": "Carte speciali", "deal_table": "distribuite al tavolo", "deal_box": "distribuite dal box",
        "pick_card": "Scegli la tua carta in segreto", "pick_replacement": "Spunto: scegli la carta che lo sostituisce",
        "pick_again": "Una speciale è uscita troppe volte: scegli di nuovo", "standing": "restano",
    },
    "en": {
        "match": "Match {n} of 6", "phase_pick": "Secret picks under way", "phase_spunto": "Spunto: replacements",
        "phase_event": "Event", "phase_over": "Game over", "phase_deal": "Dealing",
        "phase_repick": "A special came up too often: those who showed it pick again",
        "space": "space {n}", "cards": "{n} cards", "bridge": "The bridge", "west": "West (safety)",
        "east": "East (cannibals)", "reveal": "Cards played", "replacement": "replaces Spunto with",
        "void": "Void reveal: too many copies of a special", "moves": "Moves",
        "move_west": "{n} West", "move_east": "{n} East", "no_moves": "nobody moves",
        "step_spunto": "Spunto", "step_resolution": "Resolution", "step_event": "Event", "event": "Event",
        "discard": "Discard pile", "events_left": "{n} cards in the event deck", "history": "Match history",
        "your_hand": "Your hand", "special": "Your special card",
        "special_unknown": "if it is your special", "green": "West {n}", "red": "East {n}",
        "deal": "Special cards", "deal_table": "dealt at the table", "deal_box": "dealt by the box",
        "pick_card": "Pick your card in secret", "pick_replacement": "Spunto: pick the card that replaces it",
        "pick_again": "A special came up too often: pick again", "standing": "stand",
    },
}


def texts(language):
    """Words, card names as printed (always Italian) and each numbered card's green and red numbers."""
    return {**WORDS[language], "card_names": CARD_NAMES,
            "card_numbers": {c: [GREEN[i], RED[i]] for i, c in enumerate(CARDS[:5])}}

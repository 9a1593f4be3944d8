"""The phone page's words, in Italian and English. Card and event names stay Italian, as printed."""
from engine.rules import GAMES
from engine.rules.ponte import CARD_NAMES, CARDS, GREEN, RED

PAGE = {
    "it": {
        "table": "Tavolo", "seat": "Il mio posto", "host": "Host", "rules": "Regole",
        "language": "Lingua", "no_game": "Nessuna partita in corso. L'host ne avvia una dal box o da qui.",
        "match": "Match {n} di 6", "phase_pick": "Scelte segrete in corso", "phase_spunto": "Spunto: sostituzioni",
        "phase_event": "Evento", "phase_over": "Partita finita", "phase_deal": "Distribuzione",
        "seat_n": "Giocatore {n}", "space": "casella {n}", "cards": "{n} carte", "locked": "ha scelto",
        "picking": "sta scegliendo", "bridge": "Il ponte", "west": "Ovest (salvezza)", "east": "Est (cannibali)",
        "reveal": "Carte giocate", "replacement": "sostituisce Spunto con", "no_card": "nessuna carta: 3 Est",
        "moves": "Movimenti", "move_west": "{n} Ovest", "move_east": "{n} Est", "no_moves": "nessuno si muove",
        "step_spunto": "Spunto", "step_resolution": "Risoluzione", "step_event": "Evento",
        "event": "Evento", "discard": "Scarti", "events_left": "{n} carte nel mazzo eventi",
        "history": "Storia dei match", "result": "Risultato", "winners": "Vince", "losers": "Perde",
        "draw": "Pareggio: tutti sulla stessa casella", "live": "in diretta", "offline": "riconnessione…",
        "choose_seat": "Scegli il tuo posto", "claim_help": "Ora premi un tasto qualsiasi sulla pulsantiera del "
        "giocatore {n} entro {s} secondi: il tasto non gioca carte.", "claim_expired": "Tempo scaduto: riprova.",
        "your_hand": "La tua mano", "your_pick": "La tua scelta", "none_yet": "nessuna, per ora",
        "special": "La tua carta speciale", "special_unknown": "se è la tua speciale", "pick": "Gioca",
        "you_are": "Sei il giocatore {n}", "not_picking": "Aspetta: ora non devi scegliere.",
        "host_claim": "Per i comandi dell'host premi OK sul pannello host del box entro {s} secondi.",
        "become_host": "Diventa host", "new_game": "Nuova partita", "game": "Gioco", "players": "Giocatori",
        "start": "Inizia", "undo": "Annulla l'ultima azione", "end": "Termina la partita",
        "confirm_end": "Terminare davvero la partita?", "confirm_undo": "Annullare l'ultima azione?",
        "download": "Scarica il log della partita", "box_language": "Lingua del display",
        "deal": "Carte speciali", "deal_table": "distribuite dal tavolo", "deal_box": "distribuite dal box",
        "rules_link": "Regole e decisioni (in inglese)", "error": "Errore", "green": "Ovest {n}",
        "red": "Est {n}", "host_ok": "Sei l'host.", "seats_of": "{n} giocatori", "back_to_table": "Torna al tavolo",
    },
    "en": {
        "table": "Table", "seat": "My seat", "host": "Host", "rules": "Rules",
        "language": "Language", "no_game": "No game yet. The host starts one from the box or from here.",
        "match": "Match {n} of 6", "phase_pick": "Secret picks under way", "phase_spunto": "Spunto: replacements",
        "phase_event": "Event", "phase_over": "Game over", "phase_deal": "Dealing",
        "seat_n": "Player {n}", "space": "space {n}", "cards": "{n} cards", "locked": "has picked",
        "picking": "is picking", "bridge": "The bridge", "west": "West (safety)", "east": "East (cannibals)",
        "reveal": "Cards played", "replacement": "replaces Spunto with", "no_card": "no card: 3 East",
        "moves": "Moves", "move_west": "{n} West", "move_east": "{n} East", "no_moves": "nobody moves",
        "step_spunto": "Spunto", "step_resolution": "Resolution", "step_event": "Event",
        "event": "Event", "discard": "Discard pile", "events_left": "{n} cards in the event deck",
        "history": "Match history", "result": "Result", "winners": "Wins", "losers": "Loses",
        "draw": "A draw: everyone on the same space", "live": "live", "offline": "reconnecting…",
        "choose_seat": "Choose your seat", "claim_help": "Now press any button on player {n}'s pad within {s} "
        "seconds: that press plays no card.", "claim_expired": "Time is up: try again.",
        "your_hand": "Your hand", "your_pick": "Your pick", "none_yet": "none yet",
        "special": "Your special card", "special_unknown": "if it is your special", "pick": "Play",
        "you_are": "You are player {n}", "not_picking": "Wait: you have nothing to pick now.",
        "host_claim": "For the host controls, press OK on the box's host panel within {s} seconds.",
        "become_host": "Become host", "new_game": "New game", "game": "Game", "players": "Players",
        "start": "Start", "undo": "Undo the last action", "end": "End the game",
        "confirm_end": "Really end the game?", "confirm_undo": "Undo the last action?",
        "download": "Download the game log", "box_language": "Display language",
        "deal": "Special cards", "deal_table": "dealt at the table", "deal_box": "dealt by the box",
        "rules_link": "Rules and rulings", "error": "Error", "green": "West {n}",
        "red": "East {n}", "host_ok": "You are the host.", "seats_of": "{n} players",
        "back_to_table": "Back to the table",
    },
}


def page_texts(language):
    """Everything the page's script needs to speak: words, card names as printed, games' titles."""
    return {**PAGE[language], "card_names": CARD_NAMES, "titles": {n: g.TITLE for n, g in GAMES.items()},
            "card_numbers": {c: [GREEN[i], RED[i]] for i, c in enumerate(CARDS[:5])}}

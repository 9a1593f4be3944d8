"""The phone page's words, in Italian and English: the words every game shares. A game's own words come from
its phone module (web_companion/games/<name>.py)."""
from engine.rules import GAMES
from engine.texts import LANGUAGES

from .games import phone

PAGE = {
    "it": {
        "table": "Tavolo", "seat": "Il mio posto", "host": "Host", "rules": "Regole",
        "language": "Lingua", "no_game": "Nessuna partita in corso. L'host ne avvia una dal box o da qui.",
        "seat_n": "Giocatore {n}", "locked": "ha scelto", "picking": "sta scegliendo",
        "result": "Risultato", "winners": "Vince", "losers": "Perde",
        "draw": "Pareggio", "live": "in diretta", "offline": "riconnessione…",
        "display_failing": "Il display della scatola non risponde: la partita va avanti, seguila qui. Controlla "
        "il cavo del display; la scatola lo riprova da sola.",
        "choose_seat": "Scegli il tuo posto",
        "claim_help": "Sulla pulsantiera del giocatore {n}, tieni premuto il tasto {b} per {h} secondi.",
        "claim_help_host": "Il giocatore {n} non ha pulsantiera: chiedi all'host di tenere premuto il tasto {b} "
        "del pannello host per {h} secondi.",
        "claim_note": "Solo questo telefono conosce il tasto. Una pressione breve gioca come sempre. Hai {s} "
        "secondi.", "claim_expired": "Tempo scaduto: riprova.", "cancel": "Annulla",
        "host_button_prev": "◀", "host_button_next": "▶", "host_button_ok": "OK", "host_button_undo": "Annulla",
        "seat_has_phone": "ha già un telefono", "seat_no_pad": "senza pulsantiera",
        "lost_seat": "Un altro telefono ha preso il posto del giocatore {n}. Se non eri tu, richiedilo.",
        "lost_host": "Un altro telefono è ora l'host.",
        "storage_full": "La memoria del box è piena: non prende nuove mosse finché non si libera spazio. Nessuna "
        "mossa già accettata è persa.",
        "storage_failing": "Il box non riesce a scrivere nella sua memoria: non prende nuove mosse finché non ci "
        "riesce. Nessuna mossa già accettata è persa.",
        "claims_busy": "Troppi telefoni chiedono insieme: riprova tra {seconds} s.",
        "claims_rate": "Questo telefono ha chiesto troppe volte: riprova tra {seconds} s.",
        "your_pick": "La tua scelta", "none_yet": "nessuna, per ora", "your_turn": "Tocca a te",
        "you_are": "Sei il giocatore {n}", "not_your_turn": "Aspetta: ora non tocca a te.",
        "game_over": "La partita è finita: il risultato è sul tavolo.", "see_table": "Vai al tavolo",
        "host_claim": "Per diventare host, tieni premuto il tasto {b} del pannello host per {h} secondi.",
        "become_host": "Diventa host", "new_game": "Nuova partita", "game": "Gioco", "players": "Giocatori",
        "players_phones": "{n} giocatori (dal {w}° col telefono)", "seats_of": "{n} giocatori",
        "start": "Inizia", "confirm_start": "C'è una partita in corso: iniziarne un'altra?",
        "undo": "Annulla l'ultima azione", "end": "Termina la partita",
        "confirm_end": "Terminare davvero la partita?", "confirm_undo": "Annullare l'ultima azione?",
        "download": "Scarica il log della partita", "box_language": "Lingua del display",
        "rules_link": "Regole e decisioni", "error": "Errore", "host_ok": "Sei l'host.",
        "back_to_table": "Torna al tavolo", "for_seat": "Per il giocatore {n} (senza pulsantiera né telefono)",
        "secret_note": "Scelta segreta: gli altri vedono solo che hai scelto.",
        "started": "Partita iniziata.",
    },
    "en": {
        "table": "Table", "seat": "My seat", "host": "Host", "rules": "Rules",
        "language": "Language", "no_game": "No game yet. The host starts one from the box or from here.",
        "seat_n": "Player {n}", "locked": "has picked", "picking": "is picking",
        "result": "Result", "winners": "Wins", "losers": "Loses",
        "draw": "A draw", "live": "live", "offline": "reconnecting…",
        "display_failing": "The box's display is not answering: the game goes on, follow it here. Check the "
        "display's cable; the box keeps trying it.",
        "choose_seat": "Choose your seat",
        "claim_help": "On player {n}'s pad, hold button {b} for {h} seconds.",
        "claim_help_host": "Player {n} has no pad: ask the host to hold the host panel's {b} button for {h} "
        "seconds.",
        "claim_note": "Only this phone knows the button. A short press plays as usual. You have {s} seconds.",
        "claim_expired": "Time is up: try again.", "cancel": "Cancel",
        "host_button_prev": "◀", "host_button_next": "▶", "host_button_ok": "OK", "host_button_undo": "Undo",
        "seat_has_phone": "has a phone already", "seat_no_pad": "no pad",
        "lost_seat": "Another phone took player {n}'s seat. If that was not you, ask for it again.",
        "lost_host": "Another phone is the host now.",
        "storage_full": "The box's storage is full: it takes no new moves until there is room. No move it "
        "accepted is lost.",
        "storage_failing": "The box cannot write its storage: it takes no new moves until it can. No move it "
        "accepted is lost.",
        "claims_busy": "Too many phones are asking at once: try again in {seconds} s.",
        "claims_rate": "This phone has asked too often: try again in {seconds} s.",
        "your_pick": "Your pick", "none_yet": "none yet", "your_turn": "Your turn",
        "you_are": "You are player {n}", "not_your_turn": "Wait: it is not your turn.",
        "game_over": "The game is over: the result is on the table.", "see_table": "Go to the table",
        "host_claim": "To become the host, hold the host panel's {b} button for {h} seconds.",
        "become_host": "Become host", "new_game": "New game", "game": "Game", "players": "Players",
        "players_phones": "{n} players (from no. {w} by phone)", "seats_of": "{n} players",
        "start": "Start", "confirm_start": "A game is under way: start another?",
        "undo": "Undo the last action", "end": "End the game",
        "confirm_end": "Really end the game?", "confirm_undo": "Undo the last action?",
        "download": "Download the game log", "box_language": "Display language",
        "rules_link": "Rules and rulings", "error": "Error", "host_ok": "You are the host.",
        "back_to_table": "Back to the table", "for_seat": "For player {n} (no pad, no phone)",
        "secret_note": "Secret pick: the others see only that you have picked.",
        "started": "Game started.",
    },
}
assert all(set(PAGE[lang]) == set(PAGE["it"]) for lang in LANGUAGES)


def page_texts(language):
    """Everything the page's scripts need to speak: the shared words, each game's own, games' titles."""
    return {**PAGE[language], "titles": {n: g.TITLE for n, g in GAMES.items()},
            "games": {n: phone(n).texts(language) for n in GAMES}}

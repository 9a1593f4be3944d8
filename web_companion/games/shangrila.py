"""I ponti di Shangri-La on the phone: its words. The kinds, villages and choice words are the box's own
(device/games/shangrila.py)."""
from device.games.shangrila import TEXTS

WORDS = {
    "it": {
        "choose_setup": "Preparazione: piazza un maestro", "choose_play": "Tocca a te: un'azione",
        "map": "La mappa di Shangri-La", "stone": "Pietra dei Saggi", "stone_mark": "◆",
        "legend": "Ogni villaggio ha sette spazi (Gu Dr Fu Sa Pi As Ye). Un maestro è il numero del giocatore sul "
                  "suo colore; lo studente, il numero piccolo nell'angolo. Ponte tratteggiato: crollato.",
        "setup_turn": "Preparazione: tocca a {seat}", "turn_of": "Tocca a {seat}",
        "stones": "Pietre: {n} · villaggi senza Pietra: {left} · ponti: {bridges}",
        "players": "Giocatori", "masters_n": "{n} maestri", "present_n": "in {n} villaggi", "supply_n": "scorta {n}",
        "history": "Azioni", "e_setup": "{seat} piazza {kind} in {v} (preparazione)",
        "e_place": "{seat} piazza {kind} in {v}",
        "e_recruit": "{seat} recluta: {what}", "e_pass": "{seat} passa: nessuna azione possibile",
        "e_journey": "{seat}: viaggio da {a} a {b}",
        "strengths": "forza {s} contro {d} (maestri {ms} e {md})", "from_stronger": "più forte la partenza",
        "to_stronger": "più forte l'arrivo", "fate_master": "diventa maestro", "fate_student": "resta studente",
        "fate_home": "torna nella scorta", "sends_home": "rimanda a casa {seats}", "stone_on": "Pietra su {v}",
        "strength_of": "{n} tessere, {m} maestri", "free": "libero", "master": "maestro", "student": "studente",
        "how_setup": "Tocca un villaggio, poi uno spazio libero: un maestro di ogni tipo, con i limiti per villaggio.",
        "how_play": "Tocca un villaggio: uno spazio libero per piazzare un maestro, i tuoi maestri (uno o due) per "
                    "reclutare studenti, un ponte per il viaggio degli studenti.",
        "no_action": "Non hai azioni possibili: passi.", "pass": "Passa",
        "recruiting": "Studenti da reclutare", "confirm_recruit": "Recluta", "cancel": "Annulla",
        "tap_village": "Tocca un villaggio sulla mappa.", "place_here": "piazza qui", "recruit_here": "recluta",
        "chosen": "scelto", "journeys_from": "Viaggi da {v}", "journey_to": "Viaggio verso {v}",
        "no_bridges": "Nessun ponte", "preview": "Anteprima: da {a} a {b}", "confirm_journey": "Conferma il viaggio",
        "your_supply": "La tua scorta", "end_r3": "Fine: restano due villaggi senza Pietra",
        "end_r4": "Fine: nessuno può più agire",
    },
    "en": {
        "choose_setup": "Setup: place a master", "choose_play": "Your turn: one action",
        "map": "The map of Shangri-La", "stone": "Stone of the Sages", "stone_mark": "◆",
        "legend": "Each village has seven spaces (He Dr Fi Pr Ra As Ye). A master is its player's number on its "
                  "colour; a student, the small number in the corner. Dashed bridge: gone.",
        "setup_turn": "Setup: {seat} to place", "turn_of": "{seat} to play",
        "stones": "Stones: {n} · villages without a Stone: {left} · bridges: {bridges}",
        "players": "Players", "masters_n": "{n} masters", "present_n": "in {n} villages", "supply_n": "supply {n}",
        "history": "Actions", "e_setup": "{seat} places a {kind} in {v} (setup)",
        "e_place": "{seat} places a {kind} in {v}",
        "e_recruit": "{seat} recruits: {what}", "e_pass": "{seat} passes: no action possible",
        "e_journey": "{seat}: journey from {a} to {b}",
        "strengths": "strength {s} against {d} (masters {ms} and {md})", "from_stronger": "the start is stronger",
        "to_stronger": "the destination is stronger", "fate_master": "becomes a master",
        "fate_student": "stays a student",
        "fate_home": "goes back to the supply", "sends_home": "sends {seats} home", "stone_on": "Stone on {v}",
        "strength_of": "{n} tiles, {m} masters", "free": "free", "master": "master", "student": "student",
        "how_setup": "Tap a village, then a free space: one master of each kind, within the village limits.",
        "how_play": "Tap a village: a free space to place a master, your masters (one or two) to recruit students, "
                    "a bridge for the students' journey.",
        "no_action": "You have no possible action: you pass.", "pass": "Pass",
        "recruiting": "Students to recruit", "confirm_recruit": "Recruit", "cancel": "Cancel",
        "tap_village": "Tap a village on the map.", "place_here": "place here", "recruit_here": "recruit",
        "chosen": "chosen", "journeys_from": "Journeys from {v}", "journey_to": "Journey to {v}",
        "no_bridges": "No bridge", "preview": "Preview: from {a} to {b}", "confirm_journey": "Confirm the journey",
        "your_supply": "Your supply", "end_r3": "Over: two villages are left without a Stone",
        "end_r4": "Over: nobody can act any more",
    },
}
assert set(WORDS["it"]) == set(WORDS["en"])


def texts(language):
    return {**TEXTS[language], **WORDS[language]}

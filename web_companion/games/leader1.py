"""Leader 1 on the phone: its words. The prompt's choice words are the box's own (device/games/leader1.py), so
a pad and a phone name every choice alike."""
from device.games.leader1 import TEXTS

WORDS = {
    "it": {
        "stage": "Tappa {n} di {of}", "turn": "Turno {n}", "phase": "Fase: {phase}", "to_act": "Tocca a: {seats}",
        "sheets": "Tabelle delle energie", "col_rider": "Corridore", "col_energy": "Energia", "col_risks": "Rischi",
        "col_place": "Dove", "col_tiles": "Rif.", "chases_left": "Inseguimenti: {n}", "tokens": "Gregari (ordine)",
        "gc": "Classifica", "last_roll": "Ultimo tiro", "no_roll": "Nessun tiro ancora", "form_title": "Mossa in corso",
        "sums": "{free} gratuite + {paid} a pagamento · costo {cost}", "recover": "recupera {n}",
        "runs": "Rischi: {risks}", "refused": "Non può partire: {why}", "history": "Cronaca",
        "crashed": "caduto", "punctured": "forato", "your_tiles": "Tue tessere: {values}", "none": "nessuna",
        "terrain": "Parte da {t}", "spaces_n": "{n} caselle", "road_marks": "Rovinate: {d} · Pavé: {c}",
        "flags": "Scia {draft} · meteo {weather} · salita {climb}", "yes": "sì", "no": "no",
        "risk_fatigue": "affaticamento", "risk_crash": "caduta", "risk_cobbles": "pavé",
        "ev_peloton": "Gruppo: dado {face}, avanza {n}", "ev_move": "{who}: {n} caselle, costo {cost}, energia {energy}",
        "ev_roll": "{who}: {kind} dado {face} → {outcome}", "ev_chase": "{team} insegue",
        "ev_finish": "{who} arriva {n}°", "ev_puncture_roll": "{who}: dado {face} → {outcome}",
        "ev_supply_used": "{who}: rifornimento +{n}", "ev_caught": "{who} ripreso ({place})",
        "ev_stage_end": "Fine tappa {n}", "ev_turn": "— turno {n} —", "ev_dropped": "{who} staccato",
        "ok": "superato", "failed": "fallito", "puncture": "FORATURA", "crash": "CADUTA", "no_puncture": "niente",
        "team": "Squadra {n}", "rules_face_table": "Facce del dado",
    },
    "en": {
        "stage": "Stage {n} of {of}", "turn": "Turn {n}", "phase": "Phase: {phase}", "to_act": "To act: {seats}",
        "sheets": "Energy sheets", "col_rider": "Rider", "col_energy": "Energy", "col_risks": "Risks",
        "col_place": "Place", "col_tiles": "Supply", "chases_left": "Chases: {n}", "tokens": "Team tokens (order)",
        "gc": "Classification", "last_roll": "Last roll", "no_roll": "No roll yet", "form_title": "Move being entered",
        "sums": "{free} free + {paid} paid · cost {cost}", "recover": "recovers {n}",
        "runs": "Risks: {risks}", "refused": "Cannot go: {why}", "history": "Race log",
        "crashed": "crashed", "punctured": "punctured", "your_tiles": "Your tiles: {values}", "none": "none",
        "terrain": "Starts on {t}", "spaces_n": "{n} spaces", "road_marks": "Damaged: {d} · Cobbles: {c}",
        "flags": "Draft {draft} · weather {weather} · climb {climb}", "yes": "yes", "no": "no",
        "risk_fatigue": "fatigue", "risk_crash": "crash", "risk_cobbles": "cobbles",
        "ev_peloton": "Peloton: die {face}, moves {n}", "ev_move": "{who}: {n} spaces, cost {cost}, energy {energy}",
        "ev_roll": "{who}: {kind} die {face} → {outcome}", "ev_chase": "{team} chases",
        "ev_finish": "{who} finishes {n}", "ev_puncture_roll": "{who}: die {face} → {outcome}",
        "ev_supply_used": "{who}: supply +{n}", "ev_caught": "{who} caught ({place})",
        "ev_stage_end": "Stage {n} over", "ev_turn": "— turn {n} —", "ev_dropped": "{who} dropped",
        "ok": "passed", "failed": "failed", "puncture": "PUNCTURE", "crash": "CRASH", "no_puncture": "none",
        "team": "Team {n}", "rules_face_table": "Die faces",
    },
}


def texts(language):
    return {**TEXTS[language], **WORDS[language]}

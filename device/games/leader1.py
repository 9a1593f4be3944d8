"""Leader 1 on the box: its words, the big die, what each roll and move shows, its replay summary."""
from dataclasses import dataclass

from ..display import FONT, LINE
from ..screens import BODY_LINES, COLUMNS, Screen, outcome_lines, paged, seat, wrap
from ..texts import text

GAME = "leader1"
TYPES = ("passista", "leader", "scalatore")
TERRAINS = ("pianura", "collina", "montagna", "discesa")
WEATHER = ("sereno", "pioggia", "caldo", "contrario_1", "contrario_2", "favorevole_1", "favorevole_2")
PLACES = ("testa", "pancia", "fuga", "staccato", "arrivato", "fuori")
QUALITIES = ("discesista", "velocista", "attaccante")
MAX_SPACES = 12


def _choice_words(lang):
    """Words for the prompt's choice labels (`key:value`) and groups: one table serves pad and phone."""
    it = lang == "it"
    words = {f"from:{t}": f"da {t}" if it else f"from {t}" for t in TERRAINS}
    words.update({f"roll:{t}": (f"tira da {t}" if it else f"roll from {t}") for t in TERRAINS})
    words.update({f"roll:{t}": (f"tira per {t}" if it else f"roll for {t}") for t in TYPES})
    words.update({f"ride:{t}": t for t in TYPES})
    words.update({f"rider:{t}": t for t in TYPES})
    words.update({f"tile:{t}": (f"rifornimento {t}" if it else f"supply {t}") for t in TYPES})
    words.update({f"team:{s}:{t}": f"{'G' if it else 'P'}{s + 1} {t}" for s in range(4) for t in TYPES})
    words.update({f"spaces:{n}": (f"{n} caselle" if it else f"{n} spaces") for n in range(1, MAX_SPACES + 1)})
    words.update({f"blocked:{n}": (f"{n} occupate" if it else f"{n} occupied") for n in range(MAX_SPACES + 1)})
    words.update({f"climb:{n}": (f"categoria {n}" if it else f"category {n}") for n in range(1, 5)})
    words["climb:0"] = "nessuna salita" if it else "no climb"
    words.update({f"climb_spaces:{n}": (f"{n} in salita" if it else f"{n} on the climb")
                  for n in range(1, MAX_SPACES + 1)})
    words.update({f"road:{n}": (f"casella {n}" if it else f"space {n}") for n in range(1, MAX_SPACES + 1)})
    words.update({f"supply:{v}": f"+{v}" for v in (2, 3, 4, 5)})
    words.update({f"quality:{q}": q for q in QUALITIES})
    english = {"testa": "head", "pancia": "belly", "fuga": "breakaway", "staccato": "dropped",
               "arrivato": "finished", "fuori": "out"}
    words.update({f"place:{p}": p if it else english[p] for p in PLACES})
    words.update({f"catch:{p}": (f"ripreso: {p}" if it else f"caught: {p}") for p in ("testa", "pancia")})
    words.update({f"weather:{w}": w.replace("_", " ") for w in WEATHER})
    for key, it_word, en_word in (("draft", "scia", "draft"), ("sprint", "zona sprint", "sprint zone"),
                                  ("feed", "rifornimento", "feed zone"), ("ahead", "davanti al gruppo",
                                                                         "ahead of the peloton"),
                                  ("bonus", "abbuono", "bonus line"), ("finish", "arrivo", "finish line")):
        # A toggle's button says what pressing it does.
        words[f"{key}:true"] = f"segna {it_word}" if it else f"mark {en_word}"
        words[f"{key}:false"] = f"togli {it_word}" if it else f"unmark {en_word}"
    words.update({
        "go:true": "VIA" if it else "GO", "back:true": "indietro" if it else "back",
        "chase:true": "insegue" if it else "chase", "chase:false": "passa" if it else "pass",
        "ride:none": "nessuno scatto" if it else "no attack", "quality:none": "fatto" if it else "done",
        "place:none": "fatto" if it else "done", "catch:none": "nessuno" if it else "nobody",
        "catch:arrivato": "gruppo all'arrivo" if it else "peloton finishes",
        "weather": "meteo" if it else "weather", "blocked": "strada bloccata" if it else "blocked road",
        "climb": "salita" if it else "climb", "climb_spaces": "caselle in salita" if it else "climb spaces",
        "road": "caselle rovinate" if it else "damaged spaces",
    })
    return words


TEXTS = {
    "it": {
        **_choice_words("it"),
        "die": "Dado (facce)", "energy": "Energia iniziale", "chases": "Inseguimenti", "riders": "Corridori",
        "order": "Ordine dei gregari", "race": "Corsa", "race_classica": "classica", "race_tappe": "a tappe",
        "stages": "Tappe", "stage_energy": "Energia delle tappe", "supply": "Rifornimenti",
        "supply_table": "sul tavolo", "supply_box": "tenuti dal box", "tiles": "Tessere rifornimento",
        "punctures": "Tiri foratura", "punctures_each": "uno a uno", "punctures_all": "tutti insieme",
        "choose_quality": "qualità", "choose_lineup": "nel gruppo", "choose_attack": "scatto?",
        "choose_regroup": "nel gruppo", "choose_chase": "inseguimento?", "choose_roll": "tira il dado",
        "choose_catch": "ripresi?", "choose_puncture": "tiro foratura", "choose_start": "parte da",
        "choose_spaces": "caselle", "choose_move": "mossa", "choose_rider": "chi muove",
        "phase_qualities": "qualità", "phase_lineup": "partenza", "phase_fuga": "fuga",
        "phase_scatti": "scatti", "phase_gruppo": "gruppo", "phase_inseguimento": "inseguimento",
        "phase_lancio": "dado", "phase_ripresa": "ripresa", "phase_staccati": "staccati",
        "phase_ultimi": "forati", "phase_forature": "forature", "phase_over": "fine",
        "turn": "T{turn} {phase}", "acts": "{seats}: {what}",
        "plain": "", "red": "ROSSO", "orange": "ARANCIO", "blue": "BLU",
        "peloton": "Gruppo", "moves": "avanza {n}", "chase_plus": "+1 insegue", "empty_plus": "+1 vuoto",
        "puncture_round": "FORATURE!", "paid": "{who} -{n}", "dropped": "{who} staccato",
        "risk_fatigue": "Affaticamento", "risk_crash": "Caduta", "risk_cobbles": "Pave",
        "rung": "{n}o rischio", "ok": "superato", "failed": "fallito", "crash": "CADUTA!", "puncture": "FORATURA!",
        "no_puncture": "niente", "tyre": "Foratura?", "move": "{who}", "move_line": "{n} caselle: {free}+{paid}",
        "cost": "costo {n}", "recovered": "recupera {n}", "energy_left": "energia {n}",
        "doubled": "costo doppio", "breakaway": "scatto",
        "chase": "{seat} insegue", "finish": "arriva {n}o", "supply_used": "+{n} energia",
        "caught": "ripreso: {place}", "stage_end": "Fine tappa {n}", "gc": "Classifica",
        "over_stage": "{who} vince", "form": "{who}: {what}",
    },
    "en": {
        **_choice_words("en"),
        "die": "Die (faces)", "energy": "Starting energy", "chases": "Chases", "riders": "Riders",
        "order": "Team token order", "race": "Race", "race_classica": "classic", "race_tappe": "stage race",
        "stages": "Stages", "stage_energy": "Stages' energy", "supply": "Supply tiles",
        "supply_table": "on the table", "supply_box": "held by the box", "tiles": "Supply tile decks",
        "punctures": "Puncture rolls", "punctures_each": "one by one", "punctures_all": "all at once",
        "choose_quality": "qualities", "choose_lineup": "line up", "choose_attack": "attack?",
        "choose_regroup": "in the peloton", "choose_chase": "chase?", "choose_roll": "roll the die",
        "choose_catch": "caught?", "choose_puncture": "puncture roll", "choose_start": "starts on",
        "choose_spaces": "spaces", "choose_move": "move", "choose_rider": "who moves",
        "phase_qualities": "qualities", "phase_lineup": "line-up", "phase_fuga": "breakaway",
        "phase_scatti": "attacks", "phase_gruppo": "peloton", "phase_inseguimento": "chase",
        "phase_lancio": "roll", "phase_ripresa": "catch", "phase_staccati": "dropped",
        "phase_ultimi": "punctured", "phase_forature": "punctures", "phase_over": "over",
        "turn": "T{turn} {phase}", "acts": "{seats}: {what}",
        "plain": "", "red": "RED", "orange": "ORANGE", "blue": "BLUE",
        "peloton": "Peloton", "moves": "moves {n}", "chase_plus": "+1 chase", "empty_plus": "+1 empty",
        "puncture_round": "PUNCTURES!", "paid": "{who} -{n}", "dropped": "{who} dropped",
        "risk_fatigue": "Fatigue", "risk_crash": "Crash", "risk_cobbles": "Cobbles",
        "rung": "risk {n}", "ok": "passed", "failed": "failed", "crash": "CRASH!", "puncture": "PUNCTURE!",
        "no_puncture": "no puncture", "tyre": "Puncture?", "move": "{who}", "move_line": "{n} spaces: {free}+{paid}",
        "cost": "cost {n}", "recovered": "recovers {n}", "energy_left": "energy {n}",
        "doubled": "cost doubled", "breakaway": "attack",
        "chase": "{seat} chases", "finish": "finishes {n}", "supply_used": "+{n} energy",
        "caught": "caught: {place}", "stage_end": "Stage {n} over", "gc": "Classification",
        "over_stage": "{who} wins", "form": "{who}: {what}",
    },
}


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


def who(lang, ref):
    """A rider: its team's seat (from 1) and its type, e.g. "G2 leader"."""
    return f"{seat(lang, ref[0])} {ref[1]}"


# -- the big die ----------------------------------------------------------------------------------------------------
SEGMENTS = {0: "abcdef", 1: "bc", 2: "abged", 3: "abgcd", 4: "fgbc", 5: "afgcd", 6: "afgedc", 7: "abc",
            8: "abcdefg", 9: "abfgcd"}


@dataclass(frozen=True)
class Die:
    """A roll drawn big: the value as a tall 7-segment digit in a die outline, the colour in capital words
    beside it (never the colour alone), and what it means on the lines under the word."""
    value: int
    colour: str  # the colour in words ("" for a plain face)
    lines: tuple

    def draw(self, draw, height=64):
        top = LINE + 2
        draw.rectangle((0, top, 33, height - 1), outline="white")
        x, y, w, h, t = 8, top + 4, 18, height - top - 9, 3
        mid = y + h // 2
        bars = {"a": (x, y, x + w, y + t - 1), "g": (x, mid - 1, x + w, mid + t - 2),
                "d": (x, y + h - t, x + w, y + h - 1), "f": (x, y, x + t - 1, mid), "b": (x + w - t + 1, y, x + w, mid),
                "e": (x, mid, x + t - 1, y + h - 1), "c": (x + w - t + 1, mid, x + w, y + h - 1)}
        for segment in SEGMENTS[self.value]:
            draw.rectangle(bars[segment], fill="white")
        rows = ((self.colour,) if self.colour else ()) + self.lines
        for row, line in enumerate(rows[:4]):
            if row == 0 and self.colour:  # the colour word in reverse video: it cannot be missed
                width = int(draw.textlength(line, font=FONT))
                draw.rectangle((37, top + 1, 39 + width, top + LINE - 1), fill="white")
                draw.text((38, top), line, font=FONT, fill="black")
            else:
                draw.text((38, top + row * LINE), line, font=FONT, fill="white")


def die_screen(view, lang, title, face, lines):
    value, colour = view["die"][face]
    return Screen(title[:COLUMNS], picture=Die(value, say(lang, colour), tuple(line[:15] for line in lines)))


# -- what each event shows --------------------------------------------------------------------------------------------
def _peloton_pages(view, event, lang):
    lines = [say(lang, "moves", n=event["move"])]
    if event["chase"]:
        lines.append(say(lang, "chase_plus"))
    if event["empty"]:
        lines.append(say(lang, "empty_plus"))
    if event["red"]:
        lines.append(say(lang, "puncture_round"))
    pages = [die_screen(view, lang, say(lang, "peloton"), event["face"], lines)]
    paid = [say(lang, "paid", who=who(lang, r[:2]), n=r[2]) for r in event["paid"] if r[2]]
    paid += [say(lang, "dropped", who=who(lang, r)) for r in event["dropped"]]
    if paid:
        pages += paged(say(lang, "peloton"), paid)
    return pages


def _move_pages(view, event, lang):
    name = who(lang, event["rider"])
    pages = []
    for rolled in event["rolled"]:
        kind, face, outcome = rolled[:3]
        if kind == "cobbles":
            meaning = [say(lang, outcome) if outcome != "ok" else say(lang, "ok")]
        else:
            meaning = [say(lang, "rung", n=rolled[3]), say(lang, outcome)]
            if kind == "crash" and outcome == "failed":
                meaning.append(say(lang, "crash"))
            if kind == "fatigue" and outcome == "failed":
                meaning.append(say(lang, "doubled"))
        pages.append(die_screen(view, lang, f"{name} {say(lang, 'risk_' + kind)}", face, meaning))
    lines = [say(lang, "move_line", n=event["spaces"], free=min(event["spaces"], event["free"]),
                 paid=event["paid"])]
    lines.append(say(lang, "recovered", n=event["recovered"]) if event["recovered"] else
                 say(lang, "cost", n=event["cost"]))
    lines.append(say(lang, "energy_left", n=event["energy"]))
    if event["crash"]:
        lines.append(say(lang, "crash"))
    if event["puncture"]:
        lines.append(say(lang, "puncture"))
    title = name + (f" {say(lang, 'breakaway')}" if event["breakaway"] else "")
    return pages + paged(title, lines)


def event_pages(view, event, lang):
    kind = event["event"]
    if kind == "peloton":
        return _peloton_pages(view, event, lang)
    if kind == "move":
        return _move_pages(view, event, lang)
    if kind == "puncture_roll":
        meaning = [say(lang, "puncture") if event["punctured"] else say(lang, "no_puncture")]
        return [die_screen(view, lang, f"{who(lang, event['rider'])} {say(lang, 'tyre')}", event["face"], meaning)]
    if kind == "chase":
        return paged(say(lang, "peloton"), [say(lang, "chase", seat=seat(lang, event["seat"]))])
    if kind == "finish":
        return paged(who(lang, event["rider"]), [say(lang, "finish", n=event["place"])])
    if kind == "supply_used":
        return paged(who(lang, event["rider"]), [say(lang, "supply_used", n=event["value"])])
    if kind == "caught":
        return paged(who(lang, event["rider"]), [say(lang, "caught", place=say(lang, "place:" + event["place"]))])
    if kind == "stage_end":
        return paged(say(lang, "stage_end", n=event["stage"]),
                     [f"{n}. {who(lang, r)}" for n, r in enumerate(event["order"][:8], start=1)])
    return []


def chapters(view, lang):
    """One chapter per event worth a page, keyed by the event's number (events are only added, or taken
    back by an undo); the final result once the race is over."""
    found = [((event["id"],), pages) for event in view["events"] for pages in [event_pages(view, event, lang)]
             if pages]
    if view["over"]:
        found.append((("result",), [result(view, lang)]))
    return found


# -- the live screen and the end ------------------------------------------------------------------------------------
def live(view, lang):
    phase = say(lang, "phase_" + view["phase"])
    title = say(lang, "turn", turn=view["turn"], phase=phase) if view["turn"] else phase
    lines = []
    for s, form in enumerate(view["forms"]):
        if form is None:
            continue
        sums = form.get("sums")
        what = (say(lang, "move_line", n=form["spaces"], free=min(form["spaces"], sums["free"]), paid=sums["paid"])
                if sums else say(lang, "choose_start" if form["start"] is None else "choose_spaces"))
        lines.append(say(lang, "form", who=who(lang, form["rider"]), what=what))
    if view["to_act"]:
        lines.append(" ".join(seat(lang, s) for s in view["to_act"]))
    energies = [f"{seat(lang, r['seat'])}{r['type'][0].upper()}{r['energy']}" for r in view["riders"]
                if r["place"] not in ("arrivato", "fuori")]
    lines.append(" ".join(energies))
    return Screen(title[:COLUMNS], tuple(part for line in lines for part in wrap(line))[:BODY_LINES])


def result(view, lang):
    lines = outcome_lines(view, lang)
    if view["stages"] > 1:
        ranked = sorted((r for r in view["riders"] if r["place"] != "fuori"), key=lambda r: r["gc"])
        lines += [f"{who(lang, [r['seat'], r['type']])} {r['gc']:+d}" for r in ranked[:3]]
    else:
        lines += [f"{n}. {who(lang, r)}" for n, r in enumerate(view["finish_order"][:3], start=1)]
    return paged(text(lang, "over"), lines)[0]


def summary(view):
    """A few lines for a person reading a replay in a terminal (English)."""
    lines = [f"stage {view['stage']} of {view['stages']}, turn {view['turn']}, phase {view['phase']}"]
    for r in view["riders"]:
        lines.append(f"team {r['seat'] + 1} {r['type']}: energy {r['energy']}, risks {r['risks']}, {r['place']}"
                     + (f", general classification {r['gc']:+d}" if view["stages"] > 1 else ""))
    lines.append("chases left: " + ", ".join(f"team {s + 1}: {n}" for s, n in enumerate(view["chases"])))
    if view["roll"]:
        lines.append(f"last roll: {view['roll']['value']} {view['roll']['colour']}")
    return lines

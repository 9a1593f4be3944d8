"""Leader 1 on the box: its words, the big die, what each roll and move shows, its replay summary."""
from dataclasses import dataclass

from device.display import FONT, LINE
from device.screens import BODY_LINES, COLUMNS, Picture, Screen, outcome_lines, paged, seat, wrap
from device.texts import text

GAME = "leader1"
TYPES = ("passista", "leader", "scalatore")


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


def who(lang, ref):
    """A rider: its team's seat (from 1) and its type, e.g. "G2 leader"."""
    return f"{seat(lang, ref[0])} {ref[1]}"


# -- the big die ----------------------------------------------------------------------------------------------------
SEGMENTS = {0: "abcdef", 1: "bc", 2: "abged", 3: "abgcd", 4: "fgbc", 5: "afgcd", 6: "afgedc", 7: "abc",
            8: "abcdefg", 9: "abfgcd"}


@dataclass(frozen=True)
class Die(Picture):
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
    word = "" if colour == "plain" else say(lang, colour)
    return Screen(title[:COLUMNS], picture=Die(value, word, tuple(line[:15] for line in lines)))


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
    if kind == "supply_used":
        return paged(who(lang, event["rider"]), [say(lang, "supply_used", n=event["value"])])
    if kind == "caught":
        return paged(who(lang, event["rider"]), [say(lang, "caught", place=say(lang, "place:" + event["place"]))])
    if kind == "passed":
        return paged(who(lang, event["rider"]), [say(lang, "passed")])
    if kind == "stage_end":
        return paged(say(lang, "stage_end", n=event["stage"]),
                     [say(lang, "finish_line", n=n, who=who(lang, r))
                      for n, r in enumerate(event["order"][:8], start=1)])
    return []


def chapters(view, lang):
    """One chapter per event worth a page, keyed by the event's number (events are only added, or taken
    back by an undo); a turn's arrivals on one list, not a page a rider; the final result once the race is
    over."""
    found, arrivals = [], {}
    for event in view["events"]:
        if event["event"] == "finish":
            if event["turn"] not in arrivals:
                arrivals[event["turn"]] = []
                found.append((("finish", event["turn"]), arrivals[event["turn"]]))
            arrivals[event["turn"]].append(say(lang, "finish_line", n=event["place"], who=who(lang, event["rider"])))
        elif pages := event_pages(view, event, lang):
            found.append(((event["id"],), pages))
    found = [(key, paged(say(lang, "arrivals"), pages) if key[0] == "finish" else pages) for key, pages in found]
    if view["over"]:
        found.append((("result",), [result(view, lang)]))
    return found


# -- the live screen and the end ------------------------------------------------------------------------------------
def live(view, lang):
    """The race as it stands: the phase (and who acts, in the title when it fits), a move being entered, each
    team's energies on a line of its own ("G2 P55 L60 S48"). Every line fits: with more teams than room, the
    teams acting now are shown and the others are on the phones' sheets."""
    phase = say(lang, "phase_" + view["phase"])
    title = say(lang, "turn", turn=view["turn"], phase=phase) if view["turn"] else phase
    acting = " ".join(seat(lang, s) for s in view["to_act"])
    lines = []
    if acting and len(title) + 1 + len(acting) <= COLUMNS:
        title, acting = f"{title} {acting}", ""
    for form in view["forms"]:
        if form is None:
            continue
        sums = form.get("sums")  # one line a move: "G2 leader 5: 2+3", or "G2 leader …" while it is set
        lines.append(say(lang, "form_sums", who=who(lang, form["rider"]), n=form["spaces"],
                         free=min(form["spaces"], sums["free"]), paid=sums["paid"]) if sums else
                     say(lang, "form_open", who=who(lang, form["rider"])))
    if acting:
        lines += wrap(acting)
    teams = {}
    for r in view["riders"]:
        if r["place"] not in ("arrivato", "fuori"):
            teams.setdefault(r["seat"], []).append(f"{r['type'][0].upper()}{r['energy']}")
    entering = {form["rider"][0] for form in view["forms"] if form is not None}
    waited_on = [s for s in view["to_act"] if s in teams and s not in entering]
    shown = (waited_on + [s for s in sorted(teams) if s not in waited_on])[:max(0, BODY_LINES - len(lines))]
    lines += [f"{seat(lang, s)} {' '.join(teams[s])}" for s in sorted(shown)]
    return Screen(title[:COLUMNS], tuple(lines))


def result(view, lang):
    lines = outcome_lines(view, lang)
    if view["stages"] > 1:
        ranked = sorted((r for r in view["riders"] if r["place"] != "fuori"), key=lambda r: r["gc"])
        lines += [f"{who(lang, [r['seat'], r['type']])} {r['gc']:+d}" for r in ranked[:3]]
    else:
        lines += [say(lang, "finish_line", n=n, who=who(lang, r))
                  for n, r in enumerate(view["finish_order"][:3], start=1)]
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

"""I ponti di Shangri-La on the box: its words, the pages of each journey, the live screen (whose turn, the last
action, Stones and villages left, the score), its replay summary."""
from device.screens import Screen, paged, seat, seats, wrap
from device.texts import text

GAME = "shangrila"


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


def village(lang, v):
    return say(lang, f"v:{v}")


def last_action(view, lang, event):
    who = seat(lang, event["seat"])
    if event["type"] == "place":
        return say(lang, "last_place", seat=who, kind=say(lang, "code_" + event["kind"]),
                   v=village(lang, event["village"]))
    if event["type"] == "recruit":
        what = " ".join(f"{say(lang, 'code_' + k)} {village(lang, v)}" for k, v in event["students"])
        return say(lang, "last_recruit", seat=who, what=what)
    if event["type"] == "pass":
        return say(lang, "last_pass", seat=who)
    return say(lang, "last_journey", seat=who, a=village(lang, event["from"]), b=village(lang, event["to"]))


def _score_line(view, lang):
    """Masters on the board in seat order, on one line: "G1-G4: 12 9 10 12"."""
    last = len(view["scores"]) - 1
    return f"{seat(lang, 0)}-{seat(lang, last)}: " + " ".join(map(str, view["scores"]))


def live(view, lang):
    lines = []
    if view["phase"] == "setup":  # the round the seat to act is in: 7 kinds, one a round
        lines.append(say(lang, "setup_round", n=8 - len(view["setup_left"][view["to_act"]])))
    if view["history"]:
        lines.append(last_action(view, lang, view["history"][-1]))
    stones = sum(v["stone"] for v in view["villages"])
    lines += [say(lang, "stones_left", n=stones, left=view["villages_left"]), _score_line(view, lang)]
    title = say(lang, "setup_title" if view["phase"] == "setup" else "turn_title", seat=seat(lang, view["to_act"]))
    return Screen(title, tuple(part for line in lines for part in wrap(line, indent=""))[-4:])


def journey_pages(view, lang, event):
    s, d = event["strength"]
    who = say(lang, "source_wins" if event["stronger"] == "from" else "dest_wins")
    lines = [say(lang, "strength", s=s, d=d, who=who)]
    if s == d:
        lines.append(say(lang, "by_masters", s=event["masters"][0], d=event["masters"][1]))
    for t in event["travellers"]:
        line = f"{seat(lang, t['seat'])} {say(lang, 'code_' + t['kind'])} {say(lang, 'f_' + t['fate'])}"
        if t["sent_home"]:
            line += " " + say(lang, "sent_home", seats=seats(lang, sorted(set(t["sent_home"]))))
        lines.append(line)
    lines += [say(lang, "stone", v=village(lang, v)) for v in event["stones"]]
    return paged(say(lang, "journey_title", a=village(lang, event["from"]), b=village(lang, event["to"])), lines)


def chapters(view, lang):
    """A chapter per journey, keyed by its place in the history; the final score once over."""
    found = [((i,), journey_pages(view, lang, e)) for i, e in enumerate(view["history"]) if e["type"] == "journey"]
    if view["over"]:
        found.append((("result",), [result(view, lang)]))
    return found


def result(view, lang):
    outcome = view["result"]
    lines = [f"{text(lang, 'winners')}: {seats(lang, outcome['winners'])}",
             f"{say(lang, 'points')} {_score_line(view, lang)}",
             say(lang, "end_r3" if view["end_rule"] == "R-3" else "end_r4")]
    return paged(text(lang, "over"), lines)[0]


def summary(view):
    """A few lines for a person reading a replay in a terminal (English)."""
    stones = [v + 1 for v, village in enumerate(view["villages"]) if village["stone"]]
    lines = [f"{view['phase']}, {len(view['bridges'])} bridges, Stones on villages {stones or 'none'}",
             "masters on the board: " + ", ".join(f"player {s + 1}: {n}" for s, n in enumerate(view["scores"]))]
    if view["over"]:
        lines.append(f"ended by {view['end_rule']}; winners: "
                     + ", ".join(f"player {s + 1}" for s in view["result"]["winners"]))
    return lines

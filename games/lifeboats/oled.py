"""Rette sich wer kann on the box: its words, the sea drawing, what each event shows, its replay summary."""
from dataclasses import dataclass

from device.display import COMPACT_BAR, WIDTH, glyphs
from device.screens import (BODY_LINES, COLUMNS, Picture, Screen, final_page, paged, picking, remembered, seat, seats,
                            wrap)
from device.texts import text

from .rules import LANES

GAME = "lifeboats"
COLOURS = ("rosso", "giallo", "verde", "viola", "arancione", "bianco", "nero")

ROW = 8  # pixels per lane row of the sea drawing: a 7-row glyph and a dark row, seven under a compact title
CODE, PROGRESS, HULL, SEATS_LEFT = 9, 22, 30, 34  # where a row's code, progress (moves made), the boat's side
# and its seats start
SLOT = 11  # the most pixels a seat takes; a big boat's (at most 10 seats) take 9
LEAK, FREE = "leak", "free"


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


def boat_word(lang, colour):
    """A boat by its colour, agreeing with "barca" ("ROSSA affonda"); none for an event without a boat."""
    return say(lang, f"boat_of:{colour}") if colour else ""


def _pawn(lang, seat_number, kind):
    return f"{seat_number + 1}{say(lang, 'mark_' + kind)}"


@dataclass(frozen=True)
class Sea(Picture):
    """The seven lanes, one row each: lane number, boat code, moves made or its fate, then its seats, each a
    5×7 cell: a pawn as its seat number (never a colour), an officer (the big pawn) with a mark at its top
    right; a leak as a lit block with a hole; a free seat as a dash. Rows are 8 pixels apart, so a mark never
    reaches above or below its own glyph (an inverted box would touch the lanes beside it)."""
    rows: tuple  # per lane: None, or (code, progress text, slots); a slot is (seat number, officer), LEAK or FREE
    slot: int  # pixels per seat: a 5-pixel glyph, the officer's mark and at least one dark column
    compact_title = True

    def draw(self, draw, height=64):
        for lane, row in enumerate(self.rows):
            top = COMPACT_BAR + 1 + ROW * lane
            glyphs(draw, (0, top), str(lane + 1))
            if row is None:
                continue
            code, progress, slots = row
            glyphs(draw, (CODE, top), code)
            if not slots:  # sunk or on an island: its fate where its seats were
                glyphs(draw, (SEATS_LEFT, top), progress)
                continue
            glyphs(draw, (PROGRESS, top), progress)
            draw.line((HULL, top, HULL, top + 6), fill="white")
            for i, slot in enumerate(slots):
                x = SEATS_LEFT + i * self.slot
                if slot == LEAK:
                    draw.rectangle((x, top + 1, x + 4, top + 5), fill="white")
                    draw.point((x + 2, top + 3), fill="black")
                elif slot == FREE:
                    draw.line((x, top + 6, x + 4, top + 6), fill="white")
                else:
                    number, officer = slot
                    glyphs(draw, (x, top), number)
                    if officer:
                        draw.rectangle((x + 6, top, x + 7, top + 1), fill="white")


def sea(view, lang, title):
    rows = [None] * LANES
    for colour, boat in view["boats"].items():
        if boat["lane"] is None:
            continue
        code = say(lang, f"code_{colour}")
        if boat["status"] != "sea":
            rows[boat["lane"] - 1] = (code, say(lang, "sunk" if boat["status"] == "sunk" else "island"), ())
            continue
        free = view["options"]["boat_seats"] - len(boat["pawns"]) - boat["leaks"]
        slots = [(str(s + 1), k == "officer") for s, k in boat["pawns"]] + [LEAK] * boat["leaks"] + [FREE] * free
        rows[boat["lane"] - 1] = (code, str(boat["progress"]), tuple(slots))
    slot = min(SLOT, (WIDTH - SEATS_LEFT) // view["options"]["boat_seats"])
    return Screen(title, picture=Sea(tuple(rows), slot))


def sunk_lines(view, lang):
    """The boats sunk since the last revealed vote, each with the pawns it took down."""
    return [part for event in view["sinkings"]
            for part in wrap(say(lang, "sunk_with", boat=boat_word(lang, event["boat"]),
                                 pawns=" ".join(_pawn(lang, s, k) for s, k in event["pawns"]) or say(lang, "nobody")))]


def voting(view, lang):
    """Who has voted (never what), under the boats sunk since the last reveal: the table reads a sinking while
    it votes again, not only on the pages the first press of that vote leaves. With too little room the voters
    are counted instead of listed."""
    vote = view["vote"]
    shown = picking(view, lang, say(lang, f"voting_{vote['kind']}", boat=boat_word(lang, vote["boat"])))
    sunk = sunk_lines(view, lang)
    if not sunk:
        return shown
    status = list(shown.lines)
    if len(sunk) + len(status) > BODY_LINES:
        status = [say(lang, "voted_n", n=len(view["locked"]), of=len(view["picking"]))]
    return Screen(shown.title, tuple((sunk + status)[:BODY_LINES]))


def live(view, lang):
    if view["picking"]:
        return voting(view, lang)
    decision = view["decision"]
    who = seat(lang, decision["seat"])
    if decision["what"] in ("captain", "tie", "remove"):
        options = " ".join(say(lang, next(iter(o.values()))) for o in decision["options"])
        return paged(say(lang, "decides", seat=who, what=say(lang, "choose_" + decision["what"])), [options])[0]
    if view["phase"] == "setup":
        key = {"lane": "setup_boats", "black": "setup_black"}.get(decision["what"], "setup_pawns")
        return sea(view, lang, say(lang, key, seat=who))
    if view["phase"] == "swim":
        return sea(view, lang, say(lang, "decides", seat=who, what=say(lang, "choose_" + decision["what"])))
    return sea(view, lang, say(lang, "sea", turn=view["turn"], seat=seat(lang, view["start"])))


def _columns(items, width=10):
    """Short items two to a line, aligned; a long one on a line of its own."""
    lines, pending = [], None
    for item in items:
        if pending is not None and len(item) <= COLUMNS - width - 1:
            lines.append(f"{pending:<{width}} {item}")
            pending = None
            continue
        if pending is not None:
            lines.append(pending)
        pending = item if len(item) <= width else None
        if pending is None:
            lines.append(item)
    return lines + ([pending] if pending is not None else [])


def _vote_pages(event, lang):
    boat = boat_word(lang, event["boat"])
    if event.get("auto"):
        return paged(say(lang, f"voting_{event['kind']}", boat=boat),
                     [say(lang, "only_one", colour=say(lang, event["outcome"]))])
    special = event["kind"] == "special"
    cast = [f"{seat(lang, s)} {say(lang, pick)}" + (f" x{weight}" if special and pick != "cappello" else "")
            for s, pick, weight in event["votes"]]
    lines = _columns(cast)
    if event["hats"]:
        lines.append(say(lang, "hats", seats=seats(lang, event["hats"])))
    if event["tally"]:
        lines.append(" ".join(f"{say(lang, c)} {n}" for c, n in event["tally"]))
    how = event["how"]
    if how == "majority":
        lines.append(say(lang, "outcome", colour=say(lang, event["outcome"])))
    elif how == "again":
        lines.append(say(lang, "again"))
    elif how == "captain":
        lines.append(say(lang, "captain_wins", seat=seat(lang, event["hats"][0])))
    else:
        lines.append(say(lang, "tie_wins", seat=seat(lang, event["start"])))
    return paged(say(lang, f"votes_{event['kind']}", boat=boat), lines)


@remembered("options")
def event_pages(view, event, lang):
    """The pages one event of the game shows."""
    kind = event["type"]
    boat = boat_word(lang, event.get("boat"))
    auto = [say(lang, "auto")] if event.get("auto") else []
    if kind == "vote":
        return _vote_pages(event, lang)
    if kind in ("captain", "tie"):
        return paged(say(lang, kind, seat=seat(lang, event["seat"])), [say(lang, event["outcome"])])
    if kind == "full":
        return paged(say(lang, "full", boat=boat), [say(lang, "special_next")])
    if kind == "leak":
        return paged(say(lang, "leak", boat=boat), [])
    if kind == "no_leaks":
        return paged(say(lang, "no_leaks"), [say(lang, "no_leak_phase")])
    if kind == "overboard":
        return paged(say(lang, "overboard", seat=seat(lang, event["seat"]), boat=boat),
                     [say(lang, event["kind"])] + auto)
    if kind == "move":
        return paged(say(lang, "moved", boat=boat),
                     [say(lang, "progress", n=event["progress"], of=view["options"]["moves_to_island"])])
    if kind == "arrive":
        points = [say(lang, "points", seat=seat(lang, s), n=n) for s, n in enumerate(event["points"]) if n]
        return paged(say(lang, "arrive", boat=boat, island=event["island"] + 1),
                     [" ".join(points) or say(lang, "nobody")])
    if kind == "sink":
        pawns = " ".join(_pawn(lang, s, k) for s, k in event["pawns"])
        return paged(say(lang, "sink", boat=boat), [pawns or say(lang, "nobody"),
                                                     say(lang, "sunk_leaks", n=event["leaks"])])
    if kind in ("swim_out", "swim_in"):
        return paged(say(lang, kind, seat=seat(lang, event["seat"]), boat=boat), [say(lang, event["kind"])] + auto)
    return paged(say(lang, "drown", seat=seat(lang, event["seat"])), [say(lang, event["kind"])])


def chapters(view, lang):
    """One chapter per event, keyed by its place in the history (events are only ever added, or taken
    back by an undo); the final scores once the game is over."""
    found = [((i,), event_pages(view, event, lang)) for i, event in enumerate(view["history"])]
    if view["over"]:
        found.append((("result",), [result(view, lang)]))
    return found


def result(view, lang):
    return final_page(view, lang, view["scores"])


def summary(view):
    """A few lines for a person reading a replay in a terminal (English)."""
    scores = ", ".join(f"player {s + 1}: {n}" for s, n in enumerate(view["scores"]))
    boats = ", ".join(f"{c} {b['status']}" + (f" {b['progress']}/{view['options']['moves_to_island']}"
                                              if b["status"] == "sea" else "")
                      for c, b in view["boats"].items() if b["lane"] is not None)
    return [f"turn {view['turn']}, phase {view['phase']}", f"boats: {boats}", f"scores: {scores}"]

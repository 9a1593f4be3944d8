"""Biglietti, prego! on the box: its words, the ring drawing, the pages of each turn, its replay summary. The
OLED is seen by the whole table: it shows who has played, never what, until the cards are revealed, and never a
control card's value before the end."""
from dataclasses import dataclass

from device.display import COMPACT_BAR, FONT, glyphs
from device.screens import BODY_LINES, COLUMNS, Picture, Screen, paged, picking, remembered, seat, seats, wrap
from device.texts import text

from .rules import CARDS, SEATS, enough

GAME = "biglietti"
SEAT_KEYS = range(SEATS[1])

ROWS = (12, 42)  # the top of the ring's two rows of seats
CELL_HEIGHT = 11
CHECKED, COUNTED, LINKED, PLAIN = "checked", "counted", "linked", "plain"


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


@dataclass(frozen=True)
class Ring(Picture):
    """The table seen from above, seat 1 top left and on clockwise along the top row, back along the bottom
    row: each seat its number and card code; the checked traveller framed; the chain that counted underlined,
    its Scusa lit; the middle line says the count."""
    cells: tuple  # per seat: (text, mark)
    middle: str

    def draw(self, draw, height=64):
        top = (len(self.cells) + 1) // 2
        width = 128 // top
        for index, (label, mark) in enumerate(self.cells):
            row, column = (0, index) if index < top else (1, len(self.cells) - 1 - index)
            x, y = column * width, ROWS[row]
            box = (x + 1, y, x + width - 2, y + CELL_HEIGHT)
            if mark == COUNTED:
                draw.rectangle(box, fill="white")
            elif mark == CHECKED:
                draw.rectangle(box, outline="white")
            if mark in (COUNTED, LINKED):
                draw.line((x, y + CELL_HEIGHT + 2, x + width - 1, y + CELL_HEIGHT + 2), fill="white")
            draw.text((x + 3, y), label, font=FONT, fill="black" if mark == COUNTED else "white")
        draw.text((0, 28), self.middle, font=FONT, fill="white")


@dataclass(frozen=True)
class Lines(Picture):
    """A page of text six lines deep, 9 rows apart under a compact title, where the text screens' four lines
    would take a page more: the ring's legend, the end's explanation."""
    lines: tuple
    compact_title = True

    def draw(self, draw, height=64):
        for row, line in enumerate(self.lines):
            glyphs(draw, (0, COMPACT_BAR + 2 + DENSE_ROW * row), line)


DENSE_ROW, DENSE_LINES = 9, 6


def dense(title, lines):
    """Pages of Lines: each line wrapped (never split across two pages); the title counts the pages."""
    pages = [[]]
    for line in lines:
        parts = wrap(line)
        if pages[-1] and len(pages[-1]) + len(parts) > DENSE_LINES:
            pages.append([])
        pages[-1].extend(parts)
    titles = [title] if len(pages) == 1 else [f"{title} {n}/{len(pages)}" for n in range(1, len(pages) + 1)]
    return [Screen(t, picture=Lines(tuple(page))) for t, page in zip(titles, pages)]


def legend(lang, codes, marks):
    """The legend of a ring showing `codes` (each seat's, in seat order) and `marks`: each code once with its
    word, the controller and the checked traveller first, then the cards; two to a line where they fit."""
    words = {say(lang, "code_controller"): say(lang, "legend_controller"), "?": say(lang, "legend_checked")}
    words.update({say(lang, "code_" + card): say(lang, card) for card in CARDS})
    items = [f"{code} {words[code]}" for code in words if code in codes]
    rows = []
    for item in items:  # each on the first row with one item and room for it, else a row of its own
        fits = [row for row in rows if len(row) == 1 and len(row[0]) + 2 + len(item) <= COLUMNS]
        if fits:
            fits[0].append(item)
        else:
            rows.append([item])
    lines = ["  ".join(row) for row in rows]
    lines += [say(lang, "legend_" + mark) for mark in (COUNTED, LINKED) if mark in marks]
    return lines[:DENSE_LINES]  # all six cards played at once leave no room for the marks' lines


def ring(view, lang, record, cards, middle):
    played = dict(map(tuple, cards))
    cells = []
    for s in range(view["seats"]):
        mark = (CHECKED if s == record["checked"] else COUNTED if s in record["counted"]
                else LINKED if s in record["chain"] else PLAIN)
        code = "?" if s == record["checked"] else say(lang, "code_" + played.get(s, "controller"))
        cells.append((f"{s + 1}{code}", mark))
    return Ring(tuple(cells), middle[:COLUMNS])


def _codes(ring_picture):
    return {label.lstrip("0123456789") for label, _ in ring_picture.cells}


def head(view, lang):
    return say(lang, "head", phase=say(lang, view["phase"]), turn=view["turn"], n=view["cards_left"])


def picking_screen(view, lang, title):
    """Who has played (never what); a big round is counted, with those still to play."""
    if len(view["picking"]) <= 8:
        return picking(view, lang, title)
    missing = [s for s in view["picking"] if s not in view["locked"]]
    lines = [say(lang, "locked_n", n=len(view["locked"]), of=len(view["picking"]))]
    return Screen(title, tuple((lines + wrap(say(lang, "missing", seats=seats(lang, missing))))[:4]))


def live(view, lang):
    step, checked = view["step"], view["checked"]
    controller, who = seat(lang, view["controller"]), checked is not None and seat(lang, checked)
    if step == "help":
        return picking_screen(view, lang, say(lang, "help_for", seat=who))
    if step == "polfer":
        return picking_screen(view, lang, say(lang, "polfer_q", phase=say(lang, view["phase"])))
    if step == "check":
        lines = [f'{say(lang, "checks", seat=controller)} {seats(lang, view["checkable"])}']
        if view["hiders"] and view["hiders"] != view["checkable"]:
            lines.append(say(lang, "hidden", seats=seats(lang, view["hiders"])))
        return fit(head(view, lang), lines)
    record = view["turns"][-1]
    lines = {
        "ticket": [say(lang, "checks_one", seat=controller, other=who), say(lang, "ticket_q", seat=who),
                   say(lang, "ticket_keys")] + ([say(lang, "had_hidden")] if record["hid"] else []),
        "value": [say(lang, "value_by", seat=controller),
                  say(lang, "value_of", seat=who, n=record["delivered"] + 1,
                      of=record["delivered"] + view["values_due"]), say(lang, "value_keys")],
        "discard": [say(lang, "discard_q", seat=who), say(lang, "value_keys"), say(lang, "discard_keys")],
        "eliminate": [say(lang, "eliminate_by", seat=controller), say(lang, "eliminate_of"),
                      say(lang, "eliminate_keys")],
    }[step]
    return fit(head(view, lang), lines)


def fit(title, lines):
    """One screen: the lines wrapped (a list of seats runs on unindented), as many as the panel holds."""
    return Screen(title, tuple(part for line in lines for part in wrap(line, indent=""))[:BODY_LINES])


def _reveal_pages(view, lang, record, cards, lines, middle):
    """The ring, what its codes mean, then what the round counted."""
    title = say(lang, "help_for", seat=seat(lang, record["checked"]))
    drawn = ring(view, lang, record, cards, middle)
    marks = {mark for _, mark in drawn.cells}
    return [Screen(title, picture=drawn), *dense(say(lang, "legend", seat=seat(lang, record["checked"])),
                                                 legend(lang, _codes(drawn), marks)),
            *paged(title, lines)]


def _help_pages(view, lang, record):
    """The reveal of each help round of the turn: the ring, then what it counted."""
    found = []
    for n, again in enumerate(record["again"]):
        lines = [say(lang, "again", n=played, card=say(lang, card), of=left) for card, played, left in again["over"]]
        lines.append(say(lang, "replay"))
        found.append(((record["turn"], "help", n),
                      _reveal_pages(view, lang, {**record, "chain": [], "counted": []}, again["cards"], lines,
                                    say(lang, "replay"))))
    if record["cards"] is not None:
        spared = record["outcome"] == "eliminated"
        verdict = say(lang, "spared") if spared else say(lang, "delivered", seat=seat(lang, record["checked"]))
        lines = [say(lang, "counted", n=record["scusa"]), say(lang, "accuse", n=record["accusa"]), verdict]
        if record["hiders"]:
            lines.append(say(lang, "next_hiders", seats=seats(lang, record["hiders"])))
        found.append(((record["turn"], "help", len(record["again"])),
                      _reveal_pages(view, lang, record, record["cards"], lines, verdict)))
    return found


def _outcome_lines(lang, record):
    who, case = seat(lang, record["checked"]), record["case"]
    if case == "ticket":
        return [say(lang, "shows_ticket", seat=who), say(lang, "eliminated")]
    if case == "hid_ticket":
        kept = [] if record["discarded"] is None else [say(lang, "gave_back" if record["discarded"] else "kept")]
        return [say(lang, "hid_ticket", seat=who), say(lang, "eliminated"), *kept]
    if case == "hid_no_ticket":
        many = record["delivered"] > 1
        return [say(lang, "hid_no_ticket", seat=who),
                say(lang, "receives", n=record["delivered"]) if many else say(lang, "receives_one")]
    return [say(lang, "eliminated") if record["outcome"] == "eliminated" else
            f"{who} {say(lang, 'receives_one')}"]


@remembered("seats", "controller")
def turn_pages(view, lang, record):
    found = _help_pages(view, lang, record)
    title = say(lang, "turn_of", turn=record["turn"], seat=seat(lang, record["checked"]))
    if record["exchange"]:  # the turn is resolved
        taking = record["exchange"][:-1]  # who takes part: the order is the players' choice
        ring_line = (say(lang, "exchange_among", seats=" ".join(seat(lang, s) for s in taking)) if len(taking) > 1
                     else say(lang, "no_exchange"))
        found.append(((record["turn"], "outcome"), paged(title, _outcome_lines(lang, record) + [ring_line])))
    if record["eliminated"]:
        found.append(((record["turn"], "eliminated"),
                      paged(title, [say(lang, "removed", seat=seat(lang, view["controller"])),
                                    say(lang, record["eliminated"]),
                                    say(lang, "tickets_left", n=record["tickets_left"])])))
    return found


def _half_pages(view, lang, half):
    lines = {"again": [say(lang, "round_again"), say(lang, "round_again_2")],
             "done": [say(lang, "round_done")], "unclear": [say(lang, "round_unclear"), say(lang, "round_unclear_2")],
             "gone": [say(lang, "round_gone")]}[half["round"]]
    if half["half"] == "andata" and half["round"] != "again" and view["phase"] == "ritorno":
        lines.append(say(lang, "ritorno_next"))
    return paged(say(lang, "half_end", phase=say(lang, half["half"])), lines)


def chapters(view, lang):
    """Per turn: each help round's reveal, the outcome with the exchange, the Ritorno's elimination; each half's
    end; the result. Keys hold the turn, so an undo that takes a page's cause back drops it."""
    found = []
    for record in view["turns"]:
        found += turn_pages(view, lang, record)
    for n, half in enumerate(view["halves"]):
        if half["round"] != "won":  # a Pol.Fer. win is the result's page
            found.append((("half", n), _half_pages(view, lang, half)))
    if view["over"]:
        found.append((("result",), _result_pages(view, lang)))
    return found


def _result_pages(view, lang):
    w = view["winner"]
    lines = [f"{text(lang, 'winners')}: {seats(lang, w['winners'])}"]
    if w["how"] == "controller":
        lines.append(say(lang, "won_controller", seat=seat(lang, w["traveller"]), n=view["points"][w["traveller"]]))
    elif w["how"] == "polfer":  # R-4, in words: who has no control card, against the tickets in play
        holder = w["winners"][0]
        empty = [s for s in view["travellers"] if s != holder and not view["held"][s]]
        lines += [say(lang, "won_polfer", seat=seat(lang, holder)), say(lang, "tickets_left", n=w["tickets"]),
                  say(lang, "without_cards", n=w["without_cards"], seats=seats(lang, empty)),
                  say(lang, "enough", n=enough(view["phase"], w["tickets"]))]
    else:
        lines.append(say(lang, "won_fewest", n=w["points"]))
        if view["polfer"] is not None:
            lines.append(say(lang, "left_out", seat=seat(lang, view["polfer"])))
    scores = [f"{seat(lang, s)}:{view['points'][s]}" for s in view["travellers"]]
    lines.append(say(lang, "final_points", scores=" ".join(scores)))  # control points, not cards held
    return dense(text(lang, "over"), lines)


def result(view, lang):
    return _result_pages(view, lang)[0]


def summary(view):
    """A few lines for a person reading a replay in a terminal (English)."""
    lines = [f"{view['phase']}, turn {view['turn']}, {view['cards_left']} control cards left in the pile",
             "control cards held: " + ", ".join(f"player {s + 1}: {view['held'][s]}" for s in view["travellers"])]
    if view["over"]:
        lines.append("points: " + ", ".join(f"player {s + 1}: {view['points'][s]}" for s in view["travellers"]))
    return lines

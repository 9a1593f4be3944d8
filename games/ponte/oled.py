"""Il ponte traballante on the box: its words, its result pages, the bridge drawing, its replay summary."""
from dataclasses import dataclass

from device.display import LINE, WIDTH, glyphs
from device.screens import Picture, Screen, final_page, paged, picking, remembered, seat
from device.texts import text

from .rules import CARD_NAMES, EAST_BANK, START, WEST_BANK

GAME = "ponte"

SPACE = 5  # pixels per bridge space: 21 spaces across 105 pixels
TRACK = 8  # where the spaces start, right of the seat number
GLYPH = 7  # rows of a digit


def say(lang, key, **values):
    return text(lang, key, GAME, **values)


@dataclass(frozen=True)
class Bridge(Picture):
    """The bridge as a track a seat: its number, the spaces as dots (the banks and the middle as ticks), its
    meeple a lit block on its space and the space's number at the end. Meeples on neighbouring spaces are on
    different rows, so they never read as one number."""
    positions: tuple

    def draw(self, draw, height=64):
        top = LINE + 1
        pitch = min(LINE, (height - top) // len(self.positions))
        for seat_number, space in enumerate(self.positions):
            y = top + seat_number * pitch
            glyphs(draw, (0, y), str(seat_number + 1))
            for mark in range(WEST_BANK, EAST_BANK + 1):
                x = TRACK + (mark - 1) * SPACE + 1
                if mark in (WEST_BANK, START, EAST_BANK):
                    draw.line((x, y + 2, x, y + GLYPH - 3), fill="white")
                else:
                    draw.point((x, y + GLYPH // 2), fill="white")
            x = TRACK + (space - 1) * SPACE
            draw.rectangle((x, y, x + SPACE - 2, y + GLYPH - 1), fill="white")
            number = str(space)
            glyphs(draw, (WIDTH - 6 * len(number), y), number)


def live(view, lang):
    if view["phase"] == "spunto":
        title = say(lang, "spunto_pick")
    elif view["standing"]:
        title = say(lang, "repick")
    else:
        title = say(lang, "picks", n=view["match"])
    return picking(view, lang, title)


def _cards(lang, cards):
    return [f"{seat(lang, s)} {CARD_NAMES[c]}" for s, c in enumerate(cards) if c]


def _step_lines(lang, step):
    """Each seat that moved: as the rules asked, and where the bridge's end stopped it short."""
    lines = []
    for s, (d, asked) in enumerate(zip(step["delta"], step["asked"])):
        if d:
            side = "west" if d < 0 else "east"
            shown = (say(lang, side, n=abs(d)) if d == asked else
                     say(lang, f"{side}_stopped", n=abs(asked), at=WEST_BANK if d < 0 else EAST_BANK))
            lines.append(f"{seat(lang, s)} {shown}")
    return lines


def bridge(positions, lang):
    return Screen(say(lang, "bridge"), picture=Bridge(tuple(positions)))


def positions_after(history, seats):
    """Where the meeples stood after each match: its movement steps (as the meeples moved) added in order."""
    positions, after = [START] * seats, []
    for match in history:
        for step in match["moves"]:
            positions = [p + d for p, d in zip(positions, step["delta"])]
        after.append(tuple(positions))
    return after


def chapters(view, lang):
    """Each match's results, page by page: void reveals (R-12), reveal, Spunto, moves, event, the bridge once
    the match is done; the final result. A chapter's pages never change unless an undo takes it back."""
    found = []
    history = view["history"]
    for match, positions in zip(history, positions_after(history, view["seats"])):
        found += match_chapters(view, lang, match, positions, view["over"] and match is history[-1])
    if view["over"]:
        found.append((("result",), [result(view, lang)]))
    return found


@remembered()
def match_chapters(view, lang, match, positions, last):
    """One match's chapters, built once (`positions`: where the meeples stood after it; `last`: the game ended
    with it)."""
    found = []
    n = match["match"]
    for i, void in enumerate(match["void"]):
        found.append(((n, "void", i), paged(say(lang, "void"), _cards(lang, void))))
    if not match["reveal"]:
        return found
    found.append(((n, "reveal"), paged(say(lang, "reveal", n=n), _cards(lang, match["reveal"]))))
    steps = {m["step"]: m for m in match["moves"]}
    lines = _cards(lang, match["replacements"] or ())
    lines += [f"{seat(lang, s)} {say(lang, 'no_card')}" for s, d in enumerate(steps["spunto"]["delta"])
              if d] if "spunto" in steps else []
    if lines:
        found.append(((n, "spunto"), paged(say(lang, "replacements"), lines)))
    if "resolution" in steps:
        found.append(((n, "moves"), paged(say(lang, "moves", n=n),
                                          _step_lines(lang, steps["resolution"]) or [say(lang, "stay")])))
    if match["event"]:
        found.append(((n, "event"), paged(say(lang, "event"),
                                          [CARD_NAMES[match["event"]]] +
                                          (_step_lines(lang, steps["event"]) if "event" in steps else []))))
    if match["event"] or last:
        found.append(((n, "bridge"), [bridge(positions, lang)]))
    return found


def result(view, lang):
    return final_page(view, lang, view["positions"])


def summary(view):
    """A few lines for a person reading a replay in a terminal (English)."""
    places = ", ".join(f"player {s + 1}: space {p}" for s, p in enumerate(view["positions"]))
    return [f"match {view['match']} of 6", f"positions: {places}"]

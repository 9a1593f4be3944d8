"""Printable pad labels: an A4 sheet with a strip per seat saying what each button means in a game, in Italian or
English. The words come from the game's own pad layout (its descriptor's pad_labels) and the cursor's keys, as the
box shows them; one layout is drawn as SVG or as PDF."""
import io

from engine.games import GAMES

from .cursor import KEY_WORDS
from .screens import seat
from .svg import document
from .svg import text as text_element
from .texts import text

PAGE = (210, 297)  # A4, millimetres
MARGIN, TITLE, STRIP, GAP, SEAT = 10, 14, 18, 3, 14


def layout(game, seats, lang):
    """The sheet as shapes: ("rect", x, y, w, h) and ("text", x, y, size, words, bold), in millimetres from the
    top left. A strip per seat: its number, then a cell per button with the button's number, what it is in
    the game's fixed layout (if it has one) and what it does for the cursor."""
    described = GAMES[game]
    printed = described.pad_labels
    width = PAGE[0] - 2 * MARGIN
    cell = (width - SEAT) / 8
    shapes = [("text", MARGIN, MARGIN + 6, 6, f"Arbitro · {described.title}", True),
              ("text", MARGIN, MARGIN + 11, 3.2, text(lang, "labels_note"), False)]
    for n in range(seats):
        top = MARGIN + TITLE + n * (STRIP + GAP)
        shapes += [("rect", MARGIN, top, width, STRIP),
                   ("text", MARGIN + 2, top + STRIP / 2 + 2, 5, seat(lang, n), True)]
        for button in range(1, 9):
            x = MARGIN + SEAT + (button - 1) * cell
            shapes += [("rect", x, top, cell, STRIP), ("text", x + 1.5, top + 4, 3, str(button), True)]
            if printed:
                words = text(lang, printed[button - 1], game)
                shapes += [("text", x + 1.5, top + 9.5 + i * 3.6, 3.1, part, True)
                           for i, part in enumerate(_lines(words, cell))]
            if button in KEY_WORDS:
                shapes.append(("text", x + 1.5, top + STRIP - 2, 2.6, text(lang, KEY_WORDS[button]), False))
    return shapes


def _lines(words, cell, size=3.1):
    """Words broken onto at most two lines that fit a cell (a character is about half the font size wide)."""
    fits = int((cell - 2) / (size * 0.52))
    lines = [""]
    for word in words.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > fits:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return [line[:fits] for line in lines[:2]]


def svg(shapes):
    parts = []
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h = shape
            parts.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="none" '
                         f'stroke="black" stroke-width="0.3"/>')
        else:
            _, x, y, size, words, bold = shape
            parts.append(text_element(f"{x:.2f}", f"{y:.2f}", size, words, bold=bold))
    return document(*PAGE, parts, unit="mm")


def pdf(shapes):
    """A one-page A4 PDF in Helvetica, drawn by ReportLab (which encodes the words as Helvetica's WinAnsi
    wants: "–" and "’" print as themselves). Uncompressed: a sheet of labels is small, and readable."""
    from reportlab.lib.units import mm  # loaded when a sheet is asked for, not with the box
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    page = Canvas(out, pagesize=(PAGE[0] * mm, PAGE[1] * mm), pageCompression=0, invariant=1)
    page.setLineWidth(0.3 * mm)
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h = shape
            page.rect(x * mm, (PAGE[1] - y - h) * mm, w * mm, h * mm)
        else:
            _, x, y, size, words, bold = shape
            page.setFont("Helvetica-Bold" if bold else "Helvetica", size * mm)
            page.drawString(x * mm, (PAGE[1] - y) * mm, words)
    page.showPage()
    page.save()
    return out.getvalue()

"""Printable pad labels: an A4 sheet with a strip per seat saying what each button means in a game, in Italian or
English. The words come from the game's own pad layout (its descriptor's pad_labels) and the cursor's keys, as the
box shows them; one layout is drawn as SVG or as PDF."""
from xml.sax.saxutils import escape

from engine.games import GAMES

from .cursor import KEY_WORDS
from .screens import seat
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
    body = []
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h = shape
            body.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="none" '
                        f'stroke="black" stroke-width="0.3"/>')
        else:
            _, x, y, size, words, bold = shape
            weight = ' font-weight="bold"' if bold else ""
            body.append(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}"{weight}>{escape(words)}</text>')
    w, h = PAGE
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" '
            f'height="{h}mm" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">\n'
            + "\n".join(body) + "\n</svg>\n")


def pdf(shapes):
    """A one-page PDF in Helvetica (Latin-1 text), points from the bottom left."""
    scale = 72 / 25.4
    height = PAGE[1] * scale
    ops = ["0.3 w"]
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h = shape
            ops.append(f"{x * scale:.2f} {height - (y + h) * scale:.2f} {w * scale:.2f} {h * scale:.2f} re S")
        else:
            _, x, y, size, words, bold = shape
            raw = words.encode("latin-1", "replace").decode("latin-1")
            quoted = raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            font = "F2" if bold else "F1"
            ops.append(f"BT /{font} {size * scale:.2f} Tf {x * scale:.2f} {height - y * scale:.2f} Td ({quoted}) Tj ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE[0] * scale:.2f} {height:.2f}] "
               f"/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>".encode(),
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)

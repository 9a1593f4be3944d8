"""The SVG the builder's sheets are drawn in (pad labels, the wiring diagram): a document and its text."""
from xml.sax.saxutils import escape


def document(width, height, parts, unit=""):
    """An SVG of `width`×`height` (in `unit`, "mm" for a printed page; the drawing's own units are those)
    holding `parts` (SVG elements as text)."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="{width}{unit}" '
            f'height="{height}{unit}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">\n'
            + "\n".join(parts) + "\n</svg>\n")


def text(x, y, size, words, *, bold=False, anchor="start", fill="black"):
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{weight}>'
            f'{escape(words)}</text>')

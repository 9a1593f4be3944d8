"""What the OLED shows, computed from the table's public view only (never a seat's view): a view in,
screens out. Drawing them is display.py's job."""
import textwrap
from dataclasses import dataclass

from engine.texts import card_name, text

from .network import join_url

COLUMNS = 21  # characters of the 6-pixel font across 128 pixels
QR_COLUMNS = 11  # characters beside the QR code
BODY_LINES = 4


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple = ()
    bridge: tuple | None = None  # meeple positions per seat, drawn as the bridge
    qr: str | None = None  # text of a QR code drawn on the left, the lines beside it


def wrap(line, indent="   "):
    """Lines of at most COLUMNS characters; a card name carries on indented under its seat."""
    return textwrap.wrap(line, COLUMNS, subsequent_indent=indent) or [""]


def paged(title, lines):
    """Screens of at most BODY_LINES wrapped lines each, a line never split across two; the title counts
    the pages."""
    pages = [[]]
    for line in lines:
        parts = wrap(line)
        if pages[-1] and len(pages[-1]) + len(parts) > BODY_LINES:
            pages.append([])
        pages[-1].extend(parts)
    if len(pages) == 1:
        return [Screen(title, tuple(pages[0]))]
    return [Screen(f"{title} {n}/{len(pages)}", tuple(page)) for n, page in enumerate(pages, start=1)]


def seat(lang, n):
    return text(lang, "seat", n=n + 1)


def no_game(lang, url=None):
    if url:
        return join(lang, url, text(lang, "ok_menu"))
    return Screen(text(lang, "title"), (text(lang, "press_menu"),))


def join(lang, url, hint=None):
    """The QR code of the box's URL, and the URL to type."""
    address = url.split("//", 1)[-1]
    lines = [text(lang, "url")] + textwrap.wrap(address, QR_COLUMNS, break_on_hyphens=False)
    if hint:
        lines += textwrap.wrap(hint, QR_COLUMNS)
    return Screen(text(lang, "title"), tuple(lines), qr=join_url(url))


def live(view, lang):
    """The screen for the table as it stands: picks awaited, or the result."""
    if view.get("game") is None:
        return no_game(lang)
    if view["over"]:
        return result(view, lang)
    locked = set(view["locked"])
    status = [f"{seat(lang, s)} {text(lang, 'locked') if s in locked else text(lang, 'waiting')}"
              for s in view["picking"]]
    pairs = [" ".join(f"{item:<10}" for item in status[i:i + 2]).rstrip() for i in range(0, len(status), 2)]
    title = text(lang, "spunto_pick") if view["phase"] == "spunto" else text(lang, "picks", n=view["match"])
    return Screen(title, tuple(pairs[:BODY_LINES]))


def _step_lines(lang, delta):
    return [f"{seat(lang, s)} {text(lang, 'west' if d < 0 else 'east', n=abs(d))}"
            for s, d in enumerate(delta) if d]


def match_pages(match, lang):
    """The result of one match, page by page: reveal, Spunto, moves, event, bridge."""
    if not match["reveal"]:
        return []
    n = match["match"]
    pages = paged(text(lang, "reveal", n=n), [f"{seat(lang, s)} {card_name(c)}" for s, c in enumerate(match["reveal"])])
    steps = {m["step"]: m["delta"] for m in match["moves"]}
    penalty = steps.get("spunto", ())
    lines = [f"{seat(lang, s)} {card_name(c)}" for s, c in enumerate(match["replacements"] or ()) if c]
    lines += [f"{seat(lang, s)} {text(lang, 'no_card')}" for s, d in enumerate(penalty) if d]
    if lines:
        pages += paged(text(lang, "replacements"), lines)
    if "resolution" in steps:
        pages += paged(text(lang, "moves", n=n), _step_lines(lang, steps["resolution"]) or [text(lang, "stay")])
    if match["event"]:
        pages += paged(text(lang, "event"), [card_name(match["event"])] + _step_lines(lang, steps.get("event", [])))
    return pages


def bridge(view, lang):
    return Screen(text(lang, "bridge"), bridge=tuple(view["positions"]))


def result(view, lang):
    outcome = view["result"]
    if outcome["draw"]:
        lines = [text(lang, "draw")]
    else:
        lines = [f"{text(lang, 'winners')}: " + " ".join(seat(lang, s) for s in outcome["winners"]),
                 f"{text(lang, 'losers')}: " + " ".join(seat(lang, s) for s in outcome["losers"])]
    spaces = " ".join(f"{seat(lang, s)}:{p}" for s, p in enumerate(view["positions"]))
    return paged(text(lang, "over"), lines + [spaces])[0]

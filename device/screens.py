"""What the OLED shows, computed from the table's public view only (never a seat's view): a view in, screens
out. Drawing them is display.py's job; what a game's screens say is its presentation module's."""
import functools
import re
import textwrap
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass

from .games import presentation
from .network import join_url, link_url
from .texts import text

COLUMNS = 21  # characters of the 6-pixel font across 128 pixels
QR_COLUMNS = 11  # characters beside the QR code
BODY_LINES = 4
QR_LINES = 4  # lines beside the QR code, under its title


class Picture(ABC):
    """A game's drawing under a screen's title, its text through display.glyphs. A picture that needs the rows
    asks for the compact title bar."""
    compact_title = False

    @abstractmethod
    def draw(self, draw, height):
        """Draw on the panel's canvas (`height` rows), under the title bar."""


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple = ()
    picture: Picture | None = None  # a game's drawing, shown under the title
    qr: str | None = None  # text of a QR code drawn on the left, the title and lines beside it


def wrap(line, indent="   ", width=COLUMNS):
    """Lines of at most `width` characters; a long item carries on indented."""
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def refused(reason):
    """A refused press: the rules' reason (under the title naming the seat), as much of it as fits."""
    lines = wrap(reason, indent="")
    if len(lines) > BODY_LINES:
        lines = lines[:BODY_LINES - 1] + [lines[BODY_LINES - 1][:COLUMNS - 3] + "..."]
    return Screen("", tuple(lines))


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


_FORGETS = []  # each remembered builder's `forget`


def forget_pages():
    """Forget the pages every builder remembers: a new game's history never holds the last one's entries, and a
    night of games would keep thousands of pages that are never shown again."""
    for forget in _FORGETS:
        forget()


def remembered(*fields, size=2048):
    """A game's page builder `build(view, ...)` for one entry of its history, remembered by what it reads: its
    other arguments (the language, the entry: plain data) and the view's `fields` (what it reads of the view:
    what a game never changes, such as its options). The box refreshes its pages on every press from the whole
    history; with this it builds only the new entries' pages, so a press late in a long game costs what an early
    one does. The builder must read nothing else of the view (tests/test_oled_screens.py checks every game's
    pages against pages built afresh). `build.builds` counts the pages built rather than remembered."""
    def decorate(build):
        found, lock = OrderedDict(), threading.Lock()

        @functools.wraps(build)
        def cached(view, *args):
            key = repr((args, [view[f] for f in fields]))  # plain data: equal reprs are equal contents
            with lock:
                pages = found.get(key)
                if pages is not None:
                    found.move_to_end(key)
                    return list(pages)
            pages = build(view, *args)
            with lock:
                cached.builds += 1
                found[key] = pages
                if len(found) > size:
                    found.popitem(last=False)
            return list(pages)

        def forget():
            with lock:  # never between a look-up and its move to the end
                found.clear()

        cached.builds = 0
        cached.forget = forget
        _FORGETS.append(forget)
        return cached
    return decorate


def seat(lang, n):
    return text(lang, "seat", n=n + 1)


def who(lang, target):
    """Whom a phone is paired with, ("seat", n) or ("host",), in full."""
    return text(lang, "player_n", n=target[1] + 1) if target[0] == "seat" else text(lang, "host")


def seats(lang, numbers):
    return " ".join(seat(lang, s) for s in numbers)


def no_game(lang, url=None):
    if url:
        return join(lang, url, text(lang, "ok_menu"))
    return Screen(text(lang, "title"), (text(lang, "press_menu"),))


def address_lines(address, width=QR_COLUMNS):
    """The address in lines of `width`, broken only after a dot and before the port: a number is never cut
    in two."""
    parts = re.findall(r"[^.:]+\.|:\d+|[^.:]+", address)
    lines = [""]
    for part in parts:
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return lines


def join(lang, url, hint=None):
    """The QR code of the box's URL, and the URL to type."""
    lines = address_lines(url.split("//", 1)[-1])
    if hint:
        lines += textwrap.wrap(hint, QR_COLUMNS)
    return Screen(text(lang, "url"), tuple(lines[:QR_LINES]), qr=join_url(url))


def pairing_code(lang, code, url, minutes):
    """A code to type on a phone, and beside it the QR code of its link, which pairs the phone that opens it
    without typing: the way that still works when wrong codes from the network have closed the typed one."""
    whom = seat(lang, code.target[1]) if code.target[0] == "seat" else text(lang, "host")
    help_lines = textwrap.wrap(text(lang, "code_help", n=minutes), QR_COLUMNS)
    return Screen(whom, (spaced(code.code), *help_lines)[:QR_LINES], qr=link_url(url, code.key))


def spaced(code):
    """A pairing code in two groups of three, to read and type."""
    return f"{code[:3]} {code[3:]}"


def picking(view, lang, title):
    """Who is picking, and who has locked in (never what)."""
    locked = set(view["locked"])
    status = [f"{seat(lang, s)} {text(lang, 'locked') if s in locked else text(lang, 'waiting')}"
              for s in view["picking"]]
    pairs = [" ".join(f"{item:<10}" for item in status[i:i + 2]).rstrip() for i in range(0, len(status), 2)]
    return Screen(title, tuple(pairs[:BODY_LINES]))


def outcome_lines(view, lang):
    """Winners and losers (or a draw), seats counted from 1."""
    outcome = view["result"]
    if outcome["draw"]:
        return [text(lang, "draw")]
    lines = [f"{text(lang, 'winners')}: {seats(lang, outcome['winners'])}"]
    if outcome["losers"]:
        lines.append(f"{text(lang, 'losers')}: {seats(lang, outcome['losers'])}")
    return lines


def final_page(view, lang, per_seat):
    """A game's last page: its outcome, then each seat's number (`per_seat`, in seat order: a score, a space)."""
    numbers = " ".join(f"{seat(lang, s)}:{n}" for s, n in enumerate(per_seat))
    return paged(text(lang, "over"), outcome_lines(view, lang) + [numbers])[0]


def live(view, lang):
    """The screen for the table as it stands."""
    if view.get("game") is None:
        return no_game(lang)
    game = presentation(view["game"])
    return game.result(view, lang) if view["over"] else game.live(view, lang)


def chapters(view, lang):
    """The game's result pages so far, as (key, pages) in order."""
    return presentation(view["game"]).chapters(view, lang)


def box_message(lang, key):
    """The box says something of itself (message `key`) under its name: it powers off, it has stopped."""
    return Screen(text(lang, "title"), tuple(wrap(text(lang, key), indent="")))


def secret_choice(lang, seat_number):
    """A seat asked a secret choice that has no fixed pad layout: it answers on its phone; the table sees only
    that it is choosing."""
    return Screen(f"{seat(lang, seat_number)}: {text(lang, 'choosing_secret')}"[:COLUMNS],
                  tuple(wrap(text(lang, "choose_on_phone"), indent="")))


def cursor(lang, game, seat_number, prompt, label, group=None):
    """A seat choosing with its pad's cursor (an open choice: everyone may see it). Labels that are the
    game's text keys (a colour, a kind) are shown in the box's language; others (card names) as they are."""
    title = f"{seat(lang, seat_number)}: {text(lang, prompt.title, game)}"
    shown = " ".join(text(lang, part, game) for part in (group, label) if part)
    return Screen(title[:COLUMNS], (*wrap(f"> {shown}"), text(lang, "cursor_keys"))[-BODY_LINES:])

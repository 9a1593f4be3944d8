"""The phone pages: table view, seat view, host view (one page, three tabs), rules, and the QR's /JOIN."""
from pathlib import Path

import markdown
from flask import Blueprint, make_response, redirect, render_template, request, url_for

from engine.rules import GAMES
from engine.words import LANGUAGES

from .texts import page_words, word
from .viewers import fail, language

bp = Blueprint("pages", __name__)
RULES = Path(__file__).parent / "rules"


def localized(template, **values):
    """`template` in the page's language (its words as `t`); a language chosen by the page's IT/EN switch is
    kept for the next pages."""
    lang = language()
    response = make_response(render_template(template, lang=lang, t=lambda key, **v: word(lang, key, **v),
                                             **values))
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie("lang", lang, samesite="Lax", max_age=365 * 24 * 3600)
    return response


def phone_page(tab):
    return localized("phone.html", tab=tab, words=page_words(language()), games=sorted(GAMES))


@bp.get("/")
def table():
    return phone_page("table")


@bp.get("/seat")
def seat():
    return phone_page("seat")


@bp.get("/host")
def host():
    return phone_page("host")


@bp.get("/join")
@bp.get("/JOIN")
def join():
    """The QR code holds the uppercase URL (alphanumeric mode)."""
    return redirect(url_for("pages.table"))


@bp.get("/rules/<game>")
def rules(game):
    """The game's rules page for players, in the page's language."""
    lang = language()
    page = RULES / f"{game}.{lang}.md"
    if game not in GAMES or not page.exists():
        fail(404, "no_rules_page", game=game)
    body = markdown.markdown(page.read_text(encoding="utf-8"), extensions=["tables", "sane_lists"])
    return localized("rules.html", body=body, title=GAMES[game].TITLE)

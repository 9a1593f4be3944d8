"""The phone pages: table view, seat view, host view (one page, three tabs), rules, and the QR's /JOIN."""
from pathlib import Path

import markdown
from flask import Blueprint, make_response, redirect, render_template, request, url_for

from engine.rules import GAMES
from engine.texts import LANGUAGES

from .texts import page_texts
from .viewers import fail

bp = Blueprint("pages", __name__)
RULES = Path(__file__).parent / "rules"


def language():
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


def phone_page(tab):
    lang = language()
    response = make_response(render_template("phone.html", tab=tab, lang=lang, texts=page_texts(lang),
                                             games=sorted(GAMES)))
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie("lang", lang, samesite="Lax", max_age=365 * 24 * 3600)
    return response


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
        fail(404, f"no rules page for {game!r}")
    body = markdown.markdown(page.read_text(encoding="utf-8"), extensions=["tables", "sane_lists"])
    return render_template("rules.html", body=body, title=GAMES[game].TITLE, lang=lang, texts=page_texts(lang))

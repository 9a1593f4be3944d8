"""The phone pages: table view, seat view, host view (one page, three tabs), rules, and the QR's /JOIN."""
from pathlib import Path

from flask import Blueprint, make_response, redirect, render_template, request, send_from_directory, url_for

from engine.games import GAMES
from engine.version import about
from engine.words import LANGUAGES

from .texts import page_words, word
from .viewers import fail, language

bp = Blueprint("pages", __name__)
PAGES = Path(__file__).parent / "rules"  # the pages for players that belong to no game


def localized(template, **values):
    """`template` in the page's language (its words as `t`); a language chosen by the page's IT/EN switch is
    kept for the next pages."""
    lang = language()
    response = make_response(render_template(template, lang=lang, t=lambda key, **v: word(lang, key, **v),
                                             **values))
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie("lang", lang, samesite="Lax", max_age=365 * 24 * 3600)
    return response


def part_url(game, path):
    """Where a phone loads one of a game's static parts, kept in the game's folder."""
    return url_for("pages.game_part", game=game.name, path=path)


def phone_page(tab):
    games = [GAMES[name] for name in sorted(GAMES)]
    styles = [part_url(g, g.phone.style) for g in games if g.phone.style]
    scripts = [part_url(g, g.phone.script) for g in games if g.phone.script]
    return localized("phone.html", tab=tab, words=page_words(language()), styles=styles, scripts=scripts,
                     about=about())


@bp.get("/games/<game>/<path:path>")
def game_part(game, path):
    """A static part of a game, from its folder (its descriptor names the part)."""
    found = GAMES.get(game)
    if found is None or path not in (found.phone.script, found.phone.style):
        fail(404, "no_game_part", game=game, path=path)
    return send_from_directory(found.phone.folder, path)


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


@bp.get("/chance")
def chance():
    """For players: how to check that the box did not cheat (the seed, its commitment, `arbitro verify`)."""
    return markdown_page(PAGES / f"chance.{language()}.md", word(language(), "chance_howto"))


@bp.get("/rules/<game>")
def rules(game):
    """The game's rules page for players, in the page's language."""
    lang, found = language(), GAMES.get(game)
    page = found and found.rules_pages and Path(found.rules_pages) / f"{game}.{lang}.md"
    if not page or not page.exists():
        fail(404, "no_rules_page", game=game)
    return markdown_page(page, word(lang, "rules_title", game=found.title))


def markdown_page(page, title):
    """A page for players written in Markdown, in the rules pages' frame."""
    import markdown  # read on the first rules page asked for, not at every start
    body = markdown.markdown(page.read_text(encoding="utf-8"), extensions=["tables", "sane_lists"])
    return localized("rules.html", body=body, title=title)

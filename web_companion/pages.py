"""The phone pages: table view, seat view, host view (one page, three tabs), rules, and the QR's /JOIN."""
import html
import re
from pathlib import Path

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
    response = make_response(render_template("phone.html", tab=tab, lang=lang, texts=page_texts(lang)))
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


def markdown(text):
    """Enough Markdown for our rules pages: headings, lists, bold, code."""
    out, in_list = [], False
    for line in text.splitlines():
        escaped = html.escape(line)
        escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
        escaped = re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)
        item = re.match(r"\s*[-*] (.*)", escaped) or re.match(r"\s*\d+\. (.*)", escaped)
        if in_list and not item and not line.startswith("  "):
            out.append("</ul>")
            in_list = False
        heading = re.match(r"(#+) (.*)", escaped)
        if heading:
            level = min(len(heading.group(1)) + 1, 4)
            out.append(f"<h{level}>{heading.group(2)}</h{level}>")
        elif item:
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{item.group(1)}</li>")
        elif line.startswith("  ") and in_list:
            out[-1] = out[-1][:-5] + " " + escaped.strip() + "</li>"
        elif escaped.strip():
            out.append(f"<p>{escaped}</p>")
    if in_list:
        out.append("</ul>")
    return "\n".join(out)


@bp.get("/rules/<game>")
def rules(game):
    if game not in GAMES or not (RULES / f"{game}.md").exists():
        fail(404, f"no rules page for {game!r}")
    lang = language()
    body = markdown((RULES / f"{game}.md").read_text(encoding="utf-8"))
    return render_template("rules.html", body=body, title=GAMES[game].TITLE, lang=lang, texts=page_texts(lang))

"""Who is asking: a seat (by its token cookie), the host (by its token, or anyone in mock mode), the public."""
from flask import abort, current_app, jsonify, make_response, request

from engine.words import LANGUAGES, render

SEAT_COOKIE = "arbitro_seat"
HOST_COOKIE = "arbitro_host"


def box():
    return current_app.config["BOX"]


def fail(status, message):
    abort(status, description=message)


def language():
    """The asking page's language: chosen on the page (?lang=, kept in a cookie), else the browser's."""
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


def refused(status, rejected):
    """The rules' refusal, in the asking page's language, its message id as `code` (and the `option` it
    names, for a form to say it beside the field); nothing was changed."""
    about = {"option": rejected.message.params["option"]} if "option" in rejected.message.params else {}
    abort(make_response(jsonify(error=render(language(), rejected.message), code=rejected.code, **about), status))


def json_object():
    """The request's body as JSON, or None when it is not JSON (too deeply nested counts as not JSON)."""
    try:
        return request.get_json(silent=True, force=True)
    except RecursionError:
        fail(400, "the JSON is nested too deeply")


def json_body(*keys):
    """The request's JSON object with exactly `keys`; 400 naming what is wrong otherwise."""
    body = json_object()
    if not isinstance(body, dict):
        fail(400, f"send a JSON object with {', '.join(keys) or 'no keys'}")
    missing, extra = sorted(set(keys) - set(body)), sorted(set(body) - set(keys))
    if missing:
        fail(400, f"missing key {missing[0]!r}")
    if extra:
        fail(400, f"unknown key {extra[0]!r}")
    return body


def seat_of(the_box, token):
    """The seat a token holds in the game in play (a token is good for every game with its seat count), or
    None."""
    if the_box.table.game is None:
        return None
    return the_box.claims.seat_of(token, the_box.table.seats)


def seat_of_request():
    return seat_of(box(), request.cookies.get(SEAT_COOKIE))


def require_seat(seat):
    held = seat_of_request()
    if held is None:
        fail(403, f"this phone holds no seat in this game: claim player {seat + 1}'s seat first")
    if held != seat:
        fail(403, f"this phone holds player {held + 1}'s seat, not player {seat + 1}'s")


def is_host():
    if current_app.config["MOCK"]:  # the virtual box's user presses every button anyway
        return True
    return box().claims.is_host(request.cookies.get(HOST_COOKIE))


def require_host():
    if not is_host():
        fail(403, "host actions need the host role: ask for it on the Host tab, then hold the button it shows "
                  "on the box's host panel")

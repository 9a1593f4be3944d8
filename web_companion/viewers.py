"""Who is asking: a seat (by its token cookie), the host (by its token; in mock mode the laptop's own browser too), the
public."""
import ipaddress

from flask import abort, jsonify, make_response, request

from engine.rules.protocol import SHARED, Message
from engine.words import LANGUAGES, render

from .services import services

SEAT_COOKIE = "arbitro_seat"
HOST_COOKIE = "arbitro_host"


def box():
    return services().box


def fail(status, key, /, **params):
    """What the request got wrong, by the shared catalog's message id: said in the asking page's language."""
    answer(status, Message(SHARED, key, params))


def language():
    """The asking page's language: chosen on the page (?lang=, kept in a cookie), else the browser's."""
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


def refused(status, rejected, *, yours=False):
    """The rules' refusal; nothing was changed. `yours`: said to the seat it is about (in the second person)."""
    answer(status, rejected.message, yours=yours)


def answer(status, message, *, yours=False):
    """An error in the asking page's language, its message id as `code` (and the `option` it names, for a form
    to say it beside the field)."""
    option = message.params.get("option")
    about = {"option": option.key if isinstance(option, Message) else option} if option is not None else {}
    abort(make_response(jsonify(error=render(language(), message, yours=yours), code=message.key, **about), status))


def json_object():
    """The request's body as JSON, or None when it is not JSON (too deeply nested counts as not JSON)."""
    try:
        return request.get_json(silent=True, force=True)
    except RecursionError:
        fail(400, "json_deep")


def json_body(*keys):
    """The request's JSON object with exactly `keys`; 400 naming what is wrong otherwise."""
    body = json_object()
    if not isinstance(body, dict):
        fail(400, "json_object", keys=", ".join(keys) or "-")
    missing, extra = sorted(set(keys) - set(body)), sorted(set(body) - set(keys))
    if missing:
        fail(400, "missing_key", key=missing[0])
    if extra:
        fail(400, "unknown_key", key=extra[0])
    return body


def seat_of_request():
    """The seat the phone's token holds in the game in play, or None."""
    return box().seat_of(request.cookies.get(SEAT_COOKIE))


def require_seat(seat):
    held = seat_of_request()
    if held is None:
        fail(403, "no_seat_held", player=seat + 1)
    if held != seat:
        fail(403, "other_seat_held", held=held + 1, player=seat + 1)


def is_local():
    """Whether the request comes from the computer the box runs on (its own browser)."""
    try:
        address = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback  # ::ffff:127.0.0.1 on a dual-stack socket


def is_host():
    """The host role: held by a phone paired with it; in mock mode also by the laptop's own browser, which
    presses the virtual box's host panel anyway (a phone on the network pairs, as on the Pi)."""
    if services().virtual is not None and is_local():
        return True
    return box().is_host(request.cookies.get(HOST_COOKIE))


def require_host():
    if not is_host():
        fail(403, "host_role")

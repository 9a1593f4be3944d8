"""A phone's seat: paired by the code the box shows (web_companion/pairing.py), then see and act as that seat."""
from flask import Blueprint, jsonify, request

from .pairing import DIGITS, KEY_LENGTH, well_formed, well_formed_key

from .viewers import HOST_COOKIE, SEAT_COOKIE, box, fail, json_body, json_object, refused, require_seat

bp = Blueprint("seat", __name__, url_prefix="/api")


def seat_number(seat):
    the_box = box()
    if the_box.game is None:
        fail(409, "no_game")
    if not 0 <= seat < the_box.seats:
        fail(404, "not_at_table", player=seat + 1, seats=the_box.seats)
    return seat


def acted(outcome, *, yours=False):
    """The answer to an action: 409 with the rules' reason when they refuse it (`yours`: to the seat's own
    phone, which reads it in the second person)."""
    if outcome["status"] == "rejected":
        refused(409, outcome["refusal"], yours=yours)
    return jsonify({**outcome, "version": box().version})


def action_body(seat):
    body = json_body("action")
    if not isinstance(body["action"], dict):
        fail(400, "action_object")
    return body["action"]


@bp.get("/seats")
def seats():
    """The seat chooser: each seat of the game in play, whether a pad wires it and whether a phone holds it."""
    the_box = box()
    mine = the_box.seat_of(request.cookies.get(SEAT_COOKIE))
    return jsonify(seats=[{"seat": s, "pad": s < the_box.wired_seats, "phone": the_box.has_phone(s),
                           "mine": s == mine} for s in range(the_box.seats)])


@bp.post("/pair")
def pair():
    """The phone typed the code the box shows ({"code"}), or opened the link of its QR code (the link's page
    sends {"key"}): it holds the seat (or the host role) the code was for. A wrong code is 403, too many from
    one address 429; a code that too many wrong ones closed, or a link whose code is over, 403 (web_companion/pairing.py)."""
    body = json_object()
    if isinstance(body, dict) and set(body) == {"key"}:
        key = well_formed_key(body["key"])
        if key is None:
            fail(400, "key_form", length=KEY_LENGTH)
        target, token = box().pair_link(key)
    else:
        code = well_formed(json_body("code")["code"])
        if code is None:
            fail(400, "code_form", digits=DIGITS)
        target, token = box().pair(code, request.remote_addr)
    response = jsonify(seat=target[1] if target[0] == "seat" else None, host=target == ("host",))
    cookie = SEAT_COOKIE if target[0] == "seat" else HOST_COOKIE
    response.set_cookie(cookie, token, httponly=True, samesite="Strict", max_age=10 * 365 * 86400)
    return response


@bp.get("/me")
def me():
    """What this phone holds, and what another phone took over from it (so it can say so)."""
    the_box = box()
    seat_token, host_token = request.cookies.get(SEAT_COOKIE), request.cookies.get(HOST_COOKIE)
    lost = the_box.lost(seat_token) or the_box.lost(host_token)
    return jsonify(seat=the_box.seat_of(seat_token), host=the_box.is_host(host_token),
                   lost=({"seat": lost[1]} if lost[0] == "seat" else {"host": True}) if lost else None)


@bp.post("/seats/<int:seat>/act")
def act(seat):
    """Any action the seat's prompt offers (one endpoint for every game)."""
    seat_number(seat)
    require_seat(seat)
    return acted(box().seat_act(seat, action_body(seat)), yours=True)

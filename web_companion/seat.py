"""A phone's seat: ask for it (the box draws a button to hold on the seat's pad, or on the host panel for a
seat no pad wires), then see and act as that seat."""
from flask import Blueprint, jsonify, request

from .viewers import HOST_COOKIE, SEAT_COOKIE, box, fail, json_body, refused, require_seat, seat_of

bp = Blueprint("seat", __name__, url_prefix="/api")


def seat_number(seat):
    table = box().table
    if table.game is None:
        fail(409, "no_game")
    if not 0 <= seat < table.seats:
        fail(404, "not_at_table", player=seat + 1, seats=table.seats)
    return seat


def acted(outcome):
    """The answer to an action: 409 with the rules' reason when they refuse it."""
    if outcome["status"] == "rejected":
        refused(409, outcome["refusal"])
    return jsonify({**outcome, "version": box().table.version})


def action_body(seat):
    body = json_body("action")
    if not isinstance(body["action"], dict):
        fail(400, "action_object")
    return body["action"]


def claimed(target):
    """A new claim on `target`: what the phone shows its player (the button to hold, where, how long)."""
    claim = box().request_claim(target, request.remote_addr)
    by = "pad" if claim.panel[0] == "seat" else "host"
    return jsonify(claim=claim.id, button=claim.button, confirm_by=by, hold=box().claims.hold,
                   seconds=box().claims.window, **({"seat": target[1]} if target[0] == "seat" else {})), 201


@bp.get("/seats")
def seats():
    """The seat chooser: each seat of the game in play, whether a pad wires it and whether a phone holds it."""
    the_box = box()
    mine = seat_of(the_box, request.cookies.get(SEAT_COOKIE))
    return jsonify(seats=[{"seat": s, "pad": s < the_box.wired_seats, "phone": the_box.has_phone(s),
                           "mine": s == mine} for s in range(the_box.table.seats)])


@bp.post("/seats/<int:seat>/claim")
def claim(seat):
    json_body()
    seat_number(seat)
    if seat_of(box(), request.cookies.get(SEAT_COOKIE)) == seat:
        fail(409, "holds_already", player=seat + 1)
    return claimed(("seat", seat))


@bp.get("/claims/<claim_id>")
def claim_status(claim_id):
    claim, status = box().claims.status(claim_id)
    if claim is None:
        fail(404, "claim_expired")
    if status != "confirmed":
        return jsonify(status=status)
    response = jsonify(status=status, seat=claim.target[1] if claim.target[0] == "seat" else None,
                       host=claim.target == ("host",))
    cookie = SEAT_COOKIE if claim.target[0] == "seat" else HOST_COOKIE
    response.set_cookie(cookie, claim.token, httponly=True, samesite="Strict", max_age=10 * 365 * 86400)
    return response


@bp.delete("/claims/<claim_id>")
def cancel_claim(claim_id):
    if not box().claims.cancel(claim_id):
        fail(404, "no_open_claim")
    return "", 204


@bp.get("/me")
def me():
    """What this phone holds, and what another phone took over from it (so it can say so)."""
    the_box = box()
    seat_token, host_token = request.cookies.get(SEAT_COOKIE), request.cookies.get(HOST_COOKIE)
    lost = the_box.claims.lost(seat_token) or the_box.claims.lost(host_token)
    return jsonify(seat=seat_of(the_box, seat_token), host=the_box.claims.is_host(host_token),
                   lost=({"seat": lost[1]} if lost[0] == "seat" else {"host": True}) if lost else None)


@bp.post("/seats/<int:seat>/act")
def act(seat):
    """Any action the seat's prompt offers (one endpoint for every game)."""
    seat_number(seat)
    require_seat(seat)
    return acted(box().seat_act(seat, action_body(seat)))

"""A phone's seat: claim it (by a press on the seat's pad, or the host panel's OK for a seat no pad wires),
then see and act as that seat."""
from flask import Blueprint, jsonify

from .viewers import HOST_COOKIE, SEAT_COOKIE, box, fail, json_body, require_seat

bp = Blueprint("seat", __name__, url_prefix="/api")


def seat_number(seat):
    table = box().table
    if table.game is None:
        fail(409, "no game is being played")
    if not 0 <= seat < table.seats:
        fail(404, f"no player {seat + 1} at this table of {table.seats}")
    return seat


def acted(outcome):
    """The answer to an action: 409 with the rules' reason when they refuse it."""
    if outcome["status"] == "rejected":
        fail(409, outcome["error"])
    return jsonify({**outcome, "version": box().table.version})


def action_body(seat):
    body = json_body("action")
    if not isinstance(body["action"], dict):
        fail(400, "action must be an object: a game-log line, as the seat's prompt lists them")
    return body["action"]


@bp.post("/seats/<int:seat>/claim")
def claim(seat):
    json_body()
    seat_number(seat)
    claim_id = box().claims.request(("seat", seat), box().table.game_id)
    by = "pad" if seat < box().wired_seats else "host"
    return jsonify(claim=claim_id, seat=seat, seconds=box().claims.window, confirm_by=by), 201


@bp.get("/claims/<claim_id>")
def claim_status(claim_id):
    status, detail = box().claims.status(claim_id)
    if status is None:
        fail(404, "no such claim")
    if status == "pending":
        return jsonify(status=status, seconds_left=round(detail, 1))
    if status == "expired":
        return jsonify(status=status)
    target = box().claims.holder(detail).target
    response = jsonify(status=status, seat=target[1] if target[0] == "seat" else None, host=target == ("host",))
    cookie = SEAT_COOKIE if target[0] == "seat" else HOST_COOKIE
    response.set_cookie(cookie, detail, httponly=True, samesite="Strict")
    return response


@bp.post("/seats/<int:seat>/act")
def act(seat):
    """Any action the seat's prompt offers (one endpoint for every game)."""
    seat_number(seat)
    require_seat(seat)
    return acted(box().seat_act(seat, action_body(seat)))

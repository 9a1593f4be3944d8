"""A phone's seat: claim it by a press on the seat's pad, then see and pick as that seat."""
from flask import Blueprint, jsonify

from .viewers import HOST_COOKIE, SEAT_COOKIE, box, fail, json_body, require_seat

bp = Blueprint("seat", __name__, url_prefix="/api")


def seat_number(seat):
    table = box().table
    if table.game is None:
        fail(409, "no game is being played")
    seats = table.view()["seats"]
    if not 0 <= seat < seats:
        fail(404, f"no seat {seat + 1} at this table of {seats}")
    return seat


@bp.post("/seats/<int:seat>/claim")
def claim(seat):
    json_body()
    seat_number(seat)
    claim_id = box().claims.request(("seat", seat), box().table.game_id)
    return jsonify(claim=claim_id, seat=seat, seconds=box().claims.window), 201


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


@bp.post("/seats/<int:seat>/pick")
def pick(seat):
    body = json_body("card")
    seat_number(seat)
    require_seat(seat)
    if not isinstance(body["card"], str):
        fail(400, "card must be a card's id")
    outcome = box().seat_pick(seat, body["card"])
    if outcome["status"] == "rejected":
        fail(409, outcome["error"])
    return jsonify({**outcome, "version": box().table.version})

"""Who is asking: a seat (by its token cookie), the host (by its token, or anyone in mock mode), the public."""
from flask import abort, current_app, request

SEAT_COOKIE = "arbitro_seat"
HOST_COOKIE = "arbitro_host"


def box():
    return current_app.config["BOX"]


def fail(status, message):
    abort(status, description=message)


def json_body(*keys):
    """The request's JSON object with exactly `keys`; 400 naming what is wrong otherwise."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        fail(400, f"send a JSON object with {', '.join(keys) or 'no keys'}")
    missing, extra = sorted(set(keys) - set(body)), sorted(set(body) - set(keys))
    if missing:
        fail(400, f"missing key {missing[0]!r}")
    if extra:
        fail(400, f"unknown key {extra[0]!r}")
    return body


def seat_of(the_box, token):
    """The seat a token holds in the box's current game, or None."""
    claim = the_box.claims.holder(token)
    if claim and claim.target[0] == "seat" and claim.game == the_box.table.game_id is not None:
        return claim.target[1]
    return None


def seat_of_request():
    return seat_of(box(), request.cookies.get(SEAT_COOKIE))


def require_seat(seat):
    held = seat_of_request()
    if held is None:
        fail(403, f"this phone holds no seat in this game: claim player {seat + 1}'s seat first")
    if held != seat:
        fail(403, f"this phone holds player {held + 1}'s seat, not player {seat + 1}'s")


def is_host():
    if current_app.config["MOCK"]:
        return True
    claim = box().claims.holder(request.cookies.get(HOST_COOKIE))
    return bool(claim and claim.target == ("host",))


def require_host():
    if not is_host():
        fail(403, "host actions need the host token: ask for it, then press OK on the box's host panel")

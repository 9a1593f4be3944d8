"""The JSON API everyone may read: the public view (long-poll with ?since=), the live stream, the box's health,
the games."""
import logging

from flask import Blueprint, Response, jsonify, request

from engine.games import GAMES
from engine.rules import PUBLIC

from .services import services
from .streams import Follower
from .waitress_writer import connection_writer
from .texts import word
from .viewers import HOST_COOKIE, SEAT_COOKIE, box, fail, language

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger(__name__)
LONG_POLL = 25.0  # seconds a ?since= request may wait for a change
KEEP_ALIVE = 15.0  # seconds between stream comments: well under waitress's channel_timeout
# Versions a phone's word may move the table past: a journal's log holds a second or so of play, a few dozen
# versions; a phone claiming more is not believed (nor can it push the version to where SQLite's integers end).
LOST_AT_MOST = 1000


def since_arg():
    raw = request.args.get("since")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        fail(400, "since_number", value=raw)


def heard(version):
    """A phone says which version it was shown last (polling: `since`; following live: the stream's Last-Event-ID,
    which browsers send when they reconnect). A later one than the box's, from a phone at the table (holding a
    seat or the host role, and within what a journal's log can hold), tells the box its journal lost actions."""
    the_box, cookies = box(), request.cookies
    if version is None or not the_box.version < version <= the_box.version + LOST_AT_MOST:
        return  # the usual case, on every poll: no token looked up
    if the_box.seat_of(cookies.get(SEAT_COOKIE)) is not None or the_box.is_host(cookies.get(HOST_COOKIE)):
        the_box.seen(version)


def last_event_id():
    raw = request.headers.get("Last-Event-ID", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def viewer_of(the_box, wants_seat, token):
    """The seat of a phone that holds one and asks for its view (?view=seat), else "public"."""
    seat = the_box.seat_of(token) if wants_seat else None  # each time: a token may lose its seat
    return PUBLIC if seat is None else seat


@bp.get("/table")
def table():
    since, changes = since_arg(), services().changes
    heard(since)
    if since is not None and changes.take_place():  # no place to wait: answer at once
        try:
            changes.wait(since, LONG_POLL)
        finally:
            changes.leave_place()
    viewer = viewer_of(box(), request.args.get("view") == "seat", request.cookies.get(SEAT_COOKIE))
    _, encoded = changes.encoded(viewer)
    return Response(encoded.json, mimetype="application/json")


@bp.get("/box")
def box_health():
    """How the box itself is (the stream sends it as `box` events; polling phones ask here)."""
    return jsonify(services().changes.health())


@bp.get("/stream")
def stream():
    """Server-Sent Events: `view` events carry the full view for this viewer with its version; `box` events
    the box's health (whether its display answers), kept apart so the view keys stay those of the replay;
    `refused` events, to a seat's stream alone, the reason its pad's latest press was refused (in the page's
    language). When every place to wait is taken: 503, and the phone polls instead."""
    the_box, changes = box(), services().changes
    wants_seat, token = request.args.get("view") == "seat", request.cookies.get(SEAT_COOKIE)
    heard(last_event_id())
    if not changes.take_place():
        response = jsonify(error=word(language(), "streams_full"), code="streams_full")
        response.headers["Retry-After"] = "30"
        return response, 503

    follower = Follower(lambda: viewer_of(the_box, wants_seat, token), connection_writer(request.environ),
                        language())

    def events():
        yield b"retry: 2000\n\n"
        changes.follow(follower)  # only now: the response's headers are out, events may follow them
        yield from follower.events(KEEP_ALIVE)

    released = []

    def release():  # once, when the server closes the response, whether or not it was ever read
        if not released:
            released.append(True)
            changes.unfollow(follower)
            changes.leave_place()
            log.info("a phone stopped following the game live (%s)", "seat" if wants_seat else "table")

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(release)
    return response


@bp.get("/games")
def games():
    """Every game the box referees: its seats and its typed options, with their defaults per seat count."""
    wired = box().wired_seats
    listed = []
    for name, game in GAMES.items():  # in the order they are registered, as on the box menu
        low, high = game.seats
        listed.append({"name": name, "title": game.title, "seats": [low, high], "wired_seats": wired,
                       "options": {n: [o.as_data(n) for o in game.options] for n in range(low, high + 1)}})
    return jsonify(listed)

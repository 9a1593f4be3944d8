"""The JSON API everyone may read: the public view (long-poll with ?since=), the live stream, the games."""
import json

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from engine.rules import GAMES

from .viewers import box, fail, seat_of_request

bp = Blueprint("api", __name__, url_prefix="/api")
LONG_POLL = 25.0  # seconds a ?since= request may wait for a change
KEEP_ALIVE = 15.0  # seconds between stream comments: well under waitress's channel_timeout


def since_arg():
    raw = request.args.get("since")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        fail(400, f"since must be a version number, not {raw!r}")


def viewed(viewer):
    shown = box().table.view(viewer)
    shown["viewer"] = viewer
    return shown


def current_viewer():
    """The seat's view for a phone that holds a seat and asks for it (?view=seat), else the public one."""
    if request.args.get("view") == "seat":
        seat = seat_of_request()
        if seat is not None:
            return seat
    return "public"


@bp.get("/table")
def table():
    since = since_arg()
    if since is not None:
        current_app.config["CHANGES"].wait(since, LONG_POLL)
    return jsonify(viewed(current_viewer()))


@bp.get("/stream")
def stream():
    """Server-Sent Events: each event is the full view for this viewer with its version."""
    changes = current_app.config["CHANGES"]

    def events(viewer):
        version = None
        yield "retry: 2000\n\n"
        while True:
            if version == box().table.version and not changes.wait(version, KEEP_ALIVE):
                yield ": keep-alive\n\n"
                continue
            shown = viewed(viewer())
            version = shown["version"]
            yield f"id: {version}\nevent: view\ndata: {json.dumps(shown, ensure_ascii=False)}\n\n"

    # The seat is looked up again for every event: a token dies with its game.
    return Response(stream_with_context(events(current_viewer)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/games")
def games():
    return jsonify([{"name": name, "title": rules.TITLE, "seats": list(rules.SEATS),
                     "options": {k: list(v) for k, v in rules.OPTION_CHOICES.items()},
                     "defaults": rules.OPTIONS, "wired_seats": len(box().pinmap.seats)}
                    for name, rules in sorted(GAMES.items())])

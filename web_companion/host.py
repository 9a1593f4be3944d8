"""The host's phone: start, undo and end games, act for a seat with neither pad nor phone, the game log, the
OLED's language, the backup of the games."""
import json
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from flask import Blueprint, Response, jsonify

from engine.rules import Rejected
from engine.version import about
from engine.words import LANGUAGES

from .seat import action_body, acted, seat_number
from .viewers import box, fail, is_host, json_body, json_object, refused, require_host

bp = Blueprint("host", __name__, url_prefix="/api/host")


def done(**extra):
    return jsonify(version=box().version, **extra)


@bp.get("")
def status():
    """Whether this phone holds the host role, the box's language, and what software the box runs."""
    return jsonify(host=is_host(), language=box().language, **about())


@bp.post("/pair")
def pair_code():
    """A code for a phone, shown on the host's phone only: for a seat ({"seat": n}), or to hand the host role
    on ({"host": true}). The phone that types it pairs as at the box; so does the one that opens its `link`
    (its QR code as rows of modules, `qr`)."""
    require_host()
    body = json_object()
    if body == {"host": True}:
        target = ("host",)
    elif isinstance(body, dict) and set(body) == {"seat"} and type(body["seat"]) is int:
        target = ("seat", seat_number(body["seat"]))
    else:
        fail(400, "pair_for")
    code = box().pair_code(target)
    link = box().code_link(code.key)  # the box's address, as on the OLED: the phone to pair is another
    return jsonify(code=code.code, link=link, qr=box().qr_code(link),
                   seconds=round(box().pairing_window)), 201


@bp.post("/game")
def new_game():
    require_host()
    body = json_body("game", "seats", "options")
    try:
        box().new_game(body["game"], body["seats"], body["options"])
    except Rejected as e:
        refused(400, e)
    return done(), 201


def command(act):
    """A host command with an empty body: act(the box), or 409 saying why not."""
    require_host()
    json_body()
    try:
        act(box())
    except Rejected as e:
        refused(409, e)
    return done()


@bp.post("/undo")
def undo():
    return command(lambda the_box: the_box.undo())


@bp.post("/end")
def end():
    return command(lambda the_box: the_box.end_game())


def unattended(the_box):
    """The seats of the game in play that have neither a pad nor a phone: the host acts for them."""
    return [s for s in range(the_box.wired_seats, the_box.seats) if not the_box.has_phone(s)]


@bp.get("/seats")
def seats():
    """Each unattended seat's own view (its prompt): the player tells the host what to enter."""
    require_host()
    the_box = box()
    return the_box.snapshot(lambda version, view_of: jsonify(
        seats=[{**view_of(s), "viewer": s} for s in unattended(the_box)], version=version))


@bp.post("/seats/<int:seat>/act")
def act_for(seat):
    require_host()
    seat_number(seat)
    if seat not in unattended(box()):
        fail(403, "plays_own", player=seat + 1)
    return acted(box().seat_act(seat, action_body(seat)))


@bp.get("/log")
def log():
    require_host()
    try:
        text = box().export()
    except Rejected as e:
        refused(409, e)
    return log_file(text, box().game, box().game_id)


@bp.get("/games")
def games():
    """The box's game history, newest first: every game it refereed, finished, ended or in play."""
    require_host()
    return jsonify(games=box().history())


@bp.get("/games/<int:game_id>/log")
def game_log(game_id):
    """The log of a game in the history, to download and replay (`arbitro replay`)."""
    require_host()
    try:
        text = box().export(game_id)
    except Rejected as e:
        refused(404, e)
    return log_file(text, json.loads(text.splitlines()[0])["game"], game_id)


@bp.get("/backup")
def backup():
    """Every game no longer in play, in one file that `arbitro restore` puts back (engine/backup.py): the game
    in play stays on the box, with its secrets, until it is over."""
    require_host()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "backup.sqlite3"
        box().backup(path)
        data = path.read_bytes()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    return Response(data, mimetype="application/vnd.sqlite3",
                    headers={"Content-Disposition": f'attachment; filename="arbitro-backup-{stamp}.sqlite3"'})


def log_file(text, game, game_id):
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="arbitro-{game}-{game_id}.jsonl"'})


@bp.post("/language")
def language():
    require_host()
    body = json_body("language")
    if body["language"] not in LANGUAGES:
        fail(400, "language_one_of", languages=", ".join(LANGUAGES))
    box().set_language(body["language"])
    return done(language=body["language"])

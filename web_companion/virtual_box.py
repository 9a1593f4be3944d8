"""The virtual box (mock mode only): the live OLED, every pad and the host panel, clickable. A click drives
the mock pins, so the same GPIO, debounce and pad code runs as on the Pi."""
from flask import Blueprint, Response, jsonify, render_template, request

from device.config import HOST_BUTTONS
from device.display import png
from engine.rules import game_module

from .viewers import box as _box
from .viewers import fail

bp = Blueprint("virtual_box", __name__, url_prefix="/box")


@bp.get("")
def page():
    return render_template("box.html")


@bp.get("/layout")
def layout():
    """What the page draws: the wired seats and the current game's pad labels."""
    box = _box()
    game = box.table.game
    return jsonify(seats=len(box.pinmap.seats), host=list(HOST_BUTTONS),
                   labels=list(game_module(game).PAD_LABELS) if game else None,
                   version=box.table.version, frame=box.display.frame)


@bp.get("/oled.png")
def oled():
    with _box().table.lock:
        image = _box().display.image
    return Response(png(image), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/press")
def press():
    box = _box()
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        fail(400, "send a JSON object: {\"seat\": 0, \"button\": 3} or {\"host\": \"ok\"}")
    if set(body) == {"host"}:
        if body["host"] not in HOST_BUTTONS:
            fail(400, f"unknown host button {body['host']!r}; the host panel has {', '.join(HOST_BUTTONS)}")
        pin = box.pin_of(host=body["host"])
    elif set(body) == {"seat", "button"}:
        seat, button = body["seat"], body["button"]
        if type(seat) is not int or not 0 <= seat < len(box.pinmap.seats):
            fail(400, f"unknown seat {seat!r}; this box has seats 0 to {len(box.pinmap.seats) - 1}")
        if type(button) is not int or not 1 <= button <= 8:
            fail(400, f"unknown button {button!r}; a pad has buttons 1 to 8")
        pin = box.pin_of(seat=seat, button=button)
    else:
        fail(400, f"unexpected keys {sorted(body)}: send {{\"seat\", \"button\"}} or {{\"host\"}}")
    outcome = box.click(pin) or {"status": "ignored"}
    return jsonify({**outcome, "version": box.table.version})

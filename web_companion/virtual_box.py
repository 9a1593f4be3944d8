"""The virtual box (mock mode only): the live OLED, every pad and the host panel, clickable. A click drives
the mock pins, so the same GPIO, debounce and pad code runs as on the Pi. It is the laptop's: every route answers
only the machine the box runs on (its OLED shows pairing codes; a phone on the network plays as at a real box)."""
from flask import Blueprint, Response, jsonify, render_template

from engine.words import SHARED, as_json, say

from .services import services
from .viewers import box as _box
from .viewers import fail, is_local, json_object

bp = Blueprint("virtual_box", __name__, url_prefix="/box")


def virtual():
    """The virtual box the app was handed (mock mode only)."""
    return services().virtual


@bp.before_request
def only_this_machine():
    if not is_local():
        fail(403, "virtual_box_local")


@bp.get("")
def page():
    """The virtual box speaks the box's own language, as its OLED does."""
    lang = _box().language
    words = as_json(lang, (SHARED,))[SHARED]["virtual"]
    return render_template("box.html", lang=lang, words=words,
                           t=lambda key, **v: say(lang, SHARED, "virtual", key, **v))


@bp.get("/layout")
def layout():
    """What the page draws: the pads of the seats in play (all the wired ones when no game is on), what each
    button does now, and the host panel."""
    box = _box()

    def drawn(version, view_of):
        public = view_of("public")
        seats = min(box.wired_seats, box.seats) if public["game"] else box.wired_seats
        return jsonify(seats=seats, host=list(box.host_buttons),
                       labels=[virtual().pad_labels(seat) for seat in range(seats)], version=version,
                       frame=box.frame)
    return box.snapshot(drawn)


@bp.get("/oled.png")
def oled():
    return Response(virtual().oled_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/press")
def press():
    """A click on the virtual box: {"seat", "button"} or {"host"}; {"host": "menu", "hold": true} holds Menu long
    enough to power off."""
    box = _box()
    body = json_object()
    if not isinstance(body, dict):
        fail(400, "press_object")
    if "hold" in body and body != {"host": "menu", "hold": True}:
        fail(400, "hold_menu")
    if set(body) - {"hold"} == {"host"}:
        if body["host"] not in box.host_buttons:
            fail(400, "host_button", button=body["host"], buttons=", ".join(box.host_buttons))
        outcome = virtual().press(host=body["host"], hold=box.power_off_hold + 0.5 if "hold" in body else None)
    elif set(body) == {"seat", "button"}:
        seat, button = body["seat"], body["button"]
        if type(seat) is not int or not 0 <= seat < box.wired_seats:
            fail(400, "wired_seat", seat=seat, last=box.wired_seats - 1)
        if type(button) is not int or not 1 <= button <= 8:
            fail(400, "pad_button", button=button)
        outcome = virtual().press(seat=seat, button=button)
    else:
        fail(400, "press_keys", keys=sorted(body))
    outcome = outcome or {"status": "ignored"}
    if outcome.get("secret"):  # the virtual box is the table's: a secret press answers alike, taken or refused
        outcome = {"seat": outcome["seat"], "button": outcome["button"], "status": "pressed"}
    outcome.pop("refusal", None)  # its words are in "error", in the box's language
    return jsonify({**outcome, "version": box.version})

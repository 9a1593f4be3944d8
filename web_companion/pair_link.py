"""The link of a pairing code's QR code (device/network.py's `link_url`): the person at the table scans it and the
phone pairs without typing. Opening it changes nothing (a GET never does, and a link may be fetched by a preview):
its page sends the key, as a phone's own POST, to /api/pair (web_companion/seat.py)."""
from flask import Blueprint

from .pages import localized

bp = Blueprint("pair_link", __name__)


@bp.get("/P/<key>")
@bp.get("/p/<key>")
def link(key):
    """The page reads its key from its own address; none is remembered, nor put in the page."""
    response = localized("pair_link.html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response

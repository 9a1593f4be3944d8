"""Only the box's own pages may change anything: a request that changes the table, a seat, the host role or the
box (every POST and DELETE) is refused when a browser says another site sent it (`Sec-Fetch-Site`, or an
`Origin` that is not this box's address), and a POST body must be declared JSON — a form or `text/plain` POST, the
kind another site's page may send without asking, never reaches a blueprint. A request from outside a browser
(no Origin, no Sec-Fetch-Site: a script, `curl`) is judged by what it sends, like any other."""
from urllib.parse import urlsplit

from flask import Flask, request

from .viewers import fail

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SAME_SITE = frozenset({"same-origin", "none"})  # "none": typed in the address bar, a bookmark


def init_app(app: Flask) -> None:
    app.before_request(refuse_other_sites)


def refuse_other_sites() -> None:
    if request.method not in CHANGING:
        return
    fetched_from = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if (fetched_from is not None and fetched_from not in SAME_SITE) or (
            origin is not None and urlsplit(origin).netloc != request.host):
        fail(403, "cross_site")
    if request.method == "POST" and (request.content_length or request.mimetype) and not request.is_json:
        fail(415, "json_only")

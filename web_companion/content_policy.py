"""The Content-Security-Policy every response carries: a page runs only the box's own script files and styles, so
a name or a word that slipped into a page as markup could neither run nor restyle it. No inline script, no inline
style attribute or <style> block, no code evaluated from a string: the pages set styles through the CSSOM, and the
phones choose a plural form from a table (engine/mofile.py), not from an expression. tests/test_csp.py checks
the header on every kind of route; tests/test_browser_csp.py plays every game with it enforced."""
from flask import Flask, Response

POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # the pages' icon is `data:,`: no request for /favicon.ico at every page
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))


def init_app(app: Flask) -> None:
    app.after_request(with_policy)


def with_policy(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = POLICY
    return response

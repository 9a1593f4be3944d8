"""Every response carries the strict Content-Security-Policy (web_companion/content_policy.py): pages, the JSON API,
the live stream, static files, a game's parts, the virtual box's image, redirects and every kind of refusal."""
import pytest

from device.web_port import WebPort
from tests.conftest import virtual
from web_companion import MAX_BODY, create_app
from web_companion.content_policy import POLICY
from web_companion.services import services

# Sample values for the routes' parameters: each route is asked at least once.
SAMPLES = {"game": "ponte", "path": "ponte.js", "key": "ABCDEFGHIJ", "filename": "phone.js", "seat": 0,
           "game_id": 1}


@pytest.fixture
def app(box):
    return create_app(WebPort(box), virtual=virtual(box))


def directives(response):
    header = response.headers.get("Content-Security-Policy")
    assert header is not None, f"{response.request.path} ({response.status_code}) has no Content-Security-Policy"
    return dict((d.split(" ", 1) + [""])[:2] for d in header.split("; "))


def test_the_policy_is_strict():
    found = dict(d.split(" ", 1) for d in POLICY.split("; "))
    assert found["default-src"] == found["script-src"] == found["style-src"] == "'self'"
    assert found["object-src"] == found["base-uri"] == found["frame-ancestors"] == "'none'"
    assert "unsafe" not in POLICY and "nonce" not in POLICY and "*" not in POLICY


def test_every_route_answers_with_the_policy_whatever_it_answers(app):
    """Each of the app's routes, with every method it takes: GET as a phone asks; a change with an empty JSON
    object (refused, 400, or done); the stream's headers (then it is closed)."""
    client, asked = app.test_client(), set()
    for rule in app.url_map.iter_rules():
        _, url = rule.build({name: SAMPLES[name] for name in rule.arguments})
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(url, method=method, json={} if method != "GET" else None, buffered=False)
            try:
                assert directives(response)["script-src"] == "'self'", (method, url, response.status_code)
            finally:
                response.close()
            asked.add((method, rule.endpoint, response.status_code // 100))
    endpoints = {endpoint for _, endpoint, _ in asked}
    assert {"pages.table", "api.stream", "static", "pages.game_part", "virtual_box.oled", "pair_link.link"} <= endpoints
    assert {kind for _, _, kind in asked} >= {2, 3, 4}  # answers, a redirect (/join) and refusals
    assert services(app).changes.waiters == 0  # the stream asked was closed


@pytest.mark.parametrize("ask, status", [
    (lambda c: c.get("/no/such/page"), 404),
    (lambda c: c.get("/rules/nogame"), 404),
    (lambda c: c.get("/games/ponte/../declaration.py"), 404),
    (lambda c: c.delete("/api/table"), 405),
    (lambda c: c.post("/api/pair", data="{", content_type="application/json"), 400),
    (lambda c: c.post("/api/pair", data="code=1", content_type="application/x-www-form-urlencoded"), 415),
    (lambda c: c.post("/api/pair", json={"code": "1"}, headers={"Origin": "http://elsewhere.example"}), 403),
    (lambda c: c.post("/api/pair", data=b"{}" + b" " * MAX_BODY, content_type="application/json"), 413),
    (lambda c: c.get("/", headers={"Host": "rebound.example"}), 421),
    (lambda c: c.get("/box", environ_overrides={"REMOTE_ADDR": "192.168.1.50"}), 403),
])
def test_a_refusal_carries_the_policy(app, ask, status):
    response = ask(app.test_client())
    assert response.status_code == status
    assert directives(response)["default-src"] == "'self'"


def test_an_error_the_app_did_not_expect_carries_the_policy(box):
    """A 500 too (a bug: never by bad input), so a page it answers is as bound as any."""
    app = create_app(WebPort(box))

    @app.get("/broken")
    def broken():
        raise RuntimeError("a bug")

    response = app.test_client().get("/broken")
    assert response.status_code == 500 and directives(response)["object-src"] == "'none'"

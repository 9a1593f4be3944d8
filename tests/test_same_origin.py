"""Only the box's own pages change anything (defect: a text/plain POST from any web page started a game, pressed
the virtual box and switched the language): on every route that changes something, mock mode included, a
request a browser says came from another site, or a POST whose body is not declared JSON, is refused by name and
changes nothing."""
import pytest

from device.web_port import WebPort
from tests.conftest import virtual
from web_companion import create_app

OTHER_SITES = [{"Origin": "http://evil.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
               {"Sec-Fetch-Site": "same-site"}, {"Origin": "http://192.168.1.23:8000.evil.example"}]


@pytest.fixture
def app(box):
    return create_app(WebPort(box), virtual=virtual(box))


def changing_routes(app):
    """Every route of the app that changes something, with its method, its variables filled."""
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods & {"POST", "PUT", "PATCH", "DELETE"}):
            yield method, rule.rule.replace("<int:seat>", "0").replace("<int:game_id>", "1")


def test_every_changing_route_is_covered(app):
    routes = {path for _, path in changing_routes(app)}
    assert {"/api/host/game", "/api/host/undo", "/api/host/end", "/api/host/language", "/api/seats/0/act",
            "/api/host/seats/0/act", "/api/pair", "/api/host/pair", "/box/press"} <= routes


@pytest.mark.parametrize("headers", OTHER_SITES)
def test_a_request_another_site_sent_is_refused_on_every_changing_route(app, box, headers):
    client = app.test_client()
    for method, path in changing_routes(app):
        before = box.table.version
        answer = client.open(path, method=method, json={"game": "ponte", "seats": 3, "options": {}},
                             headers=headers)
        assert answer.status_code == 403, (method, path, headers)
        assert answer.get_json()["code"] == "cross_site"
        assert box.table.version == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_whose_body_is_not_declared_json_is_refused(app, box, content_type):
    client = app.test_client()
    for method, path in changing_routes(app):
        if method != "POST":
            continue
        before = box.table.version
        answer = client.post(path, data='{"game": "ponte", "seats": 3, "options": {}}', content_type=content_type)
        assert answer.status_code == 415, (path, content_type)
        assert answer.get_json()["code"] == "json_only"
        assert box.table.version == before


def test_the_boxs_own_pages_and_plain_clients_are_served(app, box):
    client = app.test_client()
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {}},
                       headers=own).status_code == 201
    assert client.post("/api/host/undo", json={}, headers={"Sec-Fetch-Site": "none"}).status_code in (200, 409)
    assert client.post("/api/host/language", json={"language": "en"}).status_code == 200  # no browser at all
    answer = client.post("/api/host/end", json={}, headers=own)
    assert answer.status_code == 200, answer.get_json()
    assert client.post("/api/host/end", headers=own).get_json()["code"] == "json_object"  # past the guard: no body


def test_the_refusal_is_said_in_the_pages_language(app):
    answer = app.test_client().post("/api/host/end?lang=it", headers={"Origin": "http://evil.example"})
    assert answer.get_json()["error"].startswith("questa richiesta viene da un altro sito")


def test_in_mock_mode_the_host_role_is_the_laptops_own_browser_and_phones_pair_for_it(app, box):
    """Defect: in mock mode every phone on the network was the host. The laptop's own browser (loopback) is;
    a phone pairs for the role by a code, as on the Pi, and may not press the virtual box."""
    phone = app.test_client()
    lan = {"REMOTE_ADDR": "192.168.1.50"}
    assert phone.get("/api/host", environ_base=lan).get_json()["host"] is False
    before = box.table.version
    answer = phone.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {}}, environ_base=lan)
    assert answer.status_code == 403 and answer.get_json()["code"] == "host_role"
    answer = phone.post("/box/press", json={"host": "ok"}, environ_base=lan)
    assert answer.status_code == 403 and answer.get_json()["code"] == "virtual_box_local"
    assert box.table.version == before
    laptop = app.test_client()
    assert laptop.get("/api/host").get_json()["host"] is True  # the test client is 127.0.0.1
    assert laptop.get("/api/host", environ_base={"REMOTE_ADDR": "::1"}).get_json()["host"] is True
    code = laptop.post("/api/host/pair", json={"host": True}).get_json()["code"]
    assert phone.post("/api/pair", json={"code": code}, environ_base=lan).get_json() == {"seat": None, "host": True}
    assert phone.get("/api/host", environ_base=lan).get_json()["host"] is True

"""The box answers only the names it is reached by (defect: nothing checked `Host`, so a page whose own domain was
made to point at the box — DNS rebinding — sent requests with `Host` and `Origin` both its own, which the
cross-site guard took as the box's: every route answered it, and in mock mode the laptop's browser had full host
control). Any other name is 421 on every route: pages, API, streams, rules, static files, the virtual box."""
import http.client
import socket

import pytest

from device import network
from device.web_port import WebPort
from tests.browser import Server
from tests.conftest import virtual
from web_companion import create_app

BOX_NAMES = {"192.168.1.23", "arbitro", "arbitro.local", "fd00::23"}
OTHER_NAMES = ["evil.example", "evil.example:8000", "192.168.1.23.evil.example", "arbitro.evil.example",
               "[fd00::24]:8000", "10.0.0.1", "localhost.evil.example", "arbitro:notaport", "[::1", ""]
OWN_NAMES = ["localhost", "localhost:8000", "LOCALHOST.", "127.0.0.1:8000", "[::1]:8000", "[::1]",
             "192.168.1.23", "192.168.1.23:8000", "Arbitro.local:80", "arbitro", "[fd00::23]:8000",
             "[fd00:0:0:0:0:0:0:23]"]


@pytest.fixture
def names():
    return set(BOX_NAMES)


@pytest.fixture
def app(box, names):
    """Mock mode, as `arbitro --mock` runs: the laptop's own browser (loopback, the test client's) is the host."""
    return create_app(WebPort(box), virtual=virtual(box), names=lambda: names)


def every_route(app):
    """Every route of the app with each of its methods, its variables filled."""
    filled = {"<int:seat>": "0", "<int:game_id>": "1", "<game>": "ponte", "<path:path>": "ponte.js",
              "<key>": "ABCDEFGHIJ", "<path:filename>": "phone.js"}
    for rule in app.url_map.iter_rules():
        path = rule.rule
        for variable, value in filled.items():
            path = path.replace(variable, value)
        assert "<" not in path, rule.rule
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield method, path


def test_every_route_refuses_a_name_that_is_not_the_boxs(app, box):
    routes = list(every_route(app))
    assert {"/", "/seat", "/host", "/api/table", "/api/stream", "/api/pair", "/api/host/game", "/rules/<game>",
            "/static/<path:filename>", "/box", "/box/oled.png", "/box/press", "/P/<key>"} <= {
        rule.rule for rule in app.url_map.iter_rules()}
    client = app.test_client()
    for name in OTHER_NAMES:
        for method, path in routes:
            before = (box.table.version, box.display.frame, box.language.value)
            answer = client.open(path, method=method, headers={"Host": name, "Origin": f"http://{name}"},
                                 json={"game": "ponte", "seats": 3, "options": {}})
            assert answer.status_code == 421, (name, method, path, answer.status_code)
            assert answer.get_json()["code"] == "host_name"
            assert (box.table.version, box.display.frame, box.language.value) == before


def test_dns_rebinding_no_longer_takes_the_host_role_in_mock_mode(app, box):
    """The issue's probe: the laptop's browser on the attacker's page, whose name now points at the box."""
    rebound = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000", "Sec-Fetch-Site": "same-origin"}
    client = app.test_client()
    before = box.table.version
    answer = client.post("/api/host/game?lang=it", json={"game": "ponte", "seats": 3, "options": {}},
                         headers=rebound)
    assert answer.status_code == 421 and answer.get_json()["error"].startswith(
        "questa richiesta chiama il box con un nome che non è il suo")
    assert client.get("/box/oled.png", headers=rebound).status_code == 421
    assert box.table.version == before
    own = {"Host": "192.168.1.23:8000", "Origin": "http://192.168.1.23:8000", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {}},
                       headers=own).status_code == 201


def test_the_boxs_own_names_are_served_with_or_without_a_port(app):
    client = app.test_client()
    for name in OWN_NAMES:
        assert client.get("/api/table", headers={"Host": name}).status_code == 200, name
        assert client.get("/static/phone.js", headers={"Host": name}).status_code == 200, name


def test_a_name_the_box_takes_while_running_is_served(app, names):
    """The box joins another Wi-Fi: its new address is answered at once, without a restart."""
    client = app.test_client()
    assert client.get("/api/table", headers={"Host": "10.42.0.1:8000"}).status_code == 421
    names.add("10.42.0.1")
    assert client.get("/api/table", headers={"Host": "10.42.0.1:8000"}).status_code == 200


def test_without_names_the_box_answers_only_localhost(box):
    client = create_app(WebPort(box)).test_client()
    assert client.get("/api/table", headers={"Host": "127.0.0.1"}).status_code == 200
    assert client.get("/api/table", headers={"Host": "192.168.1.23"}).status_code == 421


def test_the_running_box_answers_its_names_and_no_other(tmp_path):
    """`arbitro --mock` over HTTP: the composition root hands the app device/network.py's names."""
    server = Server(tmp_path / "data")
    try:
        def status(host, path="/api/table"):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.putrequest("GET", path, skip_host=True)
            connection.putheader("Host", host)
            connection.endheaders()
            answer = connection.getresponse()
            answer.read()
            connection.close()
            return answer.status

        hostname = socket.gethostname().lower()
        for host in ("127.0.0.1", f"localhost:{server.port}", f"{hostname}:{server.port}", f"{hostname}.local",
                     f"{network.lan_address()}:{server.port}"):
            assert status(host) == 200, host
        for host in ("evil.example", f"evil.example:{server.port}"):
            assert status(host) == 421 and status(host, "/box/oled.png") == 421, host
    finally:
        server.stop()

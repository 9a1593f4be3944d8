"""The HTTP contract of the virtual box: /api/table, /box/oled.png, /box/press."""
import io
import json
import sqlite3

import pytest
from PIL import Image

from device.web_port import WebPort
from web_companion import create_app
from tests.conftest import virtual


@pytest.fixture
def client(box):
    return create_app(WebPort(box), virtual=virtual(box)).test_client()


def journal_lines(tmp_path):
    with sqlite3.connect(tmp_path / "data" / "journal.sqlite3") as db:
        return [json.loads(b) for (b,) in db.execute("SELECT body FROM entries WHERE kind = 'line'")]


def test_api_table_is_the_public_view_with_its_version(client, box):
    shown = client.get("/api/table").get_json()
    assert shown["version"] == box.table.version
    del shown["version"]
    from engine.replay import replay
    assert shown == replay(box.table.export()).view("public")


def test_oled_png_is_the_current_128_by_64_frame(client, box):
    response = client.get("/box/oled.png")
    assert response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    assert image.size == (128, 64)
    assert image.convert("1").tobytes() == box.display.image.tobytes()


def test_a_press_answers_after_the_action_is_journaled(client, tmp_path):
    response = client.post("/box/press", json={"seat": 2, "button": 5})
    assert response.status_code == 200
    assert response.get_json()["status"] == "pressed"  # a secret pick: the answer says no more
    assert journal_lines(tmp_path) == [{"seat": 2, "pick": "vertigini"}]
    assert client.get("/api/table").get_json()["locked"] == [2]


def test_a_refused_secret_press_answers_as_a_taken_one_and_a_seat_that_has_picked_keeps_its_pick(client, tmp_path):
    """The virtual box is the table's box. Defect: its page printed "il giocatore 2 non ha quella carta" under the
    OLED for the whole table; and a refused press of a seat that had picked moved nothing, a taken one the public
    version."""
    for seat, button in [(0, 7), (1, 1), (2, 2), (3, 3)]:
        client.post("/box/press", json={"seat": seat, "button": button})
    lines = len(journal_lines(tmp_path))
    version = client.get("/api/table").get_json()["version"]
    answers = [client.post("/box/press", json={"seat": 1, "button": button}).get_json() for button in (7, 2, 7)]
    assert answers[0] == {"seat": 1, "button": 7, "status": "pressed", "version": version}  # not picked: nothing
    assert answers[1:] == [{"seat": 1, "button": 2, "status": "pressed", "version": version + 1},
                           {"seat": 1, "button": 7, "status": "pressed", "version": version + 2}]
    assert journal_lines(tmp_path)[lines:] == [{"seat": 1, "pick": "scatto_repentino"}] * 2


def test_a_refused_press_that_hides_nothing_is_200_and_says_why(client):
    body = client.post("/box/press", json={"seat": 5, "button": 1}).get_json()  # no player 6 at this table
    assert body["status"] == "rejected" and body["error"].startswith("il giocatore 6")


def test_the_layout_shows_only_the_pads_of_the_seats_in_play(client, box):
    layout = client.get("/box/layout").get_json()
    assert layout["seats"] == 4 and layout["labels"][0][0] == "Salto atletico"
    box.table.new_game("ponte", 3)
    assert client.get("/box/layout").get_json()["seats"] == 3


def test_pad_labels_are_the_game_s_words_in_the_box_s_language(client, box):
    box.table.new_game("biglietti", 5)
    assert client.get("/box/layout").get_json()["labels"][1] == [
        "Biglietto", "Scusa", "Accusa", "Imparziale", "Nasconditi", "Pol.Fer.", "No", "Sì"]
    for line in ({"seat": 0, "choose": {"check": 1}}, {"seat": 1, "choose": {"ticket": False}},
                 *[{"seat": s, "pick": "accusa"} for s in (2, 3, 4)]):
        box.table.act(line)
    assert client.get("/box/layout").get_json()["labels"][0] == ["0 punti", "1 punto", "2 punti", "3 punti",
                                                                 "4 punti", "", "", ""]


def test_a_host_press_drives_the_host_panel(client, box):
    body = client.post("/box/press", json={"host": "menu"}).get_json()
    assert body["status"] == "done"
    assert box.display.screen.lines == (">Torna al gioco", " Telefoni", " Nuova partita", "OK: scegli")


@pytest.mark.parametrize("payload, message", [
    ({"seat": 12, "button": 1}, "unknown seat 12; this box wires seats 0 to 11 (counted from 0)"),
    ({"seat": 0, "button": 9}, "unknown button 9; a pad has buttons 1 to 8"),
    ({"seat": 0, "button": "1"}, "unknown button '1'"),
    ({"seat": True, "button": 1}, "unknown seat True"),
    ({"host": "reset"}, "unknown host button 'reset'"),
    ({"seat": 0}, "unexpected keys ['seat']"),
    ({"host": "menu", "hold": 5}, '"hold": true goes only with {"host": "menu"}'),
    ({"seat": 0, "button": 1, "hold": True}, '"hold": true goes only with {"host": "menu"}'),
    ({"seat": 0, "button": 1, "host": "ok"}, "unexpected keys"),
    ([0, 1], "send a JSON object"),
])
def test_a_malformed_press_is_400_and_changes_nothing(client, box, payload, message):
    version, frame = box.table.version, box.display.frame
    response = client.post("/box/press", json=payload)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert (box.table.version, box.display.frame) == (version, frame)


def test_holding_menu_on_the_virtual_box_asks_to_power_off(client, box):
    body = client.post("/box/press", json={"host": "menu", "hold": True}).get_json()
    assert body["status"] == "done" and box.menu.mode == "poweroff"
    assert box.display.screen.lines[0] == "Spegnere il box?"
    body = client.post("/box/press", json={"host": "ok"}).get_json()  # mock mode: nothing to power off
    assert body["message"] == "Qui un box vero si spegnerebbe: è la modalità simulata"
    assert box.display.screen.lines[:2] == ("Qui un box vero si", "spegnerebbe: è la")


def test_a_press_that_is_not_json_is_refused(client):
    response = client.post("/box/press", data="seat=1", content_type="text/plain")
    assert response.status_code == 415  # a text/plain POST is what another site's page may send unasked
    assert "must be JSON" in response.get_json()["error"]
    response = client.post("/box/press", data="seat=1", content_type="application/json")
    assert response.status_code == 400
    assert "send a JSON object" in response.get_json()["error"]


def test_the_virtual_box_is_404_when_not_in_mock_mode(box):
    client = create_app(WebPort(box)).test_client()
    assert client.post("/box/press", json={"seat": 0, "button": 1}).status_code == 404
    assert client.get("/box").status_code == 404
    assert client.get("/api/table").status_code == 200


def test_the_page_loads_nothing_from_outside_the_box(client):
    page = client.get("/box").get_data(as_text=True)
    assert "http://" not in page and "https://" not in page
    for asset in ["/static/box.js", "/static/box.css"]:
        assert client.get(asset).status_code == 200


@pytest.mark.parametrize("address", ["192.168.1.50", "10.0.0.7", "fd00::50", "::ffff:192.168.1.50"])
def test_every_box_route_answers_only_the_machine_it_runs_on(client, box, address):
    """Defect: `GET /box/oled.png` from a phone on the network read a pairing code off the virtual OLED and
    paired. The virtual box is the laptop's: from any other machine every /box route is 403, saying why."""
    routes = [("GET", "/box"), ("GET", "/box/layout"), ("GET", "/box/oled.png"), ("POST", "/box/press")]
    assert {path for _, path in routes} == {r.rule for r in client.application.url_map.iter_rules()
                                            if r.rule.startswith("/box")}
    box.pair_code(("seat", 1))
    before = (box.table.version, box.display.frame, box.menu.mode)
    for method, path in routes:
        answer = client.open(path, method=method, json={"host": "menu"}, environ_base={"REMOTE_ADDR": address},
                             headers={"Accept-Language": "it"})
        assert answer.status_code == 403, (method, path)
        assert answer.get_json() == {"code": "virtual_box_local", "error": (
            "il box virtuale si usa solo dal computer su cui gira il box; dal telefono si gioca dalla pagina del "
            "posto")}
    assert (box.table.version, box.display.frame, box.menu.mode) == before
    for local in ("127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"):
        assert client.get("/box/oled.png", environ_base={"REMOTE_ADDR": local}).status_code == 200

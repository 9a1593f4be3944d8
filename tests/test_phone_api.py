"""The phone companion's HTTP side: claims, seat views and picks, host controls, live updates, pages."""
import json

import pytest

from device.web_port import WebPort
from engine.version import about
from tests.conftest import DIRECT_PINMAP, virtual
from tests.phones import take
from web_companion import api, create_app
from web_companion.services import services


@pytest.fixture
def app(box):
    return create_app(WebPort(box))


def press(box, seat, button):
    return virtual(box).press(seat=seat, button=button)


def claim_seat(client, box, seat):
    assert take(client, box, ("seat", seat)) == {"seat": seat, "host": False}


def test_a_seat_picks_from_its_phone_with_the_same_rules_as_the_pad(app, box):
    client = app.test_client()
    claim_seat(client, box, 2)
    prompt = client.get("/api/table?view=seat").get_json()["prompt"]
    assert prompt["kind"] == "pick" and prompt["secret"] and prompt["title"] == "pick_card"
    assert [c["action"] for c in prompt["choices"]][4] == {"seat": 2, "pick": "vertigini"}
    answer = client.post("/api/seats/2/act", json={"action": {"seat": 2, "pick": "vertigini"}})
    assert answer.status_code == 200 and answer.get_json()["status"] == "applied"
    assert client.get("/api/table?view=seat").get_json()["my_pick"] == "vertigini"
    assert client.get("/api/table").get_json()["locked"] == [2]
    for seat, button in [(0, 1), (1, 2), (3, 4)]:
        press(box, seat, button)
    refused = client.post("/api/seats/2/act", json={"action": {"seat": 2, "pick": "vertigini"}})
    assert refused.status_code == 409
    # said to the seat it is about, in the second person (the OLED and the host read "player 3 …")
    assert refused.get_json() == {"error": "you do not hold that card", "code": "not_held"}
    # an Italian phone reads the reason in Italian, by its browser's language or the page's choice
    italian = client.post("/api/seats/2/act", json={"action": {"seat": 2, "pick": "vertigini"}},
                          headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert italian.get_json() == {"error": "non hai quella carta", "code": "not_held"}


def test_another_seats_actions_are_refused(app, box):
    client = app.test_client()
    claim_seat(client, box, 2)
    answer = client.post("/api/seats/1/act", json={"action": {"seat": 1, "pick": "vertigini"}})
    assert answer.status_code == 403
    assert answer.get_json()["error"] == "this phone holds player 3's seat, not player 2's"
    answer = client.post("/api/seats/2/act", json={"action": {"seat": 1, "pick": "vertigini"}})
    assert answer.status_code == 409 and answer.get_json()["error"].startswith("not an action of player 3")
    stranger = app.test_client()
    answer = stranger.post("/api/seats/2/act", json={"action": {"seat": 2, "pick": "vertigini"}})
    assert answer.status_code == 403 and "pair it with player 3's seat first" in answer.get_json()["error"]
    assert box.table.view()["locked"] == []


@pytest.mark.parametrize("url, payload, status, message", [
    ("/api/seats/0/act", {"action": "vertigini"}, 400, "action must be an object"),
    ("/api/seats/0/act", {"card": "x"}, 400, "missing key 'action'"),
    ("/api/seats/0/act", {"action": {"seat": 0, "pick": "vertigini"}, "seat": 1}, 400, "unknown key 'seat'"),
    ("/api/seats/0/act", "vertigini", 400, "send a JSON object"),
    ("/api/seats/0/act", {"action": {"seat": 0, "pick": "jolly"}}, 409, "unknown card 'jolly'"),
    ("/api/seats/0/act", {"action": {"seat": 0, "card": "salto"}}, 409, "unknown key 'card'"),
    ("/api/seats/9/act", {"action": {"seat": 9, "pick": "vertigini"}}, 404, "player 10 is not at this table of 4"),
    ("/api/pair", {"code": "12"}, 400, "the code is 6 digits"),
    ("/api/pair", {"code": "123456", "seat": 0}, 400, "unknown key 'seat'"),
])
def test_malformed_phone_requests_say_what_is_wrong_and_change_nothing(app, box, url, payload, status, message):
    client = app.test_client()
    claim_seat(client, box, 0)
    version = box.table.version
    answer = client.post(url, json=payload)
    assert answer.status_code == status
    assert message in answer.get_json()["error"]
    assert box.table.version == version


def test_host_actions_need_the_host_role(app, box):
    client = app.test_client()
    assert client.get("/api/host").get_json() == {"host": False, "language": "it", **about()}
    denied = client.post("/api/host/undo", json={})
    assert denied.status_code == 403 and "pair this phone on the Host tab" in denied.get_json()["error"]
    take(client, box, ("host",))
    assert client.get("/api/host").get_json()["host"] is True
    press(box, 0, 5)
    assert client.post("/api/host/undo", json={}).status_code == 200
    assert box.table.view()["locked"] == []
    assert client.post("/api/host/undo", json={}).get_json() == {"error": "nothing to undo", "code": "nothing_to_undo"}


def test_an_option_refused_is_named_as_its_field_is_labelled_in_the_hosts_language(app, box):
    """Defect: option errors named the option's key in English ("opzione colours: …", "opzione lanes: …
    l'opzione islands ne elenca 1 (da 0)"), and counted islands from 0."""
    host = create_app(WebPort(box), virtual=virtual(box)).test_client()
    answers = [host.post("/api/host/game?lang=it", json={"game": "lifeboats", "seats": 3, "options": options})
               for options in ({"colours": ["rosso"]}, {"lanes": [1, 0, 0, 0, 0, 0, 0], "islands": [[8, 6]]},
                               {"boat_seats": 4})]
    assert [(a.status_code, a.get_json()["option"]) for a in answers] == [
        (400, "colours"), (400, "lanes"), (400, "boat_seats")]
    assert answers[0].get_json()["error"].startswith("Colori (per posto): 3 colori diversi tra ")
    assert answers[1].get_json()["error"] == ("Isola a cui porta ogni corsia: la corsia 1 porta all'isola 2, ma "
                                              "«Punti di ogni isola (ufficiale, marinaio)» ne elenca 1")
    assert answers[2].get_json()["error"] == "Posti per barca: 4 barche da 4 posti non contengono 21 pedine"


def test_every_undo_is_told_on_the_oled_and_every_phone_naming_whose_action_it_took_back(app, box):
    """Defect: an undo from /host silently removed a move from the map and the history; the OLED said "Annullato"
    only when the undo came from the host panel."""
    host = create_app(WebPort(box), virtual=virtual(box)).test_client()  # mock mode: the laptop's browser is the host
    phone = app.test_client()
    press(box, 0, 5)
    press(box, 2, 1)
    assert "undone" not in phone.get("/api/table").get_json()
    assert host.post("/api/host/undo", json={}).status_code == 200  # from the host's phone
    assert phone.get("/api/table").get_json()["undone"] == {"seat": 2}
    assert box.display.screen.title == "Annullato: G3"
    press(box, 1, 1)  # the next input: the title and the views move on
    assert box.display.screen.title != "Annullato: G3" and "undone" not in phone.get("/api/table").get_json()
    virtual(box).press(host="undo")  # from the host panel, confirmed
    virtual(box).press(host="ok")
    assert box.display.screen.title == "Annullato: G2"
    assert phone.get("/api/table?view=seat").get_json()["undone"] == {"seat": 1}


def test_the_host_starts_ends_and_downloads_games_and_sets_the_oled_language(app, box):
    client = create_app(WebPort(box), virtual=virtual(box)).test_client()  # mock mode: host controls are open
    assert client.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {"deal": "box"}}
                       ).status_code == 201
    assert box.table.view()["seats"] == 3
    bad = client.post("/api/host/game", json={"game": "ponte", "seats": 7, "options": {}})
    assert bad.status_code == 400 and bad.get_json()["error"] == "this game takes 3 to 6 players, not 7"
    bad = client.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {"deal": "x"}})
    assert bad.status_code == 400 and bad.get_json()["error"] == "Special cards: one of table, box, not 'x'"
    press(box, 0, 1)
    log = client.get("/api/host/log")
    assert log.mimetype == "application/x-ndjson" and "attachment" in log.headers["Content-Disposition"]
    lines = [json.loads(line) for line in log.get_data(as_text=True).splitlines()]
    assert lines == [{"arbitro": 1, "game": "ponte", "seats": 3, "options": {"deal": "box"},  # nothing secret yet
                      "chance": {"verifiable": False}}]  # the tests' seeded dice commit to nothing
    assert client.post("/api/host/language", json={"language": "en"}).status_code == 200
    assert box.display.screen.title == "Match 1: picks"
    assert client.post("/api/host/language", json={"language": "de"}).status_code == 400
    assert client.post("/api/host/end", json={}).status_code == 200
    assert box.table.game is None
    assert client.post("/api/host/end", json={}).get_json() == {"error": "no game is being played", "code": "no_game"}
    assert client.get("/api/host/log").status_code == 409


def test_since_returns_at_once_on_a_new_version_and_waits_otherwise(app, box, monkeypatch):
    client = app.test_client()
    version = box.table.version
    assert client.get(f"/api/table?since={version - 1}").get_json()["version"] == version
    monkeypatch.setattr(api, "LONG_POLL", 0.05)
    assert client.get(f"/api/table?since={version}").get_json()["version"] == version
    assert client.get("/api/table?since=abc").status_code == 400


def test_the_stream_sends_the_full_view_then_keep_alives(app, box, monkeypatch):
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.05)
    response = app.test_client().get("/api/stream", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks).decode() == "retry: 2000\n\n"
    assert next(chunks).decode().startswith("event: box\ndata: {\"display\": ")
    first = next(chunks).decode()
    assert first.startswith(f"id: {box.table.version}\nevent: view\ndata: ")
    assert json.loads(first.split("data: ", 1)[1])["version"] == box.table.version
    assert next(chunks).decode() == ": keep-alive\n\n"
    press(box, 0, 5)
    event = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert event["locked"] == [0] and event["version"] == box.table.version
    response.close()


def test_a_refused_pad_press_is_told_to_that_seats_phone_alone(app, box):
    """Defect: during a secret pick a refused pad press shows the table nothing (rightly), but its reason reached
    no one: the player never learnt why the pad seemed dead."""
    def follow(client, query, language):
        response = client.get(f"/api/stream?{query}", buffered=False, headers={"Accept-Language": language})
        chunks = iter(response.response)
        for _ in range(3):  # retry, box health, the view
            next(chunks)
        return response, chunks

    mine, other, table = app.test_client(), app.test_client(), app.test_client()
    claim_seat(mine, box, 0)
    claim_seat(other, box, 1)
    streams = {name: follow(client, query, language) for name, client, query, language in [
        ("mine", mine, "view=seat", "it-IT"), ("other", other, "view=seat", "en"), ("table", table, "", "en")]}
    for seat, button in enumerate([1, 2, 3, 4]):
        press(box, seat, button)  # match 1: each plays a card
    assert box.table.view()["history"][0]["reveal"]  # the first match is revealed
    for _, chunks in streams.values():
        while json.loads(next(chunks).decode().split("data: ", 1)[1])["version"] != box.table.version:
            pass  # the views up to the reveal
    assert press(box, 0, 1)["status"] == "rejected"  # card 1 was played: no longer in the hand
    assert next(streams["mine"][1]).decode() == (
        'event: refused\ndata: {"error": "non hai quella carta", "code": "not_held"}\n\n')
    press(box, 1, 3)  # a press taken: the next thing every stream hears is its view, and no refusal before it
    for name in ("other", "table"):
        assert next(streams[name][1]).decode().startswith("id: "), name
    for response, _ in streams.values():
        response.close()


def test_a_phone_beyond_the_streams_places_is_told_in_its_language_to_poll(app, box):
    changes = services(app).changes
    changes.places = 1
    told = []
    changes.when_waiting = told.append
    assert changes.take_place() and told == [1]
    refused = app.test_client().get("/api/stream", headers={"Accept-Language": "it-IT"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
    assert refused.get_json() == {
        "code": "streams_full",
        "error": "Troppi telefoni seguono la partita in diretta: questo chiede le novità di tanto in tanto."}
    assert told == [1]  # a phone refused a place is not counted


def test_every_phone_that_starts_to_wait_is_counted_and_told_to_the_server(app, box):
    changes, told = services(app).changes, []
    changes.when_waiting = told.append
    client = app.test_client()
    streams = [client.get("/api/stream", buffered=False) for _ in range(3)]
    for stream in streams:
        next(stream.response)  # the stream has started: its phone waits
    assert told == [1, 2, 3] and changes.waiters == 3
    streams[0].close()
    assert changes.waiters == 2
    next(streams[1].response)
    client.get("/api/stream", buffered=False)
    assert told[-1] == 3


def test_pages_speak_the_browser_language_and_switch(app):
    client = app.test_client()
    page = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert '<html lang="it">' in page.get_data(as_text=True)
    page = client.get("/seat?lang=en", headers={"Accept-Language": "it"})
    assert '<html lang="en">' in page.get_data(as_text=True) and "lang=en" in page.headers["Set-Cookie"]
    assert '<html lang="en">' in client.get("/host", headers={"Accept-Language": "it"}).get_data(as_text=True)


def test_the_qr_code_path_is_accepted_in_capitals(app):
    client = app.test_client()
    for path in ["/JOIN", "/join"]:
        answer = client.get(path)
        assert answer.status_code == 302 and answer.headers["Location"] == "/"


def test_the_rules_pages_are_for_players_in_both_languages(app):
    client = app.test_client()
    italian = client.get("/rules/ponte?lang=it").get_data(as_text=True)
    english = client.get("/rules/ponte?lang=en").get_data(as_text=True)
    assert '<html lang="it">' in italian and "Un match (al massimo sei)" in italian
    assert '<html lang="en">' in english and "A match (six at most)" in english
    for page in (italian, english):
        assert "<table>" in page and "<ol>" in page and "<strong>" in page
        assert "**" not in page and "R-1" not in page and "seeds" not in page and "tests" not in page
    assert client.get("/rules/chess").status_code == 404


def test_a_seat_no_pad_wires_plays_by_phone_or_through_the_host(make_box):
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 6)  # the pin map wires 4 pads
    client = create_app(WebPort(box)).test_client()
    host_phone = create_app(WebPort(box), virtual=virtual(box)).test_client()
    assert [s["viewer"] for s in host_phone.get("/api/host/seats").get_json()["seats"]] == [4, 5]
    assert take(client, box, ("seat", 5)) == {"seat": 5, "host": False}
    assert client.post("/api/seats/5/act", json={"action": {"seat": 5, "pick": "salto_atletico"}}).status_code == 200
    seats = host_phone.get("/api/host/seats").get_json()["seats"]
    assert [s["viewer"] for s in seats] == [4] and seats[0]["prompt"]["kind"] == "pick"
    answer = host_phone.post("/api/host/seats/4/act", json={"action": {"seat": 4, "pick": "vertigini"}})
    assert answer.status_code == 200 and box.table.view()["locked"] == [4, 5]
    for seat in (3, 5):  # a seat with its own pad or phone plays for itself
        refused = host_phone.post(f"/api/host/seats/{seat}/act", json={"action": {"seat": seat, "pick": "vertigini"}})
        assert refused.status_code == 403 and "plays by its own pad or phone" in refused.get_json()["error"]
    assert create_app(WebPort(box)).test_client().get("/api/host/seats").status_code == 403


def test_every_page_and_asset_is_served_by_the_box(app):
    client = app.test_client()
    for path in ["/", "/seat", "/host", "/rules/ponte"]:
        body = client.get(path).get_data(as_text=True)
        assert "http://" not in body and "https://" not in body and "//" not in body.replace("<!--", "")
    for asset in ["/static/phone.js", "/static/phone.css", "/games/ponte/ponte.js"]:
        answer = client.get(asset)
        assert answer.status_code == 200
        assert "http" not in answer.get_data(as_text=True).replace("https?", "")


def test_the_history_keeps_every_game_finished_or_ended_with_its_log(make_box):
    """Defect: ending a game threw it away (its result gone, its log 409). Every game stays in the history."""
    box = make_box()
    client = create_app(WebPort(box), virtual=virtual(box)).test_client()
    assert client.post("/api/host/game", json={"game": "ponte", "seats": 3, "options": {}}).status_code == 201
    press(box, 0, 1)
    assert client.post("/api/host/end", json={}).status_code == 200
    assert client.post("/api/host/game", json={"game": "shangrila", "seats": 3, "options": {}}).status_code == 201
    games = client.get("/api/host/games").get_json()["games"]
    assert [(g["game"], g["playing"], g["ended"], g["over"]) for g in games] == [
        ("shangrila", True, False, False), ("ponte", False, True, False)]
    assert all(g["started"] and g["seats"] == 3 for g in games)
    ended = client.get(f"/api/host/games/{games[1]['id']}/log")
    assert ended.status_code == 200 and "attachment" in ended.headers["Content-Disposition"]
    lines = [json.loads(line) for line in ended.get_data(as_text=True).splitlines()]
    assert [line["game"] for line in lines] == ["ponte"]  # ended mid-match: seat 1's hidden pick stays hidden
    missing = client.get("/api/host/games/999/log", headers={"Accept-Language": "it"})
    assert missing.status_code == 404 and missing.get_json() == {"error": "nessuna partita 999 nella storia del box",
                                                                 "code": "no_such_game"}


def test_fifty_phones_and_a_poller_cost_one_render_and_one_encoding_per_viewer_per_version(app, box, monkeypatch):
    client = app.test_client()
    claim_seat(client, box, 1)
    streams = [client.get("/api/stream", buffered=False).response for _ in range(50)]
    seat_stream = client.get("/api/stream?view=seat", buffered=False).response
    for stream in [*streams, seat_stream]:
        assert next(stream) == b"retry: 2000\n\n" and next(stream).startswith(b"event: box")
        assert next(stream).startswith(b"id: %d\nevent: view" % box.table.version)
    renders, encodings = [], []
    changes, dumps = services(app).changes, json.dumps
    view = changes.view  # the phones' renders (the OLED renders its own)
    monkeypatch.setattr(changes, "view", lambda viewer, view_of: (renders.append(viewer), view(viewer, view_of))[1])
    monkeypatch.setattr("web_companion.streams.json.dumps",  # views (the box's health is encoded as it changes)
                        lambda shown, **k: (encodings.append("version" in shown), dumps(shown, **k))[1])
    for version in range(3):  # three presses: each version rendered once per viewer, however many follow it
        renders.clear(), encodings.clear()
        press(box, version % 4, 1 + version)
        events = {next(stream) for stream in streams}
        polled = {client.get("/api/table").data for _ in range(10)}
        assert len(events) == 1 and len(polled) == 1
        assert next(seat_stream) != events.pop() and client.get("/api/table?view=seat").status_code == 200
        assert sorted(renders, key=str) == [1, "public"] and encodings.count(True) == 2
        assert json.loads(polled.pop())["version"] == box.table.version


def test_a_phone_still_follows_when_the_server_cannot_add_threads(app, box, caplog):
    changes = services(app).changes

    def no_threads(phones):
        raise RuntimeError("can't start new thread")
    changes.when_waiting = no_threads
    stream = app.test_client().get("/api/stream", buffered=False)
    assert stream.status_code == 200 and next(stream.response).startswith(b"retry:")
    assert changes.waiters == 1 and "could not make room" in caplog.text
    stream.close()
    assert changes.waiters == 0

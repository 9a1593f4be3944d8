"""Seats and the host role by consent: a phone gets one only when the player holds, on that seat's pad (or the
host panel), the button the box drew for that phone alone; no press is ever swallowed; claims expire and are
bounded; tokens survive a restart and a new game with as many seats."""
import base64
import tracemalloc

from engine import claims as claims_module
from engine.claims import ClaimRefused, Claims
from engine.rules import ponte
from engine.state_file import MemoryState, StateFileError
from engine.version import about
from tests.conftest import DIRECT_PINMAP, virtual
from tests.phones import hold_button, take
from web_companion import create_app


def phone(box, address="192.168.1.50"):
    client = create_app(box).test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def ask(client, url="/api/seats/1/claim"):
    answer = client.post(url, json={})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def seat_view(client):
    return client.get("/api/table?view=seat").get_json()


def card(button):
    return ponte.CARDS[button - 1]


def test_a_claim_gives_nothing_and_every_press_is_played_until_the_drawn_button_is_held(box, clock):
    """Defect: the player's next ordinary press confirmed a stranger's claim and was swallowed (no pick)."""
    stranger = phone(box)
    claim = ask(stranger)
    assert claim["confirm_by"] == "pad" and 1 <= claim["button"] <= 8 and claim["hold"] == 2.0
    other = claim["button"] % 8 + 1
    assert virtual(box).press(seat=1, button=other)["status"] == "applied"  # another button: a pick at once
    assert box.table.view(1)["my_pick"] == card(other)
    outcome = virtual(box).press(seat=1, button=claim["button"])  # the drawn button, pressed as usual: a pick, at release
    assert outcome["status"] == "applied" and box.table.view(1)["my_pick"] == card(claim["button"])
    assert stranger.get(f"/api/claims/{claim['claim']}").get_json() == {"status": "pending"}
    assert "viewer" not in seat_view(stranger) and "hand" not in seat_view(stranger)
    assert stranger.post("/api/seats/1/act", json={"action": {"seat": 1, "pick": "vertigini"}}).status_code == 403
    clock.advance(claims_module.WINDOW + 1)
    assert stranger.get(f"/api/claims/{claim['claim']}").get_json() == {"status": "expired"}
    assert hold_button(box, claim)["status"] == "applied"  # an expired claim: the hold is a press like any
    clock.advance(claims_module.KEPT + 1)
    assert stranger.get(f"/api/claims/{claim['claim']}").status_code == 404  # forgotten


def test_open_claims_on_several_seats_leave_every_pad_playing(box):
    """Defect: with open claims on several seats every press came back "claimed" and nothing was played."""
    drawn = {seat: ask(phone(box, f"10.0.0.{seat}"), f"/api/seats/{seat}/claim")["button"] for seat in range(4)}
    for seat in range(4):
        assert virtual(box).press(seat=seat, button=drawn[seat])["status"] == "applied"
    assert box.table.view()["history"], "the round of four picks was revealed"


def test_holding_the_drawn_button_hands_the_seat_over_and_the_old_phone_is_told(box):
    """Defect: two phones held one seat; the first was never told."""
    first, second = phone(box, "192.168.1.50"), phone(box, "192.168.1.51")
    take(first, box, "/api/seats/1/claim")
    assert seat_view(first)["viewer"] == 1 and first.get("/api/me").get_json() == {"seat": 1, "host": False,
                                                                                   "lost": None}
    claim = ask(second)
    assert hold_button(box, claim) == {"status": "claimed"}
    assert box.table.view()["locked"] == []  # the hold picked nothing
    assert second.get(f"/api/claims/{claim['claim']}").get_json()["status"] == "confirmed"
    assert seat_view(second)["viewer"] == 1
    assert "viewer" not in seat_view(first)
    assert first.get("/api/me").get_json() == {"seat": None, "host": False, "lost": {"seat": 1}}
    assert first.post("/api/seats/1/act", json={"action": {"seat": 1, "pick": "vertigini"}}).status_code == 403
    assert box.display.screen.title == "Telefono collegato" and box.display.screen.lines == ("Giocatore 2",)


def test_the_host_role_is_handed_over_by_a_held_host_panel_button_and_an_open_claim_swallows_no_ok(make_box):
    """Defect: an open host claim took the host's next OK, and that phone could end the game."""
    box = make_box(url="http://192.168.1.23:8000")
    box.claims.choose = lambda free: "ok" if "ok" in free else free[0]
    stranger = phone(box)
    claim = ask(stranger, "/api/host/claim")
    assert claim["confirm_by"] == "host" and claim["button"] == "ok" and "seat" not in claim
    assert box.display.screen.title == "Telefono per host"
    assert virtual(box).press(host="ok")["status"] == "done" and box.menu.is_open  # OK did what OK does
    assert stranger.post("/api/host/end", json={}).status_code == 403
    assert stranger.get("/api/host").get_json()["host"] is False
    first = phone(box, "192.168.1.60")
    take(first, box, "/api/host/claim")
    assert first.get("/api/host").get_json()["host"] is True
    take(stranger, box, "/api/host/claim")
    assert stranger.get("/api/host").get_json()["host"] is True
    assert first.get("/api/host").get_json()["host"] is False
    assert first.get("/api/me").get_json()["lost"] == {"host": True}


def test_a_seat_no_pad_wires_is_confirmed_on_the_host_panel_with_the_oled_naming_it(make_box):
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 6)  # four pads: seats 5 and 6 play by phone
    client = phone(box)
    claim = ask(client, "/api/seats/5/claim")
    assert claim["confirm_by"] == "host" and claim["button"] in ("prev", "next", "ok", "undo")
    assert box.display.screen.title == "Telefono per G6"
    for seat in range(4):  # no pad confirms it
        virtual(box).press(seat=seat, button=1, hold=3.0)
    assert client.get(f"/api/claims/{claim['claim']}").get_json() == {"status": "pending"}
    assert hold_button(box, claim) == {"status": "claimed"}
    assert client.get(f"/api/claims/{claim['claim']}").get_json()["seat"] == 5
    assert seat_view(client)["viewer"] == 5
    assert box.display.screen.lines == ("Giocatore 6",)


def test_the_oled_names_every_seat_asked_for_until_the_claims_expire(box, clock):
    """Defect: nothing on the OLED said that a claim was pending or whom it concerned."""
    title = box.display.screen.title
    ask(phone(box, "10.0.0.1"), "/api/seats/2/claim")
    assert box.display.screen.title == "Telefono per G3"
    ask(phone(box, "10.0.0.2"), "/api/host/claim")
    assert box.display.screen.title == "Telefoni: G3 host"
    clock.advance(claims_module.WINDOW + 1)
    assert box.display.screen.title == title


def test_a_phone_that_joins_is_named_on_the_oled_while_another_still_asks(box):
    """Defect (seen in the OLED image): the title naming the other open claim hid "Telefono collegato"."""
    claim = ask(phone(box, "10.0.0.1"), "/api/seats/2/claim")
    ask(phone(box, "10.0.0.2"), "/api/seats/1/claim")
    hold_button(box, claim)
    assert box.display.screen.title == "Telefono collegato" and box.display.screen.lines == ("Giocatore 3",)
    virtual(box).press(seat=3, button=1)  # the next input: the title names the claim still open
    assert box.display.screen.title == "Telefono per G2"


def test_the_seat_chooser_says_which_seats_a_phone_holds(make_box):
    """Defect: the seat chooser never said a seat was already held."""
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 5)
    client = phone(box)
    take(client, box, "/api/seats/2/claim")
    seats = phone(box, "10.0.0.9").get("/api/seats").get_json()["seats"]
    assert seats[2] == {"seat": 2, "pad": True, "phone": True, "mine": False}
    assert seats[4] == {"seat": 4, "pad": False, "phone": False, "mine": False}
    assert client.get("/api/seats").get_json()["seats"][2]["mine"] is True
    again = client.post("/api/seats/2/claim", json={})
    assert again.status_code == 409 and "holds player 3's seat already" in again.get_json()["error"]


def test_claims_are_bounded_by_panel_by_address_and_in_all(box, clock):
    """Defect: nothing limited claims (20,000 of them were all kept)."""
    for n in range(claims_module.PER_PANEL):
        ask(phone(box, f"10.0.1.{n}"))
    refused = phone(box, "10.0.1.99").post("/api/seats/1/claim", json={})
    assert refused.status_code == 429 and refused.get_json()["code"] == "claims_busy"
    assert int(refused.headers["Retry-After"]) >= 1
    buttons = {c.button for c in box.claims.waiting(("seat", 1))}
    assert len(buttons) == claims_module.PER_PANEL  # each open claim on a pad holds its own button
    greedy = phone(box, "10.0.2.1")
    for seat in (0, 2, 3):
        ask(greedy, f"/api/seats/{seat}/claim")
    refused = greedy.post("/api/host/claim", json={}, headers={"Accept-Language": "it"})
    assert refused.status_code == 429 and refused.get_json()["code"] == "claims_rate"
    seconds = refused.get_json()["seconds"]
    assert refused.get_json()["error"] == f"Questo telefono ha chiesto troppe volte: riprova tra {seconds} s."
    clock.advance(claims_module.WINDOW + 1)
    assert box.claims.waiting() == []
    ask(greedy, "/api/host/claim")  # expired claims free their places


def test_twenty_thousand_claims_leave_memory_flat():
    clock = [0.0]
    claims = Claims(MemoryState(), lambda: clock[0])

    def flood(count):
        for n in range(count):
            clock[0] += 0.01
            try:
                claims.request(("seat", n % 12), ("seat", n % 12), range(1, 9), 12, f"10.{n % 250}.{n // 250}.1")
            except ClaimRefused:
                pass

    flood(2000)  # warm up: every structure at its bound
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    flood(20000)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(claims._claims) <= claims_module.OPEN_MAX * 4
    assert grown < 64 * 1024, f"{grown} bytes kept after 20,000 claims"


def test_tokens_and_the_language_survive_a_restart_and_a_new_game_with_as_many_seats(make_box, pin_factory):
    """Defect: a restart forgot every phone's seat, the host role and the host's language; a new game
    dropped every seat."""
    box = make_box()
    box.table.new_game("ponte", 4)
    seat_phone, host_phone = phone(box), phone(box, "192.168.1.60")
    take(seat_phone, box, "/api/seats/3/claim")
    take(host_phone, box, "/api/host/claim")
    box.set_language("en")
    box.close()
    box.table.close()
    pin_factory.reset()

    again = make_box()
    seat_phone.application.config["BOX"] = host_phone.application.config["BOX"] = again
    assert again.lang == "en" and again.display.screen.title.startswith("Match")
    assert seat_view(seat_phone)["viewer"] == 3
    assert host_phone.get("/api/host").get_json() == {"host": True, "language": "en", **about()}
    assert host_phone.post("/api/host/game", json={"game": "lifeboats", "seats": 4, "options": {}}
                           ).status_code == 201
    assert seat_view(seat_phone)["viewer"] == 3  # the same four people at the same table
    assert host_phone.post("/api/host/game", json={"game": "ponte", "seats": 5, "options": {}}).status_code == 201
    assert "viewer" not in seat_view(seat_phone)  # five seats: everyone asks again
    assert host_phone.post("/api/host/game", json={"game": "ponte", "seats": 4, "options": {}}).status_code == 201
    assert "viewer" not in seat_view(seat_phone)  # and the old token stays void
    assert host_phone.get("/api/host").get_json()["host"] is True  # the host role goes on
    assert "sha256" not in (again.state.path.read_text()) and seat_phone.get_cookie("arbitro_seat").value \
        not in again.state.path.read_text()  # only digests are written down


def test_tokens_are_at_least_128_bits_http_only_and_same_site(box):
    client = phone(box)
    claim = ask(client)
    hold_button(box, claim)
    answer = client.get(f"/api/claims/{claim['claim']}")
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    token = client.get_cookie("arbitro_seat").value
    assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
    assert len(base64.urlsafe_b64decode(claim["claim"] + "==")) * 8 >= 128


def test_a_hold_whose_token_cannot_be_written_hands_out_nothing(box, monkeypatch):
    client = phone(box)
    claim = ask(client)

    def full(data):
        raise StateFileError("cannot write box.json: No space left on device", full=True)

    monkeypatch.setattr(box.state, "write", full)
    assert hold_button(box, claim) == {"status": "rejected", "error": "storage_full"}
    assert box.display.screen.title == "Memoria piena!"
    assert client.get(f"/api/claims/{claim['claim']}").get_json() == {"status": "pending"}
    assert "viewer" not in seat_view(client)
    monkeypatch.undo()
    assert hold_button(box, claim) == {"status": "claimed"}


def test_a_phone_may_cancel_its_claim_and_free_its_button(box):
    client = phone(box)
    claim = ask(client)
    assert client.delete(f"/api/claims/{claim['claim']}").status_code == 204
    assert box.claims.waiting() == [] and client.delete(f"/api/claims/{claim['claim']}").status_code == 404
    assert virtual(box).press(seat=1, button=claim["button"])["status"] == "applied"

"""Seats and the host role by a code the box shows: someone at the table asks the host panel's menu (or the host's
phone) for a code, and the phone that types it holds the seat. No pad press, however long, pairs anything; a
phone cannot ask, so no stranger floods the asking; wrong codes are bounded per address, so a flood never keeps a
phone at the table from pairing. Tokens survive a restart and a new game with as many seats."""
import base64
import random
import re
import tracemalloc

import pytest
import zxingcpp
from PIL import Image

from device.screens import who
from device.web_port import WebPort
from engine.state_file import MemoryState, StateFileError
from engine.version import about
from games.ponte import rules as ponte
from tests.conftest import DIRECT_PINMAP, virtual
from tests.phones import code_on_oled, link_on_oled, open_link, take
from web_companion import pairing as pairing_module
from web_companion.pairing import Pairing, PairingRefused, guesser
from web_companion import create_app
from web_companion.viewers import HOST_COOKIE, SEAT_COOKIE


def phone(box, address="192.168.1.50"):
    client = create_app(WebPort(box)).test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def restarted(client, box):
    """The phone `client` with its cookies, on the web app of `box` (as the box has restarted)."""
    again = phone(box, client.environ_base["REMOTE_ADDR"])
    for name in (SEAT_COOKIE, HOST_COOKIE):
        kept = client.get_cookie(name)
        if kept is not None:
            again.set_cookie(name, kept.value)
    return again


def enter(client, code, address=None, **headers):
    """POST the code from `client` (from `address` instead of the client's own, when given)."""
    overrides = {"REMOTE_ADDR": address} if address else {}
    return client.post("/api/pair", json={"code": code}, headers=headers, environ_overrides=overrides)


def seat_view(client):
    return client.get("/api/table?view=seat").get_json()


def test_the_code_on_the_oled_pairs_the_phone_that_types_it_and_the_table_sees_who_paired(box):
    """Defect (the old gesture): a player holding a pad button for 2 s handed the seat to a stranger."""
    code = code_on_oled(box, ("seat", 1))
    assert box.display.screen.lines[1:] == ("Scrivilo o", "inquadra il", "QR (2 min)")
    assert len(code) == 7 and code[3] == " " and code.replace(" ", "").isdigit()
    client = phone(box)
    answer = enter(client, code)
    assert answer.status_code == 200 and answer.get_json() == {"seat": 1, "host": False}
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    token = client.get_cookie("arbitro_seat").value
    assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
    assert seat_view(client)["viewer"] == 1
    assert box.display.screen.title == "Telefono collegato" and box.display.screen.lines == ("Giocatore 2",)
    assert not box.menu.is_open  # the code's screen did its job
    again = enter(phone(box, "192.168.1.51"), code, **{"Accept-Language": "it"})  # a code pairs one phone
    assert again.status_code == 403 and again.get_json() == {
        "error": "Codice sbagliato o scaduto: controlla lo schermo del box.", "code": "pair_wrong"}


def test_a_new_phone_takes_the_seat_over_and_the_old_one_is_told(box):
    first, second = phone(box, "192.168.1.50"), phone(box, "192.168.1.51")
    take(first, box, ("seat", 1))
    assert first.get("/api/me").get_json() == {"seat": 1, "host": False, "lost": None}
    take(second, box, ("seat", 1))
    assert seat_view(second)["viewer"] == 1 and "viewer" not in seat_view(first)
    assert first.get("/api/me").get_json() == {"seat": None, "host": False, "lost": {"seat": 1}}
    assert first.post("/api/seats/1/act", json={"action": {"seat": 1, "pick": "vertigini"}}).status_code == 403


def test_the_host_role_pairs_by_its_code_and_hands_codes_to_phones_on_its_own_screen(make_box):
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 6)  # four pads: seats 5 and 6 play by phone
    host, player, stranger = phone(box, "192.168.1.60"), phone(box, "192.168.1.61"), phone(box, "192.168.1.62")
    assert stranger.post("/api/host/pair", json={"seat": 5}).status_code == 403  # only the host hands out codes
    assert take(host, box, ("host",)) == {"seat": None, "host": True}
    assert box.display.screen.lines == (who("it", ("host",)),)
    before = box.display.screen
    answer = host.post("/api/host/pair", json={"seat": 5})
    assert answer.status_code == 201 and answer.get_json()["seconds"] == 120
    code = answer.get_json()["code"]
    assert box.display.screen == before  # the host's phone shows it, not the OLED
    assert enter(player, code).get_json() == {"seat": 5, "host": False}
    assert seat_view(player)["viewer"] == 5
    for body in ({}, {"seat": 6}, {"seat": "1"}, {"seat": True}, {"host": False}, {"host": True, "seat": 1}, []):
        bad = host.post("/api/host/pair", json=body)
        assert bad.status_code in (400, 404) and bad.get_json()["code"] in ("pair_for", "not_at_table"), body
    heir = host.post("/api/host/pair", json={"host": True}).get_json()["code"]
    assert enter(stranger, heir).get_json() == {"seat": None, "host": True}
    assert host.get("/api/host").get_json()["host"] is False
    assert host.get("/api/me").get_json()["lost"] == {"host": True}


def test_wrong_and_malformed_codes_change_nothing(box):
    client = phone(box)
    for code in ("12345", "1234567", "12a456", "１２３４５６", 123456, None, ""):
        answer = enter(client, code, **{"Accept-Language": "it"})
        assert answer.status_code == 400 and answer.get_json()["error"] == "il codice è fatto di 6 cifre", code
    code = code_on_oled(box, ("seat", 2))
    wrong = f"{(int(code.replace(' ', '')) + 1) % 10 ** 6:06d}"
    assert enter(client, wrong).status_code == 403
    assert client.post("/api/pair", json={"code": code, "seat": 1}).status_code == 400
    assert "viewer" not in seat_view(client) and box.menu.mode == "code"
    assert enter(client, f" {code[:3]}  {code[4:]} ").status_code == 200  # spaces as a person types them


def test_an_address_that_guesses_waits_and_a_flood_from_many_never_keeps_a_table_phone_from_pairing(box, clock):
    """Defect (the old claims): 24 claims from 8 addresses locked every phone out of every seat for 60 s. A flood
    now closes the typed code (every address together has TYPED_WRONG tries at it), so the table's phone pairs
    by the QR code's link, which no flood closes."""
    link = link_on_oled(box, ("seat", 3))
    code = box.display.screen.lines[0]
    attacker = phone(box)
    for n in range(250):  # a flood: every address of a /24 but the table phone's, each to its limit and past
        for _ in range(pairing_module.WRONG + 2):
            assert enter(attacker, "000000" if code != "000 000" else "000001", f"10.0.0.{n}").status_code in (403, 429)
    guessed = enter(phone(box, "10.0.0.7"), code, **{"Accept-Language": "it"})  # the right code, too late
    assert guessed.status_code == 429 and int(guessed.headers["Retry-After"]) >= 1
    seconds = guessed.get_json()["seconds"]
    assert guessed.get_json()["error"] == f"Troppi codici sbagliati da questo telefono: riprova tra {seconds} s."
    typed = enter(phone(box, "192.168.1.50"), code, **{"Accept-Language": "it"})
    assert typed.status_code == 403 and typed.get_json() == {"code": "pair_flooded", "error": (
        "Troppi codici sbagliati da questa rete: questo codice non si può più scrivere. Inquadra con la fotocamera "
        "il QR code accanto al codice, oppure chiedine uno nuovo.")}
    table_phone = phone(box, "192.168.1.50")
    assert open_link(table_phone, link).get_json() == {"seat": 3, "host": False}
    assert seat_view(table_phone)["viewer"] == 3
    clock.advance(61)
    assert enter(phone(box, "10.0.0.7"), "000000").status_code == 403  # a minute on, it may guess again


def test_an_ipv6_prefix_guesses_as_one_address():
    assert guesser("2001:db8:1:2::1") == guesser("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert guesser("2001:db8:1:3::1") != guesser("2001:db8:1:2::1")
    assert guesser("::ffff:10.0.0.7") == guesser("10.0.0.7") == "10.0.0.7"
    assert guesser(None) is None and guesser("not an address") == "not an address"


def test_a_code_ends_when_it_expires_when_its_screen_closes_and_when_the_seat_count_changes(box, clock):
    client = phone(box)
    code = code_on_oled(box, ("seat", 0))
    clock.advance(pairing_module.WINDOW + 1)
    assert box.display.screen.lines[:2] == ("Il codice è scaduto:", "chiedine un altro.")
    assert enter(client, code).status_code == 403
    virtual(box).press(host="ok")
    assert not box.menu.is_open
    code = code_on_oled(box, ("seat", 0))
    virtual(box).press(host="prev")  # any key closes the code's screen, and the code ends
    assert not box.menu.is_open and enter(client, code).status_code == 403
    code = code_on_oled(box, ("seat", 0))
    box.new_game("ponte", 5)
    assert enter(client, code).status_code == 403


def test_a_code_the_hosts_phone_replaced_is_over_on_the_oled_and_its_key_leaves_the_newer_code_open(box):
    """The host's phone opening a code for a seat whose code the OLED shows replaces it: the OLED says it is over,
    and the key that closes that screen must not end the phone's newer code."""
    client = phone(box)
    code_on_oled(box, ("seat", 0))
    newer = box.pair_code(("seat", 0))  # from the host's phone
    assert box.display.screen.lines[:2] == ("Il codice è scaduto:", "chiedine un altro.")
    virtual(box).press(host="ok")
    assert not box.menu.is_open
    assert enter(client, newer.code).status_code == 200


def test_no_press_or_hold_of_ordinary_play_pairs_anything_with_strangers_guessing(make_box, clock):
    """The issue's measure: 0 hijacks over ≥ 1,000 holds and presses of ordinary play while strangers try codes
    and codes are open. Every press is played as the press it is."""
    box = make_box(url="http://192.168.1.23:8000")
    draw = random.Random(7)
    box.pairing.draw = draw.randrange
    strangers = [phone(box, f"10.0.9.{n}") for n in range(8)]
    table_phone = phone(box, "192.168.1.50")
    played, paired_by_table = 0, 0
    for game in range(40):
        box.new_game("ponte", 4)
        while not box.table.view()["over"] and played < 1200:
            if played % 50 == 0:  # now and then someone at the table pairs a phone, so codes are open
                link = link_on_oled(box, ("seat", played // 50 % 4))
                for stranger in strangers:
                    enter(stranger, f"{draw.randrange(10 ** 6):06d}")
                assert open_link(table_phone, link).status_code == 200
                paired_by_table += 1
            seat, button = draw.randrange(4), draw.randrange(1, 9)
            hold = draw.choice([None, 0.3, 1.0, 2.0, 2.5, 3.5])
            outcome = virtual(box).press(seat=seat, button=button, hold=hold)
            assert outcome["status"] in ("applied", "rejected", "moved", "phone"), outcome
            played += 1
            for stranger in strangers:
                enter(stranger, f"{draw.randrange(10 ** 6):06d}")
        if played >= 1200:
            break
    assert played >= 1000 and paired_by_table >= 20
    for stranger in strangers:
        assert stranger.get("/api/me").get_json() == {"seat": None, "host": False, "lost": None}
        assert stranger.get("/api/host").get_json()["host"] is False


def test_ten_thousand_guesses_from_as_many_addresses_leave_memory_flat():
    clock = [0.0]
    pairing = Pairing(MemoryState(), lambda: clock[0])

    def flood(count, start):
        for n in range(start, start + count):
            clock[0] += 0.001
            try:
                pairing.enter("000000", f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}")
            except PairingRefused:
                pass

    tracemalloc.start()  # traced from the start, so what the flood frees counts as well as what it keeps
    flood(3 * pairing_module.GUESSERS, 0)  # warm up: every structure at its bound and grown to it
    before = tracemalloc.get_traced_memory()[0]
    flood(10000, 10 ** 6)  # new addresses all: each one remembered, the longest quiet forgotten
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert pairing.guessers <= pairing_module.GUESSERS
    assert grown < 64 * 1024, f"{grown} bytes kept after 10,000 guesses"


def test_tokens_and_the_language_survive_a_restart_and_a_new_game_with_as_many_seats(make_box, pin_factory):
    """Defect: a restart forgot every phone's seat, the host role and the host's language; a new game
    dropped every seat."""
    box = make_box()
    box.table.new_game("ponte", 4)
    seat_phone, host_phone = phone(box), phone(box, "192.168.1.60")
    take(seat_phone, box, ("seat", 3))
    take(host_phone, box, ("host",))
    box.set_language("en")
    box.close()
    box.table.close()
    pin_factory.reset()

    again = make_box()
    seat_phone, host_phone = restarted(seat_phone, again), restarted(host_phone, again)
    assert again.language.value == "en" and again.display.screen.title.startswith("Match")
    assert seat_view(seat_phone)["viewer"] == 3
    assert host_phone.get("/api/host").get_json() == {"host": True, "language": "en", **about()}
    assert host_phone.post("/api/host/game", json={"game": "lifeboats", "seats": 4, "options": {}}
                           ).status_code == 201
    assert seat_view(seat_phone)["viewer"] == 3  # the same four people at the same table
    assert host_phone.post("/api/host/game", json={"game": "ponte", "seats": 5, "options": {}}).status_code == 201
    assert "viewer" not in seat_view(seat_phone)  # five seats: everyone pairs again
    assert host_phone.post("/api/host/game", json={"game": "ponte", "seats": 4, "options": {}}).status_code == 201
    assert "viewer" not in seat_view(seat_phone)  # and the old token stays void
    assert host_phone.get("/api/host").get_json()["host"] is True  # the host role goes on
    assert seat_phone.get_cookie("arbitro_seat").value not in again.state.path.read_text()  # only digests


def test_a_code_whose_token_cannot_be_written_pairs_nothing_and_stays_good(box, monkeypatch):
    client = phone(box)
    code = code_on_oled(box, ("seat", 1))

    def full(data):
        raise StateFileError("cannot write box.json: No space left on device", full=True)

    monkeypatch.setattr(box.state, "write", full)
    answer = enter(client, code)
    assert answer.status_code == 507 and answer.get_json()["code"] == "storage_full"
    assert "viewer" not in seat_view(client) and client.get_cookie("arbitro_seat") is None
    monkeypatch.undo()
    assert enter(client, code).get_json() == {"seat": 1, "host": False}


def test_the_seat_list_says_which_seats_a_phone_holds(make_box):
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 5)
    client = phone(box)
    take(client, box, ("seat", 2))
    seats = phone(box, "10.0.0.9").get("/api/seats").get_json()["seats"]
    assert seats[2] == {"seat": 2, "pad": True, "phone": True, "mine": False}
    assert seats[4] == {"seat": 4, "pad": False, "phone": False, "mine": False}
    assert client.get("/api/seats").get_json()["seats"][2]["mine"] is True


def test_with_no_game_the_menu_pairs_the_host_and_offers_no_seat(make_box):
    box = make_box(url="http://192.168.1.23:8000")
    virtual(box).press(host="menu")
    assert box.display.screen.lines[:2] == (">Torna al gioco", " Nuova partita")
    virtual(box).press(host="menu")
    client = phone(box)
    assert take(client, box, ("host",)) == {"seat": None, "host": True}
    virtual(box).press(host="menu")
    for _ in range(2):
        virtual(box).press(host="next")
    virtual(box).press(host="ok")
    virtual(box).press(host="ok")
    assert box.display.screen.lines[0] == f"> {who('it', ('host',))}"
    virtual(box).press(host="next")
    assert box.display.screen.lines[0] == f"> {who('it', ('host',))}"  # no seats to choose: only the host role


def card(button):
    return ponte.CARDS[button - 1]


def test_the_qr_code_beside_the_code_pairs_the_phone_that_opens_it_and_opening_it_changes_nothing(box):
    """The way that pairs without typing: the link in the QR code, its key 10 base-36 characters (51 bits)."""
    link = link_on_oled(box, ("seat", 2))
    assert re.fullmatch(r"HTTP://192\.168\.1\.23:8000/P/[0-9A-Z]{10}", link), link
    key = link.rsplit("/", 1)[1]
    client = phone(box)
    before = (box.table.version, box.display.screen, box.pairing.showing(("seat", 2)))
    for path in (f"/P/{key}", f"/p/{key.lower()}", "/P/NOT-A-KEY"):  # a preview fetching the link pairs nothing
        page = client.get(path, headers={"Accept-Language": "it"})
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
        assert key not in page.get_data(as_text=True) and "Collegamento del telefono" in page.get_data(as_text=True)
    assert (box.table.version, box.display.screen, box.pairing.showing(("seat", 2))) == before
    assert client.get("/api/me").get_json()["seat"] is None
    answer = client.post("/api/pair", json={"key": key.lower()})  # as a camera app may hand the link on
    assert answer.status_code == 200 and answer.get_json() == {"seat": 2, "host": False}
    assert "HttpOnly" in answer.headers["Set-Cookie"] and seat_view(client)["viewer"] == 2
    assert box.display.screen.title == "Telefono collegato" and not box.menu.is_open
    again = phone(box, "192.168.1.51").post("/api/pair", json={"key": key}, headers={"Accept-Language": "it"})
    assert again.status_code == 403 and again.get_json() == {"code": "pair_link_over", "error": (
        "Questo link non vale più: il suo codice è già stato usato, è scaduto o è stato chiuso. Chiedi un codice "
        "nuovo.")}  # one use
    assert enter(phone(box, "192.168.1.51"), before[2].code).status_code == 403  # and its code went with it


def test_a_malformed_key_is_refused_by_name_and_changes_nothing(box):
    client = phone(box)
    link_on_oled(box, ("seat", 0))
    for key in ("ABC", "A" * 11, "ABCDEFGHI-", "ÀBCDEFGHIJ", 1234567890, None, ["A" * 10]):
        answer = client.post("/api/pair", json={"key": key}, headers={"Accept-Language": "it"})
        assert answer.status_code == 400 and answer.get_json()["error"] == (
            "la chiave del link è fatta di 10 lettere e cifre"), key
    assert client.post("/api/pair", json={"key": "A" * 10, "code": "123456"}).status_code == 400
    assert box.menu.mode == "code" and "viewer" not in seat_view(client)


def test_a_link_ends_with_its_code(box, clock):
    """Used (typed or opened), expired, its screen closed, another code for the same seat, a new seat count."""
    client = phone(box)

    def opened(link):
        return open_link(client, link).status_code

    link = link_on_oled(box, ("seat", 0))
    assert enter(phone(box, "192.168.1.52"), box.display.screen.lines[0]).status_code == 200
    assert opened(link) == 403
    link = link_on_oled(box, ("seat", 0))
    clock.advance(pairing_module.WINDOW + 1)
    assert opened(link) == 403
    virtual(box).press(host="ok")
    link = link_on_oled(box, ("seat", 0))
    virtual(box).press(host="prev")  # any key closes the code's screen
    assert opened(link) == 403
    link = link_on_oled(box, ("seat", 0))
    box.pair_code(("seat", 0))  # the host's phone asks a code for the same seat
    assert opened(link) == 403
    virtual(box).press(host="ok")
    link = link_on_oled(box, ("seat", 1))
    box.new_game("ponte", 5)
    assert opened(link) == 403
    assert "viewer" not in seat_view(client)


def test_wrong_codes_from_every_address_together_close_the_typed_code_but_never_its_link(clock):
    """The bound that holds with any number of addresses: while a code is open the box checks at most TYPED_WRONG
    wrong codes against it, whoever sends them; then the code can no longer be typed, and its link still pairs."""
    pairing = Pairing(MemoryState(), clock)
    draws = iter([111111, 222222, 333333])
    pairing.draw = lambda n: next(draws)
    first = pairing.open(("seat", 0), 4)
    for n in range(pairing_module.TYPED_WRONG - 1):  # one short of the budget, each from its own /64
        with pytest.raises(PairingRefused, match="pair_wrong"):
            pairing.enter("000000", f"2001:db8:{n}::1")
    assert pairing.enter("111111", "192.168.1.50")[0] == ("seat", 0)  # typed before the budget was spent
    second = pairing.open(("seat", 1), 4)
    for n in range(pairing_module.TYPED_WRONG):
        with pytest.raises(PairingRefused, match="pair_wrong"):
            pairing.enter(f"{n:06d}", f"2001:db8:{n}::1")
    with pytest.raises(PairingRefused, match="pair_flooded"):  # no longer checked: said so
        pairing.enter("000009", "10.0.0.9")
    with pytest.raises(PairingRefused, match="pair_flooded"):  # the right code, from the table: closed
        pairing.enter("222222", "192.168.1.50")
    third = pairing.open(("host",))  # a new code is typed afresh: the budget is each code's
    # while it may be typed, the closed code is answered as any wrong one (defect: "pair_flooded" for it alone
    # told a stranger which code the OLED showed)
    with pytest.raises(PairingRefused, match="pair_wrong"):
        pairing.enter("222222", "10.0.0.9")
    assert pairing.enter("333333", "192.168.1.50")[0] == ("host",)
    assert pairing.follow(second.key)[0] == ("seat", 1)
    assert first.key != second.key != third.key
    pairing.close(("host",))
    for n in range(3 * pairing_module.TYPED_WRONG):  # with no code open, a guess spends nothing
        with pytest.raises(PairingRefused, match="pair_wrong"):
            pairing.enter("999999", f"10.0.{n}.1")
    pairing.draw = lambda n: 444444
    pairing.open(("seat", 3), 4)
    assert pairing.enter("444444", "192.168.1.50")[0] == ("seat", 3)


def test_the_hosts_phone_shows_the_link_and_its_qr_code_beside_the_code(make_box):
    box = make_box(pinmap=DIRECT_PINMAP, url="http://192.168.1.23:8000")
    box.table.new_game("ponte", 6)
    host, player = phone(box, "192.168.1.60"), phone(box, "192.168.1.61")
    take(host, box, ("host",))
    answer = host.post("/api/host/pair", json={"seat": 5}).get_json()
    # the box's address, as the OLED shows it: not the name the host's phone used (defect: in mock mode, the
    # laptop's 127.0.0.1, which no phone opens)
    assert re.fullmatch(r"HTTP://192\.168\.1\.23:8000/P/[0-9A-Z]{10}", answer["link"]), answer
    side = len(answer["qr"])
    image = Image.new("L", (side + 8, side + 8), 255)  # in its quiet zone, as the page draws it
    image.putdata([0 if 4 <= y < side + 4 and 4 <= x < side + 4 and answer["qr"][y - 4][x - 4] == "1" else 255
                   for y in range(side + 8) for x in range(side + 8)])
    read = zxingcpp.read_barcodes(image.resize(((side + 8) * 4,) * 2, Image.NEAREST))
    assert [r.text for r in read] == [answer["link"].upper()]
    assert open_link(player, answer["link"]).get_json() == {"seat": 5, "host": False}


def test_a_phone_that_opens_the_link_takes_the_seat_over_and_the_old_one_is_told(box):
    first, second = phone(box, "192.168.1.50"), phone(box, "192.168.1.51")
    take(first, box, ("seat", 1))
    assert open_link(second, link_on_oled(box, ("seat", 1))).get_json() == {"seat": 1, "host": False}
    assert seat_view(second)["viewer"] == 1 and "viewer" not in seat_view(first)
    assert first.get("/api/me").get_json() == {"seat": None, "host": False, "lost": {"seat": 1}}
    assert second.get_cookie("arbitro_seat").value not in box.state.path.read_text()  # only its digest

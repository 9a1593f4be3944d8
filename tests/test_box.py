"""The box on gpiozero's mock pins and luma's dummy OLED: from the host menu to the final screen."""
import sqlite3

from device import screens
from device.display import render
from engine.rules import ponte


def host(box, name):
    return box.click(box.pin_of(host=name))


def pick(box, seat, card):
    return box.click(box.pin_of(seat=seat, button=ponte.CARDS.index(card) + 1))


def shows(box, screen):
    """The OLED frame is exactly that screen, pixel for pixel."""
    assert box.display.screen == screen
    assert box.display.image.tobytes() == render(screen).tobytes()
    return True


def start_from_menu(box, seats=4, deal="box"):
    assert host(box, "ok")["status"] == "done"  # opens the menu on the game
    assert box.display.screen.title == "Il ponte traballante"
    host(box, "ok")
    for _ in range(seats - 3):
        host(box, "next")
    host(box, "ok")
    if deal == "box":
        host(box, "next")
    assert box.display.screen.lines[-1] == "OK: inizia"
    host(box, "ok")
    shown = box.table.view()
    assert (shown["seats"], shown["options"]) == (seats, {"deal": deal})


def test_a_whole_ponte_game_from_the_host_menu_to_the_final_screen(make_box):
    box = make_box(seed=11)
    assert shows(box, screens.no_game("it"))
    start_from_menu(box)
    assert shows(box, screens.live(box.table.view(), "it"))
    matches = 0
    while not box.table.view()["over"]:
        before = box.table.view()
        for seat in before["picking"]:
            card = box.table.legal_actions(seat)[-1]["pick"]
            assert pick(box, seat, card)["status"] == "applied"
        shown = box.table.view()
        if shown["phase"] == "spunto" and shown["match"] == before["match"]:
            continue
        matches += 1
        played = shown["history"][before["match"] - 1]
        pages = screens.match_pages(played, "it")
        if any(played["replacements"]):  # the replacement picks moved the reading on to the Spunto page
            pages = pages[[p.title for p in pages].index("Spunto"):]
        else:
            assert pages[0].lines[0].startswith("G1 ")
        assert shows(box, pages[0])  # the results stay until someone reads on
        for page in pages[1:]:
            host(box, "ok")
            assert shows(box, page)
        host(box, "ok")
        if not shown["over"]:
            assert shows(box, screens.bridge(shown, "it"))
            host(box, "ok")
            assert shows(box, screens.live(shown, "it"))
    assert matches <= 6
    while host(box, "ok") and box.presenter.index < len(box.presenter.pages):
        pass
    final = box.table.view()
    assert shows(box, screens.result(final, "it"))
    assert box.display.screen.title == "Fine partita"


def test_a_rejected_pick_changes_nothing_and_says_so_naming_no_card(make_box, tmp_path):
    box = make_box()
    box.table.new_game("ponte", 3)
    for seat, card in enumerate(["salto_atletico", "scatto_repentino", "vertigini"]):
        pick(box, seat, card)
    version, lines = box.table.version, box.display.screen.lines
    outcome = pick(box, 0, "salto_atletico")
    assert outcome["status"] == "rejected"
    assert outcome["error"] == "R-2: seat 1 does not hold that card"
    assert box.table.version == version
    assert box.display.screen.title == "G1: Non valido"
    assert box.display.screen.lines == lines  # the same results, under the notice
    assert pick(box, 0, "passo_prudente")["status"] == "applied"
    assert box.display.screen.title != "G1: Non valido"


def test_chatter_on_a_pad_pin_is_one_pick(make_box, clock, tmp_path):
    box = make_box()
    box.table.new_game("ponte", 3)
    pin = box.pin_of(seat=1, button=2)
    for _ in range(6):
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.2)
    with sqlite3.connect(tmp_path / "data" / "journal.sqlite3") as db:
        lines = db.execute("SELECT body FROM entries WHERE kind = 'line'").fetchall()
    assert lines == [('{"seat": 1, "pick": "scatto_repentino"}',)]


def test_a_restart_resumes_the_game_on_the_same_data_directory(make_box, pin_factory):
    box = make_box()
    start_from_menu(box, seats=3, deal="table")
    pick(box, 0, "vertigini")
    pick(box, 2, "passo_prudente")
    before = box.table.view()
    frame = box.display.image.tobytes()
    box.close()
    box.table.close()
    pin_factory.reset()

    again = make_box()
    assert again.table.view() == before
    assert again.display.image.tobytes() == frame
    assert again.table.view(0)["my_pick"] == "vertigini"
    pick(again, 1, "salto_atletico")
    assert again.table.view()["history"][0]["reveal"] == ["vertigini", "salto_atletico", "passo_prudente"]


def test_undo_from_the_host_panel_asks_first(make_box):
    box = make_box()
    box.table.new_game("ponte", 3)
    pick(box, 0, "vertigini")
    host(box, "undo")
    assert box.display.screen.lines == ("Annullare l'ultima", "azione?", "OK: si  Menu: no")
    host(box, "menu")  # no
    assert box.table.view()["locked"] == [0]
    host(box, "undo")
    assert host(box, "ok")["message"] == "Annullato"
    assert box.table.view()["locked"] == []
    host(box, "undo")
    assert host(box, "ok")["message"] == "Niente da annullare"


def test_the_reveal_delay_lets_picks_change_then_reveals_at_once(make_box, clock):
    box = make_box(reveal_delay=1.0)
    box.table.new_game("ponte", 3)
    pick(box, 0, "vertigini")
    pick(box, 1, "salto_atletico")
    assert pick(box, 2, "passo_prudente")["status"] == "held"
    assert box.table.view()["locked"] == [0, 1, 2]
    pick(box, 0, "paura_improvvisa")  # still allowed inside the delay
    clock.advance(1.0)
    assert box.table.view()["history"][0]["reveal"] == ["paura_improvvisa", "salto_atletico", "passo_prudente"]
    assert box.display.screen.title == "Match 1: carte"


def test_menu_offers_only_the_seats_the_pin_map_wires(make_box):
    box = make_box()
    host(box, "ok")
    host(box, "ok")
    seen = set()
    for _ in range(6):
        host(box, "next")
        seen.add(box.menu.seats)
    assert seen == {3, 4}


def decode_qr(image):
    import zxingcpp
    found = zxingcpp.read_barcodes(image.convert("L"))
    assert len(found) == 1
    return found[0].text


def test_the_idle_oled_shows_a_qr_code_of_the_box_url(make_box):
    box = make_box(url="http://192.168.1.23:8000")
    assert decode_qr(box.display.image) == "HTTP://192.168.1.23:8000/JOIN"
    assert box.display.screen.lines[:3] == ("Telefono:", "192.168.1.2", "3:8000")


def test_the_in_game_menu_shows_the_qr_code_and_ends_the_game(make_box):
    box = make_box(url="http://10.0.0.7:8000")
    box.table.new_game("ponte", 3)
    host(box, "menu")
    host(box, "ok")  # Telefoni (QR)
    assert decode_qr(box.display.image) == "HTTP://10.0.0.7:8000/JOIN"
    host(box, "ok")  # back to the game
    assert box.display.screen.title == "Match 1: scelte"
    host(box, "menu")
    host(box, "next")
    host(box, "ok")  # Termina partita
    assert box.display.screen.lines[0] == "Terminare la partita?"
    host(box, "ok")
    assert box.table.game is None
    assert box.display.screen.title == "Il ponte traballante"  # straight on to choosing the next game


def test_a_new_game_of_the_same_kind_starts_with_no_results_queued(make_box):
    box = make_box()
    box.table.new_game("ponte", 3)
    for seat, card in enumerate(["salto_atletico", "scatto_repentino", "vertigini"]):
        pick(box, seat, card)
    assert box.display.screen.title == "Match 1: carte"
    box.table.new_game("ponte", 3)
    assert box.display.screen.title == "Match 1: scelte"


def test_a_resumed_game_shows_the_table_not_old_results(make_box, pin_factory):
    box = make_box()
    box.table.new_game("ponte", 3)
    for seat, card in enumerate(["salto_atletico", "scatto_repentino", "vertigini"]):
        pick(box, seat, card)
    assert box.display.screen.title == "Match 1: carte"
    box.close()
    box.table.close()
    pin_factory.reset()
    again = make_box()
    assert again.display.screen == screens.live(again.table.view(), "it")


def test_a_card_name_is_never_split_across_two_pages():
    pages = screens.paged("Match 1: carte", ["G1 Salto atletico", "G2 Spunto interessante",
                                             "G3 Ordine del capo spedizione", "G4 Vertigini"])
    assert [p.lines for p in pages] == [
        ("G1 Salto atletico", "G2 Spunto", "   interessante"),
        ("G3 Ordine del capo", "   spedizione", "G4 Vertigini")]
    assert [p.title for p in pages] == ["Match 1: carte 1/2", "Match 1: carte 2/2"]

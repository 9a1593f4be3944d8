"""The box on gpiozero's mock pins and luma's dummy OLED: from the host menu to the final screen."""
import queue
import sqlite3
import threading
from dataclasses import replace

import pytest

from device import memory, screens
from device.display import render
from device.effects import Held, Pressed
from engine.journal import StorageError
from device.texts import text
from games.ponte import oled as ponte_screens
from games.ponte import rules as ponte
from tests.conftest import DIRECT_PINMAP, virtual


def host(box, name):
    return virtual(box).press(host=name)


def pick(box, seat, card):
    return virtual(box).press(seat=seat, button=ponte.CARDS.index(card) + 1)


def shows(box, screen):
    """The OLED frame is exactly that screen, pixel for pixel."""
    assert box.display.screen == screen
    assert box.display.image.tobytes() == render(screen).tobytes()
    return True


def start_from_menu(box, seats=4, deal="box"):
    assert host(box, "ok")["status"] == "done"  # opens the menu on the game
    assert box.display.screen == screens.Screen("Nuova partita 1/3", (
        "Gioco:", "Il ponte traballante", "< > cambia", "OK: avanti"))
    host(box, "ok")
    for _ in range(seats - 3):
        host(box, "next")
    assert box.display.screen.lines[:2] == ("Giocatori:", str(seats))
    host(box, "ok")
    if deal == "box":
        host(box, "next")
    assert box.display.screen.lines == ("Speciali:", f"{'dal box' if deal == 'box' else 'dal tavolo'}",
                                        "< > cambia", "OK: inizia")
    host(box, "ok")
    shown = box.table.view()
    assert (shown["seats"], shown["options"]) == (seats, {"deal": deal})


def test_a_game_started_on_the_box_shows_its_sealed_draws_then_any_key_plays(make_box):
    """Started from the host panel, a game whose draws are committed shows the commitment's start (the phones
    show the same digits) until a key; then the game's first frame."""
    box = make_box(seeds=lambda: bytes(range(32)))
    for name in ("ok", "ok", "ok", "ok"):  # Ponte, 3 players, specials from the table: start
        host(box, name)
    seal = box.table.view()["chance"]["commitment"]
    assert box.display.screen == screens.Screen("Estrazioni fissate", (
        f"{seal[:4]} {seal[4:8]} {seal[8:12]}", "Controllabili a fine", "partita", "OK: si gioca"))
    host(box, "ok")
    assert shows(box, screens.live(box.table.view(), "it"))


def test_a_pad_press_on_the_seal_goes_on_to_the_game_and_shows_and_a_game_without_draws_has_no_seal(make_box):
    """Defect: a pad press during the seal was taken but nothing showed (the player thought the pad dead), and
    the seal appeared for games the box draws nothing for (Rette sich wer kann's votes, Shangri-La)."""
    box = make_box(seeds=lambda: bytes(range(32)))
    for name in ("ok", "ok", "ok", "ok"):  # Ponte, 3 players: start
        host(box, name)
    assert box.display.screen.title == "Estrazioni fissate"
    assert virtual(box).press(seat=0, button=1)["status"] == "applied"
    assert not box.menu.is_open and "G1 pronto" in " ".join(box.display.screen.lines)
    box.table.end_game()
    host(box, "ok")  # the next game's setup, on from Ponte to Rette sich wer kann
    host(box, "next")
    while box.menu.mode == "setup":
        host(box, "ok")
    assert box.table.game == "lifeboats" and not box.menu.is_open
    assert box.display.screen.title != "Estrazioni fissate"


def test_a_whole_ponte_game_from_the_host_menu_to_the_final_screen(make_box):
    box = make_box(seed=11)
    assert shows(box, screens.no_game("it"))
    start_from_menu(box)
    assert shows(box, screens.live(box.table.view(), "it"))
    matches, seen = 0, set()
    while not box.table.view()["over"]:
        before = box.table.view()
        for seat in before["picking"]:
            card = box.table.legal_actions(seat)[-1]["pick"]
            assert pick(box, seat, card)["status"] == "applied"
        shown = box.table.view()
        if shown["match"] == before["match"] and not shown["over"]:
            continue  # a Spunto replacement or an R-12 re-pick is due
        matches += 1
        chapters = ponte_screens.chapters(shown, "it")
        new = [page for key, pages in chapters if key not in seen for page in pages]
        seen.update(key for key, _ in chapters)
        read = [box.display.screen]  # the results stay until someone reads on
        while not box.face.pages.is_live:
            host(box, "ok")
            read.append(box.display.screen)
        assert read[:-1] == new[len(new) - len(read) + 1:] and len(read) > 2
        assert shows(box, read[-1])
        if not shown["over"]:
            assert read[-2].title == "Ponte  O 1..21 E" and read[-1] == screens.live(shown, "it")
    assert matches <= 6
    final = box.table.view()
    assert shows(box, replace(ponte_screens.result(final, "it"), title="Finita · OK: un'altra"))


def test_ok_on_the_final_screen_opens_the_menu_on_a_new_game(make_box):
    """Defect: on "Fine partita" OK did nothing and nothing said that a new game is Menu, then Nuova partita. The
    last screen says OK starts another; OK opens the menu on "Nuova partita" (after any result page still to read),
    and OK again is the new game's first step."""
    from tests.test_table import finished
    box = make_box()
    finished(box.table)
    while not box.face.pages.is_live:
        host(box, "ok")
    final = box.display.screen
    assert final.title == "Finita · OK: un'altra" and final.lines == screens.live(box.table.view(), "it").lines
    assert final.lines[0].startswith("Vince")
    host(box, "ok")
    assert shows(box, screens.Screen("Menu", (" Torna al gioco", ">Nuova partita", " Telefoni", "OK: scegli")))
    host(box, "ok")
    assert box.display.screen.title == "Nuova partita 1/3"
    box.language.choose("en")
    host(box, "menu")
    assert not box.menu.is_open and box.display.screen.title == "Over · OK: new game"


def test_a_refused_secret_pick_changes_nothing_shows_the_table_nothing_and_ticks_like_any_press(make_box):
    """Defect: a refused secret press put "G1: Non valido" and its reason on the OLED and played the refusal buzz:
    the table learnt which card a seat no longer holds. The OLED and the buzzer are public; the reason goes to
    the seat alone (the press's answer: its phone, the virtual box's finger)."""
    box = make_box()
    heard = []
    box.sounds.play = heard.append
    box.table.new_game("ponte", 3)
    for seat, card in enumerate(["salto_atletico", "scatto_repentino", "vertigini"]):
        pick(box, seat, card)
    version, frame = box.table.version, render(box.display.screen).tobytes()
    heard.clear()
    outcome = pick(box, 0, "salto_atletico")  # played in the first match: no longer in the hand
    assert outcome["status"] == "rejected" and outcome["secret"]
    assert (outcome["code"], outcome["error"]) == ("not_held", "il giocatore 1 non ha quella carta")
    assert box.table.version == version
    assert render(box.display.screen).tobytes() == frame and heard == ["tick"]
    assert pick(box, 0, "passo_prudente")["status"] == "applied"
    assert heard == ["tick", "tick"]


def test_an_open_refusal_is_still_said_on_the_oled(make_box):
    """A refusal that hides nothing (no secret pick is asked of the seat) names its reason to the table."""
    box = make_box()
    box.table.new_game("ponte", 3)
    outcome = virtual(box).press(seat=5, button=1)  # no player 6 at this table
    assert outcome["status"] == "rejected" and not outcome.get("secret")
    assert box.display.screen.title == "G6: Non valido"


def journal_lines(tmp_path):
    with sqlite3.connect(tmp_path / "data" / "journal.sqlite3") as db:
        return db.execute("SELECT body FROM entries WHERE kind = 'line'").fetchall()


def test_chatter_on_a_direct_wired_pad_pin_is_one_pick(make_box, clock, tmp_path):
    box = make_box(pinmap=DIRECT_PINMAP)
    box.table.new_game("ponte", 3)
    pin = box.pads.buttons[("seat", 1, 2)].pin
    for _ in range(6):
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.2)
    assert journal_lines(tmp_path) == [('{"seat": 1, "pick": "scatto_repentino"}',)]


def test_chatter_on_a_matrix_key_is_one_pick(make_box, tmp_path):
    box = make_box()
    box.table.new_game("ponte", 3)
    matrix, scanner = virtual(box).finger.simulated, box.pads.scanner
    for _ in range(6):  # closed for fewer scans than the debounce, then open again
        matrix.close(1, 1)
        for _ in range(scanner.stable_scans - 1):
            scanner.scan()
        matrix.open(1, 1)
        scanner.scan()
    assert journal_lines(tmp_path) == []
    matrix.close(1, 1)
    for _ in range(scanner.stable_scans * 3):
        scanner.scan()
    assert journal_lines(tmp_path) == [('{"seat": 1, "pick": "scatto_repentino"}',)]


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
    assert box.display.screen.lines == ("Annullare l'ultima", "azione?", "OK: sì  Menu: no")
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


def test_the_menu_offers_every_seat_count_and_says_which_seats_play_by_phone(make_box):
    box = make_box(pinmap=DIRECT_PINMAP)  # four pads
    host(box, "ok")
    host(box, "ok")
    seen = set()
    for _ in range(6):
        host(box, "next")
        seen.add(box.menu.seats)
        if box.menu.seats > 4:
            assert box.display.screen.lines[2] == ("G5: telefono" if box.menu.seats == 5 else "G5-G6: telefono")
    assert seen == {3, 4, 5, 6}
    while box.menu.seats != 6:
        host(box, "next")
    host(box, "ok")
    host(box, "ok")
    assert box.table.view()["seats"] == 6


def test_a_two_seat_pin_map_opens_the_menu_and_starts_a_game_with_phone_seats(make_box, tmp_path):
    """Defect: the menu crashed (IndexError) when a game's fewest seats exceeded the wired seats."""
    pinmap = tmp_path / "two.toml"
    pinmap.write_text(DIRECT_PINMAP.read_text().replace("3 = [25, 26, 27, 28, 29, 30, 31, 32]\n", "")
                      .replace("4 = [33, 34, 35, 36, 37, 38, 39, 40]\n", ""))
    box = make_box(pinmap=pinmap)
    host(box, "ok")
    assert box.display.screen.title == "Nuova partita 1/3"
    host(box, "ok")
    assert box.display.screen.lines[:3] == ("Giocatori:", "3", "G3: telefono")
    host(box, "ok")
    host(box, "ok")
    assert box.table.view()["seats"] == 3


def test_after_ending_a_game_the_menu_opens_on_a_harmless_entry(make_box):
    """Defect: after ending a game, Menu, OK, OK ended the next game by accident."""
    box = make_box()
    box.table.new_game("ponte", 3)
    host(box, "menu")
    host(box, "next")
    host(box, "next")
    host(box, "ok")  # Termina partita
    host(box, "ok")  # sì
    host(box, "ok")
    host(box, "ok")
    host(box, "ok")  # a new game, started from the menu
    assert box.table.view()["seats"] == 3
    host(box, "menu")
    assert box.display.screen.lines[0] == ">Torna al gioco"
    host(box, "ok")
    host(box, "ok")
    assert box.table.game == "ponte" and not box.menu.is_open


def decode_qr(image):
    import zxingcpp
    found = zxingcpp.read_barcodes(image.convert("L"))
    assert len(found) == 1
    return found[0].text


def test_the_idle_oled_shows_a_qr_code_of_the_box_url(make_box):
    box = make_box(url="http://192.168.1.23:8000")
    assert decode_qr(box.display.image) == "HTTP://192.168.1.23:8000/JOIN"
    assert box.display.screen.title == "Telefono:"
    assert box.display.screen.lines[:2] == ("192.168.1.", "23:8000")  # never a number cut in two


def test_an_address_too_long_for_a_qr_code_is_still_shown_in_words(make_box):
    box = make_box(url="http://arbitro-del-circolo-dei-giochi-da-tavolo.local:8000")
    assert box.display.screen.qr and box.display.screen.title == "Telefono:"
    assert box.display.screen.lines[0].startswith("arbitro")
    assert not box.display.image.crop((0, 0, 58, 64)).getbbox()  # no code where it would not fit


@pytest.mark.parametrize("address, lines", [
    ("127.0.0.1:8000", ["127.0.0.1", ":8000"]),
    ("192.168.100.200:65535", ["192.168.", "100.200", ":65535"]),
    ("10.0.0.7:80", ["10.0.0.7:80"]),
])
def test_an_address_breaks_only_between_its_numbers(address, lines):
    assert screens.address_lines(address) == lines


def test_the_in_game_menu_shows_the_qr_code_and_ends_the_game(make_box):
    box = make_box(url="http://10.0.0.7:8000")
    box.table.new_game("ponte", 3)
    host(box, "menu")
    host(box, "next")
    host(box, "ok")  # Telefoni: the QR code, then OK pairs a phone
    assert decode_qr(box.display.image) == "HTTP://10.0.0.7:8000/JOIN"
    assert box.display.screen.lines[-1] == "OK: abbina"
    host(box, "menu")  # back to the game
    assert box.display.screen.title == "Match 1: scelte"
    host(box, "menu")
    host(box, "prev")
    host(box, "ok")  # Termina partita
    assert box.display.screen.lines[0] == "Terminare la partita?"
    host(box, "ok")
    assert box.table.game is None
    assert box.display.screen.title == "Nuova partita 1/3"  # straight on to choosing the next game


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


def test_holding_menu_for_five_seconds_asks_then_powers_the_box_off(make_box, clock):
    powered_off = []
    box = make_box(power_off=lambda: powered_off.append(True))  # None: going down
    box.table.new_game("ponte", 3)
    host(box, "menu")  # a short press: the in-game menu, nothing more
    clock.advance(10)
    assert box.menu.mode == "main"
    host(box, "menu")
    virtual(box).press(host="menu", hold=4.0)  # held, but not long enough
    assert box.menu.mode == "main"
    virtual(box).press(host="menu", hold=5.5)
    assert box.menu.mode == "poweroff"
    assert box.display.screen.lines == ("Spegnere il box?", "OK: sì  Menu: no")
    host(box, "menu")  # no
    assert box.menu.mode is None and powered_off == []
    virtual(box).press(host="menu", hold=5.5)
    host(box, "ok")
    assert powered_off == [True] and box.menu.mode == "off"
    assert "Si spegne" in box.display.screen.lines[0]
    host(box, "ok")  # going down: nothing more happens
    assert box.menu.mode == "off" and box.table.view()["game"] == "ponte"
    box.close()  # the shutdown stops the box: the OLED still says to wait for the green LED
    assert "Si spegne" in box.display.screen.lines[0]


def test_a_stopped_box_says_so_on_the_oled_after_the_presses_already_read(make_box):
    """`systemctl stop` (SIGTERM) or Ctrl-C: the box applies the presses it read, then says it stopped."""
    box = make_box()
    box.table.new_game("ponte", 3)
    pick(box, 0, "vertigini")
    box.close()
    assert box.table.view()["locked"] == [0]
    assert box.display.screen == screens.Screen("Arbitro", ("Box fermato: ogni", "partita è salvata.",
                                                            "Riavvialo per", "riprendere."))


def test_when_the_box_cannot_power_off_it_says_so_and_referees_on(make_box, clock):
    box = make_box(power_off=lambda: "poweroff_failed")
    virtual(box).press(host="menu", hold=5.5)
    assert host(box, "ok")["message"] == "Non si spegne: vedi il registro di sistema"
    assert box.display.screen.lines == ("Non si spegne: vedi", "il registro di", "sistema",
                                        "OK: torna")  # on the OLED until a key
    host(box, "ok")
    assert box.menu.mode is None and box.display.screen.lines == ("Menu: scegli un gioco",)  # back to idle


def test_the_in_game_menu_switches_the_language_and_starts_a_new_game(make_box):
    box = make_box()
    box.table.new_game("ponte", 3)
    host(box, "menu")
    assert box.display.screen.lines == (">Torna al gioco", " Telefoni", " Nuova partita", "OK: scegli")
    for _ in range(3):
        host(box, "next")
    assert box.display.screen.lines == (" Nuova partita", ">Lingua: italiano", " Termina partita", "OK: scegli")
    host(box, "ok")  # the other language at once, kept across a restart
    assert box.language.value == "en" and box.state.read()["language"] == "en"
    assert box.display.screen.lines == (" New game", ">Language: English", " End the game", "OK: choose")
    host(box, "prev")
    host(box, "ok")  # New game, during a game
    assert box.display.screen.title == "New game 1/3"
    for _ in range(3):
        host(box, "ok")
    assert box.table.game == "ponte" and box.table.history()[1]["ended"]  # the old game stays in the history


def test_the_virtual_pads_name_every_key_in_the_box_language(make_box):
    """The cursor's keys (button 7 says "indietro", not "back") and the keys a prompt gives a choice each."""
    box = make_box()
    box.table.new_game("leader1", 2)
    assert virtual(box).pad_labels(0) == ["cursore <", "cursore >", "", "", "", "", "indietro", "OK"]
    while box.table.view()["phase"] != "scatti":
        seat = box.table.view()["to_act"][0]
        virtual(box).press(seat=seat, button=8)
    seat = box.table.view()["to_act"][0]
    assert virtual(box).pad_labels(seat)[2:6] == ["passista", "leader", "scalatore", "nessuno scatto"]



def test_a_virtual_pad_names_no_key_the_cursor_has_not_a_private_choice_stays_off_it(make_box):
    """Defect: the virtual pads labelled a prompt's keys whole, while the cursor (and so the pad) runs over its
    public choices only (`Prompt.on_cursor`): a key whose choices are all private showed a word the public box
    must not, and that the key does not do."""
    from dataclasses import replace

    from device.seen import pad_prompt
    box = make_box()
    box.table.new_game("leader1", 2)
    while box.table.view()["phase"] != "scatti":
        virtual(box).press(seat=box.table.view()["to_act"][0], button=8)
    seat = box.table.view()["to_act"][0]
    asked = box.table.prompt(seat)
    hidden = asked.keys[3]  # button 6's key, made private: only the seat's phone may offer it
    private = replace(asked, choices=tuple(replace(c, private=c.label == hidden or c.group == hidden)
                                           for c in asked.choices))
    box.seen = replace(box.seen, pads=tuple(pad_prompt(private) if s == seat else None
                                            for s in range(len(box.seen.pads))))  # what the face sees of it
    assert virtual(box).pad_labels(seat)[2:6] == ["passista", "leader", "scalatore", ""]


def counting_refreshes(box):
    """Count the screens the box hands its OLED from now on."""
    calls = []
    show = box.display.show
    box.display.show = lambda screen: (calls.append(1), show(screen))[1]
    return calls


def test_a_press_refreshes_the_oled_once(make_box):
    box = make_box(seed=3)
    start_from_menu(box)
    refreshes = counting_refreshes(box)
    assert pick(box, 0, box.table.legal_actions(0)[0]["pick"])["status"] == "applied"
    assert len(refreshes) == 1
    assert host(box, "next")["status"] == "done" and len(refreshes) == 2
    box.new_game("ponte", 3)  # the host page starts a game: one refresh too
    assert len(refreshes) == 3


def test_a_phone_s_action_refreshes_the_oled_once_through_the_table(make_box):
    box = make_box(seed=3)
    box.new_game("ponte", 3)
    refreshes = counting_refreshes(box)
    box.table.act({"seat": 2, "pick": box.table.legal_actions(2)[0]["pick"]})
    assert len(refreshes) == 1


def test_the_box_carries_no_mock_only_api_the_virtual_box_is_an_adapter_beside_it(make_box):
    """The virtual box (device/virtual_box.py) is built beside the box by the composition root, on mock pins
    only: the box has no press, pad labels or OLED image of its own, and its pads keep no outcomes for it.
    Defect: the pads and the scanner carried the virtual box's finger (`tap`, `simulated`, `settle_time`,
    `settle`) and the box took the simulated matrix (`Box(simulated=)`): the finger is mock mode's own now
    (device/mock.py)."""
    import inspect

    from device.box import Box
    from device.matrix import MatrixScanner
    from device.pads import DirectPads, MatrixPads
    box = make_box()
    assert not any(hasattr(Box, name) for name in ("press", "pad_labels", "oled_png", "sleep"))
    assert not hasattr(box.pads, "last") and virtual(box).box is box
    for part in (DirectPads, MatrixPads, MatrixScanner):
        assert not any(hasattr(part, name) for name in ("tap", "simulated", "settle_time", "settle")), part
    assert "simulated" not in inspect.signature(Box).parameters
    box.table.new_game("ponte", 3)
    assert virtual(box).press(seat=0, button=1) == {"seat": 0, "button": 1, "status": "applied",
                                                        "secret": True}


def test_undo_of_a_finished_game_on_the_host_panel_says_why_it_is_refused(make_box):
    from tests.test_table import finished
    box = make_box()
    finished(box.table)
    host(box, "undo")
    assert host(box, "ok")["message"] == "Partita finita: non si annulla più. Nuova partita dal menu"
    assert box.display.screen.lines == ("Partita finita: non", "si annulla più. Nuova", "partita dal menu", "OK: torna")
    assert box.table.view()["over"]


def test_a_team_with_only_its_pad_plays_a_choice_over_its_public_choices_its_tiles_on_its_phone(make_box):
    """Defect: with the supply tiles held by the box every Leader 1 prompt was secret, so a pad pressed there only
    said "answer on your phone": a team without a phone could not play at all. The cursor now runs over the
    choices that name nothing secret; the tiles the box holds are offered on the team's phone alone."""
    import random
    box = make_box()
    box.table.new_game("leader1", 2, {"supply": "box"})
    rng = random.Random(2)
    while not any(c.private for c in getattr(box.table.prompt(1), "choices", ())):
        seat = rng.choice(list(box.table.actors()))
        box.table.act(rng.choice(box.table.legal_actions(seat)))
    prompt = box.table.prompt(1)
    private = [c for c in prompt.choices if c.private]
    assert not prompt.secret and private and all(c.group.startswith("tile:") for c in private)
    offered = [c["action"] for c in box.table.view(1)["prompt"]["choices"]]
    assert all(c.action in offered for c in private)  # the team's phone offers its tiles
    shown = [c for c in box.table.view(1)["prompt"]["choices"] if c["action"] in [p.action for p in private]]
    assert all(c["confirm"] for c in shown)  # a tile spent is asked twice on the phone: a slip costs it
    public = {text("it", c.label, "leader1") for c in prompt.choices if not c.private}
    seen = set()
    for _ in range(len(prompt.choices) + 2):  # round the whole cursor, and past it
        assert virtual(box).press(seat=1, button=2)["status"] == "moved"
        seen.add(box.display.screen.lines[0].split("> ", 1)[1])
    assert seen == public  # never a tile the box holds
    while box.display.screen.lines[0] != "> " + text("it", "ride:leader", "leader1"):
        assert virtual(box).press(seat=1, button=2)["status"] == "moved"
    before = box.table.version
    assert virtual(box).press(seat=1, button=8)["status"] == "applied"  # the pad alone played the attack
    assert box.table.version > before


def test_a_refused_private_choice_shows_the_table_nothing(make_box):
    """A team's tiles are its own even where the choice is open: a refused tile (one its phone was never offered)
    is said to the team alone. Defect (once Leader 1's choices stopped being labelled secret): the OLED said
    "G2: Non valido" and the reason, the buzzer buzzed."""
    import random
    box = make_box()
    heard = []
    box.sounds.play = heard.append
    box.table.new_game("leader1", 2, {"supply": "box"})
    rng = random.Random(2)
    while not any(c.private for c in getattr(box.table.prompt(1), "choices", ())):
        seat = rng.choice(list(box.table.actors()))
        box.table.act(rng.choice(box.table.legal_actions(seat)))
    screen = box.display.screen
    tile = next(c.action for c in box.table.prompt(1).choices if c.private)
    unheld = {**tile, "choose": {"supply": [tile["choose"]["supply"][0], 99]}}
    outcome = box.seat_act(1, unheld)
    assert outcome["status"] == "rejected" and outcome["secret"]
    assert box.display.screen == screen and "refused" not in heard
    # the team's pad runs over the public choices: a refused press there is said to the table, as anywhere
    # (defect: a pad-only team pressing a key the question does not use heard and saw nothing)
    refused = next(p for p in (virtual(box).press(seat=1, button=b) for b in range(3, 7)) if p["status"] == "rejected")
    assert "secret" not in refused and heard[-1] == "refused"
    assert box.display.screen.title == "G2: Non valido"
    assert box.display.screen.lines == screens.refused(refused["error"]).lines


def test_the_key_scan_goes_on_while_a_press_is_committed(make_box, monkeypatch):
    """Defect: a pad press ran the whole action — the rules, the journal's commit with its fsyncs, the OLED —
    on the key scanner's thread, so no key was scanned meanwhile. A started box's pads only hand presses over;
    the box applies them on a thread of its own."""
    import threading

    from engine.journal import Journal
    box = make_box()
    box.table.new_game("ponte", 3)
    committing, go_on, handled = threading.Event(), threading.Event(), threading.Condition()
    done = []
    real = Journal.append

    def slow(journal, *args, **kwargs):
        committing.set()
        assert go_on.wait(10), "the commit was never let go on"
        return real(journal, *args, **kwargs)

    def told(key, outcome):
        with handled:
            done.append((key, outcome["status"]))
            handled.notify_all()

    monkeypatch.setattr(Journal, "append", slow)
    box.subscribe_presses(told)
    box.start()
    finger = virtual(box).finger
    finger.tap(("seat", 0, 1), True)  # seat 1's pick: its commit is held up
    assert committing.wait(10)
    finger.tap(("seat", 1, 2), True)  # meanwhile another key is scanned and seen at once
    assert box.pads.is_pressed(("seat", 1, 2)) and done == []
    go_on.set()
    with handled:
        assert handled.wait_for(lambda: len(done) == 2, timeout=10)
    assert done == [(("seat", 0, 1), "applied"), (("seat", 1, 2), "applied")]
    assert box.table.view()["locked"] == [0, 1]


# -- the box's one thread: no error stops it, what a press leads to comes before the next press -------------
def told(box):
    """The outcome of every key pressed from now on, as the box tells them."""
    got = queue.Queue()
    box.subscribe_presses(lambda key, outcome: got.put((key, outcome)))
    return got


def test_an_effect_that_fails_refuses_its_key_and_the_next_press_works(make_box):
    """Defect (review): an error doing an effect (here the power-off) ended the box's thread for good."""
    def power_off():
        raise FileNotFoundError("systemctl")
    box = make_box(power_off=power_off)
    box.start()
    got = told(box)
    box.post(Pressed(("host", "menu")), Held(1), Pressed(("host", "ok")))  # held, asked, confirmed
    assert got.get(timeout=10)[1]["status"] == "done"
    assert got.get(timeout=10) == (("host", "ok"), {"status": "rejected", "error": "box_error"})
    box.post(Pressed(("host", "menu")))
    assert got.get(timeout=10)[1]["status"] == "done"


def test_a_presentation_that_fails_once_leaves_the_box_stepping(make_box, monkeypatch):
    """Defect (review): a game's page builder raising on the box's thread stopped every later press."""
    box = make_box()
    box.table.new_game("ponte", 3)
    box.start()
    got = told(box)
    real, calls = screens.chapters, []

    def once(*args):
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("a bug")
        return real(*args)
    monkeypatch.setattr(screens, "chapters", once)
    box.seat_act(1, box.table.legal_actions(1)[0])
    box.post(Pressed(("host", "menu")))
    assert got.get(timeout=10)[1]["status"] == "done" and calls


def test_before_start_a_phone_input_that_fails_is_still_followed_by_the_face(make_box, monkeypatch):
    """Defect (review): a failing input before start() left the table's fault queued, never stepped."""
    from tests.test_faults import Disk
    box = make_box()
    box.table.new_game("ponte", 3)
    Disk(monkeypatch).full = True
    with pytest.raises(StorageError):
        box.seat_act(0, box.table.legal_actions(0)[0])
    assert box.seen.fault == "full" and box.display.screen.title == "Memoria piena!"


def test_two_quick_oks_on_the_language_entry_change_it_twice(make_box):
    """Defect (review): the language the first OK chose was queued behind the second OK, read meanwhile: the
    second chose the same language again."""
    from device.menu import IDLE
    box = make_box()
    box.post(Pressed(("host", "menu")), *[Pressed(("host", "next"))] * IDLE.index("language"))
    box.post(Pressed(("host", "ok")), Pressed(("host", "ok")))
    assert box.language.value == "it"


def test_a_pad_press_read_while_a_game_starts_comes_after_its_seal(make_box, monkeypatch):
    """Defect (review): a press the pads read while the menu started a game was stepped before the game's start
    was told to the face, which then put the seal over a game already under way."""
    box = make_box(seeds=lambda: bytes(range(32)))
    monkeypatch.setattr(memory, "release", lambda: pads_read(box, 0, 1))
    for name in ("ok", "ok", "ok", "ok"):  # Ponte, 3 players: start
        box.post(Pressed(("host", name)))
    assert box.table.view()["locked"] == [0]  # the press was taken, and the seal made way for the game
    assert not box.menu.is_open and "G1 pronto" in " ".join(box.display.screen.lines)


def pads_read(box, seat, button):
    """The pads' own thread reads a press (while the box's thread is busy)."""
    reader = threading.Thread(target=box.seat_pressed, args=(seat, button))
    reader.start()
    reader.join()


def test_a_held_card_and_one_not_held_fail_alike_on_a_full_disk(make_box, monkeypatch):
    """Defect (review): on a full disk a held card's press buzzed its failure while a card the seat does not hold
    was refused silently: the buzzer told the table what the seat holds."""
    from tests.test_faults import Disk
    box = make_box()
    box.table.new_game("ponte", 3, {"deal": "box"})
    cues = []
    monkeypatch.setattr(box, "sound", cues.append)
    Disk(monkeypatch).full = True
    prompt = box.table.prompt(0)
    held = [n for n, c in enumerate(prompt.pad, 1) if c in prompt.choices]
    not_held = [n for n, c in enumerate(prompt.pad, 1) if c is not None and c not in prompt.choices]
    heard = []
    for button in (held[0], not_held[0]):
        cues.clear()
        frame = virtual(box).press(seat=0, button=button) and box.display.image.tobytes()
        heard.append((list(cues), frame))
    assert heard[0] == heard[1] and heard[0][0] == ["tick"]


def test_a_code_asked_for_right_after_a_game_of_another_seat_count_pairs_while_the_oled_catches_up(make_box,
                                                                                                   monkeypatch):
    """Defect (bench/presses.py found it): the phones of the last seat count were forgotten when the box's thread
    caught up with the new game, so a code the host's phone had asked for meanwhile was voided with them."""
    box = make_box()
    box.table.new_game("ponte", 4)
    box.start()
    gate, blocked, real = threading.Event(), threading.Event(), box.display.show

    def held(screen):
        blocked.set()
        assert gate.wait(10)
        real(screen)
    monkeypatch.setattr(box.display, "show", held)
    box.post(Pressed(("host", "prev")))
    assert blocked.wait(10)  # the box's thread is busy with a frame
    box.new_game("ponte", 5)  # from the host's phone
    code = box.pair_code(("seat", 4))
    gate.set()
    got = told(box)
    box.post(Pressed(("host", "prev")))
    assert got.get(timeout=10)[0] == ("host", "prev") and box.seen.seats == 5  # caught up
    assert box.pair(code.code)[0] == ("seat", 4)

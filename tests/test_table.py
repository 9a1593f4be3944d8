"""The running table: journal-first inputs, resume, undo, reveal delay, subscribers, threads."""
import json
import random
import sqlite3
import threading

import pytest

from engine.journal import Journal, JournalError
from engine.replay import replay
from engine.rules import Rejected, ponte
from engine.table import Table

SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI, SPUNTO, ORDINE, PESANTE = ponte.CARDS


def journal_rows(path):
    with sqlite3.connect(path) as db:
        return [json.loads(body) for (body,) in db.execute("SELECT body FROM entries WHERE kind = 'line'")]


def test_no_game_yet(table):
    assert table.view()["game"] is None
    with pytest.raises(Rejected, match="no game is being played"):
        table.press(0, 1)
    with pytest.raises(Rejected, match="no game is being played"):
        table.undo()


def test_each_press_is_journaled_before_it_is_acknowledged(table, tmp_path):
    table.new_game("ponte", 3)
    assert table.press(0, 1) == "applied"
    assert journal_rows(tmp_path / "journal.sqlite3") == [{"seat": 0, "pick": SALTO}]
    table.press(1, 2)
    table.press(2, 5)  # the last pick: the event is drawn and journaled with it
    rows = journal_rows(tmp_path / "journal.sqlite3")
    assert rows[:3] == [{"seat": 0, "pick": SALTO}, {"seat": 1, "pick": SCATTO}, {"seat": 2, "pick": VERTIGINI}]
    assert rows[3]["chance"] == "event" and rows[3]["outcome"] in ponte.EVENTS
    assert table.view()["match"] == 2


def test_a_rejected_press_changes_nothing(table, tmp_path):
    table.new_game("ponte", 3)
    table.press(0, 1)
    version = table.version
    for seat, button, message in [(0, 9, "buttons 1 to 8"), (3, 1, "no seat 3"), (1, 7, None)]:
        if message:
            with pytest.raises(Rejected, match=message):
                table.press(seat, button)
    table.press(1, 7)  # seat 1 plays Ordine ...
    with pytest.raises(Rejected, match="R-2: seat 3 does not hold that card"):
        table.press(2, 7)  # ... so seat 2 cannot
    assert table.version == version + 1
    assert len(journal_rows(tmp_path / "journal.sqlite3")) == 2


def test_closing_mid_match_and_reopening_finds_the_same_state_with_picks_still_secret(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(Journal(path))
    first.new_game("ponte", 4)
    for seat, button in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (2, 4)]:  # match 1, then two picks of match 2
        first.press(seat, button)
    before = {viewer: first.view(viewer) for viewer in ["public", 0, 1, 2, 3]}
    first.close()

    second = Table(Journal(path))
    for viewer, shown in before.items():
        assert second.view(viewer) == shown
    assert second.view("public")["locked"] == [0, 2]
    assert second.view(0)["my_pick"] == VERTIGINI and second.view(1)["my_pick"] is None
    assert VERTIGINI in second.view(1)["hand"]  # seat 1 still holds what seat 0 locked: no hint there
    second.press(1, 4)
    second.press(3, 1)  # the picks locked before the restart still count: the match resolves
    reveal = second.view("public")["history"][1]["reveal"]
    assert reveal == [VERTIGINI, PRUDENTE, PRUDENTE, SALTO]
    second.close()


def test_a_finished_game_stays_on_show_after_a_restart_until_a_new_one(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(Journal(path), random=random.Random(3))
    first.new_game("ponte", 3)
    while not first.view()["over"]:
        for seat in first.view()["picking"]:
            first.act(first.legal_actions(seat)[0])
    result = first.view()["result"]
    first.close()
    second = Table(Journal(path))
    assert second.view()["result"] == result
    second.end_game()
    assert second.view()["game"] is None
    second.close()
    assert Table(Journal(path)).view()["game"] is None


def test_undo_is_a_new_row_and_takes_back_the_last_pick_with_its_chance(table, tmp_path):
    table.new_game("ponte", 3)
    table.press(0, 1)
    table.press(1, 2)
    table.press(2, 5)
    assert table.view()["match"] == 2
    assert table.undo() == "undone"
    shown = table.view()
    assert shown["match"] == 1 and shown["locked"] == [0, 1] and shown["positions"] == [11, 11, 11]
    assert journal_rows(tmp_path / "journal.sqlite3")[-1] == {"host": "undo"}
    assert len(journal_rows(tmp_path / "journal.sqlite3")) == 5


def test_undo_with_nothing_to_undo_is_refused(table):
    table.new_game("ponte", 3)
    with pytest.raises(Rejected, match="nothing to undo"):
        table.undo()


def test_export_replays_to_the_same_view(table):
    table.new_game("ponte", 5, {"deal": "box"})
    rng = random.Random(5)
    for _ in range(12):
        seat = rng.choice(table.view()["picking"])
        table.act(rng.choice(table.legal_actions(seat)))
    table.undo()
    log = table.export()
    assert json.loads(log.splitlines()[0]) == {"arbitro": 1, "game": "ponte", "seats": 5,
                                               "options": {"deal": "box"}}
    assert json.loads(log.splitlines()[1])["chance"] == "deal"
    shown = table.view()
    del shown["version"]
    assert replay(log).view("public") == shown


def test_new_game_refuses_bad_settings_and_keeps_the_current_game(table):
    table.new_game("ponte", 3)
    table.press(0, 1)
    for args, message in [(("chess", 3), "unknown game 'chess'"), (("ponte", 9), "3 to 6 seats"),
                          (("ponte", 3, {"deal": "x"}), "deal must be")]:
        with pytest.raises(Rejected, match=message):
            table.new_game(*args)
    assert table.view()["locked"] == [0]


def test_subscribers_hear_every_new_version(table):
    heard = []
    table.subscribe(heard.append)
    table.new_game("ponte", 3)
    table.press(0, 1)
    with pytest.raises(Rejected):
        table.press(0, 9)
    assert heard == sorted(heard) and len(heard) == 2 and heard[-1] == table.version


def test_reveal_delay_holds_the_last_pick_and_allows_changes(tmp_path, clock):
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    table.press(0, 1)
    table.press(1, 2)
    assert table.press(2, 3) == "held"
    shown = table.view()
    assert shown["locked"] == [0, 1, 2] and shown["history"][0]["reveal"] is None
    assert table.view(2)["my_pick"] == PAURA and table.view(1)["my_pick"] == SCATTO
    table.press(0, 4)  # seat 0 changes its mind during the delay
    assert table.press(2, 5) == "held"  # and so does seat 2
    with pytest.raises(Rejected, match="buttons 1 to 8"):
        table.press(2, 9)
    assert table.view(2)["my_pick"] == VERTIGINI
    clock.advance(0.5)
    assert table.view()["history"][0]["reveal"] is None
    clock.advance(0.5)
    assert table.view()["history"][0]["reveal"] == [PRUDENTE, SCATTO, VERTIGINI]
    assert len(journal_rows(tmp_path / "j.sqlite3")) == 5  # 2 picks, 1 change, the held pick, the event
    table.close()


def test_r1_during_the_reveal_delay_a_held_special_is_spoken_for(tmp_path, clock):
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    table.press(0, 1)
    table.press(1, 2)
    assert table.press(2, 7) == "held"  # seat 3 locks in the one Ordine
    with pytest.raises(Rejected, match="R-2: seat 1 does not hold that card"):
        table.press(0, 7)
    clock.advance(1.0)
    assert table.view()["history"][0]["reveal"] == [SALTO, SCATTO, ORDINE]
    table.close()


def test_undo_during_the_reveal_delay_takes_back_the_held_pick(tmp_path, clock):
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    table.press(0, 1)
    table.press(1, 2)
    table.press(2, 3)
    table.undo()
    assert table.view()["locked"] == [0, 1] and not clock.jobs
    table.close()


def test_inputs_from_many_threads_are_serialised(table):
    table.new_game("ponte", 6)
    errors = []

    def press_all(seat):
        for button in range(1, 6):
            try:
                table.press(seat, button)
            except Rejected as e:
                errors.append(e)

    threads = [threading.Thread(target=press_all, args=(seat,)) for seat in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = table.export()
    shown = table.view()
    del shown["version"]
    assert replay(log).view("public") == shown


def test_a_damaged_journal_stops_the_box_and_is_left_untouched(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a database, but somebody's game" * 100)
    with pytest.raises(JournalError, match="is damaged"):
        Table(Journal(path))
    assert path.read_bytes().startswith(b"this is not a database")


def test_a_journal_row_that_breaks_a_rule_names_its_game_and_line(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = Table(Journal(path))
    table.new_game("ponte", 3)
    table.press(0, 1)
    table.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET body = ? WHERE kind = 'line'", ('{"seat": 0, "pick": "jolly"}',))
    with pytest.raises(JournalError, match="game 1, line 2: unknown card 'jolly'"):
        Table(Journal(path))


def test_a_failing_subscriber_does_not_undo_an_acknowledged_press(table, tmp_path, caplog):
    table.new_game("ponte", 3)

    def broken(version):
        raise OSError("the display fell off")

    table.subscribe(broken)
    assert table.press(0, 1) == "applied"
    assert table.view()["locked"] == [0]
    assert journal_rows(tmp_path / "journal.sqlite3") == [{"seat": 0, "pick": SALTO}]
    assert "a table subscriber failed" in caplog.text

"""The running table: journal-first inputs, resume, undo, reveal delay, subscribers, threads."""
import dataclasses
import json
import random
import sqlite3
import threading
from contextlib import closing

import pytest

from engine.chance import commitment

from engine.journal import Journal, JournalError
from engine.replay import LogError, replay
from engine.rules import Rejected
from engine.rules.protocol import refuse
from engine.table import Answer, Table
from games.ponte import rules as ponte
from tests.conftest import held_round, press

SALTO, SCATTO, PAURA, PRUDENTE, VERTIGINI, SPUNTO, ORDINE, PESANTE = ponte.CARDS


def journal_rows(path):
    with sqlite3.connect(path) as db:
        return [json.loads(body) for (body,) in db.execute("SELECT body FROM entries WHERE kind = 'line'")]


def test_no_game_yet(table):
    assert table.view()["game"] is None
    with pytest.raises(Rejected, match="no game is being played"):
        press(table, 0, 1)
    with pytest.raises(Rejected, match="no game is being played"):
        table.undo()


def test_each_press_is_journaled_before_it_is_acknowledged(table, tmp_path):
    table.new_game("ponte", 3)
    assert press(table, 0, 1) == "applied"
    assert journal_rows(tmp_path / "journal.sqlite3") == [{"seat": 0, "pick": SALTO}]
    press(table, 1, 2)
    press(table, 2, 5)  # the last pick: the event is drawn and journaled with it
    rows = journal_rows(tmp_path / "journal.sqlite3")
    assert rows[:3] == [{"seat": 0, "pick": SALTO}, {"seat": 1, "pick": SCATTO}, {"seat": 2, "pick": VERTIGINI}]
    assert rows[3]["chance"] == "event" and rows[3]["outcome"] in ponte.EVENTS
    assert table.view()["match"] == 2


def test_a_rejected_action_changes_nothing(table, tmp_path):
    table.new_game("ponte", 3)
    press(table, 0, 1)
    version = table.version
    for action, message in [({"seat": 0, "pick": "jolly"}, "unknown card 'jolly'"),
                            ({"seat": 3, "pick": SALTO}, "no player 4 at this table"),
                            ("salto", "an action must be an object"),
                            ({"seat": 1, "pick": SALTO, "card": 1}, "unknown key 'card'")]:
        with pytest.raises(Rejected, match=message):
            table.act(action)
    assert table.version == version
    press(table, 1, 2)
    press(table, 2, 5)
    version = table.version
    with pytest.raises(Rejected, match="^player 1 does not hold that card$"):
        press(table, 0, 1)  # the ruling is named here, not in the message people read
    assert table.version == version
    assert len(journal_rows(tmp_path / "journal.sqlite3")) == 4


def test_closing_mid_match_and_reopening_finds_the_same_state_with_picks_still_secret(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(Journal(path))
    first.new_game("ponte", 4)
    for seat, button in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (2, 4)]:  # match 1, then two picks of match 2
        press(first, seat, button)
    before = {viewer: first.view(viewer) for viewer in ["public", 0, 1, 2, 3]}
    first.close()

    second = Table(Journal(path))
    for viewer, shown in before.items():
        assert second.view(viewer) == shown
    assert second.view("public")["locked"] == [0, 2]
    assert second.view(0)["my_pick"] == VERTIGINI and second.view(1)["my_pick"] is None
    assert VERTIGINI in second.view(1)["hand"]  # seat 1 still holds what seat 0 locked: no hint there
    press(second, 1, 4)
    press(second, 3, 1)  # the picks locked before the restart still count: the match resolves
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
    press(table, 0, 1)
    press(table, 1, 2)
    press(table, 2, 5)
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


def test_export_once_over_replays_to_the_same_view(table):
    table.new_game("ponte", 5, {"deal": "box"})
    rng = random.Random(5)
    while not table.view()["over"]:
        seat = rng.choice(table.view()["picking"])
        table.act(rng.choice(table.legal_actions(seat)))
        if rng.random() < 0.1 and not table.view()["over"]:  # a game over is sealed
            table.undo()
    log = table.export()
    first = json.loads(log.splitlines()[0])
    revealed = first.pop("chance")  # over: the seed is revealed beside its commitment
    assert first == {"arbitro": 1, "game": "ponte", "seats": 5, "options": {"deal": "box"}}
    assert commitment(bytes.fromhex(revealed["seed"]), first) == revealed["commitment"]
    assert json.loads(log.splitlines()[1])["chance"] == "deal"
    assert {"host": "undo"} in [json.loads(line) for line in log.splitlines()]
    shown = table.view()
    del shown["version"]
    assert replay(log).view("public") == shown


def test_the_host_log_during_a_game_holds_only_what_every_player_knows(table):
    """Defect: GET /api/host/log carried unrevealed picks and every seat's special in the box deal."""
    table.new_game("ponte", 3, {"deal": "box"})
    press(table, 0, 1)
    press(table, 1, 2)
    press(table, 2, 5)  # match 1 revealed
    press(table, 0, 3)
    press(table, 0, 4)  # seat 1 changes its mind: never shown
    press(table, 1, 1)
    press(table, 2, 2)
    table.undo()  # an undone pick was never shown either
    lines = [json.loads(line) for line in table.export().splitlines()]
    assert lines[1:4] == [{"seat": 0, "pick": SALTO}, {"seat": 1, "pick": SCATTO}, {"seat": 2, "pick": VERTIGINI}]
    assert lines[4]["chance"] == "event" and len(lines) == 5
    assert not any(line.get("chance") == "deal" for line in lines)
    assert not any(line == {"host": "undo"} for line in lines)


def test_new_game_refuses_bad_settings_and_keeps_the_current_game(table):
    table.new_game("ponte", 3)
    press(table, 0, 1)
    for args, message in [(("chess", 3), "unknown game 'chess'"), (("ponte", 9), "3 to 6 players, not 9"),
                          (("ponte", 3, {"deal": "x"}), "Special cards: one of table, box, not 'x'"),
                          (("ponte", 3, {"dael": "box"}), "unknown option 'dael'")]:
        with pytest.raises(Rejected, match=message):
            table.new_game(*args)
    assert table.view()["locked"] == [0]


def test_subscribers_hear_every_new_version(table):
    heard = []
    table.subscribe(lambda moment: heard.append(moment.version))
    table.new_game("ponte", 3)
    press(table, 0, 1)
    with pytest.raises(Rejected):
        table.act({"seat": 0, "pick": "jolly"})
    assert heard == sorted(heard) and len(heard) == 2 and heard[-1] == table.version


def test_reveal_delay_holds_the_last_pick_and_allows_changes(tmp_path, clock):
    table = held_round(tmp_path / "j.sqlite3", clock)
    shown = table.view()
    assert shown["locked"] == [0, 1, 2] and shown["history"][0]["reveal"] is None
    assert table.view(2)["my_pick"] == PAURA and table.view(1)["my_pick"] == SCATTO
    press(table, 0, 4)  # seat 0 changes its mind during the delay
    assert press(table, 2, 5) == "held"  # and so does seat 2
    with pytest.raises(Rejected, match="unknown card"):
        table.act({"seat": 2, "pick": "jolly"})
    assert table.view(2)["my_pick"] == VERTIGINI
    clock.advance(0.5)
    assert table.view()["history"][0]["reveal"] is None
    clock.advance(0.5)
    assert table.view()["history"][0]["reveal"] == [PRUDENTE, SCATTO, VERTIGINI]
    assert len(journal_rows(tmp_path / "j.sqlite3")) == 5  # 2 picks, 1 change, the held pick, the event
    table.close()


def test_r12_during_the_reveal_delay_a_held_special_is_not_checked_against(tmp_path, clock):
    """R-12: another seat's pick is checked only against revealed cards, held or not."""
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    press(table, 0, 1)
    press(table, 1, 2)
    assert press(table, 2, 7) == "held"  # seat 3 locks in the one Ordine
    assert press(table, 0, 7) == "applied"  # seat 1 may pick Ordine too: nothing revealed says otherwise
    clock.advance(1.0)
    shown = table.view()
    assert shown["history"][0]["void"] == [[ORDINE, SCATTO, ORDINE]] and shown["picking"] == [0, 2]
    table.close()


def after_a_power_cut(table, path, clock):
    """`table` loses its power (nothing scheduled runs later) and the box starts again on the journal at `path`."""
    clock.jobs.clear()
    table.close()
    return Table(Journal(path), reveal_delay=1.0, schedule=clock.schedule)


def test_a_held_pick_survives_a_power_cut_inside_the_reveal_delay(tmp_path, clock):
    """Defect: the pick that completes a round was answered `held` but kept only in memory."""
    path = tmp_path / "j.sqlite3"
    table = held_round(path, clock)
    assert press(table, 2, 5) == "held"  # a change of mind inside the delay is kept too
    again = after_a_power_cut(table, path, clock)
    assert again.view()["locked"] == [0, 1, 2] and again.view(2)["my_pick"] == VERTIGINI
    clock.advance(1.0)
    assert again.view()["history"][0]["reveal"] == [SALTO, SCATTO, VERTIGINI]
    again.close()
    assert Table(Journal(path)).view()["history"][0]["reveal"] == [SALTO, SCATTO, VERTIGINI]


def test_a_held_pick_survives_a_power_cut_after_another_seat_changes_its_pick(tmp_path, clock):
    """Defect (found by the kill -9 test, 1 run in 4): another seat's change inside the reveal delay was journaled
    in a write that also cleared the held pick, so a power cut before the reveal lost an acknowledged pick."""
    path = tmp_path / "j.sqlite3"
    table = held_round(path, clock)
    assert press(table, 0, 4) == "applied"  # seat 1 changes its mind during the delay
    again = after_a_power_cut(table, path, clock)  # before the reveal
    assert again.view()["locked"] == [0, 1, 2] and again.view(2)["my_pick"] == PAURA
    clock.advance(1.0)
    assert again.view()["history"][0]["reveal"] == [PRUDENTE, SCATTO, PAURA]
    again.close()


def test_undo_never_rerolls_the_event_even_after_a_restart(tmp_path):
    """Defect: undo dropped the drawn event and the next action drew a new one."""
    path = tmp_path / "j.sqlite3"
    table = Table(Journal(path), random=random.Random(1))
    table.new_game("ponte", 3)

    def play_match_1():
        for seat, button in [(0, 1), (1, 2), (2, 5)]:
            press(table, seat, button)
        return table.view()["history"][0]["event"]

    first = play_match_1()
    for _ in range(8):
        table.undo()
        assert play_match_1() == first
    table.undo()
    table.close()
    table = Table(Journal(path), random=random.Random(99))  # another random source after the restart
    assert play_match_1() == first
    table.close()


def test_undo_during_the_reveal_delay_takes_back_the_held_pick(tmp_path, clock):
    table = Table(Journal(tmp_path / "j.sqlite3"), reveal_delay=1.0, schedule=clock.schedule)
    table.new_game("ponte", 3)
    press(table, 0, 1)
    press(table, 1, 2)
    press(table, 2, 3)
    table.undo()
    assert table.view()["locked"] == [0, 1] and not clock.jobs
    table.close()


def test_inputs_from_many_threads_are_serialised(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), random=random.Random(3))
    table.new_game("ponte", 6)
    errors = []

    def press_all(seat):
        for button in range(1, 6):
            try:
                press(table, seat, button)
            except Rejected as e:
                errors.append(e)

    threads = [threading.Thread(target=press_all, args=(seat,)) for seat in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shown = [table.view(seat) for seat in range(6)]
    table.close()
    rebuilt = Table(Journal(tmp_path / "journal.sqlite3"))  # every line the threads had acknowledged, in order
    assert [rebuilt.view(seat) for seat in range(6)] == shown
    rebuilt.close()


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
    press(table, 0, 1)
    table.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET body = ? WHERE kind = 'line'", ('{"seat": 0, "pick": "jolly"}',))
    with pytest.raises(JournalError, match="game 1, line 2: unknown card 'jolly'"):
        Table(Journal(path))


def test_a_failing_subscriber_does_not_undo_an_acknowledged_press(table, tmp_path, caplog):
    table.new_game("ponte", 3)

    def broken(moment):
        raise OSError("the display fell off")

    table.subscribe(broken)
    assert press(table, 0, 1) == "applied"
    assert table.view()["locked"] == [0]
    assert journal_rows(tmp_path / "journal.sqlite3") == [{"seat": 0, "pick": SALTO}]
    assert "a table subscriber failed" in caplog.text


def test_the_history_lists_every_game_with_its_start_its_state_and_its_result(tmp_path):
    from datetime import datetime, timezone
    times = iter(datetime(2026, 11, 24, hour, tzinfo=timezone.utc) for hour in (20, 21))
    table = Table(Journal(str(tmp_path / "journal.db")), random=random.Random(3), now=lambda: next(times))
    table.new_game("shangrila", 3)
    rng = random.Random(3)
    while not table.view()["over"]:
        seat = table.view()["to_act"]
        table.act(rng.choice(table.legal_actions(seat)))
    finished = table.view()["result"]
    table.new_game("ponte", 3)
    first, second = table.history()[1], table.history()[0]
    assert (first["game"], first["over"], first["ended"], first["playing"]) == ("shangrila", True, False, False)
    assert first["result"] == finished and first["started"] == "2026-11-24T20:00:00+00:00"
    assert (second["game"], second["playing"], second["result"]) == ("ponte", True, None)
    log = table.export(first["id"])
    assert json.loads(log.splitlines()[0])["game"] == "shangrila"
    assert replay(log).view("public")["result"] == finished  # the log replays to the same result
    kept = table.history()
    table.close()
    assert Table(Journal(str(tmp_path / "journal.db"))).history() == kept  # kept across a restart


def finished(table, seats=3, seed=3):
    """`table` playing Ponte to its end by random legal picks."""
    table.new_game("ponte", seats)
    rng = random.Random(seed)
    while not table.view()["over"]:
        seat = rng.choice(table.view()["picking"])
        table.act(rng.choice(table.legal_actions(seat)))
    return table


def test_a_finished_game_is_sealed_undo_is_refused_and_changes_nothing(table, tmp_path):
    """Defect: undo after the end reopened a game whose seed every phone had seen, so every draw to come could
    be computed. A game over is sealed; the host starts a new one."""
    finished(table)
    assert "seed" in table.view()["chance"] and not table.can_undo
    before, rows = table.version, journal_rows(tmp_path / "journal.sqlite3")
    with pytest.raises(Rejected, match="the game is over and its draws' seed is revealed") as refused:
        table.undo()
    assert refused.value.code == "game_sealed"
    with pytest.raises(Rejected):
        table.act({"host": "undo"})
    assert table.version == before and journal_rows(tmp_path / "journal.sqlite3") == rows
    assert table.view()["over"]


def test_a_log_that_undoes_after_the_end_does_not_replay(table):
    log = finished(table).export()
    with pytest.raises(LogError, match=f"line {len(log.splitlines()) + 1}: the game is over"):
        replay(log + json.dumps({"host": "undo"}) + "\n")


# -- moments: the table at one version, read without its lock ------------------------------------------------
def restarted_views(path, into, viewers):
    """The views a table opened on a copy of the journal at `path` shows: what a restart there would show."""
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(into)) as copy:
        source.backup(copy)
    again = Table(Journal(into))
    try:
        return {viewer: again.view(viewer) for viewer in viewers}
    finally:
        again.close()


def test_each_moment_shows_what_the_journal_holds_at_its_version_however_late_it_is_read(tmp_path):
    """A moment is the table at its version for good: read after the game went on, each viewer's view is the one a
    restart at that version shows (the journal replayed, nothing shared with the live table), and the subscribers
    heard every version the table acknowledged, in order."""
    path, viewers = tmp_path / "journal.sqlite3", ["public", 0, 1, 2, 3]
    table = Table(Journal(path))
    heard, restarted = [], []

    def subscriber(moment):
        heard.append(moment)
        restarted.append(restarted_views(path, tmp_path / f"at{moment.version}.sqlite3", viewers))

    table.subscribe(subscriber)
    table.new_game("ponte", 4)
    acknowledged, undone = [table.version], {}
    rng = random.Random(11)
    for _ in range(40):
        if table.view()["over"]:
            break
        if rng.random() < 0.15 and table.can_undo:
            table.undo()
            undone[table.version] = table.view()["undone"]["seat"]
        else:
            seat = rng.choice(table.view()["picking"])
            table.act(rng.choice(table.legal_actions(seat)))
        acknowledged.append(table.version)
    assert undone and len(heard) > 20
    versions = [moment.version for moment in heard]
    assert versions == sorted(set(versions)) and set(acknowledged) <= set(versions)
    for moment, shown in zip(heard, restarted):
        for viewer in viewers:
            late = moment.view(viewer)
            assert late.pop("undone", None) == ({"seat": undone[moment.version]} if moment.version in undone else None)
            assert late == shown[viewer]  # a restart forgets whose action was undone: the rest is the same
        assert moment.undone == undone.get(moment.version)
    table.close()


def test_a_moment_cannot_change(table):
    table.new_game("ponte", 3)
    moment = table.moment
    with pytest.raises(dataclasses.FrozenInstanceError):
        moment.version = 99
    shown = moment.view(0)
    shown["hand"] = []  # a reader's copy: the moment keeps its own
    press(table, 0, 1)
    assert moment.view(0) != shown and moment.view(0)["my_pick"] is None and table.view(0)["my_pick"] == SALTO
    assert moment.prompt(0).current is None and table.prompt(0).current == {"seat": 0, "pick": SALTO}
    assert table.moment is not moment and table.moment.version == table.version > moment.version


def test_a_fault_is_a_new_moment_at_the_same_version(table, monkeypatch):
    table.new_game("ponte", 3)
    heard = []
    table.subscribe(heard.append)
    before = table.moment

    def full(*args, **kwargs):
        raise JournalError("the disk is full", full=True)

    monkeypatch.setattr(table._journal, "append", full)
    with pytest.raises(JournalError):
        press(table, 0, 1)
    assert [(m.version, m.fault) for m in heard] == [(before.version, "full")]
    assert heard[-1].view(0) == before.view(0)  # the refused pick is nowhere
    monkeypatch.undo()
    press(table, 0, 1)
    assert [(m.version, m.fault) for m in heard][1:] == [(table.version, None)]


# -- answer: a seat's input, and whose its outcome is ---------------------------------------------------------
def second_match(table):
    """A Ponte table of 3 in its second match, seat 0 having picked card 3 (its card 1, Salto, is spent)."""
    table.new_game("ponte", 3)
    press(table, 0, 1)
    press(table, 1, 2)
    press(table, 2, 5)
    press(table, 0, 3)
    return table


def test_a_refused_pad_press_during_a_secret_pick_takes_the_held_pick_again(table, tmp_path):
    """Taken or refused, a press of a seat that has picked moves the version and writes the journal alike: no
    public channel tells which (docs/architecture.md, "Every public channel is public")."""
    second_match(table)
    version, rows = table.version, journal_rows(tmp_path / "journal.sqlite3")
    answer = table.answer(0, {"seat": 0, "pick": SALTO}, pad=True)
    assert answer.status == "rejected" and answer.secret and answer.refusal.code == "not_held"
    assert table.version == version + 1 and table.view(0)["my_pick"] == PAURA
    assert journal_rows(tmp_path / "journal.sqlite3") == rows + [{"seat": 0, "pick": PAURA}]
    # a button that maps to nothing, found by the pad: refused by the rules alike
    answer = table.answer(0, refuse("nothing_to_do", player=1), pad=True)
    assert answer == Answer("rejected", answer.refusal, True) and table.version == version + 2
    # a seat that has not picked holds nothing to take again: a refusal changes nothing
    answer = table.answer(1, {"seat": 1, "pick": SCATTO}, pad=True)
    assert answer.status == "rejected" and answer.secret and table.version == version + 2


def test_a_phone_refused_during_a_secret_pick_changes_nothing(table, tmp_path):
    second_match(table)
    version, rows = table.version, journal_rows(tmp_path / "journal.sqlite3")
    answer = table.answer(0, {"seat": 0, "pick": SALTO})
    assert answer.status == "rejected" and answer.secret
    assert table.version == version and journal_rows(tmp_path / "journal.sqlite3") == rows
    assert table.answer(0, {"seat": 0, "pick": PRUDENTE}) == Answer("applied", None, True)
    assert table.view(0)["my_pick"] == PRUDENTE


def test_a_refused_private_choice_is_the_seats_own_on_its_phone_and_public_on_its_pad(table):
    """Leader 1's tiles the box holds are a team's own, offered on its phone alone; a pad's cursor runs over the
    public choices only, so what the pad sends is the table's to hear of."""
    table.new_game("leader1", 2, {"supply": "box"})
    rng = random.Random(2)
    while not any(c.private for c in getattr(table.prompt(1), "choices", ())):
        table.act(rng.choice(table.legal_actions(rng.choice(list(table.actors())))))
    assert not table.prompt(1).secret
    tile = next(c.action for c in table.prompt(1).choices if c.private)
    unheld = {**tile, "choose": {"supply": [tile["choose"]["supply"][0], 99]}}
    version = table.version
    assert table.answer(1, unheld).secret
    answer = table.answer(1, unheld, pad=True)
    assert answer.status == "rejected" and not answer.secret and table.version == version


def test_an_action_that_is_not_the_seats_own_is_refused(table):
    table.new_game("ponte", 3)
    for action in [{"seat": 1, "pick": SALTO}, {"pick": SALTO}, "salto", {"host": "undo"}]:
        answer = table.answer(0, action)
        assert answer.status == "rejected" and answer.refusal.code == "not_your_action"
    assert table.view()["locked"] == []
    assert table.answer(0, {"seat": 0, "pick": SALTO}) == Answer("applied", None, True)
    beyond = table.answer(5, {"seat": 5, "pick": SALTO})  # no seat 6 here: the rules say so, to anyone
    assert beyond.status == "rejected" and not beyond.secret


def test_no_table_lock_is_taken_outside_the_engine():
    import pathlib
    import re
    root = pathlib.Path(__file__).parent.parent
    found = [f"{path}:{n}" for folder in ("device", "web_companion", "bench") for path in (root / folder).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"table\.lock|table\._lock", line)]
    assert found == []
    assert not hasattr(Table, "lock")

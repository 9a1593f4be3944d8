"""Hand-checked logs of every game through `arbitro replay` (the real console script), one per ruling or
rejection. An expected key may name a part of the view with dots ("boats.nero", "turns.1.counted")."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs"
EXPECTED = json.loads((LOGS / "expected.json").read_text())


def run_replay(*args, lang="C.UTF-8"):
    """`arbitro replay` in a terminal whose only language setting is LANG=`lang` (English unless it says)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run([sys.executable, "-m", "device.cli", "replay", *map(str, args)], capture_output=True,
                          text=True, cwd=Path(__file__).parent.parent, env={**environ, "LANG": lang})


def test_a_log_that_breaks_a_rule_is_told_in_the_terminals_language(tmp_path):
    """Defect: under LANG=it_IT.UTF-8 the reason a log stops was still English."""
    log = tmp_path / "nove.jsonl"
    log.write_text('{"arbitro": 1, "game": "ponte", "seats": 9}\n')
    done = run_replay(log, lang="it_IT.UTF-8")
    assert done.returncode == 1
    assert done.stderr == f"arbitro replay: {log}: riga 1: questo gioco è per 3–6 giocatori, non 9\n"


def test_every_log_has_an_expectation():
    assert sorted(p.stem for p in LOGS.glob("*.jsonl")) == sorted(EXPECTED)
    assert len([name for name in EXPECTED if not name.startswith("e")]) >= 15


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "error" not in EXPECTED[n]))
def test_log_replays_to_its_hand_checked_position(name):
    done = run_replay(LOGS / f"{name}.jsonl", "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["game"] == json.loads((LOGS / f"{name}.jsonl").read_text().splitlines()[0])["game"]
    for key, value in EXPECTED[name].items():
        part = shown
        for step in key.split("."):
            part = part[int(step)] if isinstance(part, list) else part[step]
        assert part == value, key
    if shown["over"]:
        assert shown["result"] is not None
    else:
        assert shown["result"] is None


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "error" in EXPECTED[n]))
def test_log_that_breaks_a_rule_stops_at_its_line(name):
    done = run_replay(LOGS / f"{name}.jsonl", "--json")
    assert done.returncode == 1
    assert done.stdout == ""
    assert EXPECTED[name]["error"] in done.stderr


def test_replay_without_json_prints_a_summary():
    done = run_replay(LOGS / "12_r9_both_banks_r6_tied_losers.jsonl")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "ponte: over", "match 4 of 6", "positions: player 1: space 1, player 2: space 21, player 3: space 21",
        "winners: player 1", "losers: player 2, player 3"]


def test_seed_draws_the_missing_events_the_same_way_every_time():
    log = LOGS / "e07_event_missing_no_seed.jsonl"
    first, second = run_replay(log, "--json", "--seed", "7"), run_replay(log, "--json", "--seed", "7")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    shown = json.loads(first.stdout)
    assert shown["match"] == 3  # two matches played, their events drawn from the seed, the third begun
    assert len(shown["event_discard"]) + shown["events_left"] in (4, 6)  # 2 drawn, or a reshuffle


def test_missing_file_is_a_usage_error():
    done = run_replay(LOGS / "no_such_log.jsonl")
    assert done.returncode == 2
    assert "cannot read" in done.stderr


@pytest.mark.parametrize("text, message", [
    ("", "line 1: the log is empty"),
    ('{"arbitro": 2, "game": "ponte", "seats": 3}\n', "line 1: not an Arbitro log of format 1"),
    ('{"arbitro": 1, "game": "chess", "seats": 3}\n', "line 1: unknown game 'chess'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 7}\n', "line 1: this game takes 3 to 6 players, not 7"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3, "options": {"deal": "cards"}}\n', "line 1: Special cards: one of table, box, not 'cards'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3, "options": {"speed": 2}}\n', "line 1: unknown option 'speed'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3, "colour": 1}\n', "line 1: unknown key 'colour'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n[1, 2]\n', "line 2: each line must be a JSON object"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n{"seat": 5, "pick": "vertigini"}\n', "line 2: no player 6 at this table"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n{"seat": 0, "pick": "jolly"}\n', "line 2: unknown card 'jolly'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n{"host": "undo"}\n', "line 2: nothing to undo"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n{"host": "redo"}\n', "line 2: unknown host action 'redo'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3}\n{"seat": 0}\n', "line 2: missing key 'pick'"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3, "options": {"deal": "box"}}\n'
     '{"chance": "deal", "outcome": ["passo_pesante", "passo_pesante", "spunto_interessante"]}\n',
     "line 2: a deal gives each of the 3 players one card of the specials deck (R-1)"),
    ('{"arbitro": 1, "game": "ponte", "seats": 3, "options": {"deal": "box"}}\n{"seat": 0, "pick": "vertigini"}\n',
     "line 2: the game needs a chance line ('deal') here"),
])
def test_malformed_or_illegal_line_is_named(tmp_path, text, message):
    log = tmp_path / "game.jsonl"
    log.write_text(text)
    done = run_replay(log, "--json")
    assert done.returncode == 1
    assert message in done.stderr

"""The rules contract is type-checked (`make types`, run by `make check` and `make test`): a game whose rules break
the `Rules` protocol fails the type checker before it is ever played."""
import textwrap
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent

GAME = '''
from typing import NamedTuple

from engine.rules.options import Option
from engine.rules.protocol import (JSON, Action, Actors, Outcomes, Prompt, Result, View, Viewer, TERMINAL,
                                   check_seats)

NAME, TITLE, SEATS = "broken", "Broken", (2, 3)
OPTIONS: tuple[Option, ...] = ()


class State(NamedTuple):
    seats: int


def setup(seats: JSON, options: JSON = None) -> State:
    return State(check_seats(seats, *SEATS))


def current_actors(state: State) -> Actors:
    return TERMINAL


def chance_outcomes(state: State) -> Outcomes:
    return []


def legal_actions(state: State, actor: int | str) -> list[Action]:
    return []


def apply(state: State, action: JSON) -> {apply_returns}:
    return {apply_body}


def prompt(state: State, seat: int) -> Prompt | None:
    return None


def view(state: State, viewer: Viewer) -> View:
    return {{"game": NAME, "over": True, "result": result(state)}}


def result(state: State) -> Result | None:
    return {{"winners": [], "losers": [], "draw": True}}

'''


def check(tmp_path, **parts):
    """mypy over a game package in `tmp_path` whose `check` module holds its rules to the contract, as every
    descriptor does: (exit status, what mypy printed)."""
    folder = tmp_path / "broken_game"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "rules.py").write_text(textwrap.dedent(GAME.format(**parts)))
    (folder / "check.py").write_text("from engine.games import Rules\n\nfrom . import rules\n\n"
                                     "RULES: Rules[rules.State] = rules\n")
    out, _, status = api.run(["--strict", "--python-version", "3.11", "--cache-dir", str(tmp_path / "cache"),
                              "-p", "broken_game"])
    return status, out


def test_a_game_that_follows_the_contract_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("MYPYPATH", f"{tmp_path}:{ROOT}")
    status, out = check(tmp_path, apply_returns="State", apply_body="state")
    assert status == 0, out


def test_a_game_whose_apply_breaks_the_contract_fails_the_type_checker(tmp_path, monkeypatch):
    monkeypatch.setenv("MYPYPATH", f"{tmp_path}:{ROOT}")
    status, out = check(tmp_path, apply_returns="int", apply_body="0")
    assert status == 1 and 'Incompatible types in assignment (expression has type Module' in out, out
    assert "apply" in out, out


def test_the_box_s_port_to_the_web_side_is_held_to_the_port_the_web_side_calls(tmp_path, monkeypatch):
    """The web side reaches the box only through `BoxPort` (web_companion/port.py); device/web_port.py says under
    TYPE_CHECKING that its WebPort is one, so a WebPort that lacks a call the web side may make fails `make types`."""
    monkeypatch.setenv("MYPYPATH", f"{tmp_path}:{ROOT}")
    source = (ROOT / "device" / "web_port.py").read_text(encoding="utf-8")
    settings = tmp_path / "mypy.ini"  # mypy's defaults: its untyped calls are Any, as make types takes them
    settings.write_text("[mypy]\n")
    for name, text in (("whole_port", source), ("half_port", source.replace("def history(self):", "def kept(self):"))):
        (tmp_path / f"{name}.py").write_text(text)
        out, _, status = api.run(["--config-file", str(settings), "--python-version", "3.11", "--cache-dir",
                                  str(tmp_path / "cache"), "--follow-imports", "silent", "-m", name])
        if name == "whole_port":
            assert status == 0, out
        else:
            assert status == 1 and '"WebPort" is missing following "BoxPort" protocol member' in out, out
            assert "history" in out, out

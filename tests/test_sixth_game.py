"""A sixth game added as one folder: "Moneta" lives only under tests/sixth_game and touches no shared file: it is
registered at run time (engine.games `register`), as the composition root registers the list of games/. Every layer
finds it: the contract suite, the table, the journal and replay, the box's pads and OLED, the phone page and its
parts, the rules pages, the catalogs and the pad labels."""
import ast
import inspect
import json
import types
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device import screens
from device.labels import layout
from device.web_port import WebPort
from engine import games
from engine.games import Rulebook
from engine.replay import replay
from engine.rules import PUBLIC, Rejected
from tests import test_contract as contract
from tests.phones import take
from tests.sixth_game import MONETA, rules
from web_companion import create_app
from tests.conftest import virtual

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def moneta():
    games.register([MONETA])
    yield MONETA
    games.unregister(MONETA.name)


def test_no_shared_file_names_the_sixth_game():
    for layer in ("engine", "device", "web_companion"):
        for path in (ROOT / layer).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".js", ".html", ".css", ".po", ".md"):
                assert "moneta" not in path.read_text(encoding="utf-8").lower(), path


def test_no_shared_module_names_a_game_or_its_draws():
    """Defect: the CLI knew Leader 1's d12 (`--rolls`: "d12" in device/cli.py). A shared module (every module of
    the engine, the box and the web side, the CLI included) names no game of ours, nor a kind of draw of one:
    what a game is lives in its own folder."""
    from engine.games import GAMES as OURS
    kinds = {"d12", "coin", "event", "deal", "tile"}  # the chance kinds our games and the sixth draw
    shared = [p for layer in ("engine", "device", "web_companion") for p in (ROOT / layer).rglob("*")
              if p.suffix in (".py", ".js", ".html", ".css")]
    assert len(shared) > 50
    for path in shared:
        text = path.read_text(encoding="utf-8")
        named = [name for name in OURS if f'"{name}"' in text or f"'{name}'" in text or f"/{name}" in text]
        drawn = [kind for kind in kinds if f'"{kind}"' in text]
        assert not named and not drawn, (path, named, drawn)


def test_every_game_is_one_folder_listed_by_the_games_package():
    """Defect: Ponte was 14 files in 9 folders, joined by module names built from its name. Now every part a
    layer finds through a game's descriptor is inside its folder, games/<name>/, reached through loaders of that
    folder, and the folders are all games/__init__.py lists: the registry, in that order."""
    from engine.games import GAMES as OURS
    from games import ALL
    folders = {p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()}
    assert folders == set(OURS) == {"ponte", "lifeboats", "leader1", "biglietti", "shangrila"}
    assert list(OURS) == [game.name for game in ALL] == ["ponte", "lifeboats", "leader1", "biglietti", "shangrila"]
    for name, game in OURS.items():
        here = ROOT / "games" / name
        loaders = [game.load_rules, game.load_oled] + [game.phone.load_data] * bool(game.phone.load_data)
        for module in [game.rules, game.load_oled(), game.declaration, *map(inspect.getmodule, loaders)]:
            assert Path(module.__file__).parent == here, module
        parts = [game.phone.folder / game.phone.script, game.phone.folder / game.phone.style,
                 *(game.rules_pages / f"{name}.{lang}.md" for lang in ("it", "en")),
                 *(game.locale / lang / "LC_MESSAGES" / f"{name}.po" for lang in ("it", "en")), here / "rulings.md"]
        for part in parts:
            assert part.is_file() and here in part.parents, part


def test_the_sixth_game_has_the_shape_of_ours(moneta):
    """The sixth game's folder is made by the same function as ours, with each part where ours keep it."""
    assert MONETA.rules is rules and MONETA.load_oled().__name__ == "tests.sixth_game.oled"
    assert MONETA.phone.folder == ROOT / "tests/sixth_game/static" and MONETA.phone.script == "moneta.js"
    assert MONETA.locale == ROOT / "tests/sixth_game/locale" and MONETA.phone.load_data is None


def test_an_unregistered_game_is_refused_by_name():
    with pytest.raises(Rejected, match="unknown game 'moneta'"):
        games.game("moneta")


def test_a_folder_that_is_no_package_is_refused():
    static = ROOT / "tests/sixth_game/static"
    with pytest.raises(TypeError, match=f"no game folder '{static}'"):
        games.one_folder(static, rules, MONETA.load_rules, MONETA.load_oled)


def test_a_descriptor_that_declares_no_game_is_refused_and_nothing_of_its_list_registered():
    with pytest.raises(TypeError, match=r"does not declare a game \(missing: NAME, TITLE, SEATS, OPTIONS, PAD_LABELS"):
        games.register([MONETA, replace(MONETA, declaration=object())])
    assert MONETA.name not in games.GAMES


def test_no_module_imports_by_a_name_held_as_a_string():
    """Defect: the registry found the games by importing `games.<folder>` by name, the box a game's OLED pages
    and the web side its phone data by module paths its descriptor held: five `importlib.import_module` calls,
    and two import cycles import-linter could not see. Now a game is reached by plain imports only (the list of
    games/__init__.py, the loaders of its folder): no module of the engine, the box, the web side or a game
    imports a module whose name it holds as a string."""
    found, scanned = [], 0
    for layer in ("engine", "device", "web_companion", "games"):
        for path in (ROOT / layer).rglob("*.py"):
            scanned += 1
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                called = node.func if isinstance(node, ast.Call) else None
                name = getattr(called, "attr", getattr(called, "id", None))
                named = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
                if name in ("import_module", "__import__") or "import_module" in named:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert scanned > 80 and not found, found


def test_rules_that_break_the_contract_are_refused_when_first_loaded_naming_what_they_lack():
    """Defect: on Python 3.11 (no `__protocol_attrs__`) the refusal said "missing:" and named nothing."""
    almost = types.ModuleType("almost")
    almost.__dict__.update(dict.fromkeys(("NAME", "TITLE", "SEATS", "OPTIONS", "setup", "current_actors",
                                          "chance_outcomes", "legal_actions", "apply", "prompt")))
    game = replace(MONETA, load_rules=lambda: Rulebook(almost))
    with pytest.raises(TypeError, match=r"\(missing: view, result\)$"):
        game.rules


@pytest.mark.parametrize("seed", range(4))
def test_the_contract_suite_runs_over_it(moneta, seed):
    contract.test_the_module_declares_the_contract(moneta.rules)
    contract.test_random_legal_games_end_and_replay_to_the_same_view(moneta, moneta.rules, seed)
    contract.test_every_listed_action_and_prompt_choice_is_accepted_and_others_are_refused_by_name(moneta.rules,
                                                                                                    seed)
    contract.test_every_view_carries_the_required_keys(moneta.rules)


def test_its_secret_calls_stay_secret_on_every_endpoint(moneta, make_box, tmp_path, monkeypatch):
    contract.test_two_tables_differing_in_one_secret_pick_look_the_same_to_everyone_else(
        moneta, moneta.rules, 0, make_box, tmp_path, monkeypatch)


def test_it_is_played_on_the_pads_shown_on_the_oled_and_replayed(moneta, make_box):
    box = make_box(pins=MockFactory(revision="a020a0"))
    box.table.new_game("moneta", 2)
    assert virtual(box).pad_labels(0)[:2] == ["Testa", "Croce"]  # its pad labels, in its catalog's words
    assert screens.live(box.table.view(), "it").title == "Il pronostico"
    assert virtual(box).press(seat=0, button=2)["status"] == "applied"
    assert virtual(box).press(seat=1, button=1)["status"] == "applied"
    shown = box.table.view()
    assert shown["over"] and shown["coin"] in ("testa", "croce")
    assert screens.live(shown, "en").title in ("Heads", "Tails")
    winner = 1 if shown["coin"] == "testa" else 0
    assert shown["result"]["winners"] == [winner]
    assert replay(box.table.export()).view(PUBLIC) == {k: v for k, v in shown.items() if k != "version"}


def test_the_phones_find_its_parts_words_and_rules_pages(moneta, make_box):
    box = make_box(pins=MockFactory(revision="a020a0"))
    client = create_app(WebPort(box)).test_client()
    page = client.get("/?lang=it").get_data(as_text=True)
    assert "/games/moneta/moneta.js" in page and "/games/moneta/moneta.css" in page
    assert "ARBITRO.games.moneta" in client.get("/games/moneta/moneta.js").get_data(as_text=True)
    assert client.get("/games/moneta/__init__.py").status_code == 404  # only the parts it declares
    words = json.loads(page.split('<script id="texts" type="application/json">')[1].split("</script>")[0])
    assert words["moneta"]["box"]["testa"] == "Testa" and words["titles"]["moneta"] == "Moneta"
    listed = {g["name"]: g for g in client.get("/api/games").get_json()}
    assert listed["moneta"]["seats"] == [2, 3]
    assert "il box lancia la moneta" in client.get("/rules/moneta?lang=it").get_data(as_text=True)
    assert "the box tosses the coin" in client.get("/rules/moneta?lang=en").get_data(as_text=True)
    take(client, box, ("host",))
    assert client.post("/api/host/game", json={"game": "moneta", "seats": 3, "options": {}}).status_code == 201
    assert box.table.game == "moneta"


def test_its_pad_labels_print(moneta):
    words = [shape[4] for shape in layout("moneta", 2, "en") if shape[0] == "text"]
    assert "Heads" in words and "Tails" in words

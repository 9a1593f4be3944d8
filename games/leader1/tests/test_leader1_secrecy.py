"""Leader 1 with the supply tiles held by the box: a prompt is labelled secret exactly when no public channel shows
its choices. Defect: the team's phone labelled every prompt "Scelta segreta: gli altri vedono solo che hai scelto"
while the OLED showed the same choice to the table ("G1: che qualità? > leader discesista")."""
import random

from device import screens
from device.cursor import NEXT
from device.screens import COLUMNS
from device.texts import text
from games.leader1 import rules as L
from tests.conftest import virtual

KINDS = set(L.TITLES.values()) | {"choose_start", "choose_spaces", "choose_move", "choose_rider"}
# The box holds the supply tiles (a stage race: no tiles drawn all at once before the start; three stages: many
# moves that may pass a feed zone)
SECRET_OPTIONS = {"supply": "box", "race": "tappe", "stages": 3}


def test_a_leader1_prompt_is_labelled_secret_exactly_when_the_oled_does_not_show_its_choices(make_box):
    box = make_box(seed=5)
    box.table.new_game("leader1", 2, SECRET_OPTIONS)
    lang, rng = box.language.value, random.Random(5)
    seen, with_tiles = set(), set()
    while KINDS - seen:
        assert not box.table.view()["over"], f"the race ended before these prompts came up: {KINDS - seen}"
        seat = rng.choice(list(box.table.actors()))
        prompt = box.table.prompt(seat)
        virtual(box).press(seat=seat, button=NEXT)  # the pad's cursor: what the table sees of the choice
        shown = box.display.screen
        drawn = (shown.title == f"{screens.seat(lang, seat)}: {text(lang, prompt.title, 'leader1')}"[:COLUMNS]
                 and shown.lines[0].startswith("> "))
        assert drawn != (shown == screens.secret_choice(lang, seat)), shown  # the choices, or only "choosing"
        assert prompt.as_data()["secret"] is not drawn, (prompt.title, shown)  # what the phone says
        seen.add(prompt.title)
        if any(c.private for c in prompt.choices):
            with_tiles.add(prompt.title)
            # a tile the team holds is its own: the cursor (on the public OLED) never stands on one
            assert all(not c.private for c in prompt.on_cursor().choices)
        choices = prompt.choices
        spend = [c for c in choices if c.private]
        choice = rng.choice(spend if spend and rng.random() < 0.1 else choices)
        assert box.seat_act(seat, choice.action)["status"] != "rejected"
    assert with_tiles  # the tiles held were offered (to their team's phone) along the way

"""A pad's 8 buttons drive any prompt: a fixed layout for secret picks, a cursor for any other choice."""
import pytest

from device.cursor import Cursor
from engine.rules import Rejected
from engine.rules.protocol import CHOOSE, Choice, Prompt

VILLAGES = Prompt(CHOOSE, "place", tuple(Choice(f"space {n}", {"seat": 1, "choose": {"village": v, "space": n}},
                                               group=f"village {v}") for v in (3, 7) for n in (1, 2)))


def test_a_cursor_moves_with_1_and_2_and_confirms_with_8():
    boats = Prompt(CHOOSE, "lane", tuple(Choice(f"lane {n}", {"seat": 0, "choose": {"lane": n}}) for n in range(1, 8)))
    cursor, made = Cursor().press(boats, 0, 1)
    assert made is None and cursor.label() == "lane 7"  # 1 wraps round to the last
    cursor, made = cursor.press(boats, 0, 2)
    assert made is None and cursor.label() == "lane 1"
    cursor, _ = cursor.press(boats, 0, 2)
    assert cursor.press(boats, 0, 8) == (Cursor(), {"seat": 0, "choose": {"lane": 2}})


def test_a_two_step_choice_picks_the_group_then_the_item_and_7_goes_back():
    cursor, _ = Cursor().press(VILLAGES, 1, 2)
    assert cursor.label() == "village 7"
    cursor, made = cursor.press(VILLAGES, 1, 8)
    assert made is None and cursor.label() == "space 1"
    cursor, _ = cursor.press(VILLAGES, 1, 7)
    assert cursor.label() == "village 3"
    cursor, _ = cursor.press(VILLAGES, 1, 8)
    cursor, _ = cursor.press(VILLAGES, 1, 2)
    assert cursor.press(VILLAGES, 1, 8)[1] == {"seat": 1, "choose": {"village": 3, "space": 2}}


def test_a_new_prompt_starts_the_cursor_afresh():
    cursor, _ = Cursor().press(VILLAGES, 1, 2)
    other = Prompt(CHOOSE, "place", VILLAGES.choices[:2])
    cursor, _ = cursor.press(other, 1, 8)
    assert cursor.label() == "space 1"


def test_after_a_choice_an_equal_next_prompt_starts_afresh_too():
    """Placing one pawn after another offers the same choices: each placement is two steps, so a second OK
    never lands on whatever comes next (found when a pad's extra OK became a Captain's hat)."""
    cursor, _ = Cursor().press(VILLAGES, 1, 8)
    cursor, made = cursor.press(VILLAGES, 1, 8)
    assert made is not None
    cursor, made = cursor.press(VILLAGES, 1, 8)
    assert made is None and cursor.label() == "space 1"


@pytest.mark.parametrize("prompt, button, message", [
    (None, 3, "player 2 has nothing to do now"),
    (VILLAGES, 4, "button 4 does nothing now: 1 and 2 move, 7 goes back, 8 confirms"),
    (Prompt(CHOOSE, "x", (), pad=(None,) * 8), 5, "button 5 does nothing now"),
])
def test_a_button_that_does_nothing_is_refused_with_a_reason(prompt, button, message):
    with pytest.raises(Rejected, match=message):
        Cursor().press(prompt, 1, button)


def test_a_prompts_spare_keys_open_a_group_or_make_a_choice_at_once():
    """Leader 1's move: buttons 3–6 reach the rider, the terrain or the road's groups in one press."""
    from engine.record import GameRecord, header
    from games.leader1 import rules as L
    record = GameRecord(header("leader1", 2, {}))
    for seat in list(record.state.queue):
        record.apply({"seat": seat, "choose": {"quality": None}})
    while record.state.phase == L.LINEUP:
        seat = record.state.queue[0]
        rider = next(r for r in record.state.riders if r.seat == seat and not r.moved)
        record.apply({"seat": seat, "choose": {"place": [rider.kind, L.TESTA]}})
    cursor = Cursor()
    prompt = L.prompt(record.state, 1)
    assert prompt.keys == ("ride:passista", "ride:leader", "ride:scalatore", "ride:none")
    assert cursor.press(prompt, 1, 5)[1] == {"seat": 1, "choose": {"ride": "scalatore"}}
    record.apply({"seat": 1, "choose": {"ride": "scalatore"}})
    record.apply(cursor.press(L.prompt(record.state, 1), 1, 4)[1])  # from a hill
    record.apply({"seat": 1, "choose": {"spaces": 7}})
    prompt = L.prompt(record.state, 1)
    assert prompt.keys == ("blocked", "climb", None, "road") and prompt.title == "choose_move"
    cursor, made = cursor.press(prompt, 1, 4)
    assert made is None and cursor.group == "climb"  # the climb's categories, open
    with pytest.raises(Rejected):
        cursor.press(prompt, 1, 5)  # nothing on this key now (no climb yet)

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

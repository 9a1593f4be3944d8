"""How many presses on a pad and taps on a phone the seed's worked Leader 1 moves take (figures 13, 15, 21,
22). The pad's count is the fewest presses the box's own cursor allows (a search over its states); the
phone's, one tap a choice outside an open group and two inside a closed one — a move's fields are all open."""
from collections import deque

import pytest

from device.cursor import Cursor
from engine.record import GameRecord, header
from engine.rules import Rejected
from games.leader1 import rules as L


def race():
    record = GameRecord(header("leader1", 2, {}))
    for seat in list(record.state.queue):
        record.apply({"seat": seat, "choose": {"quality": None}})
    while record.state.phase == L.LINEUP:
        seat = record.state.queue[0]
        rider = next(r for r in record.state.riders if r.seat == seat and not r.moved)
        record.apply({"seat": seat, "choose": {"place": [rider.kind, L.TESTA]}})
    return record


def presses(prompt, seat, action):
    """The fewest presses of buttons 1–8 from a fresh cursor that make `action`."""
    seen, queue = {(None, 0)}, deque([(Cursor().follow(prompt), 0)])
    while queue:
        cursor, n = queue.popleft()
        for button in range(1, 9):
            try:
                moved, made = cursor.press(prompt, seat, button)
            except Rejected:
                continue
            if made == action:
                return n + 1
            if made is None and (moved.group, moved.index) not in seen:
                seen.add((moved.group, moved.index))
                queue.append((moved, n + 1))
    raise AssertionError(f"{action} cannot be reached")


def taps(prompt, action):
    choice = next(c for c in prompt.choices if c.action == action)
    return 1 + (choice.group is not None and prompt.title != "choose_move")  # a move's groups are open


@pytest.mark.parametrize(("figure", "fields", "pad", "phone"), [
    (13, [{"ride": "passista"}, {"from": "pianura"}, {"spaces": 5}, {"go": True}], 5, 4),
    (15, [{"ride": "passista"}, {"from": "discesa"}, {"spaces": 4}, {"blocked": 2}, {"go": True}], 7, 5),
    (21, [{"ride": "scalatore"}, {"from": "collina"}, {"spaces": 7}, {"climb": 2}, {"climb_spaces": 2},
          {"go": True}], 13, 6),
    (22, [{"ride": "leader"}, {"from": "discesa"}, {"spaces": 5}, {"road": 5}, {"go": True}], 8, 5),
])
def test_a_worked_move_takes_few_presses_and_one_tap_a_field(figure, fields, pad, phone):
    """Before the pad's buttons 3–6 and the open move form: 5, 12, 23, 16 presses and 4, 6, 8, 6 taps."""
    record, pressed, tapped = race(), 0, 0
    for field in fields:
        action = {"seat": 1, "choose": field}
        prompt = L.prompt(record.state, 1)
        pressed += presses(prompt, 1, action)
        tapped += taps(prompt, action)
        record.apply(action)
    assert (pressed, tapped) == (pad, phone), figure


def test_a_prompts_spare_keys_open_a_group_or_make_a_choice_at_once():
    """Leader 1's move: buttons 3–6 reach the rider, the terrain or the road's groups in one press."""
    record = race()
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

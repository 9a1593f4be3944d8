"""The game record keeps a state every CHECKPOINT lines, not one per line: undo and export find the others by
replaying, and get exactly the states a record that kept them all would have."""
import random

import pytest

from engine.record import CHECKPOINT, UNDO, GameRecord, header
from engine.games import GAMES
from engine.rules import CHANCE, TERMINAL, Rejected


def random_line(rules, state, rng):
    actors = rules.current_actors(state)
    if actors == CHANCE:
        outcomes = rules.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(rules.legal_actions(state, rng.choice(list(actors))))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_and_export_across_checkpoints_match_a_record_of_every_state(game):
    rules, rng = GAMES[game].rules, random.Random(7)
    seats = rules.SEATS[0]
    record = GameRecord(header(game, seats))
    every, points = [record.state], []  # the reference: every state in effect, and where each undo goes back
    for _ in range(600):
        if rules.current_actors(record.state) == TERMINAL:
            break
        if points and rng.random() < 0.15:
            back = points.pop()
            record.apply(UNDO)
            del every[back + 1:]
        else:
            line = random_line(rules, record.state, rng)
            if "chance" not in line:
                points.append(len(every) - 1)
            record.apply(line)
            every.append(record.state)
        assert record.state == every[-1]
        assert record.states_kept == (len(every) - 1) // CHECKPOINT + 2
    assert len(every) > CHECKPOINT + 1  # past a checkpoint
    assert [before for before, _ in record.steps()] == every[:-1]
    assert all(record.state_after(n) == every[n] for n in range(0, len(every), 7))


def test_a_long_game_keeps_a_state_every_checkpoint_lines():
    rules, rng = GAMES["leader1"].rules, random.Random(5)
    record = GameRecord(header("leader1", 4, {"supply": "box", "race": "tappe", "stages": 3}))
    for _ in range(2000):
        record.apply(random_line(rules, record.state, rng))
    assert record.states_kept == 2000 // CHECKPOINT + 2 < 2000 / 20


def test_an_undo_with_nothing_to_undo_is_refused_and_changes_nothing():
    record = GameRecord(header("ponte", 3))
    with pytest.raises(Rejected):
        record.apply(UNDO)
    assert record.applied == [] and record.states_kept == 2


def test_an_outcome_an_undo_took_back_that_the_game_went_past_is_dropped_for_a_fresh_draw():
    """Defect: `_due_redraw` caught an undefined name, so the first taken-back outcome the rules refused (a supply
    tile taken back, then another move that needs the d12 instead) raised NameError instead of being dropped."""
    rules, rng = GAMES["leader1"].rules, random.Random(2)
    record = GameRecord(header("leader1", 2, {"supply": "box"}))
    dropped = 0
    for _ in range(3000):
        if record.is_over:
            break
        if record.can_undo and rng.random() < 0.15:
            record.apply(UNDO)
        elif record.needs_chance:
            pending = list(record._redraws)  # what the undos took back, still to come if the game allows
            drawn = record.draw_due(lambda: random_line(rules, record.state, rng))
            dropped += bool(pending) and drawn[0] != pending[0]  # the game went past it: a fresh draw instead
        else:
            record.apply(random_line(rules, record.state, rng))
    assert dropped and record.is_over

"""The rules contract is total: for every registered game (the sixth one included), `apply(state, x)` for any JSON
value `x`, at states reached by random play, gives a new state or raises `Rejected` with a message of the
catalogs, worded in every language; never another exception (defect: `{"seat": 4, "pick": [1]}` in Ponte raised
TypeError, answered 500). The same over HTTP, on every route that hands an action in: tests/test_fuzz_http.py."""
import functools
import os
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.rules import CHANCE, TERMINAL, Rejected
from engine.replay import LogError, replay
from engine.words import LANGUAGES, lookup, render
from tests.sixth_game import MONETA

EVERY_GAME = sorted([*games.GAMES, MONETA.name])
PLAYS, MAX_STEPS = 3, 4000
EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", 400))  # a property's examples (more for a longer hunt)
# What a JSON body can hold once parsed by Python: lone surrogates ("\ud800"), integers past 64 bits, NaN and the
# infinities (json.loads takes them), deep lists and objects.
SCALAR = (st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.just(2 ** 64) | st.floats() |
          st.text(st.characters(codec=None), max_size=6) | st.sampled_from(["\ud800", "", "0", "1", "chance"]))
JSON = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=8) | st.sampled_from(["seat", "pick", "choose", "chance"]),
                                    inner, max_size=3), max_leaves=8)


@pytest.fixture(autouse=True)
def moneta():
    games.register([MONETA])
    yield
    games.unregister(MONETA.name)


def rules_of(name):
    return MONETA.rules if name == MONETA.name else games.GAMES[name].rules


@functools.cache
def reached(name):
    """States of random legal plays of `name` (every seat count the game takes), with the legal actions there."""
    rules, found = rules_of(name), []
    for play in range(PLAYS):
        rng = random.Random(play)
        state = rules.setup(rng.randint(*rules.SEATS), {})
        for _ in range(MAX_STEPS):
            actors = rules.current_actors(state)
            if actors == TERMINAL:
                break
            if actors == CHANCE:
                outcomes, weights = zip(*rules.chance_outcomes(state))
                action = rng.choices(outcomes, weights)[0]
                found.append((state, list(outcomes)))
            else:
                legal = [a for seat in actors for a in rules.legal_actions(state, seat)]
                action = rng.choice(legal)
                found.append((state, legal))
            state = rules.apply(state, action)
        found.append((state, []))
    return found


KINDS = ("value", "key", "missing", "copy")
MUTATION = st.tuples(st.sampled_from(KINDS), st.integers(0, 9), JSON, st.text(max_size=6))


def mutated(action, kind, index, value, key):
    """`action` with one value made `value` ("value"), a key `key` added ("key"), a key left out ("missing"),
    or as it is, through JSON ("copy")."""
    keys = sorted(action) or ["seat"]
    if kind == "value":
        return {**action, keys[index % len(keys)]: value}
    if kind == "key":
        return {**action, key: value}
    if kind == "missing":
        return {k: v for k, v in action.items() if k != keys[index % len(keys)]}
    return json.loads(json.dumps(action))


def near(legal):
    """Lines of the shape the rules expect, one value (or key) made anything at all."""
    if not legal:
        return JSON
    return st.tuples(st.sampled_from(legal), MUTATION).map(lambda p: mutated(p[0], *p[1]))


def anything_at(name):
    return st.integers(0, len(reached(name)) - 1).flatmap(
        lambda i: st.tuples(st.just(reached(name)[i][0]), JSON | near(reached(name)[i][1])))


def check_total(rules, state, action):
    try:
        after = rules.apply(state, action)
    except Rejected as refused:
        assert isinstance(refused.message.key, str)
        for language in LANGUAGES:
            worded = render(language, refused.message)
            found = [lookup(language, d, refused.message.context, refused.message.key, **refused.message.params)
                     for d in (refused.message.domain, "arbitro")]
            assert any(f is not None for f in found), (refused.message, worded)
        str(refused)  # the English wording, for logs
        return
    assert after is not None
    rules.current_actors(after)  # a state the rules can go on from


@pytest.mark.parametrize("name", EVERY_GAME)
def test_apply_to_any_json_value_gives_a_state_or_a_named_refusal(name):
    rules = rules_of(name)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(anything_at(name))
    def total(case):
        check_total(rules, *case)

    total()


@pytest.mark.parametrize("name, action", [
    ("ponte", {"seat": 0, "pick": [1]}), ("ponte", {"seat": 0, "pick": ["vertigini"]}),
    ("ponte", {"seat": 0, "pick": {"a": 1}}), ("lifeboats", {"seat": 0, "pick": [1]}),
    ("biglietti", {"seat": 0, "pick": [1]}), ("leader1", {"seat": 0, "choose": [1]}),
    ("shangrila", {"seat": 0, "choose": [1]}), ("moneta", {"seat": 0, "pick": [1]}),
    ("ponte", {"seat": 2 ** 64, "pick": "vertigini"}), ("ponte", {"seat": 0, "pick": "\ud800"}),
    ("ponte", {"chance": "\ud800", "outcome": [1]}), ("ponte", {"seat": float("nan"), "pick": "vertigini"}),
])
def test_the_shapes_that_crashed_a_game_are_refused_by_name_at_every_reached_state(name, action):
    rules = rules_of(name)
    for state, _ in reached(name)[::7]:
        check_total(rules, state, action)


@functools.cache
def logs(name):
    """The log of a random legal play of `name`, as `arbitro replay` reads it (its chance lines in it)."""
    from engine.table import Table
    rules, rng = rules_of(name), random.Random(7)
    table = Table(random=random.Random(7))
    table.new_game(name, rules.SEATS[0])
    for _ in range(MAX_STEPS):
        if table.view()["over"]:
            break
        table.act(rng.choice([a for seat in table.actors() for a in table.legal_actions(seat)]))
    return table.export().splitlines()


@pytest.mark.parametrize("name", EVERY_GAME)
def test_replaying_a_log_with_any_line_gives_a_game_or_names_the_line(name):
    """`arbitro replay`: a hostile line (or table line) is a LogError naming its line, never another error."""
    lines = logs(name)

    @settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.integers(0, len(lines) - 1), JSON | st.integers(0, len(lines) - 1).flatmap(
        lambda i: near([json.loads(lines[i])])))
    def total(at, line):
        text = "\n".join([*lines[:at], json.dumps(line), *lines[at:at + 2]])
        try:
            replay(text, seed=1)
        except LogError as broken:
            assert f"line {broken.line_number}:" in str(broken)

    total()


def hostile_options(rules):
    """Options near the game's own (each one's default, one made anything at all), and anything at all."""
    names = [option.name for option in rules.OPTIONS] or ["x"]
    return JSON | st.tuples(st.sampled_from(names), JSON, st.sampled_from(names), JSON).map(
        lambda p: {p[0]: p[1], p[2]: [p[3]]})


@pytest.mark.parametrize("name", EVERY_GAME)
def test_setup_with_any_seat_count_and_options_gives_a_state_or_a_named_refusal(name):
    """A new game's settings come from the host's phone: `setup(seats, options)` is total too."""
    rules = rules_of(name)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.integers(*rules.SEATS) | JSON, hostile_options(rules))
    def total(seats, options):
        try:
            state = rules.setup(seats, options)
        except Rejected as refused:
            assert all(render(language, refused.message) for language in LANGUAGES)
            return
        rules.current_actors(state)

    total()

"""The box's face (device/face.py) is held to a conformance suite shaped like the rules' contract suite:

- random events over every game, run through the box — pad keys, host keys, phones' legal actions, language
  changes, phones joining: every screen fits the 128×64 panel and every word the OLED asks for is in a catalog;
- the fork at the face's level: two tables that differ in one secret pick, or in one secret draw, give the face
  the same `Seen` at every step until the rules reveal it, so `step` and `screen` (pure functions of it) cannot
  tell them apart;
- the fork through the box: after a secret pick, its seat presses buttons, different ones on each table, among
  host keys and language changes: the OLED frame, the buzzer's cues, the public view and every pad's labels stay
  alike."""
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from gpiozero.pins.mock import MockFactory

from device import texts
from device.config import HOST_BUTTONS
from device.seen import seen
from engine.games import GAMES
from engine.table import Table
from tests.conftest import virtual
from tests.test_oled_screens import assert_fits

FACE = settings(max_examples=6, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
WIRED = 4  # the default pin map's pads


def heard(box):
    """The buzzer's cues from now on, in order."""
    cues = []
    box.sound = cues.append
    return cues


@pytest.fixture
def unworded(monkeypatch):
    """Every message id the OLED asked the catalogs for and found in none (a label's parts aside: a card's name
    is shown as it is)."""
    missing, real = [], texts.lookup

    def lookup(language, domain, context, key, /, **values):
        found = real(language, domain, context, key, **values)
        if found is None and domain == texts.SHARED and " " not in key and key.isidentifier():
            missing.append(key)
        return found
    monkeypatch.setattr(texts, "lookup", lookup)
    return missing


EVENT = st.one_of(
    st.tuples(st.just("pad"), st.integers(0, WIRED - 1), st.integers(1, 8)),
    st.tuples(st.just("host"), st.sampled_from(HOST_BUTTONS)),
    st.tuples(st.just("phone"), st.integers(0, 7), st.integers(0, 10 ** 6)),
    st.tuples(st.just("language"), st.sampled_from(["it", "en"])),
    st.tuples(st.just("join"), st.integers(0, 7)),
)


def happen(box, event):
    """One event of the table's night, as it reaches the box."""
    kind, *about = event
    table = box.table
    if kind == "pad":
        box.seat_pressed(*about)
    elif kind == "host":
        box.host_pressed(*about)
    elif kind == "phone" and table.game and about[0] < table.seats and table.legal_actions(about[0]):
        legal = table.legal_actions(about[0])
        box.seat_act(about[0], legal[about[1] % len(legal)])
    elif kind == "language":
        box.set_language(*about)
    elif kind == "join" and table.game and about[0] < table.seats:
        box.pair(box.pair_code(("seat", about[0])).code)


@pytest.mark.parametrize("name", sorted(GAMES))
@FACE
@given(events=st.lists(EVENT, min_size=1, max_size=60), seed=st.integers(0, 3))
def test_every_screen_of_random_events_fits_the_panel_in_words_of_the_catalogs(name, events, seed, make_box,
                                                                             tmp_path_factory, monkeypatch,
                                                                             unworded):
    box = make_box(seed=seed, data=tmp_path_factory.mktemp("box"), pins=MockFactory(revision="a020a0"))
    box.table.new_game(name, GAMES[name].seats[0])
    for event in events:
        happen(box, event)
        assert_fits(box.display.screen, monkeypatch)
    assert unworded == []


def picks_fork(name, seed):
    """Two tables of `name` played alike until a seat has a secret pick with two choices while another has yet
    to act; then that seat picks differently on each. (tables, the seat), or None if no such pick came."""
    rng = random.Random(seed)
    sides = [Table(random=random.Random(seed)) for _ in "ab"]
    for table in sides:
        table.new_game(name, GAMES[name].seats[0])
    a, b = sides
    while not a.view()["over"]:
        actors = a.actors()
        waiting = [s for s in actors if a.prompt(s).current is None]
        secret = [s for s in waiting if a.prompt(s).secret and len(a.legal_actions(s)) > 1 and s < WIRED]
        if secret and len(waiting) > 1 and rng.random() < 0.4:
            seat = rng.choice(secret)
            first, second = rng.sample(a.legal_actions(seat), 2)
            a.act(first)
            b.act(second)
            return sides, seat, rng
        seat = rng.choice(list(actors))
        action = rng.choice(a.legal_actions(seat))
        for table in sides:
            table.act(action)
    return None


def alike(a, b):
    """What the face sees of two moments is the same."""
    return (a.view, a.game_id, a.seats, a.fault, a.pads) == (b.view, b.game_id, b.seats, b.fault, b.pads)


SECRET_PICKS = [name for name in sorted(GAMES) if any(picks_fork(name, seed) for seed in range(3))]


def test_the_games_with_secret_picks_are_forked():
    assert {"ponte", "lifeboats"} <= set(SECRET_PICKS)


@pytest.mark.parametrize("name", SECRET_PICKS)
@pytest.mark.parametrize("seed", range(6))
def test_two_tables_differing_in_one_secret_pick_give_the_face_the_same_seen_until_the_reveal(name, seed):
    forked = picks_fork(name, seed)
    if forked is None:
        pytest.skip("this seed's game ended before a secret pick could be forked")
    (a, b), picker, rng = forked
    steps = 0
    while a.view() == b.view() and not a.view()["over"]:
        assert alike(seen(a.moment, WIRED), seen(b.moment, WIRED)), f"the face can tell seat {picker}'s pick"
        steps += 1
        others = [s for s in a.actors() if s != picker]
        if not others:
            break
        seat = rng.choice(others)
        action = rng.choice(a.legal_actions(seat))
        a.act(action)
        b.act(action)
    assert steps


PRESSES = st.lists(st.one_of(
    st.tuples(st.just("pad"), st.integers(1, 8), st.integers(1, 8)),  # the picker's button on each table
    st.tuples(st.just("host"), st.sampled_from(HOST_BUTTONS)),
    st.tuples(st.just("language"), st.sampled_from(["it", "en"])),
), min_size=1, max_size=12)


@pytest.mark.parametrize("name", ["ponte", "lifeboats"])
@settings(FACE, max_examples=12)
@given(presses=PRESSES, seed=st.integers(0, 5))
def test_whatever_the_seat_that_picked_presses_the_box_looks_and_sounds_the_same(name, presses, seed, make_box,
                                                                                 tmp_path_factory):
    sides = []
    for _ in "ab":
        box = make_box(seed=seed, data=tmp_path_factory.mktemp("fork"), pins=MockFactory(revision="a020a0"))
        box.table.new_game(name, GAMES[name].seats[1])
        sides.append(box)
    a, b = sides
    rng = random.Random(seed)
    played, later = 0, rng.randrange(40)  # into the game, where a seat's cards run out and presses are refused
    while True:  # play alike until a wired seat's secret pick is open and another seat must pick too
        table = a.table
        assume(not table.view()["over"])
        waiting = [s for s in table.actors() if table.prompt(s).current is None]
        pickers = [s for s in waiting if s < WIRED and table.prompt(s).secret and table.prompt(s).pad]
        if pickers and len(waiting) > 1 and played >= later:
            break
        played += 1
        seat = rng.choice(list(table.actors()))
        action = rng.choice(table.legal_actions(seat))
        for box in sides:
            box.seat_act(seat, action)
    picker = pickers[0]
    pad = a.table.prompt(picker).pad
    buttons = [n for n, choice in enumerate(pad, start=1)
               if choice is not None and choice.action in a.table.legal_actions(picker)]
    assume(len(buttons) > 1)  # else nothing to fork
    cues = [heard(box) for box in sides]
    for box, button in zip(sides, rng.sample(buttons, 2)):
        virtual(box).press(seat=picker, button=button)
    refused = [n for n in range(1, 9) if n not in buttons]
    if refused:  # one table's press taken, the other's refused
        presses = [("pad", rng.choice(buttons), rng.choice(refused)), *presses]
    for event in presses:
        if event[0] == "pad":
            for box, button in zip(sides, event[1:]):
                virtual(box).press(seat=picker, button=button)
        else:
            for box in sides:
                happen(box, event)
        assert a.display.image.tobytes() == b.display.image.tobytes(), a.display.screen
        assert cues[0] == cues[1]
        assert a.table.view() == b.table.view()
        assert [virtual(a).pad_labels(s) for s in range(WIRED)] == [virtual(b).pad_labels(s) for s in range(WIRED)]


DEALS_SECRETS = sorted(name for name, game in GAMES.items() if game.secret_draw)


@pytest.mark.parametrize("name", DEALS_SECRETS)
@pytest.mark.parametrize("seed", range(4))
def test_two_tables_differing_in_one_secret_draw_give_the_face_the_same_seen_until_the_reveal(name, seed,
                                                                                            monkeypatch):
    """A secret chance deals one seat (Leader 1's supply tiles): the face sees nothing of it — not in a pad's
    cursor, which runs over the public choices alone."""
    from engine import chance as chance_module
    from tests.test_contract import Forked, forking_draw, secret_dealing_options
    game = GAMES[name]
    monkeypatch.setattr(chance_module, "draw", forking_draw)
    rules, seats, rng = game.rules, game.seats[0], random.Random(seed)
    sources = [Forked(seed, 0), Forked(seed, 1)]
    sides = [Table(random=source) for source in sources]
    for table in sides:
        table.new_game(name, seats, secret_dealing_options(game))
    a, b = sides
    source, checked = sources[0], 0
    while not a.view()["over"] and not source.more and a.view() == b.view():
        if source.owners is not None:
            assert alike(seen(a.moment, WIRED), seen(b.moment, WIRED)), f"the face can tell {source.owners}' draw"
            checked += 1
        seat = rng.choice(list(a.actors()))
        both = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat)]
        dealing = [x for x in both if source.owners is None and game.secret_draw(rules.apply(a.state, x))]
        action = rng.choice(dealing if dealing and rng.random() < 0.5 else both)  # steer towards a secret
        for table in sides:
            table.act(action)
    assert checked, "no secret draw came up"

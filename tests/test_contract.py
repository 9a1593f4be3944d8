"""The game contract (engine/rules/protocol.py), checked over every registered game: a game gets all of this
by registering. Random legal games end; listed actions are accepted and others refused by name; prompts offer
only legal actions; exports replay; views carry the required keys; and two tables that differ only in one
seat's secret pick serve every other viewer the same bytes, on every endpoint and stream event, until the
reveal."""
import functools
import itertools
import json
import random
import re

import pytest
from gpiozero.pins.mock import MockFactory

from engine import chance as chance_module
from engine.record import GameRecord, header
from engine.replay import replay
from engine.games import GAMES
from engine.rules import CHANCE, HOST, PUBLIC, TERMINAL, Rejected
from engine.rules.options import CHOICE, label
from engine.rules.protocol import Prompt
from engine.table import Table
from engine.words import render as worded
from engine.chance import draw as table_draw
from tests.phones import take
from device.display import render
from device.web_port import WebPort
from web_companion import api, create_app
from web_companion.services import services
from web_companion.streams import KEEP_ALIVE_EVENT
from tests.conftest import virtual

MAX_STEPS = 10000  # Leader 1 enters a move field by field: random games of it run long
SEEDS = range(12)


def random_game(rules, seed, undo_rate=0.0):
    """A random legal game through a Table, seat actions chosen from the listed legal ones."""
    rng = random.Random(seed)
    low, high = rules.SEATS
    table = Table(random=random.Random(seed))
    table.new_game(rules.NAME, rng.randint(low, high))
    steps = 0
    while not table.view()["over"]:
        actors = table.actors()
        assert actors not in (CHANCE, TERMINAL), "the table draws chance at once; terminal means over"
        if undo_rate and table.can_undo and rng.random() < undo_rate:
            table.undo()
        else:
            seat = rng.choice(list(actors))
            table.act(rng.choice(table.legal_actions(seat)))
        steps += 1
        assert steps < MAX_STEPS, "a random legal game did not end"
    return table


def random_states(rules, seats, options, seed):
    """The states of a random legal game of `rules` (chance drawn at random too), in order."""
    rng = random.Random(seed)
    state = rules.setup(seats, options)
    for _ in range(MAX_STEPS):
        yield state
        actors = rules.current_actors(state)
        if actors == TERMINAL:
            return
        if actors == CHANCE:
            outcomes, weights = zip(*rules.chance_outcomes(state))
            state = rules.apply(state, rng.choices(outcomes, weights)[0])
        else:
            state = rules.apply(state, rng.choice(rules.legal_actions(state, rng.choice(list(actors)))))


@functools.cache
def asks_secret_picks(game):
    """Whether random games of `game` (the fewest seats, as the secrecy tests play it) ask a seat for a secret pick
    among two choices or more: worked out from the game, so a game cannot forget to say it has secrets."""
    rules = game.rules
    for seed in range(4):
        for state in random_states(rules, rules.SEATS[0], {}, seed):
            actors = rules.current_actors(state)
            prompts = [] if actors in (CHANCE, TERMINAL) else [rules.prompt(state, seat) for seat in actors]
            if any(p.secret and len(p.choices) > 1 for p in prompts):
                return True
    return False


@functools.cache
def secret_dealing_options(game):
    """Table options under which chance deals one seat a secret (`secret_draw`) that stays one while the table
    plays on (a seat acts before another secret is drawn), worked out from the game: each choice option's
    values are tried, the rest left at their defaults. None when no such table came up."""
    rules = game.rules
    choices = [option for option in rules.OPTIONS if option.kind == CHOICE]
    for values in itertools.product(*(option.choices for option in choices)):
        options = {option.name: value for option, value in zip(choices, values)}
        for seed in range(2):
            dealt = False
            try:
                for state in random_states(rules, rules.SEATS[0], options, seed):
                    actors = rules.current_actors(state)
                    if actors == CHANCE and game.secret_draw(state):
                        if dealt:
                            break  # another secret came before anyone played on
                        dealt = True
                    elif actors not in (CHANCE, TERMINAL) and dealt:
                        return options
            except Rejected:  # options that do not go together
                break
    return None


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


@pytest.fixture
def rules(game):
    return game.rules


def test_the_module_declares_the_contract(rules):
    for name in ("NAME", "TITLE", "SEATS", "OPTIONS", "setup", "current_actors", "chance_outcomes",
                 "legal_actions", "apply", "prompt", "view", "result"):
        assert hasattr(rules, name), name
    low, high = rules.SEATS
    for seats in (low - 1, high + 1, "3", True):
        with pytest.raises(Rejected):
            rules.setup(seats, {})
    with pytest.raises(Rejected, match="unknown option 'nonsense'"):
        rules.setup(low, {"nonsense": 1})
    for option in rules.OPTIONS:
        with pytest.raises(Rejected, match=re.escape(worded("en", label(rules.NAME, option.name)) + ":")):
            rules.setup(low, {option.name: {"not": "valid"}})


@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_games_end_and_replay_to_the_same_view(game, rules, seed):
    table = random_game(rules, seed, undo_rate=0.03)
    drew = any("chance" in json.loads(line) for line in table.export().splitlines()[1:])
    assert game.draws or not drew, "a game the box draws for declares it (draws=True): its seal is shown"
    shown = table.view()
    assert shown["result"] is not None and set(shown["result"]) - {"standings"} == {"winners", "losers", "draw"}
    del shown["version"]
    assert replay(table.export()).view(PUBLIC) == shown
    table.close()


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_every_listed_action_and_prompt_choice_is_accepted_and_others_are_refused_by_name(rules, seed):
    rng = random.Random(seed)
    record = GameRecord(header(rules.NAME, rules.SEATS[0]))
    while not record.is_over:
        state = record.state
        actors = rules.current_actors(state)
        if actors == CHANCE:
            record.apply(rng.choice(rules.legal_actions(state, CHANCE)))
            continue
        for seat in range(record.header["seats"]):
            listed = rules.legal_actions(state, seat)
            prompt = rules.prompt(state, seat)
            if seat not in actors:
                assert listed == [] and prompt is None
                continue
            assert isinstance(prompt, Prompt) and prompt.choices
            assert [c.action for c in prompt.choices] == listed  # the prompt offers exactly what is legal
            for action in listed:
                rules.apply(state, action)
            if prompt.pad is not None:
                assert len(prompt.pad) == 8
        sample = rules.legal_actions(state, actors[0])[0]
        for bad in ("a string", {}, {"seat": 0, "nonsense": 1}, {"chance": "x", "outcome": None},
                    {**sample, "seat": 99}, {**sample, "seat": True}, {**sample, "extra": 1}):
            with pytest.raises(Rejected):
                rules.apply(state, bad)
        for seat in [s for s in range(record.header["seats"]) if s not in actors]:
            with pytest.raises(Rejected):
                rules.apply(state, {**sample, "seat": seat})
        seat = rng.choice(list(actors))
        record.apply(rng.choice(rules.legal_actions(state, seat)))


def test_every_view_carries_the_required_keys(rules):
    table = random_game(rules, 1)
    for viewer in [PUBLIC, HOST] + list(range(table.seats)):
        shown = table.view(viewer)
        assert {"game", "over", "result", "version"} <= set(shown)
        assert shown["game"] == rules.NAME and shown["over"] is True
    fresh = rules.setup(rules.SEATS[0], {})
    assert rules.view(fresh, PUBLIC)["result"] is None and rules.view(fresh, PUBLIC)["over"] is False
    table.close()


# -- the secrecy property ------------------------------------------------------------------------------------
class Side:
    """One table with a phone for every viewer: seat phones claimed, the host claimed, streams open."""

    def __init__(self, box, seats):
        self.box = box
        self.app = create_app(WebPort(box), virtual=virtual(box))  # mock mode: the OLED image is served too
        self.changes = services(self.app).changes
        self.viewers = [PUBLIC, HOST] + list(range(seats))
        self.phones = {viewer: self.app.test_client() for viewer in self.viewers}
        for seat in range(seats):
            take(self.phones[seat], box, ("seat", seat))
        self.streams = {viewer: iter(self.phones[viewer].get(
            "/api/stream" + ("?view=seat" if isinstance(viewer, int) else ""), buffered=False).response)
            for viewer in self.viewers}
        for events in self.streams.values():  # each follows from its first view on
            while not next(events).startswith(b"id: "):
                pass

    def served(self, viewer):
        """Everything `viewer` is served now: its GETs, then every event its stream sent since the last look, in
        the order sent (the box writes them from a thread of its own: once it has written all that happened, the
        phone's next keep-alive ends them)."""
        phone = self.phones[viewer]
        paths = {PUBLIC: ["/api/table", "/box/oled.png", "/box/layout"],
                 HOST: ["/api/table", "/api/host", "/api/host/seats", "/api/host/log"]}
        bodies = [phone.get(path).get_data() for path in paths.get(viewer, ["/api/table?view=seat"])]
        assert self.changes.written(30)
        while (chunk := next(self.streams[viewer])) != KEEP_ALIVE_EVENT:
            bodies.append(chunk)
        return bodies

    def refusals(self, seat):
        """What each pad button and each listed action would do for `seat` now: accepted, or the refusal."""
        rules, state = self.box.table.rules, self.box.table.state
        prompt = rules.prompt(state, seat)
        tried = [c.action for c in (prompt.pad or ()) if c] if prompt else []
        answers = []
        for action in tried + rules.legal_actions(state, seat):
            try:
                rules.apply(state, action)
                answers.append("ok")
            except Rejected as e:
                answers.append(str(e))
        return answers


def secret_fork(sides, rng, later=0.4):
    """Play both tables the same way until a seat has a secret pick with two choices while another seat has
    yet to act (so the pick stays secret for a while); return that seat (taken at such a moment with the
    chance `later`: the smaller, the further into the game)."""
    a, b = sides
    while not a.box.table.view()["over"]:
        table = a.box.table
        actors = table.actors()
        waiting = [s for s in actors if table.prompt(s).current is None]
        secret = [s for s in waiting if table.prompt(s).secret and len(table.prompt(s).choices) > 1]
        if secret and len(waiting) > 1 and rng.random() < later:
            return rng.choice(secret)
        seat = rng.choice(list(actors))
        action = rng.choice(table.legal_actions(seat))
        for side in sides:
            assert side.box.seat_act(seat, action)["status"] != "rejected"
    return None


@pytest.mark.parametrize("seed", range(4))
def test_two_tables_differing_in_one_secret_pick_look_the_same_to_everyone_else(game, rules, seed, make_box,
                                                                               tmp_path, monkeypatch):
    if game.secret_draw:
        pytest.skip("this game's secrets are chance draws: the next test forks on one")
    if not asks_secret_picks(game):
        pytest.skip("random play asks for no secret pick: an open-information game has no secret to keep")
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.002)
    rng = random.Random(seed)
    seats = rules.SEATS[0]
    for attempt in range(5):  # a game may end before the fork is taken (Biglietti's controller can win at once)
        sides = []
        for name in "ab":
            box = make_box(seed=seed, data=tmp_path / f"{name}{attempt}", pins=MockFactory(revision="a020a0"))
            box.table.new_game(rules.NAME, seats)
            sides.append(Side(box, seats))
        picker = secret_fork(sides, rng)
        if picker is not None:
            break
    assert picker is not None, "no secret pick came up"
    a, b = sides
    first, second = rng.sample(a.box.table.prompt(picker).choices, 2)
    assert a.box.seat_act(picker, first.action)["status"] != "rejected"
    assert b.box.seat_act(picker, second.action)["status"] != "rejected"
    for viewer in [v for v in a.viewers if v != picker]:
        assert a.served(viewer) == b.served(viewer), f"{viewer} can tell player {picker + 1}'s pick"
    # a change of mind is as secret as a first pick (it keeps the two tables apart)
    changed = rng.choice([c for c in a.box.table.prompt(picker).choices if c != second])
    assert a.box.seat_act(picker, changed.action)["status"] != "rejected"
    assert b.box.seat_act(picker, second.action)["status"] != "rejected"
    checked = 0
    while a.box.table.view() == b.box.table.view():  # until the reveal
        for viewer in [v for v in a.viewers if v != picker]:
            assert a.served(viewer) == b.served(viewer), f"{viewer} can tell player {picker + 1}'s pick"
            if isinstance(viewer, int):
                assert a.refusals(viewer) == b.refusals(viewer)
        assert a.served(picker) != b.served(picker)  # its own phone does see its pick
        checked += 1
        table = a.box.table
        others = [s for s in table.actors() if s != picker]
        seat = rng.choice(others)
        action = rng.choice(table.legal_actions(seat))
        for side in sides:
            assert side.box.seat_act(seat, action)["status"] != "rejected"
    assert checked


CHECKED_STEPS = 40  # steps after a secret draw checked on every endpoint (each costs a round of requests)


class Forked:
    """A seeded random source for one table: its first secret draw takes outcome `pick` instead (its seeded
    draws go on the same), so two tables with picks 0 and 1 differ in that one secret only."""

    def __init__(self, seed, pick):
        self.random = random.Random(seed)
        self.pick = pick
        self.owners = None  # who may see the forked secret, once drawn
        self.more = False  # a later secret draw came: it may depend on the first (a shared deck)

    def choices(self, population, weights):
        return self.random.choices(population, weights)


def forking_draw(rules, state, source):
    """engine.chance.draw, forking the first secret draw of a table whose source is a Forked."""
    secret_draw = GAMES[rules.NAME].secret_draw
    owners = secret_draw(state) if secret_draw else None
    if owners and isinstance(source, Forked):
        outcomes = rules.legal_actions(state, CHANCE)
        if source.pick is not None and len(outcomes) > 1:
            source.owners, chosen, source.pick = owners, outcomes[source.pick], None
            return chosen
        source.more = source.owners is not None
    return table_draw(rules, state, source)


@pytest.mark.parametrize("seed", range(4))
def test_two_tables_differing_in_one_secret_draw_look_the_same_to_everyone_else(game, rules, seed, make_box,
                                                                               tmp_path, monkeypatch):
    """A game that deals a seat something secret by chance (`secret_draw(state)` names who may see it): two
    tables that drew two different outcomes serve every other viewer the same bytes until it is revealed."""
    if not game.secret_draw:
        pytest.skip("this game's secrets are picks, or it has none: the test above forks on one")
    options = secret_dealing_options(game)
    assert options is not None, "no table came up where chance deals a seat a secret while play goes on"
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.002)
    monkeypatch.setattr(chance_module, "draw", forking_draw)
    rng = random.Random(seed)
    seats = rules.SEATS[0]
    sides, sources = [], [Forked(seed, 0), Forked(seed, 1)]
    for name, source in zip("ab", sources):
        box = make_box(data=tmp_path / name, pins=MockFactory(revision="a020a0"), dice=source)
        box.table.new_game(rules.NAME, seats, options)
        sides.append(Side(box, seats))
    a, b = sides
    heard = [Heard(side.box) for side in sides]
    source = sources[0]
    checked = 0
    while not a.box.table.view()["over"] and not source.more and a.box.table.view() == b.box.table.view():
        if source.owners is not None:  # forked: every other viewer is served the same, until the reveal
            for viewer in [v for v in a.viewers if v not in source.owners]:
                assert a.served(viewer) == b.served(viewer), f"{viewer} can tell a secret of {source.owners}"
                if isinstance(viewer, int):
                    assert a.refusals(viewer) == b.refusals(viewer)
            assert all(a.served(owner) != b.served(owner) for owner in source.owners)  # the owner sees it
            for seat in range(min(a.box.wired_seats, seats)):  # a pad's secret choice: its private ones undrawn
                prompt = a.box.table.prompt(seat)
                if prompt is not None and prompt.secret and prompt.pad is None:
                    for button in range(1, 9):
                        done = [virtual(side.box).press(seat=seat, button=button)["status"] for side in sides]
                        assert done[0] == done[1], done
                        assert heard[0].cues == heard[1].cues and heard[0].frame() == heard[1].frame()
            checked += 1
            if checked == CHECKED_STEPS:
                break
        state = a.box.table.state
        seat = rng.choice(list(rules.current_actors(state)))
        both = [x for x in a.box.table.legal_actions(seat) if x in b.box.table.legal_actions(seat)]
        dealing = [x for x in both if source.owners is None and game.secret_draw(rules.apply(state, x))]
        action = rng.choice(dealing if dealing and rng.random() < 0.5 else both)  # steer towards a secret
        for side in sides:
            assert side.box.seat_act(seat, action)["status"] != "rejected"
    assert checked, "no secret draw came up"


class Heard:
    """A box whose cues are written down (the default pin map has a buzzer)."""

    def __init__(self, box):
        self.box, self.cues = box, []
        box.sounds.play = self.cues.append

    def frame(self):
        return render(self.box.display.screen).tobytes()


def pad_presses_on_a_fork(rules, seed, make_box, folder):
    """Two tables forked on one seat's secret pick, that seat's pad (when a pad wires it) pressed on both through
    the virtual box's page, a different button on each, every pair of its buttons in turn: the seat stays ready
    whatever its presses do, so the tables must look and sound alike to everyone else — the OLED, the buzzer,
    the virtual box's answer, and every other viewer's requests and stream events, event by event. Returns
    (pairs pressed, pairs refused on one table or both)."""
    rng = random.Random(seed)
    seats = rules.SEATS[0]
    for attempt in range(5):
        sides = []
        for name in "ab":
            box = make_box(seed=seed, data=folder / f"{seed}{name}{attempt}", pins=MockFactory(revision="a020a0"))
            box.table.new_game(rules.NAME, seats)
            sides.append(Side(box, seats))
        picker = secret_fork(sides, rng, later=0.15)
        if picker is not None and picker < box.wired_seats:
            break
    assert picker is not None and picker < box.wired_seats, "no secret pick came up on a wired pad"
    a, b = sides
    first, second = rng.sample(a.box.table.prompt(picker).choices, 2)
    assert a.box.seat_act(picker, first.action)["status"] != "rejected"
    assert b.box.seat_act(picker, second.action)["status"] != "rejected"
    heard = [Heard(side.box) for side in sides]
    others = [viewer for viewer in a.viewers if viewer != picker]
    for viewer in others:
        assert a.served(viewer) == b.served(viewer), f"{viewer} can tell player {picker + 1}'s pick"
    pressed = refused = 0
    for x, y in itertools.product(range(1, 9), repeat=2):
        answers = [side.phones[PUBLIC].post("/box/press", json={"seat": picker, "button": button}).get_json()
                   for side, button in ((a, x), (b, y))]
        for answer in answers:  # the one who clicked knows which button it was
            answer.pop("button")
        pressed += 1
        told = [[c for c in side.served(picker) if c.startswith(b"event: refused")] for side in sides]
        refused += any(told)  # the seat's own phone reads why
        assert answers[0] == answers[1], f"the virtual box tells player {picker + 1}'s buttons {x} and {y} apart"
        assert heard[0].cues == heard[1].cues, f"the buzzer tells player {picker + 1}'s buttons {x} and {y} apart"
        assert heard[0].frame() == heard[1].frame(), f"the OLED tells player {picker + 1}'s buttons {x} and {y} apart"
        for viewer in others:
            assert a.served(viewer) == b.served(viewer), f"{viewer} tells player {picker + 1}'s {x} and {y} apart"
    return pressed, refused


def test_two_tables_differing_in_one_secret_pick_look_and_sound_the_same_whatever_its_seat_presses(
        game, rules, make_box, tmp_path, monkeypatch):
    """The OLED, the buzzer, the virtual box and the public stream are public: a seat that has picked in secret
    may press any button of its pad (changing its mind, or pressing what the rules refuse it): the table sees
    and hears the same whichever it presses, and so does every phone but the seat's. Defects: a refused press
    put its reason on the OLED ("il giocatore 1 non ha quella carta") and played the refusal buzz; the virtual
    box's page printed it; a taken press moved the public version and sent every phone a view while a refused
    one sent nothing, so a phone on the Wi-Fi and a glance at whose hand moved told the two apart."""
    if game.secret_draw or not asks_secret_picks(game):
        pytest.skip("no secret pick to fork on (open information, or secrets dealt by chance)")
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.002)
    counted = [pad_presses_on_a_fork(rules, seed, make_box, tmp_path) for seed in range(4)]
    assert any(refused for _, refused in counted), "the forks pressed buttons the rules refuse"
    print(f"{rules.NAME}: {sum(p for p, _ in counted)} pairs of presses, {sum(r for _, r in counted)} refused")

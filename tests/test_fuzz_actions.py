"""Every route that hands an action in, in every game (the sixth one included), on a box with seats that no pad
wires: a seat's phone acting (a wired seat and a pad-less one), the host acting for an unattended seat, the pad's
cursor (the virtual box's presses), and a new game's settings. The actions are drawn near what the rules list at
that moment (one value made anything at all: lists, objects, lone surrogates, integers past 64 bits, NaN), and
anything at all. No answer is a 5xx; a refusal is a JSON error and changes neither the version nor the journal
(defect: Ponte's `{"seat": 4, "pick": [1]}` answered 500; a lone surrogate as a game's name, and a game id past
64 bits in a log's address, answered 500 too)."""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.web_port import WebPort
from engine import games
from tests.phones import take
from tests.sixth_game import MONETA
from tests.test_contract_total import JSON, MUTATION, mutated
from tests.test_fuzz_http import data, journal_rows  # noqa: F401  (data: the fixture)
from web_companion import create_app
from tests.conftest import virtual

pytestmark = pytest.mark.slow

ONE_PAD = Path(__file__).parent / "pinmap-one-seat.toml"
EVERY_GAME = sorted([*games.GAMES, MONETA.name])
EXAMPLES, REQUESTS = 60, 40  # up to 2,400 requests a game (fewer when no seat may move), past 10,000 in all
SENT_AT_LEAST = 1_700  # a game: 6 × 1,700 > 10,000
COUNTED = {}


@pytest.fixture
def moneta():
    games.register([MONETA])
    yield
    games.unregister(MONETA.name)


# A request is drawn whole before it meets the table (what it aims at by index), so that the data drawn never
# depends on the box's state: hypothesis asks that of its examples.
ROUTES = ("phone", "phone", "host", "host", "cursor", "legal", "game", "log")
REQUEST = st.tuples(st.sampled_from(ROUTES), st.integers(0, 2 ** 16), st.booleans(), MUTATION,
                    st.sampled_from(["action", "action", "extra", "bare"]),
                    st.fixed_dictionaries({"seat": st.integers(-1, 2) | JSON, "button": st.integers(0, 9) | JSON}),
                    st.sampled_from([None, "\ud800"]) | JSON, st.sampled_from([None, "\ud800", 2 ** 64]) | JSON,
                    st.sampled_from([1, 2 ** 64, 2 ** 63, 10 ** 30]))


def body(action, wrap):
    return {"action": action} if wrap == "action" else {"action": action, "x": 1} if wrap == "extra" else action


@pytest.mark.parametrize("name", EVERY_GAME)
def test_hostile_actions_on_every_route_never_answer_5xx_and_refusals_change_nothing(name, data, make_box,
                                                                                   moneta):
    rules = games.GAMES[name].rules
    box = make_box(data=data, pinmap=ONE_PAD)
    seats = rules.SEATS[1]
    client = create_app(WebPort(box), virtual=virtual(box)).test_client()
    box.table.new_game(name, seats)
    phones = {0: create_app(WebPort(box), virtual=virtual(box)).test_client(),
              seats - 1: create_app(WebPort(box), virtual=virtual(box)).test_client()}
    for seat, phone in phones.items():
        take(phone, box, ("seat", seat))
    unattended = [s for s in range(1, seats - 1)]  # neither pad nor phone: the host acts for them
    COUNTED[name] = 0

    def send(method, path, body=None, via=client):
        before = (box.table.version, journal_rows(data / "journal.sqlite3"))
        encoded = None if body is None else json.dumps(body).encode("utf-8", "surrogatepass")
        answer = via.open(path, method=method, data=encoded, content_type="application/json")
        COUNTED[name] += 1
        assert answer.status_code < 500, (method, path, body, answer.get_data(as_text=True)[:300])
        if 400 <= answer.status_code < 500:
            assert answer.is_json and answer.get_json()["error"], (method, path, body)
            assert (box.table.version, journal_rows(data / "journal.sqlite3")) == before, (method, path, body)
        return answer

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.lists(REQUEST, min_size=REQUESTS, max_size=REQUESTS))
    def fuzz(requests):
        for route, index, near_legal, mutation, wrap, press, game, seat_count, game_id in requests:
            if box.table.game is None or box.table.view()["over"]:
                box.table.new_game(name, seats)
            aimed = [*phones, *unattended, -1, seats, 2 ** 64]
            seat = aimed[index % len(aimed)]
            legal = box.table.legal_actions(seat) if 0 <= seat < seats else []
            action = mutated(legal[index % len(legal)], *mutation) if legal and near_legal else mutation[2]
            if route == "legal":  # the game moves on, so later requests meet other states
                mover = sorted(phones)[index % len(phones)]
                legal = box.table.legal_actions(mover)
                if legal:
                    send("POST", f"/api/seats/{mover}/act", {"action": legal[index % len(legal)]},
                         via=phones[mover])
            elif route == "phone":
                via = phones.get(seat, phones[sorted(phones)[index % len(phones)]])
                send("POST", f"/api/seats/{seat}/act", body(action, wrap), via=via)
            elif route == "host":
                send("POST", f"/api/host/seats/{seat}/act", body(action, wrap))
            elif route == "cursor":
                send("POST", "/box/press", press)
            elif route == "game":
                send("POST", "/api/host/game", {"game": name if game is None else game,
                                                "seats": seats if seat_count is None else seat_count,
                                                "options": {}})
            else:
                send("GET", f"/api/host/games/{game_id}/log")

    fuzz()
    print(f"{name}: {COUNTED[name]} hostile requests, none answered 5xx")
    assert COUNTED[name] >= SENT_AT_LEAST

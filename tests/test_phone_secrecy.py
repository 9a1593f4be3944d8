"""Every response body and every stream event served to every viewer during a scripted game: none holds an
unrevealed pick of another seat. Two tables play the same script except for one seat's secret picks; every
other viewer must be served byte for byte the same, until the reveal."""
import json

import pytest
from gpiozero.pins.mock import MockFactory

from web_companion import api, create_app

VIEWERS = ["public", "host", 1, 2]  # seat 0 picks in secret; these must not learn what
SCRIPT = [  # (seat, card on table A, card on table B)
    (1, "passo_prudente", "passo_prudente"),
    (0, "salto_atletico", "vertigini"),
    (2, "paura_improvvisa", "paura_improvvisa"),
    (0, "scatto_repentino", "paura_improvvisa"),  # a change of mind, still secret
]


class Side:
    """One table of 4 with a phone per viewer: seat phones claimed by pad presses, streams open."""

    def __init__(self, box):
        self.box = box
        self.app = create_app(box, mock=False)
        self.phones = {viewer: self.app.test_client() for viewer in VIEWERS + [0]}
        for seat in (0, 1, 2):
            claim = self.phones[seat].post(f"/api/seats/{seat}/claim", json={}).get_json()["claim"]
            box.click(box.pin_of(seat=seat, button=1))
            self.phones[seat].get(f"/api/claims/{claim}")
        claim = self.phones["host"].post("/api/host/claim", json={}).get_json()["claim"]
        box.click(box.pin_of(host="ok"))
        self.phones["host"].get(f"/api/claims/{claim}")
        self.streams = {viewer: iter(self.phones[viewer].get(
            "/api/stream" + ("?view=seat" if isinstance(viewer, int) else ""), buffered=False).response)
            for viewer in VIEWERS + [0]}

    def served(self, viewer):
        """Everything `viewer` is served now: its GETs and the stream events since the last look."""
        phone = self.phones[viewer]
        bodies = [phone.get("/api/table" + ("?view=seat" if isinstance(viewer, int) else "")).get_data(),
                  phone.get("/api/host").get_data()]
        while True:
            chunk = next(self.streams[viewer]).decode()
            if chunk == ": keep-alive\n\n":
                break
            bodies.append(chunk.encode())
        return bodies


@pytest.fixture
def sides(make_box, tmp_path, monkeypatch):
    monkeypatch.setattr(api, "KEEP_ALIVE", 0.02)
    made = []
    for name in "ab":
        box = make_box(seed=5, data=tmp_path / name, pins=MockFactory(revision="a020a0"))
        box.table.new_game("ponte", 4)
        made.append(Side(box))
    return made


def test_no_viewer_is_served_another_seats_unrevealed_pick(sides):
    a, b = sides
    every = []
    for seat, card_a, card_b in SCRIPT:
        for side, card in ((a, card_a), (b, card_b)):
            answer = side.phones[seat].post(f"/api/seats/{seat}/act", json={"action": {"seat": seat, "pick": card}})
            assert answer.status_code == 200, answer.get_json()
        for viewer in VIEWERS:
            served_a, served_b = a.served(viewer), b.served(viewer)
            assert served_a == served_b, f"{viewer} can tell seat 1's secret pick"
            every += served_a
        if seat == 0:
            assert a.served(0) != b.served(0)  # seat 0's own phone does see its pick
    assert len(every) > 40
    assert not any(b'"my_pick": "scatto' in body or b'"my_pick":"scatto' in body for body in every)
    # The last pick (seat 4, on its pad) reveals: now the tables differ for everyone, as they should.
    for side in (a, b):
        assert side.box.click(side.box.pin_of(seat=3, button=5))["status"] == "applied"
    assert a.served("public") != b.served("public")
    reveal = json.loads(a.phones["public"].get("/api/table").get_data())["history"][0]["reveal"]
    assert reveal == ["scatto_repentino", "passo_prudente", "paura_improvvisa", "vertigini"]

"""axe (tests/axe.py, its newest release) over every state a table meets: a seeded random game of each game,
played through the box's API, with the pages of every kind open at 360 px in both languages — player 1's phone
in Italian, player 2's in English, the table's and the host's pages in each (the host's page enters the moves of
the players with neither pad nor phone: its prompts are theirs). The pages are audited at the start, every
EVERY-th move (the three kinds in one language, the languages in turn), each time one of them first shows a
prompt (its title, open or with a pick locked in), and at the end; a prompt in two steps is audited with its first
group opened too. No serious or critical finding anywhere.

The game is played first on a table of the test's own with seeded dice; the box then draws the same (`--chance`)
and takes the same moves, so every run audits the same states."""
import json
import random
import time

import pytest

from engine.table import Table
from tests.axe import serious
from tests.browser import Server, post
from tests.test_browser_access import paired_phone
from tests.test_browser_keyboard import ONE_PAD, drawn, get
from tests.test_browser_phones import PHONE

pytestmark = pytest.mark.browser

EVERY = 20
# Each game's seats, options and the seed of a random game that meets every prompt the game has (listed: the test
# checks it does). Leader 1 with two riders a team, its supply tiles held by the box, and little energy: a shorter
# race, and the tiles' own prompt.
L1 = {"riders": [["leader", "scalatore"]] * 2, "supply": "box", "energy": 30}
GAMES = {
    "ponte": (4, {}, 2, {"pick_card", "pick_again", "pick_replacement"}),
    "lifeboats": (3, {}, 0, {"choose_lane", "choose_black", "choose_place", "choose_captain", "choose_tie",
                             "choose_remove", "choose_swim_from", "choose_swim_to", "vote_move", "vote_leak",
                             "vote_special"}),
    "biglietti": (5, {}, 98, {"choose_check", "choose_ticket", "choose_value", "choose_discard", "choose_eliminate",
                              "pick_help", "pick_polfer"}),
    "shangrila": (3, {}, 1, {"choose_setup", "choose_play"}),
    "leader1": (2, L1, 1, {"choose_quality", "choose_lineup", "choose_attack", "choose_rider", "choose_start",
                           "choose_spaces", "choose_move", "choose_regroup", "choose_chase", "choose_roll",
                           "choose_catch", "choose_puncture"}),
}


def script(game, seats, options, seed):
    """A random game on a table of the test's own: its moves, the prompts each state shows (by seat: its title,
    and whether its pick is locked in) and the dice it drew."""
    rng = random.Random(seed)
    table = Table(random=random.Random(seed))
    table.new_game(game, seats, options)
    moves, shown = [], []
    while True:
        prompts = {s: p for s in range(seats) if (p := table.view(s)["prompt"])}
        shown.append({s: (p["title"], p["current"] is not None) for s, p in prompts.items()})
        if table.view()["over"]:
            break
        open_ = {s: p for s, p in prompts.items() if p["choices"] and p["current"] is None}
        seat = rng.choice(sorted(open_))
        moves.append(rng.choice(open_[seat]["choices"])["action"])
        table.act(moves[-1])
    dice = [line for line in map(json.loads, table.export().splitlines()) if set(line) == {"chance", "outcome"}]
    return moves, shown, dice


# A prompt's first group (a boat, a rider, a village on the map), opened and closed again by a tap: opening sends
# nothing (a journey's button would: it is never tapped here).
OPENERS = ((".prompt button.choice.group", ".prompt button.choice.back"),
           (".prompt svg [data-village]", ".prompt svg .village.selected"))


def audits(page, opening):
    """axe's serious findings on the page as it stands; with `opening`, on its first prompt group opened too."""
    yield "shown", serious(page)
    if not opening:
        return
    for group, close in OPENERS:
        if page.locator(group).count():
            page.locator(group).first.click()
            page.wait_for_selector(close)
            yield "opened", serious(page)
            page.locator(close).first.click()
            page.wait_for_selector(close, state="detached")
            return


def move(server, phones, action):
    """A move from the seat's own phone, or entered by the host for a seat with neither pad nor phone."""
    seat, before = action["seat"], get(server, "/api/table")["version"]
    if seat in phones:
        answer = phones[seat].request.post(f"{server.url}/api/seats/{seat}/act", data={"action": action})
        assert answer.ok, answer.json()
    else:
        post(server, f"/api/host/seats/{seat}/act", {"action": action})
    assert get(server, "/api/table")["version"] > before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_axe_finds_nothing_serious_in_any_state_of_a_whole_game(tmp_path, browser, game):
    seats, options, seed, prompts = GAMES[game]
    moves, shown, dice = script(game, seats, options, seed)
    assert {title for state in shown for title, _ in state.values()} == prompts
    server = Server(tmp_path / "data", "--pinmap", str(ONE_PAD), "--reveal-delay", "0", "--chance", json.dumps(dice))
    try:
        began = time.monotonic()
        post(server, "/api/host/game", {"game": game, "seats": seats, "options": options})
        pages = {("seat", "it"): paired_phone(browser, server, 0, "it"),
                 ("seat", "en"): paired_phone(browser, server, 1, "en")}
        for kind, path in (("table", "/"), ("host", "/host")):
            for lang in ("it", "en"):
                pages[(kind, lang)] = browser.new_context(locale=lang, **PHONE).new_page()
                pages[(kind, lang)].goto(f"{server.url}{path}?lang={lang}")
        phones = {0: pages[("seat", "it")], 1: pages[("seat", "en")]}
        found, audited, met = {}, 0, set()
        for step in range(len(moves) + 1):
            if step:
                move(server, phones, moves[step - 1])
            due = set(pages) if step in (0, len(moves)) else \
                {(kind, ("it", "en")[step // EVERY % 2]) for kind in ("seat", "table", "host")} if step % EVERY == 0 \
                else set()
            for seat, prompt in shown[step].items():  # a prompt a page shows for the first time
                where = {0: [("seat", "it")], 1: [("seat", "en")]}.get(seat, [("host", "it"), ("host", "en")])
                due |= {page for page in where if (page, prompt) not in met}
                met |= {(page, prompt) for page in where}
            version = get(server, "/api/table")["version"]
            for page in sorted(due):
                drawn(pages[page], version)
                for state, findings in audits(pages[page], opening=page[0] != "table"):
                    audited += 1
                    if findings:
                        found[(step, *page, state)] = findings
        assert get(server, "/api/table")["over"]
        assert found == {}
        print(f"{game}: {len(moves)} moves, {audited} pages audited, {time.monotonic() - began:.0f} s")
    finally:
        server.stop()

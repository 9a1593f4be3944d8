"""Biglietti, prego! as the table reads it on the box and in its catalogs: a Pol.Fer. win's end page in plain
words, the help round's ring with a legend of its codes, counts with their plural forms (issue 51)."""
import re

import pytest

from device.screens import COLUMNS
from engine.words import lookup
from games.biglietti import oled
from .test_biglietti_rules import Game, A, I, N, S
from tests.test_catalogs import messages

WORDS = {
    "it": ["Vince: G2", "G2 aveva la Pol.Fer.", "biglietti in gioco: 1", "2 senza carte: G4 G5", "ne bastavano 2"],
    "en": ["Wins: P2", "P2 held the Pol.Fer.", "tickets in play: 1", "2 hold no card: P4 P5", "2 were enough"],
}
POINTS = {"it": ["Punti: G2:0 G3:0 G4:0", "   G5:0"], "en": ["Points: P2:0 P3:0", "   P4:0 P5:0"]}


def polfer_win_with_a_zero_card():
    """Five seats (one Biglietto): player 3 is given a control card worth 0, player 2 shows a ticket for the
    rest of the Andata and then holds the Pol.Fer.: three travellers end at 0 points, two of them hold no card."""
    game = Game(5).check(2).ticket(False).help({}).value(0)
    while game.state.step == "check":
        game.check(1).ticket(True)
    game.polfer(holder=1)
    assert game.view()["winner"] == {"how": "polfer", "winners": [1], "without_cards": 2, "tickets": 1}
    return game


def lines_of(page):
    return list(page.lines or page.picture.lines)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_polfer_win_s_end_page_names_who_holds_no_card_against_the_tickets_in_play(lang):
    """Defect: "2 senza carte, 1 big." above three travellers at 0 points, read as a contradiction (a card
    worth 0 is still a card; the holder is left out) and abbreviated."""
    pages = oled._result_pages(polfer_win_with_a_zero_card().view(), lang)
    assert [lines_of(page) for page in pages] == [WORDS[lang], POINTS[lang]]
    assert oled.result(polfer_win_with_a_zero_card().view(), lang) == pages[0]  # the box's last screen says it all
    assert all(len(line) <= COLUMNS for page in pages for line in lines_of(page))


def reveal(lang):
    """Six seats, player 3 checked: 2 and 4 play Scusa round it, 5 Imparziale, 6 Nasconditi; no Accusa."""
    game = Game(6).check(2).ticket(False).help({1: S, 3: S, 4: I, 5: N})
    return [page for key, pages in oled.chapters(game.view(), lang) if key[1] == "help" for page in pages]


@pytest.mark.parametrize(("lang", "legend", "verdict"), [
    ("it", ["C controllore", "? controllato", "S Scusa  I Imparziale", "N Nasconditi", "pieno: Scusa contata",
            "sottolineato: catena"], "=> carta eliminata"),
    ("en", ["C controller  H Hide", "? checked  E Excuse", "I Impartial", "filled: Excuse counts",
            "underlined: chain"], "=> card eliminated"),
])
def test_the_help_reveal_says_its_verdict_in_words_and_has_a_legend_of_its_codes(lang, legend, verdict):
    """Defect: the reveal read "1C 2A 3? / S1 A1 => consegnata" with no legend: nobody could read it."""
    ring, key, counted = reveal(lang)
    assert ring.picture.middle == verdict  # no "S2 A0" codes
    assert key.title == ("Aiuto a G3: legenda" if lang == "it" else "Help for P3: key")
    assert lines_of(key) == legend
    explained = {line.split(" ")[0] for line in legend} | {part.split(" ")[0] for line in legend
                                                           for part in line.split("  ")}
    assert {label.lstrip("0123456789") for label, _ in ring.picture.cells} <= explained
    assert lines_of(counted)[2] == verdict


def test_the_legend_of_every_card_played_at_once_fits_one_page():
    codes = {"C", "?", "B", "S", "A", "I", "N", "P"}
    lines = oled.legend("it", codes, {oled.COUNTED, oled.LINKED})
    assert len(lines) <= oled.DENSE_LINES and all(len(line) <= COLUMNS for line in lines)
    assert {part.split(" ")[0] for line in lines for part in line.split("  ")} >= codes


# A count placeholder right before a noun that agrees with it: such a message must be a plural one.
COUNTED_NOUN = re.compile(r"\{(n|t|z|of)\} (biglietti|biglietto|carte|carta|punti|punto|viaggiatori|viaggiatore|"
                          r"tickets?|cards?|points?|travell?ers?)\b")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_count_before_its_noun_has_plural_forms(lang):
    """Defect: "1 biglietti" on every Pol.Fer. win with 5–6 players (the phone's sentence had no plural)."""
    singular = [(key, m.string) for key, m in messages(lang, "biglietti").items()
                if not m.pluralizable and COUNTED_NOUN.search(m.string)]
    assert singular == []


@pytest.mark.parametrize(("lang", "key", "one", "many"), [
    ("it", "tickets_n", "1 biglietto in gioco", "3 biglietti in gioco"),
    ("en", "tickets_n", "1 ticket in play", "3 tickets in play"),
    ("it", "without_n", "1 viaggiatore senza carte controllo", "2 viaggiatori senza carte controllo"),
    ("it", "points_n", "1 punto", "3 punti"),
])
def test_the_phone_s_counts_agree_with_their_number(lang, key, one, many):
    assert lookup(lang, "biglietti", "phone", key, n=1) == one
    assert lookup(lang, "biglietti", "phone", key, n=int(many[0])) == many

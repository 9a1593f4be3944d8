"""Printable pad labels (`arbitro labels`): an A4 strip per seat with what each button means, from the game's
own pad layout and the cursor's keys, as SVG and as PDF, in both languages."""
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from device.labels import layout, pdf, svg
from device.texts import text
from engine.games import GAMES

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_strip_per_seat_with_its_own_words(game, lang):
    sheet = ElementTree.fromstring(svg(layout(game, 12, lang)))
    assert sheet.get("width") == "210mm" and sheet.get("height") == "297mm"
    assert len(sheet.findall(f"{SVG_NS}rect")) == 12 * 9  # a strip and its eight cells, per seat
    words = [t.text for t in sheet.findall(f"{SVG_NS}text")]
    assert words.count(text(lang, "key_ok")) == 12 and words.count(text(lang, "key_back")) == 12
    assert text(lang, "seat", n=12) in words
    printed = GAMES[game].pad_labels
    if printed:  # each button's word, as the box says it (a long one may break over two lines)
        joined = " ".join(words)
        assert all(text(lang, label, game).split()[0] in joined for label in printed)
    for x in (float(t.get("x")) for t in sheet.findall(f"{SVG_NS}text")):
        assert 0 <= x <= 200  # inside the page


def test_the_pdf_is_one_a4_page_whose_cross_references_point_at_its_objects():
    data = pdf(layout("biglietti", 12, "it"))
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", data)) == 1
    assert re.search(rb"/MediaBox \[ 0 0 595\.27\d+ 841\.88\d+ \]", data)
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n", data)]
    assert [data[o:o + 8] for o in offsets] == [b"%d 0 obj\n" % n for n in range(1, len(offsets) + 1)]
    assert b"(Nasconditi) Tj" in data and b"(S\\354) Tj" in data  # "ì" as Helvetica's WinAnsi has it


def test_the_pdf_prints_dashes_and_apostrophes_as_themselves():
    """Defect: the hand-written PDF encoded Latin-1 while declaring WinAnsi, so "–" and "’" printed as "?"."""
    data = pdf([("text", 10, 20, 4, "Passo – l’altro", False)])
    assert b"(Passo \\226 l\\222altro) Tj" in data  # WinAnsi's codes for "–" and "’"
    assert re.findall(rb"/BaseFont /(Helvetica\S*) /Encoding /WinAnsiEncoding", data) == ["Helvetica".encode()]


def run(*args):
    return subprocess.run([sys.executable, "-m", "device.cli", "labels", *args], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent)


def test_the_command_writes_svg_or_pdf_by_the_extension_with_a_strip_per_seat_in_play(tmp_path):
    done = run("--game", "lifeboats", "--out", tmp_path / "l.svg", "--lang", "en")
    assert done.returncode == 0, done.stderr
    sheet = ElementTree.parse(tmp_path / "l.svg").getroot()
    assert len(sheet.findall(f"{SVG_NS}rect")) == 6 * 9  # the most Lifeboats takes, not the twelve wired pads
    assert "RED" in [t.text for t in sheet.findall(f"{SVG_NS}text")]
    assert run("--game", "lifeboats", "--out", tmp_path / "l.svg", "--seats", "4").returncode == 0
    assert len(ElementTree.parse(tmp_path / "l.svg").getroot().findall(f"{SVG_NS}rect")) == 4 * 9
    one_pad = Path(__file__).parent / "pinmap-one-seat.toml"
    assert run("--game", "ponte", "--out", tmp_path / "p.svg", "--pinmap", one_pad).returncode == 0
    strips = ElementTree.parse(tmp_path / "p.svg").getroot().findall(f"{SVG_NS}rect")
    assert len(strips) == 1 * 9  # one pad wired: the other seats play by phone
    assert run("--game", "ponte", "--out", tmp_path / "p.pdf", "--seats", "6").returncode == 0
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("args, message", [
    (["--game", "ponte", "--out", "labels.png"], "must end in .svg or .pdf"),
    (["--game", "chess", "--out", "l.svg"], "invalid choice: 'chess'"),
    (["--game", "ponte", "--out", "l.svg", "--seats", "13"], "--seats"),
    (["--game", "ponte", "--out", "l.svg", "--seats", "8"], "Il ponte traballante takes 3 to 6 players, not 8"),
    (["--game", "ponte", "--out", "/no/such/dir/l.svg"], "cannot write /no/such/dir/l.svg"),
])
def test_the_command_refuses_what_it_cannot_do_and_says_why(args, message):
    done = run(*args)
    assert done.returncode == 2 and message in done.stderr

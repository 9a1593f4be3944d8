"""The box's own QR codes, read back by a real decoder (ZXing): every mask, both modes, the strongest error
correction that fits, and a refusal for what does not fit."""
import pytest
import zxingcpp
from PIL import Image

from device import qr

SCALE, QUIET = 4, 4


def decoded(modules):
    """What a phone's camera would read: the code at 4 pixels a module, in its 4-module quiet zone."""
    side = (qr.SIZE + 2 * QUIET) * SCALE
    image = Image.new("L", (side, side), 255)
    for row, line in enumerate(modules):
        for column, dark in enumerate(line):
            if dark:
                x, y = (column + QUIET) * SCALE, (row + QUIET) * SCALE
                image.paste(0, (x, y, x + SCALE, y + SCALE))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1
    return found[0]


ADDRESSES = ["HTTP://192.168.1.23:8000/JOIN", "HTTP://10.0.0.7:80/JOIN", "HTTP://192.168.100.200:65535/JOIN",
             "HTTP://ARBITRO.LOCAL:8000/JOIN", "HTTP://127.0.0.1:8765/JOIN"]


@pytest.mark.parametrize("mask", range(8))
@pytest.mark.parametrize("text", ADDRESSES + ["http://[fe80::1]:8000/join", "é"])
def test_every_mask_reads_back_as_the_text(text, mask):
    found = decoded(qr.matrix(text, mask=mask))
    assert found.text == text
    assert found.extra["Version"] == "2" and found.extra["DataMask"] == mask


@pytest.mark.parametrize("text, level", [
    ("A" * 20, "H"), ("A" * 21, "Q"), ("A" * 29, "Q"), ("A" * 30, "M"), ("A" * 38, "M"), ("A" * 39, "L"),
    ("A" * 47, "L"), ("a" * 14, "H"), ("a" * 15, "Q"), ("a" * 26, "M"), ("a" * 32, "L"),
    ("HTTP://10.0.0.7:80/JOIN", "Q"), ("HTTP://192.168.100.200:65535/JOIN", "M")])
def test_the_strongest_error_correction_the_text_fits_in(text, level):
    found = decoded(qr.matrix(text))
    assert (found.text, found.extra["ECLevel"]) == (text, level)


def test_the_mask_chosen_has_the_lowest_penalty():
    for text in ADDRESSES:
        penalties = [qr.penalty(qr.matrix(text, mask=mask)) for mask in range(8)]
        assert qr.penalty(qr.matrix(text)) == min(penalties)
        assert decoded(qr.matrix(text)).extra["DataMask"] == penalties.index(min(penalties))


@pytest.mark.parametrize("text", ["A" * 48, "a" * 33])
def test_a_text_that_does_not_fit_version_2_is_refused(text):
    with pytest.raises(qr.TooLong, match="do not fit a version 2 QR code"):
        qr.matrix(text)


def test_the_penalty_counts_runs_blocks_and_balance():
    light = [[False] * qr.SIZE for _ in range(qr.SIZE)]
    # every row and column one run of 25 (23 each), every 2×2 block (3 each), no dark module (100)
    assert qr.penalty(light) == 50 * 23 + 24 * 24 * 3 + 100
    stripes = [[column % 2 == 0 for column in range(qr.SIZE)] for _ in range(qr.SIZE)]
    # columns of 25 alike (23 each), no block, 13 dark columns of 25 (52 %: 0), no 1:1:3:1:1 run
    assert qr.penalty(stripes) == 25 * 23
    finder = [[column in (4, 6, 7, 8, 10) for column in range(qr.SIZE)] for _ in range(qr.SIZE)]
    # each column one run (23 each); each row light×4, the 1:1:3:1:1 run with light before and after it
    # (counted once: 40), then light×14 (12); 18 pairs of like columns make 24 blocks each; 20 % dark (60)
    assert qr.penalty(finder) == 25 * 23 + 25 * (40 + 12) + 18 * 24 * 3 + 60

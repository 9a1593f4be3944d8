"""The box's QR codes (segno's, version 2), read back by a real decoder (ZXing): the box's links, both modes, the
strongest error correction that fits, nothing for what does not fit, and the OLED's pairing screen scannable,
drawn module for module."""
import pytest
import zxingcpp
from PIL import Image

from device import screens
from device.display import QR_BORDER, QR_MODULES, QR_SIZE, qr_code, render
from device.network import join_url, link_url
from web_companion.pairing import Pairing
from engine.state_file import MemoryState

SCALE, QUIET = 4, 4


def decoded(modules):
    """What a phone's camera would read: the code at 4 pixels a module, in its 4-module quiet zone."""
    side = (len(modules) + 2 * QUIET) * SCALE
    image = Image.new("L", (side, side), 255)
    for row, line in enumerate(modules):
        for column, dark in enumerate(line):
            if dark:
                x, y = (column + QUIET) * SCALE, (row + QUIET) * SCALE
                image.paste(0, (x, y, x + SCALE, y + SCALE))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1
    return found[0]


URLS = ["http://192.168.1.23:8000", "http://10.0.0.7:80", "http://192.168.100.200:65535", "http://arbitro.local:8000",
        "http://127.0.0.1:8765"]
LINKS = [join_url(url) for url in URLS] + [link_url(url, "K7Q2M9ZX4B") for url in URLS]


@pytest.mark.parametrize("text", LINKS + ["http://[fe80::1]:8000/join", "é"])
def test_the_box_links_read_back_from_a_version_2_code(text):
    code = qr_code(text)
    assert len(code) == QR_MODULES and all(len(row) == QR_MODULES and set(row) <= {0, 1} for row in code)
    found = decoded(code)
    assert found.text == text and found.extra["Version"] == "2"


def test_the_longest_pairing_link_fits():
    link = link_url("http://255.255.255.255:65535", "K7Q2M9ZX4B")
    assert (decoded(qr_code(link)).text, decoded(qr_code(link)).extra["ECLevel"]) == (link, "L")


@pytest.mark.parametrize("text, level", [
    ("A" * 20, "H"), ("A" * 21, "Q"), ("A" * 29, "Q"), ("A" * 30, "M"), ("A" * 38, "M"), ("A" * 39, "L"),
    ("A" * 47, "L"), ("a" * 14, "H"), ("a" * 15, "Q"), ("a" * 26, "M"), ("a" * 32, "L"),
    ("HTTP://10.0.0.7:80/JOIN", "Q"), ("HTTP://192.168.100.200:65535/JOIN", "M")])
def test_the_strongest_error_correction_the_text_fits_in(text, level):
    found = decoded(qr_code(text))
    assert (found.text, found.extra["ECLevel"]) == (text, level)


@pytest.mark.parametrize("text", ["A" * 48, "a" * 33, "HTTP://ARBITRO-DEL-CIRCOLO-DEI-GIOCHI.LOCAL:8000/JOIN"])
def test_a_text_that_does_not_fit_version_2_has_no_code(text):
    assert qr_code(text) is None


def test_the_oled_pairing_screen_shows_the_links_code_module_for_module():
    code = Pairing(MemoryState()).open(("seat", 2), 2)
    screen = screens.pairing_code("it", code, "http://192.168.1.23:8000", 2)
    image = render(screen)
    modules = qr_code(screen.qr)
    drawn = [[image.getpixel((2 * (column + QR_BORDER), 3 + 2 * (row + QR_BORDER))) == 0
              for column in range(QR_MODULES)] for row in range(QR_MODULES)]
    assert drawn == [[dark == 1 for dark in row] for row in modules]
    square = image.crop((0, 3, QR_SIZE, QR_SIZE + 3)).convert("L")
    read = zxingcpp.read_barcodes(square.resize((QR_SIZE * SCALE,) * 2, Image.NEAREST))
    assert [found.text for found in read] == [link_url("http://192.168.1.23:8000", code.key)]

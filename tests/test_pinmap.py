"""The pin map is validated in full at start; each error names its line and its field, in the terminal's
language."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device import config
from device.config import DEFAULT_PINMAP, ConfigError, load_pinmap
from tests.conftest import DIRECT_PINMAP

GOOD = DEFAULT_PINMAP.read_text()
DIRECT = DIRECT_PINMAP


def write(tmp_path, text):
    path = tmp_path / "pinmap.toml"
    path.write_text(text)
    return path


def line_of(text, fragment):
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_the_default_pin_map_is_a_plain_pi_wiring_twelve_seats_and_the_host_panel_as_a_matrix():
    pinmap = load_pinmap()
    assert (pinmap.board, pinmap.wiring) == ("pi", "matrix")
    assert len(pinmap.seats) == 12 and len(pinmap.columns) == 8 and isinstance(pinmap.host, int)
    pins = [*pinmap.seats, pinmap.host, *pinmap.columns, pinmap.buzzer]
    assert len(set(pins)) == len(pins) == 22  # with I2C's two: 24 of the header's 26 GPIO
    assert all(4 <= p <= 27 and p not in (14, 15) for p in pins)  # the serial console's pins stay free
    assert (pinmap.driver, pinmap.interface, pinmap.i2c_bus, pinmap.i2c_address) == ("ssd1306", "i2c", 1, 0x3C)
    assert (pinmap.rotate, pinmap.contrast, pinmap.buzzer_kind) == (0, 207, "active")
    assert pinmap.reveal_delay == 1.0 and pinmap.language == "it" and pinmap.debounce_ms == 20
    assert pinmap.pin_factory is None  # GPIOZERO_PIN_FACTORY, else gpiozero's own order (lgpio first)


def test_the_pin_map_may_choose_gpiozeros_back_end(tmp_path):
    assert load_pinmap(write(tmp_path, 'pin_factory = "rpigpio"\n' + GOOD)).pin_factory == "rpigpio"


def test_the_direct_wired_example_wires_four_seats_and_the_host_panel():
    pinmap = load_pinmap(DIRECT)
    assert (pinmap.board, pinmap.wiring) == ("cm", "direct")
    assert len(pinmap.seats) == 4 and all(len(pad) == 8 for pad in pinmap.seats)
    assert set(pinmap.host) == {"menu", "prev", "next", "ok", "undo"} and pinmap.buzzer is None


@pytest.mark.parametrize("old, new, fragment, message", [
    ("ok = 7", "ok = 12", "1 = [9", "seat 1 button 4: GPIO 12 is used twice (also by host ok, line 23)"),
    ("undo = 8", "undo = 3", "undo = 3", "host undo: GPIO 3 is reserved for I2C1 SCL (the display)"),
    ("undo = 8", "undo = 0", "undo = 0", "host undo: GPIO 0 is reserved for the HAT ID EEPROM (I2C0)"),
    ("2 = [17, 18, 19, 20, 21, 22, 23, 24]", "2 = [17, 18, 19, 20, 21, 22, 23]", "2 = [17",
     "seat 2 has 7 buttons; a pad has 8"),
    ("language = \"it\"", "language = \"it\"\ncolour = \"red\"", "colour", "unknown key 'colour' in [box]"),
    ("driver = \"ssd1306\"", "driver = \"ssd1309\"", "driver", "driver must be one of ssd1306, sh1106"),
    ("i2c_address = 0x3C", "i2c_address = 0x99", "i2c_address", "i2c_address must be a number from 3 to 119"),
    ("rotate = 0 ", "rotate = 180 ", "rotate", "rotate must be a number from 0 to 3, not 180"),
    ("contrast = 207", "contrast = 300", "contrast", "contrast must be a number from 0 to 255, not 300"),
    ("4 = [33, 34, 35, 36, 37, 38, 39, 40]", "4 = [33, 34, 35, 36, 37, 38, 39, 46]", "4 = [33",
     "seat 4 button 8: a Compute Module (board = 'cm') has GPIO 2 to 45, not 46"),
    ("menu = 4", "menu = \"four\"", "menu =", "host menu: a pin is a BCM GPIO number, not 'four'"),
    ("board = \"cm\"", "board = \"pi\"", "3 = [25", "seat 3 button 4: a Pi's 40-pin header (board = 'pi') "
     "has GPIO 2 to 27, not 28"),
    ("[host]", "[hosts]", "[hosts]", "unknown section [hosts]"),
    ("debounce_ms = 20", "debounce_ms = 0", "debounce_ms", "debounce_ms must be a number from 1 to 200"),
    ("undo = 8\n", "", "[host]", "undo is missing in [host]"),
    ("4 = [33", "5 = [33", "[seats]", "seats must be numbered 1 to 4, not 1, 2, 3, 5"),
    ("wiring = \"direct\"", "wiring = \"grid\"", "wiring", "wiring must be one of direct, matrix, not 'grid'"),
    ("[host]", "[matrix]\nhost_row = 4\n[host]", "[matrix]", "[matrix] is for wiring = \"matrix\""),
    ("wiring = \"direct\"", "wiring = \"direct\"\ncolour = 1", "colour",
     "unknown key 'colour'; expected one of board, pin_factory, wiring, or a section"),
    ("board = \"cm\"", "board = \"zero\"", "board", "board must be one of cm, pi, not 'zero'"),
    ("language = \"it\"", "language = \"fr\"", "language", "language must be one of it, en, not 'fr'"),
    ("reveal_delay = 1.0", "reveal_delay = \"1\"", "reveal_delay", "reveal_delay must be a number from 0 to 10, "
     "not '1'"),
    ("reveal_delay = 1.0", "reveal_delay = 10.5", "reveal_delay", "reveal_delay must be a number from 0 to 10"),
    ("debounce_ms = 20", "debounce_ms = true", "debounce_ms", "debounce_ms must be a number from 1 to 200, not True"),
    ("rotate = 0 ", "rotate = 1.5 ", "rotate", "rotate must be a number from 0 to 3, not 1.5"),
    ("i2c_bus = 1", "i2c_bus = 1\nspi_port = 0", "spi_port", "spi_port is for a display on SPI; this one is on "
     "I2C (interface = 'i2c')"),
    ("[host]", "[hosts]\n[host]", "[hosts]", "unknown section [hosts]"),
    ("1 = [9, 10, 11, 12, 13, 14, 15, 16]", "1 = 9", "1 = 9", "[seats] 1 must be a list of 8 pins, one per button, "
     "not 9"),
    ("1 = [9, 10, 11, 12, 13, 14, 15, 16]", "1 = [9]", "1 = [9]", "seat 1 has 1 button; a pad has 8"),
    ("4 = [33, 34, 35, 36, 37, 38, 39, 40]", "4 = [33, 34, 35, 36, 37, 38, 39, 40]\n" + "\n".join(
        f"{n} = [{n}]" for n in range(5, 14)), "[seats]", "13 seats: a box wires 12 at most"),
    ("undo = 8\n", "undo = 8\n[buzzer]\nkind = \"passive\"\n", "[buzzer]", "pin is missing in [buzzer]"),
    ("undo = 8\n", "undo = 8\n[buzzer]\npin = 41\nvolume = 3\n", "volume",
     "unknown key 'volume' in [buzzer]; expected one of kind, pin"),
])
def test_a_bad_direct_pin_map_is_refused_naming_its_line(tmp_path, old, new, fragment, message):
    refused(tmp_path, DIRECT.read_text(), old, new, fragment, message)


@pytest.mark.parametrize("old, new, fragment, message", [
    ("2 = 6", "2 = 5", "2 = 5", "seat 2's row: GPIO 5 is used twice (also by seat 1's row, line 30)"),
    ("host_row = 4", "host_row = 19", "host_row", "the host panel's row: GPIO 19 is used twice (also by column 1"),
    ("columns = [19,", "columns = [2,", "columns", "column 1: GPIO 2 is reserved for I2C1 SDA (the display)"),
    ("12 = 18", "12 = 18\n13 = 14", "[seats]", "13 seats: a box wires 12 at most (13 rows with the host panel's)"),
    ("12 = 18", "12 = 28", "12 = 28", "seat 12's row: a Pi's 40-pin header (board = 'pi') has GPIO 2 to 27, "
     "not 28"),
    ("columns = [19, 20, 21, 22, 23, 24, 25, 26]", "columns = [19, 20, 21, 22, 23, 24, 25]", "columns",
     "the matrix has 7 columns; it needs 8, one per button"),
    ("host_row = 4\n", "", "[matrix]", "host_row is missing in [matrix]"),
    ("1 = 5", "1 = [5]", "1 = [5]", "seat 1: in a matrix a seat is its row's one pin, not a list"),
    ("[matrix]", "[host]\nmenu = 14\n[matrix]", "[host]", "[host] is for wiring = \"direct\"; in a matrix the "
     "host panel is a row"),
    ("pin = 27", "pin = 26", "pin = 26", "the buzzer: GPIO 26 is used twice (also by column 8"),
    ("wiring = \"matrix\"", "wiring = \"matrix\"\npin_factory = \"mock\"", "pin_factory",
     "pin_factory must be one of lgpio, rpigpio, pigpio, native, not 'mock' (mock pins are for `arbitro --mock`)"),
    ("kind = \"active\"", "kind = \"loud\"", "kind =", "kind must be one of active, passive, not 'loud'"),
    ("interface = \"i2c\"", "interface = \"spi\"", "i2c_bus", "i2c_bus is for a display on I2C; this one is "
     "on SPI"),
    ("interface = \"i2c\"       # \"i2c\" (GPIO 2 and 3) or \"spi\" (then spi_port, spi_device, dc and reset)\n"
     "i2c_bus = 1\ni2c_address = 0x3C", "interface = \"spi\"\ndc = 24\nreset = 2", "columns",
     "column 6: GPIO 24 is used twice (also by the display's dc, line 13)"),
    ("columns = [19, 20, 21, 22, 23, 24, 25, 26]", "columns = 19", "columns",
     "[matrix] columns must be a list of 8 pins, one per button, not 19"),
    ("columns = [19, 20, 21, 22, 23, 24, 25, 26]\n", "", "[matrix]", "columns is missing in [matrix]"),
    ("i2c_bus = 1", "i2c_bus = 11", "i2c_bus", "i2c_bus must be a number from 0 to 10, not 11"),
    ("interface = \"i2c\"       # \"i2c\" (GPIO 2 and 3) or \"spi\" (then spi_port, spi_device, dc and reset)\n"
     "i2c_bus = 1\ni2c_address = 0x3C", "interface = \"spi\"\ndc = 2\nreset = 3", "3 = 7",
     "seat 3's row: GPIO 7 is reserved for SPI0 CE1 (the display's bus)"),
])
def test_a_bad_matrix_pin_map_is_refused_naming_its_line(tmp_path, old, new, fragment, message):
    refused(tmp_path, GOOD, old, new, fragment, message)


SPI = """board = "pi"
wiring = "matrix"
[display]
interface = "spi"
dc = 2
reset = 3
[matrix]
columns = [19, 20, 21, 22, 23, 24, 25, 26]
host_row = 4
[seats]
1 = 5
2 = 6
3 = 12
4 = 13
5 = 14
6 = 15
7 = 16
8 = 17
9 = 18
10 = 27
"""


def test_a_display_on_spi_takes_its_bus_and_frees_i2c_so_a_pi_header_wires_ten_seats(tmp_path):
    pinmap = load_pinmap(write(tmp_path, SPI))
    assert (pinmap.interface, pinmap.spi_port, pinmap.spi_device, pinmap.dc, pinmap.reset) == ("spi", 0, 0, 2, 3)
    assert len(pinmap.seats) == 10
    refused(tmp_path, SPI, "10 = 27", "10 = 27\n11 = 9", "11 = 9", "seat 11's row: GPIO 9 is reserved for SPI0 MISO")
    refused(tmp_path, SPI, "reset = 3\n", "", "[display]", "a display on SPI needs its 'reset' pin")
    refused(tmp_path, SPI, "reset = 3", "reset = 3\nspi_device = 2", "spi_device",
            "spi_device must be a number from 0 to 1, not 2")  # port 0 has two chip selects, port 1 three
    refused(tmp_path, SPI, "reset = 3", "reset = 3\nspi_port = 2", "spi_port",
            "spi_port must be a number from 0 to 1, not 2")
    refused(tmp_path, SPI, "reset = 3", "reset = 3\ni2c_address = 0x3C", "i2c_address",
            "i2c_address is for a display on I2C; this one is on SPI (interface = 'spi')")


def refused(tmp_path, good, old, new, fragment, message):
    assert old in good
    text = good.replace(old, new, 1)
    with pytest.raises(ConfigError) as error:
        load_pinmap(write(tmp_path, text))
    assert message in str(error.value)
    assert str(error.value).startswith(f"{tmp_path / 'pinmap.toml'}:{line_of(text, fragment)}: ")


def test_a_toml_syntax_error_names_its_line(tmp_path):
    text = GOOD.replace("host_row = 4", "host_row = = 4")
    with pytest.raises(ConfigError, match=rf":{line_of(text, 'host_row = = 4')}: not valid TOML"):
        load_pinmap(write(tmp_path, text))


def test_a_missing_pin_map_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="the pin map does not exist"):
        load_pinmap(tmp_path / "nowhere.toml")
    (tmp_path / "folder.toml").mkdir()
    with pytest.raises(ConfigError, match="cannot read the pin map"):
        load_pinmap(tmp_path / "folder.toml")


def test_the_box_does_not_start_on_a_bad_pin_map(tmp_path):
    path = write(tmp_path, GOOD.replace("2 = 6", "2 = 5"))
    done = subprocess.run([sys.executable, "-m", "device.cli", "--mock", "--pinmap", str(path),
                           "--data", str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "GPIO 5 is used twice" in done.stderr
    assert not (tmp_path / "data").exists()


def without(text, section):
    """`text` without `section`'s header and keys."""
    kept, inside = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            inside = line.strip() == f"[{section}]"
        if not inside:
            kept.append(line)
    return "".join(kept)


@pytest.mark.parametrize("text, message", [
    (without(GOOD, "matrix"), "the [matrix] section is missing (wiring = \"matrix\")"),
    (without(DIRECT.read_text(), "host"), "the [host] section is missing (wiring = \"direct\")"),
    (without(GOOD, "seats"), "the [seats] section is missing or empty"),
    (GOOD.split("1 = 5")[0] + "[buzzer]\npin = 27\n", "the [seats] section is missing or empty"),
])
def test_a_missing_section_is_refused_naming_the_file(tmp_path, text, message):
    with pytest.raises(ConfigError) as error:
        load_pinmap(write(tmp_path, text))
    assert str(error.value) == f"{tmp_path / 'pinmap.toml'}: {message}"


def test_a_pin_map_that_is_not_utf8_cannot_be_read(tmp_path):
    path = tmp_path / "pinmap.toml"
    path.write_bytes(b"board = \"\xff\"\n")
    with pytest.raises(ConfigError, match="cannot read the pin map"):
        load_pinmap(path)


def test_a_file_that_is_not_there_or_not_toml_is_said_in_the_readers_words(tmp_path):
    """Defect (an Italian newcomer): the reason came in Python's English inside the Italian sentence."""
    with pytest.raises(ConfigError) as missing:
        load_pinmap(tmp_path / "none.toml")
    assert missing.value.said("it").endswith(": la mappa dei pin non esiste")
    text = GOOD.replace("host_row = 4", "host_row = [4 5")
    with pytest.raises(ConfigError) as broken:
        load_pinmap(write(tmp_path, text))
    said = broken.value.said("it")
    assert said.startswith(f"{tmp_path / 'pinmap.toml'}:{line_of(text, 'host_row = [4 5')}: non è un file TOML")
    assert "(colonna " in said and "Unclosed" not in said and "at line" not in said


def test_an_error_is_said_in_italian_to_an_italian_terminal(tmp_path):
    text = GOOD.replace("2 = 6", "2 = 5")
    with pytest.raises(ConfigError) as error:
        load_pinmap(write(tmp_path, text))
    where = f"{tmp_path / 'pinmap.toml'}:{line_of(text, '2 = 5')}"
    assert error.value.said("it") == f"{where}: la riga del posto 2: il GPIO 5 è usato due volte (lo usa già: la " \
                                     f"riga del posto 1, alla riga {line_of(text, '1 = 5')} del file)"
    assert str(error.value) == f"{where}: seat 2's row: GPIO 5 is used twice (also by seat 1's row, line " \
                               f"{line_of(text, '1 = 5')})"
    path = write(tmp_path, GOOD.replace('board = "pi"', 'board = "zero"'))
    done = subprocess.run([sys.executable, "-m", "device.cli", "--mock", "--pinmap", str(path), "--data",
                           str(tmp_path / "data")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "LANGUAGE": "it"})
    assert done.returncode == 2
    assert done.stderr.endswith(f"{path}:5: board dev'essere uno tra cm, pi, non 'zero'\n"), done.stderr


def test_every_error_the_pin_map_names_is_in_both_catalogs():
    from tests.test_catalogs import messages, prose
    source = Path(config.__file__)
    assert prose(source) == []  # no sentence in the code: every word from the catalogs
    named = {node.value for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("pinmap_")}
    named = named - {"pinmap_board_"} | {f"pinmap_board_{board}" for board in config.BOARDS}  # an f-string's
    assert len(named) > 35
    for language in ("it", "en"):
        assert [key for key in sorted(named) if ("cli", key) not in messages(language, "arbitro")] == []

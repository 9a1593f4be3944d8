"""The pin map is validated in full at start; each error names its line."""
import pytest

from device.config import DEFAULT_PINMAP, ConfigError, load_pinmap

GOOD = DEFAULT_PINMAP.read_text()


def write(tmp_path, text):
    path = tmp_path / "pinmap.toml"
    path.write_text(text)
    return path


def line_of(text, fragment):
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_the_default_pin_map_wires_four_seats_and_the_host_panel():
    pinmap = load_pinmap()
    assert len(pinmap.seats) == 4 and all(len(pad) == 8 for pad in pinmap.seats)
    assert set(pinmap.host) == {"menu", "prev", "next", "ok", "undo"}
    assert (pinmap.driver, pinmap.i2c_bus, pinmap.i2c_address) == ("ssd1306", 1, 0x3C)
    assert (pinmap.rotate, pinmap.contrast) == (0, 207)
    assert pinmap.reveal_delay == 1.0 and pinmap.language == "it" and pinmap.debounce_ms == 20


@pytest.mark.parametrize("old, new, fragment, message", [
    ("ok = 7", "ok = 12", "1 = [9", "seat 1 button 4: GPIO 12 is used twice (also by host ok, line 21)"),
    ("undo = 8", "undo = 3", "undo = 3", "host undo: GPIO 3 is reserved for I2C1 SCL (the display)"),
    ("2 = [17, 18, 19, 20, 21, 22, 23, 24]", "2 = [17, 18, 19, 20, 21, 22, 23]", "2 = [17",
     "seat 2 has 7 buttons; a pad has 8"),
    ("language = \"it\"", "language = \"it\"\ncolour = \"red\"", "colour", "unknown key 'colour' in [box]"),
    ("driver = \"ssd1306\"", "driver = \"ssd1309\"", "driver", "driver must be one of ssd1306, sh1106"),
    ("i2c_address = 0x3C", "i2c_address = 0x99", "i2c_address", "i2c_address must be a number from 3 to 119"),
    ("rotate = 0 ", "rotate = 180 ", "rotate", "rotate must be a number from 0 to 3, not 180"),
    ("contrast = 207", "contrast = 300", "contrast", "contrast must be a number from 0 to 255, not 300"),
    ("4 = [33, 34, 35, 36, 37, 38, 39, 40]", "4 = [33, 34, 35, 36, 37, 38, 39, 46]", "4 = [33",
     "seat 4 button 8: the cm board has GPIO 0 to 45, not 46"),
    ("menu = 4", "menu = \"four\"", "menu =", "host menu: a pin is a BCM GPIO number, not 'four'"),
    ("board = \"cm\"", "board = \"pi\"", "3 = [25", "seat 3 button 4: the pi board has GPIO 0 to 27, not 28"),
    ("[host]", "[hosts]", "[hosts]", "unknown section [hosts]"),
    ("debounce_ms = 20", "debounce_ms = 0", "debounce_ms", "debounce_ms must be a number from 1 to 200"),
    ("undo = 8\n", "", "[host]", "host button 'undo' has no pin"),
    ("4 = [33", "5 = [33", "[seats]", "seats must be numbered 1 to 4, not 1, 2, 3, 5"),
])
def test_a_bad_pin_map_is_refused_naming_its_line(tmp_path, old, new, fragment, message):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    with pytest.raises(ConfigError) as error:
        load_pinmap(write(tmp_path, text))
    assert message in str(error.value)
    assert str(error.value).startswith(f"{tmp_path / 'pinmap.toml'}:{line_of(text, fragment)}: ")


def test_a_toml_syntax_error_names_its_line(tmp_path):
    text = GOOD.replace("ok = 7", "ok = = 7")
    with pytest.raises(ConfigError, match=rf":{line_of(text, 'ok = = 7')}: not valid TOML"):
        load_pinmap(write(tmp_path, text))


def test_a_missing_pin_map_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the pin map"):
        load_pinmap(tmp_path / "nowhere.toml")


def test_the_box_does_not_start_on_a_bad_pin_map(tmp_path):
    import subprocess
    import sys
    path = write(tmp_path, GOOD.replace("ok = 7", "ok = 9"))
    done = subprocess.run([sys.executable, "-m", "device.cli", "--mock", "--pinmap", str(path),
                           "--data", str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "GPIO 9 is used twice" in done.stderr
    assert not (tmp_path / "data").exists()

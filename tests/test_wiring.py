"""`arbitro wiring`: the pin table in hardware/wiring.md and hardware/wiring.svg are what the command makes of
the default pin map, the diagram has every pin and a switch and a diode per key, and a browser draws it
(tests/screenshots/wiring-*.png, to be looked at)."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from device.config import DEFAULT_PINMAP, load_pinmap
from device.wiring import HEADER_PIN, markdown_table, pin_roles, svg
from tests.browser import SCREENSHOTS
from tests.conftest import DIRECT_PINMAP, HARDWARE

SVG = "{http://www.w3.org/2000/svg}"


def test_wiring_md_has_the_default_pin_maps_table():
    text = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- pin table: .*? -->\n(.*?)<!-- end of the pin table -->", text, re.S).group(1)
    assert table == markdown_table(load_pinmap())


def test_wiring_svg_is_the_diagram_of_the_default_pin_map():
    assert (HARDWARE / "wiring.svg").read_text(encoding="utf-8") == svg(load_pinmap(), "pinmap.toml")


def test_the_table_lists_every_pin_the_map_uses_on_its_header_pin():
    pinmap = load_pinmap()
    rows = [line.strip("| ").split(" | ") for line in markdown_table(pinmap).splitlines()[2:]]
    wired = {int(gpio): (int(pin), what) for pin, gpio, what in rows if gpio.isdigit()}
    assert set(wired) == {*pinmap.seats, pinmap.host, *pinmap.columns, pinmap.buzzer, 2, 3}
    assert all(HEADER_PIN[gpio] == pin for gpio, (pin, _) in wired.items())
    assert wired[5] == (29, "player 1's pad: its row (the diodes' bands)")
    assert wired[19] == (35, "column 1: button 1 of every pad, host menu")
    assert ["1", "3V3", "display VCC (3.3 V)"] in rows


def test_the_diagram_draws_every_pin_and_a_switch_and_diode_per_key():
    pinmap = load_pinmap()
    root = ET.fromstring(svg(pinmap, "pinmap.toml").split("\n", 1)[1])
    words = [t.text or "" for t in root.iter(SVG + "text")]
    assert sum(w.startswith("GPIO ") and "·" in w for w in words) == 28  # GPIO 0-27 on the header, used or not
    for gpio, (_, what) in pin_roles(pinmap).items():
        assert any(w.startswith(f"GPIO {gpio} · ") for w in words), what
    assert len(list(root.iter(SVG + "g"))) == 12 * 8 + 5  # a crossing per key: the host panel has five


def test_a_direct_wired_compute_module_gets_a_gpio_list():
    pinmap = load_pinmap(DIRECT_PINMAP)
    assert markdown_table(pinmap).startswith("| GPIO | Wire to |\n|---:|---|\n| 2 | display SDA |\n")
    assert "| 9 | player 1, button 1 (its other leg to GND) |" in markdown_table(pinmap)
    assert "Wired direct: each button has a pin of its own." in svg(pinmap, "pinmap-direct.toml")


def test_the_parts_list_counts_a_switch_and_a_diode_per_key():
    pinmap = load_pinmap()
    keys = len(pinmap.seats) * 8 + 5
    parts = (HARDWARE / "parts.md").read_text(encoding="utf-8")
    assert f"| Push buttons (12 mm tactile or arcade) | {keys} |" in parts
    assert f"| Diodes 1N4148 | {keys} |" in parts


def test_the_wiring_command(tmp_path):
    def arbitro(*args, **env):
        return subprocess.run([sys.executable, "-m", "device.cli", "wiring", *args], capture_output=True,
                              text=True, cwd=Path(__file__).parent.parent, timeout=60, env={**os.environ, **env})
    done = arbitro("--out", str(tmp_path / "w.svg"))
    assert done.returncode == 0 and (tmp_path / "w.svg").read_text() == svg(load_pinmap(), "pinmap.toml")
    assert arbitro("--table").stdout == markdown_table(load_pinmap())
    assert arbitro("--table", ARBITRO_PINMAP=str(DIRECT_PINMAP)).stdout == markdown_table(load_pinmap(DIRECT_PINMAP))
    refused = arbitro("--out", str(tmp_path / "w.png"))
    assert refused.returncode == 2 and f"{tmp_path / 'w.png'} must end in .svg" in refused.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('board = "pi"\nwiring = "matrix"\n')
    refused = arbitro("--table", "--pinmap", str(bad))
    assert refused.returncode == 2 and "the [matrix] section is missing" in refused.stderr


@pytest.mark.parametrize("pinmap", [DEFAULT_PINMAP, DIRECT_PINMAP], ids=["matrix", "direct"])
def test_a_browser_draws_the_diagram(browser, tmp_path, pinmap):
    drawing = tmp_path / "wiring.svg"
    drawing.write_text(svg(load_pinmap(pinmap), pinmap.name), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1180, "height": 800}, device_scale_factor=2)
    page.goto(drawing.as_uri())
    assert page.locator("text").count() > 40
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"wiring-{pinmap.stem}.png")

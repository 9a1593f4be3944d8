"""The display off the hot path: luma.oled's real SSD1306 and SH1106 drivers on a serial interface that keeps
every byte (decoded back into the frame), only the changed pages sent after the first frame, a slow panel
that never delays a press, and a missing or failing one that the box survives and opens again."""
import json
import logging
import threading
import time

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from device import screens
from device.display import HEIGHT, WIDTH, Display, Panel, device_opener, render
from device.web_port import WebPort
from web_companion import create_app
from tests.conftest import virtual


class Wire:
    """A serial interface, as luma's i2c() and spi() are to a driver: it keeps what goes down the wire."""

    def __init__(self):
        self.sent = []  # ("command" | "data", [bytes])

    def command(self, *cmd):
        self.sent.append(("command", list(cmd)))

    def data(self, data):
        self.sent.append(("data", list(data)))

    def cleanup(self):
        pass

    def data_bytes(self):
        return sum(len(b) for kind, b in self.sent if kind == "data")


def panel_ram(wire, kind):
    """What the controller's RAM holds after the bytes sent: SSD1306 in horizontal addressing (a column and a
    page window), SH1106 in page addressing (its RAM two columns in)."""
    ram = [[0] * 132 for _ in range(8)]
    column = page = 0
    window = (0, 127, 0, 7)
    for what, data in wire.sent:
        if what == "command":
            if kind == "ssd1306" and data[:1] == [0x21] and len(data) == 6 and data[3] == 0x22:
                window = (data[1], data[2], data[4], data[5])
                column, page = data[1], data[4]
            elif kind == "sh1106" and len(data) == 3 and 0xB0 <= data[0] <= 0xB7:
                page, column = data[0] - 0xB0, (data[1] & 0x0F) | (data[2] & 0x0F) << 4
            continue
        for byte in data:
            ram[page][column] = byte
            column += 1
            if kind == "ssd1306" and column > window[1]:
                column, page = window[0], page + 1 if page < window[3] else window[2]
    offset = 0 if kind == "ssd1306" else 2
    image = Image.new("1", (WIDTH, HEIGHT))
    for p in range(8):
        for x in range(WIDTH):
            for bit in range(8):
                if ram[p][x + offset] >> bit & 1:
                    image.putpixel((x, p * 8 + bit), 1)
    return image


FIRST = screens.Screen("Arbitro", ("Turno 3: G2", "G1 piazza Gu V4", "Pietre 1, villaggi 12", "G1-G3: 7 8 7"))
SECOND = screens.Screen("Arbitro", ("Turno 3: G2", "G1 piazza Gu V4", "Pietre 2, villaggi 11", "G1-G3: 7 8 7"))


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_the_real_driver_sends_bytes_that_decode_to_the_frame_and_then_only_what_changed(driver):
    wire = Wire()
    panel = Panel(driver(serial_interface=wire))
    wire.sent.clear()  # the driver's start-up and blank frame
    panel.send(render(FIRST))
    full = wire.data_bytes()
    assert full == 1024  # 8 pages of 128 columns
    assert panel_ram(wire, driver.__name__).tobytes() == render(FIRST).tobytes()
    panel.send(render(SECOND))  # one line changed: two pages, only the columns that differ
    changed = wire.data_bytes() - full
    assert 0 < changed <= 2 * 128 and changed < full / 4
    assert panel_ram(wire, driver.__name__).tobytes() == render(SECOND).tobytes()
    before = wire.data_bytes()
    panel.send(render(SECOND))
    assert wire.data_bytes() == before  # nothing changed, nothing sent
    print(f"{driver.__name__}: full frame {full} data bytes, one line changed {changed} data bytes")


@pytest.mark.parametrize("seed", range(5))
def test_column_bytes_pack_each_page_a_byte_a_column_its_top_row_the_low_bit(seed):
    import random
    from device.display import column_bytes
    rng = random.Random(seed)
    image = Image.new("1", (WIDTH, HEIGHT))
    for _ in range(rng.randrange(1, 2000)):
        image.putpixel((rng.randrange(WIDTH), rng.randrange(HEIGHT)), 1)
    pixels = image.load()
    assert column_bytes(image) == [
        bytes(sum(1 << bit for bit in range(8) if pixels[x, page * 8 + bit]) for x in range(WIDTH))
        for page in range(HEIGHT // 8)]


def test_a_rotated_panel_gets_the_rotated_frame():
    wire = Wire()
    panel = Panel(ssd1306(serial_interface=wire, rotate=2))
    panel.send(render(FIRST))
    assert panel_ram(wire, "ssd1306").tobytes() == render(FIRST).rotate(180).tobytes()


class SlowPanel:
    """A luma device whose every frame takes until the test lets it go."""

    def __init__(self):
        self.go = threading.Event()
        self.shown = []

    def display(self, image):
        self.go.wait(5)
        self.shown.append(image.tobytes())


def test_a_slow_display_delays_no_press_and_catches_up_with_the_newest_frame(make_box):
    panel = SlowPanel()
    box = make_box(device=panel)
    box.table.new_game("ponte", 4)
    start = time.monotonic()
    for seat in range(3):
        assert virtual(box).press(seat=seat, button=1)["status"] in ("applied", "held")
    assert time.monotonic() - start < 2  # the panel has not taken a single frame yet
    assert box.table.view()["locked"] == [0, 1, 2]
    panel.go.set()
    assert box.display.wait_sent()
    assert panel.shown[-1] == render(box.display.screen).tobytes()
    assert len(panel.shown) < box.display.frame  # frames that came while it was busy were skipped


class Flaky:
    """Opens a panel that fails `failures` times, or not at all while `missing`."""

    def __init__(self, failures=0, missing=0):
        self.failures, self.missing = failures, missing
        self.shown = []

    def __call__(self):
        if self.missing:
            self.missing -= 1
            raise OSError(121, "Remote I/O error")  # nothing answers at the I2C address
        return self

    def display(self, image):
        if self.failures:
            self.failures -= 1
            raise OSError(5, "Input/output error")
        self.shown.append(image.tobytes())


@pytest.mark.parametrize("opener", [Flaky(failures=2), Flaky(missing=3)], ids=["failing", "missing at start"])
def test_a_failing_or_missing_display_is_logged_reported_and_opened_again(opener, caplog):
    caplog.set_level(logging.WARNING, "device.display")
    display = Display(opener, retry=0.01)
    try:
        display.show(FIRST)
        assert display.wait_sent()
        assert display.status == Display.OK and opener.shown[-1] == render(FIRST).tobytes()
        assert "the OLED is not answering" in caplog.text and "the OLED answers again" in caplog.text
        assert caplog.text.count("is not answering") == 1  # said once, not at every retry
    finally:
        display.close()


class Slow(Flaky):
    """A panel that takes 50 ms a frame."""

    def display(self, image):
        time.sleep(0.05)
        super().display(image)


def test_closing_the_display_sends_the_latest_frame_first():
    opener = Slow()
    display = Display(opener, retry=0.01)
    display.show(FIRST)
    display.show(SECOND)  # shown while the panel still takes the first
    display.close()  # as at power-off: the last screen must be on the panel
    assert opener.shown[-1] == render(SECOND).tobytes()


def test_while_the_display_fails_its_status_says_so_and_the_latest_frame_waits():
    opener = Flaky(missing=10 ** 6)
    display = Display(opener, retry=0.01)
    try:
        display.show(FIRST)
        display.show(SECOND)
        deadline = time.monotonic() + 2
        while display.status != Display.FAILING:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert display.image.tobytes() == render(SECOND).tobytes()  # the phones' picture of the OLED is current
        opener.missing = 0
        assert display.wait_sent() and opener.shown == [render(SECOND).tobytes()]
    finally:
        display.close()


def test_the_phones_are_told_when_the_display_fails_and_when_it_answers_again(make_box):
    opener = Flaky(missing=10 ** 6)
    box = make_box(device=opener)
    box.display.retry = 0.01
    client = create_app(WebPort(box)).test_client()
    stream = client.get("/api/stream", buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).decode() == "retry: 2000\n\n"
    deadline = time.monotonic() + 2
    while client.get("/api/box").get_json() != {"display": "failing", "storage": "ok"}:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    events = [next(chunks).decode() for _ in range(2)]  # box health first, then the view
    assert events[-1].startswith("id: ") and box_events(events)[-1]["display"] in ("starting", "failing")
    virtual(box).press(host="menu")  # the box referees on: a press is taken while nothing can be drawn
    assert box.menu.mode == "main"
    opener.missing = 0
    for chunk in chunks:
        if box_events([chunk.decode()]) == [{"display": "ok", "storage": "ok"}]:
            break
    assert client.get("/api/box").get_json() == {"display": "ok", "storage": "ok"}
    stream.close()


def box_events(chunks):
    return [json.loads(c.split("data: ", 1)[1]) for c in chunks if c.startswith("event: box\n")]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_pin_map_chooses_the_driver_its_rotation_and_contrast(driver, monkeypatch):
    import dataclasses

    import luma.core.interface.serial as serial

    from device.config import load_pinmap
    wire = Wire()
    monkeypatch.setattr(serial, "i2c", lambda port, address: wire if (port, address) == (1, 0x3C) else None)
    pinmap = dataclasses.replace(load_pinmap(), driver=driver, rotate=2, contrast=40)
    device = device_opener(pinmap)()
    assert type(device).__name__ == driver and device.rotate == 2
    assert ("command", [0x81, 40]) in wire.sent
    wire.sent.clear()
    device.cleanup()  # what luma does as the process exits: the last frame stays on the panel
    assert wire.sent == []


class Spidev:
    """spidev as luma's spi() uses it, keeping each write with the level of the DC pin at that moment."""

    def __init__(self, dc):
        self.dc, self.sent, self.opened = dc, [], None

    def open(self, port, device):
        self.opened = (port, device)

    def writebytes(self, data):
        kind = "data" if self.dc.state else "command"
        if self.sent and self.sent[-1][0] == kind == "data":  # luma cuts data into 4,096-byte transfers
            self.sent[-1][1].extend(data)
        else:
            self.sent.append((kind, list(data)))

    def close(self):
        pass


def test_a_display_on_spi_has_its_dc_and_reset_pins_on_gpiozero_and_shows_the_frame(tmp_path, pin_factory,
                                                                                      monkeypatch):
    import luma.core.interface.serial as serial

    from device.config import load_pinmap
    from tests.test_pinmap import SPI, write
    pinmap = load_pinmap(write(tmp_path, SPI.replace("dc = 2", "dc = 2\nspi_device = 1")))
    dc, reset = pin_factory.pin(2), pin_factory.pin(3)
    spidev = Spidev(dc)
    monkeypatch.setattr(serial.spi, "__spidev__", lambda self: spidev)
    opener = device_opener(pinmap, pin_factory=pin_factory)
    panel = Panel(opener())
    assert spidev.opened == (0, 1) and reset.state == 1  # out of reset once opened
    panel.send(render(FIRST))
    wire = Wire()
    wire.sent = spidev.sent
    assert panel_ram(wire, "ssd1306").tobytes() == render(FIRST).tobytes()
    spidev.sent.clear()
    Panel(opener()).send(render(SECOND))  # opened again after a failure: its pins are not claimed twice
    wire.sent = spidev.sent
    assert panel_ram(wire, "ssd1306").tobytes() == render(SECOND).tobytes()

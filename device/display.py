"""Drawing screens on a 128×64 1-bit canvas, and the luma devices that show them."""
import io
import logging
import sys
import threading

# The box draws 1-bit frames in Pillow's bitmap font and writes PNG only (the virtual box's OLED). Pillow would
# also load FreeType with its fonts module and four more codecs with its first image: 1.9 MB of a Pi Zero's
# memory, never used. Kept out, Pillow goes on without them as when it is built without them. The font's glyph
# sheet is a PNG (device/font.py).
for _unused in ("PIL._imagingft", "PIL.BmpImagePlugin", "PIL.GifImagePlugin", "PIL.JpegImagePlugin",
                "PIL.PpmImagePlugin"):
    sys.modules.setdefault(_unused, None)

from gpiozero import DigitalOutputDevice  # noqa: E402 (after the modules kept out)
from gpiozero.exc import GPIOZeroError  # noqa: E402
from luma.core.error import Error as LumaError  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from . import font  # noqa: E402
from .font import drawable  # noqa: E402

WIDTH, HEIGHT = 128, 64
LINE = 11  # pixels per text line of the font
FONT = font.load("courB08")  # Pillow's bitmap font: crisp on a 1-bit panel, 6 px a character
QR_MODULES = 25  # a side of a version 2 QR code: enough for the box's links, at 2 pixels a module
QR_BORDER = 2  # modules of quiet zone around the QR code
QR_SIZE = (QR_MODULES + 2 * QR_BORDER) * 2
GLYPH_TOP = 2  # the font's digits and capitals are 5×7, two rows down their 11-row cell
COMPACT_BAR = 8  # a title bar that leaves a picture 56 rows: the 7 glyph rows and one below


def write(draw, xy, text, fill="white"):
    """Text in the panel's font, placed by its line's top-left corner; a character the font lacks as "?"."""
    draw.text(xy, drawable(text), font=FONT, fill=fill)


def glyphs(draw, xy, text, fill="white"):
    """Text placed by its glyphs' top-left corner, in the panel's font: a picture's words and numbers are never
    smaller than the screens' (5×7), whatever room the picture has."""
    write(draw, (xy[0], xy[1] - GLYPH_TOP), text, fill)


def draw_screen(draw, screen):
    """Title in reverse video, then the body lines or the game's picture; or a QR code with the title and
    lines beside it."""
    if screen.qr:
        _draw_qr(draw, screen)
        return
    if screen.picture is not None and screen.picture.compact_title:
        draw.rectangle((0, 0, WIDTH - 1, COMPACT_BAR - 1), fill="white")
        glyphs(draw, (1, 0), screen.title, fill="black")
    else:
        draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill="white")
        write(draw, (1, 0), screen.title, fill="black")
    if screen.picture is not None:
        screen.picture.draw(draw, HEIGHT)
        return
    for row, line in enumerate(screen.lines):
        write(draw, (0, LINE + 1 + row * LINE), line)


def qr_code(text):
    """The version 2 QR code of `text`: its rows of modules (1 dark, no quiet zone), with the strongest error
    correction the text fits in; None when it does not fit (a long host name)."""
    import segno  # 1.1 MB (bench/qr.py), loaded with the first code drawn: a box resuming a game shows none

    try:
        return segno.make_qr(text, version=2).matrix
    except segno.DataOverflowError:
        return None


def _draw_qr(draw, screen):
    """Version 2 at 2 pixels a module with a 2-module quiet zone: 58 pixels square. An address too long for it
    leaves the square empty: the lines beside it still say the address."""
    code = qr_code(screen.qr) or ()
    if code:
        draw.rectangle((0, 3, QR_SIZE - 1, QR_SIZE + 2), fill="white")
    for row, modules in enumerate(code):
        for column, dark in enumerate(modules):
            if dark:
                x, y = 2 * (column + QR_BORDER), 3 + 2 * (row + QR_BORDER)
                draw.rectangle((x, y, x + 1, y + 1), fill="black")
    write(draw, (QR_SIZE + 4, 0), screen.title)
    for row, line in enumerate(screen.lines):
        write(draw, (QR_SIZE + 4, LINE + 2 + row * LINE), line)


def render(screen):
    """The screen as a 128×64 1-bit image."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw_screen(ImageDraw.Draw(image), screen)
    return image


def png(image):
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


PANELS = ("ssd1306", "sh1106")


def panel_kind(device):
    """Which of luma.oled's PANELS drivers `device` is, or None (luma's dummy device, any other). luma.oled is
    loaded only to drive a real panel: a device made while it is not loaded is none of its drivers."""
    drivers = sys.modules.get("luma.oled.device")
    return next((kind for kind in PANELS if drivers and isinstance(device, getattr(drivers, kind))), None)


class Panel:
    """Sends frames to an SSD1306 or SH1106: the whole frame first, then only the pages that changed, each from
    its first to its last changed column (luma.oled's drivers send all 1,024 bytes every time; on I2C that is
    most of a frame's cost). Any other luma device (the dummy one in mock mode) takes whole frames."""

    def __init__(self, device):
        self.device = device
        self.kind = panel_kind(device)
        self.pages = None  # what the panel shows: per page, its column bytes

    def send(self, image):
        if self.kind is None:
            self.device.display(image)
            return
        image = self.device.preprocess(image)  # the pin map's rotation
        pages = column_bytes(image)
        for page, columns in enumerate(pages):
            old = None if self.pages is None else self.pages[page]
            if old == columns:
                continue
            changed = (range(len(columns)) if old is None
                       else [x for x, (was, now) in enumerate(zip(old, columns)) if was != now])
            self._write(page, changed[0], columns[changed[0]:changed[-1] + 1])
        self.pages = pages

    def _write(self, page, column, data):
        if self.kind == "ssd1306":  # horizontal addressing: a window of one page
            self.device.command(0x21, column, column + len(data) - 1, 0x22, page, page)
        else:  # SH1106: page addressing, its RAM two columns in
            column += 2
            self.device.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)
        self.device.data(list(data))


def column_bytes(image):
    """A 1-bit image as an OLED's RAM holds it: per 8-row page, a byte per column, its top row the low bit."""
    # PIL packs a 1-bit row 8 pixels a byte, its first pixel the high bit. Turned a quarter clockwise, the
    # image's columns are rows read bottom to top: each one packs into its pages' bytes, the last page first.
    pages = image.size[1] // 8
    packed = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [packed[pages - 1 - page::pages] for page in range(pages)]


class Display:
    """The latest screen, and a thread of its own that puts it on the panel: the table's lock is never held
    while bytes go down the wire, so a slow or failing display delays no press and no phone. Frames that
    came while the panel was busy are skipped for the newest. A display that is missing at start or fails
    later is logged, reported in `status` (to every `subscribe`d callback as it changes, for the phones), and
    opened again every `retry` seconds; the box referees on."""

    OK, STARTING, FAILING = "ok", "starting", "failing"

    def __init__(self, device, retry=5.0):
        self._open = device if callable(device) else (lambda: device)  # a device, or how to open one
        self.retry = retry
        self.screen = None
        self.image = Image.new("1", (WIDTH, HEIGHT))  # the frame as the panel shows it once sent
        self.frame = 0  # counts the frames that differed from the one before
        self.sent = 0  # the last frame the panel took
        self.status = self.STARTING
        self._panel = None
        self._closed = False
        self._subscribers = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
        self._thread.start()

    def show(self, screen):
        if screen == self.screen:
            return
        image = render(screen)
        with self._changed:
            self.screen, self.image = screen, image
            self.frame += 1
            self._changed.notify_all()

    def subscribe(self, callback):
        """callback(status) on the display's thread whenever the status changes: keep it short."""
        self._subscribers.append(callback)

    def _set_status(self, status):
        if status != self.status:
            self.status = status
            for callback in self._subscribers:
                callback(status)

    def _run(self):
        log = logging.getLogger(__name__)
        while True:
            with self._changed:
                while self.sent == self.frame and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                frame, image = self.frame, self.image
            try:
                if self._panel is None:
                    self._panel = Panel(self._open())
                self._panel.send(image)
            except (OSError, LumaError, GPIOZeroError) as e:
                if self.status != self.FAILING:
                    log.error("the OLED is not answering (%s: %s): the box goes on; trying again every %s s",
                              type(e).__name__, e, self.retry)
                self._panel = None
                self._set_status(self.FAILING)
                with self._changed:
                    self._changed.wait_for(lambda: self._closed, timeout=self.retry)
                continue
            if self.status == self.FAILING:
                log.warning("the OLED answers again")
            self._set_status(self.OK)
            with self._changed:
                self.sent = frame
                self._changed.notify_all()

    def wait_sent(self, timeout=5.0):
        """Wait until the panel has taken the latest frame (tests, and a clean shutdown)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.sent == self.frame, timeout=timeout)

    def close(self):
        """Stop once the panel has taken the latest frame (the power-off screen must reach it), or after 2 s
        (a panel that stopped answering does not hold the box up)."""
        self.wait_sent(timeout=2)
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join(timeout=2)


class LumaGPIO:
    """The RPi.GPIO calls luma's SPI interface makes (setup, output, cleanup), on gpiozero: the display's DC and
    reset pins go through the pads' pin factory (lgpio on a Pi 5, where RPi.GPIO does not run). A pin is
    claimed once and kept when the display is opened again after a failure."""

    OUT, LOW, HIGH = "out", 0, 1

    def __init__(self, pin_factory=None):
        self.pin_factory = pin_factory
        self.pins = {}

    def setup(self, pin, mode):
        if pin not in self.pins:
            self.pins[pin] = DigitalOutputDevice(pin, pin_factory=self.pin_factory)

    def output(self, pin, level):
        self.pins[pin].value = level

    def cleanup(self, pins=None):
        for pin in list(self.pins) if pins is None else pins:
            if pin in self.pins:
                self.pins.pop(pin).close()


def device_opener(pinmap, pin_factory=None):
    """How the display's thread opens the panel, at start and again after a failure: the pin map's driver on
    I2C or SPI, with its rotation and contrast (mock mode's is device/mock.py's `display`)."""
    from luma.core.interface import serial  # the real panel's drivers: not loaded in mock mode
    from luma.oled import device as oled

    gpio = LumaGPIO(pin_factory) if pinmap.interface == "spi" else None

    def open_panel():
        if gpio is None:
            wire = serial.i2c(port=pinmap.i2c_bus, address=pinmap.i2c_address)
        else:
            wire = serial.spi(gpio=gpio, port=pinmap.spi_port, device=pinmap.spi_device, gpio_DC=pinmap.dc,
                              gpio_RST=pinmap.reset)
        device = getattr(oled, pinmap.driver)(wire, rotate=pinmap.rotate)
        device.contrast(pinmap.contrast)
        # luma blanks the panel as the process exits: the last frame ("Box fermato", or the power-off screen
        # while the Pi shuts down) must stay on it
        device.persist = True
        return device

    return open_panel

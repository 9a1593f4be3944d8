"""Drawing screens on a 128×64 1-bit canvas, and the luma devices that show them."""
import io

import segno
from luma.core.legacy import text as tiny_text
from luma.core.legacy.font import TINY_FONT
from luma.core.render import canvas
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
LINE = 11  # pixels per text line of the font
FONT = ImageFont.load_default_imagefont()  # Pillow's bitmap font: crisp on a 1-bit panel, 6 px a character
SPACE = 6  # pixels per bridge space: 21 spaces across 126 pixels
QR_SIZE = (25 + 4) * 2


def draw_screen(draw, screen):
    """Title in reverse video, then the body lines or the bridge; or a QR code with lines beside it."""
    if screen.qr:
        _draw_qr(draw, screen)
        return
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill="white")
    draw.text((1, 0), screen.title, font=FONT, fill="black")
    if screen.bridge is not None:
        _draw_bridge(draw, screen.bridge)
        return
    for row, line in enumerate(screen.lines):
        draw.text((0, LINE + 1 + row * LINE), line, font=FONT, fill="white")


def _draw_bridge(draw, positions):
    """Each meeple is its seat number, stacked on its space above the planks; space 11 is marked."""
    base = HEIGHT - 4
    for space in range(1, 22):
        x = 1 + (space - 1) * SPACE
        draw.line((x, base, x + SPACE - 2, base), fill="white")
        if space in (1, 11, 21):
            draw.line((x + 2, base + 1, x + 2, base + 3), fill="white")
    for space in set(positions):
        x = 1 + (space - 1) * SPACE
        for height, seat in enumerate(s for s, p in enumerate(positions) if p == space):
            tiny_text(draw, (x + 1, base - 8 - height * 7), str(seat + 1), fill="white", font=TINY_FONT)


def _draw_qr(draw, screen):
    """Version 2 (25 modules) at 2 pixels a module with a 2-module quiet zone: 58 pixels square."""
    qr = segno.make_qr(screen.qr, version=2)
    for y, row in enumerate(qr.matrix_iter(scale=2, border=2)):
        for x, dark in enumerate(row):
            if not dark:
                draw.point((x, y + 3), fill="white")
    draw.text((QR_SIZE + 4, 0), screen.title, font=FONT, fill="white")
    for row, line in enumerate(screen.lines[:4]):
        draw.text((QR_SIZE + 4, LINE + 2 + row * LINE), line, font=FONT, fill="white")


def render(screen):
    """The screen as a 128×64 1-bit image."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw_screen(ImageDraw.Draw(image), screen)
    return image


def png(image):
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class Display:
    """Shows screens on a luma device (a real SSD1306/SH1106, or the dummy device in mock mode and tests)."""

    def __init__(self, device):
        self.device = device
        self.screen = None
        self.frame = 0  # counts the frames that differed from the one before

    def show(self, screen):
        if screen == self.screen:
            return
        self.screen = screen
        self.frame += 1
        with canvas(self.device) as draw:
            draw_screen(draw, screen)

    @property
    def image(self):
        """The frame as it stands on the device (the dummy device keeps a copy)."""
        return getattr(self.device, "image", None) or render(self.screen)


def open_device(pinmap, mock):
    if mock:
        from luma.core.device import dummy
        return dummy(width=WIDTH, height=HEIGHT, mode="1")
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled
    return getattr(oled, pinmap.driver)(i2c(port=pinmap.i2c_bus, address=pinmap.i2c_address))

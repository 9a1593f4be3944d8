"""Drawing screens on a 128×64 1-bit canvas, and the luma devices that show them."""
import io

import segno
from luma.core.render import canvas
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
LINE = 11  # pixels per text line of the font
FONT = ImageFont.load_default_imagefont()  # Pillow's bitmap font: crisp on a 1-bit panel, 6 px a character
QR_SIZE = (25 + 4) * 2


def draw_screen(draw, screen):
    """Title in reverse video, then the body lines or the game's picture; or a QR code with the title and
    lines beside it."""
    if screen.qr:
        _draw_qr(draw, screen)
        return
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill="white")
    draw.text((1, 0), screen.title, font=FONT, fill="black")
    if screen.picture is not None:
        screen.picture.draw(draw, HEIGHT)
        return
    for row, line in enumerate(screen.lines):
        draw.text((0, LINE + 1 + row * LINE), line, font=FONT, fill="white")


def _draw_qr(draw, screen):
    """Version 2 (25 modules) at 2 pixels a module with a 2-module quiet zone: 58 pixels square."""
    qr = segno.make_qr(screen.qr, version=2)
    for y, row in enumerate(qr.matrix_iter(scale=2, border=2)):
        for x, dark in enumerate(row):
            if not dark:
                draw.point((x, y + 3), fill="white")
    draw.text((QR_SIZE + 4, 0), screen.title, font=FONT, fill="white")
    for row, line in enumerate(screen.lines):
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

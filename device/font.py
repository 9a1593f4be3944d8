"""The panel's font: Pillow's own bitmap font (courB08 of the X11 fonts, device/fonts), loaded through Pillow's
public `ImageFont.load`, and the text it can draw. Its 256 glyphs are Latin-1 (every Italian letter among them):
any other character (one a phone sent, echoed by a refusal) is drawn as "?" rather than stop the screen;
tests/test_oled_screens.py pins both on the Pillow the lock installs."""
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).parent / "fonts"
CHARSET = "latin-1"


def load(name: str) -> ImageFont.ImageFont:
    """A PILfont of fonts/: `<name>.pil` (metrics) beside `<name>.png` (the glyph sheet)."""
    return ImageFont.load(str(FONTS / f"{name}.pil"))


def drawable(text: str) -> str:
    """`text` with every character the font lacks as "?"."""
    return text.encode(CHARSET, "replace").decode(CHARSET)

"""The real panel's path per frame: `display.column_bytes` (the frame packed as the SSD1306/SH1106 RAM holds it)
and `Panel.send` (what changed, to a driver that discards the bytes), against packing pixel by pixel in Python
(the baseline: how it was done before), in the same run. Mock mode never runs this path: a real box does, on
every frame. Goal: column_bytes ≤ 0.2 ms a frame.

Run by hand: `.venv/bin/python bench/display.py [--frames 500]`."""
import argparse
import sys
import time
from pathlib import Path

from luma.oled.device import ssd1306

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from device import screens  # noqa: E402
from device.display import Panel, column_bytes, render  # noqa: E402

GOAL = 0.2  # ms a frame


def pixel_by_pixel(image):
    width, height = image.size
    pixels = image.load()
    return [bytes(sum(1 << bit for bit in range(8) if pixels[x, page * 8 + bit]) for x in range(width))
            for page in range(height // 8)]


class Discard:
    """A serial interface (I2C or SPI, to luma) that sends nothing anywhere."""

    def command(self, *codes):
        pass

    def data(self, values):
        pass


def per_frame(work, frames):
    started = time.process_time()
    for frame in frames:
        work(frame)
    return 1000 * (time.process_time() - started) / len(frames)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500)
    args = parser.parse_args()
    frames = [render(screens.Screen("Arbitro", (f"Turno {n}: G2", "G1 piazza Gu V4", f"Pietre {n % 7}",
                                                 "G1-G3: 7 8 7"))) for n in range(args.frames)]
    assert all(column_bytes(f) == pixel_by_pixel(f) for f in frames[:20])
    packed = per_frame(column_bytes, frames)
    baseline = per_frame(pixel_by_pixel, frames)
    panel = Panel(ssd1306(serial_interface=Discard()))
    sent = per_frame(panel.send, frames)
    print(f"column_bytes: {packed:.3f} ms a frame (baseline, pixel by pixel: {baseline:.2f} ms; "
          f"{baseline / packed:.0f}× faster); goal ≤ {GOAL} ms: {'met' if packed <= GOAL else 'NOT met'} "
          f"(a Zero 2 W: about {6 * packed:.2f}–{10 * packed:.2f} ms, an estimate)")
    print(f"Panel.send, a line changed a frame: {sent:.3f} ms a frame")


if __name__ == "__main__":
    main()

"""The key-matrix scanner's cost: time per scan of the default pin map's 13 × 8 matrix, and the CPU its thread
takes at its scan rate. On gpiozero's mock pins this measures our Python; on a Pi (`GPIOZERO_PIN_FACTORY=lgpio`,
run with `--real` and nothing pressed) it measures the real pin calls too.

Run by hand: `.venv/bin/python bench/matrix.py [--seconds S] [--real]`. Target: under 5 % of one core."""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from device.config import load_pinmap  # noqa: E402
from device.pads import SCAN_PERIOD, MatrixPads  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--real", action="store_true", help="the Pi's pins (else gpiozero's mock pins)")
    args = parser.parse_args()
    factory = None
    if not args.real:
        from gpiozero.pins.mock import MockFactory
        factory = MockFactory(revision="a02082")
    pads = MatrixPads(load_pinmap(), lambda *a: None, lambda *a: None, pin_factory=factory)
    try:
        scanner = pads.scanner
        pads.start()
        time.sleep(args.seconds / 2)  # the thread alone: its CPU at the scan rate
        cpu, wall, before = time.process_time(), time.monotonic(), scanner.scans
        time.sleep(args.seconds)
        cpu, wall, done = time.process_time() - cpu, time.monotonic() - wall, scanner.scans - before
        print(f"thread: {done / wall:.0f} scans/s (period {SCAN_PERIOD * 1000:.0f} ms), "
              f"{100 * cpu / wall:.1f} % of one core")
        scanner.stop()  # then back to back, to time one scan, idle and with a key held
        for held in (False, True):
            if held:
                scanner.pressed.add((0, 0))  # as though held: every row is read
            started, count = time.perf_counter(), 0
            while time.perf_counter() - started < args.seconds / 2:
                scanner.read()
                count += 1
            per_scan = (time.perf_counter() - started) / count
            print(f"one scan {'with a key held' if held else 'idle'}: {per_scan * 1e6:.0f} µs "
                  f"({len(pads.keys)} rows × 8 columns)")
    finally:
        pads.close()


if __name__ == "__main__":
    main()

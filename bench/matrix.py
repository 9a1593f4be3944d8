"""The key matrix's cost: the CPU its thread takes while nobody presses (it waits for a column's edge) against
a scanner that polls at the scan rate (the baseline, as the box scanned before), in the same run; how long a
closed key takes to be reported by each (the debounce's stable scans); and the time of one scan. On gpiozero's
mock pins this measures our Python; on a Pi (`GPIOZERO_PIN_FACTORY=lgpio`, run with `--real` and nothing
pressed) the idle and scan figures measure the real pin calls too.

Run by hand: `.venv/bin/python bench/matrix.py [--seconds S] [--real]`. Goal: the idle thread ≤ 0.1 % of a
core, a press reported no later than by the polling scanner."""
import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from device.config import load_pinmap  # noqa: E402
from device.pads import SCAN_PERIOD, MatrixPads  # noqa: E402
from device.pins import mock_pins, real_pins  # noqa: E402


def polling(scanner, stop):
    """The baseline: a scan every period whether or not a key is down."""
    while not stop.is_set():
        scanner.scan()
        time.sleep(scanner.period)


def thread_cpu(seconds):
    """The CPU this process takes over `seconds` (its main thread sleeps meanwhile), in % of one core."""
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(seconds)
    return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)


def latencies(pads, simulated, presses=20):
    """Seconds from closing a simulated key to its report, for `presses` presses (each released after)."""
    reported, found = threading.Semaphore(0), []
    pads.scanner.when_pressed = pads.scanner.when_released = lambda key: reported.release()
    for press in range(presses):
        time.sleep(0.02 + 0.001 * press)  # presses land at every phase of the scan period
        started = time.perf_counter()
        simulated.close(press % 12, press % 8)
        reported.acquire()
        found.append(time.perf_counter() - started)
        simulated.open(press % 12, press % 8)
        reported.acquire()
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--real", action="store_true", help="the Pi's pins (else gpiozero's mock pins)")
    args = parser.parse_args()
    pinmap = load_pinmap()
    factory, simulated = (real_pins(pinmap), None) if args.real else mock_pins(pinmap)
    pads = MatrixPads(pinmap, lambda *a: None, lambda *a: None, pin_factory=factory)
    try:
        scanner = pads.scanner
        pads.start()
        time.sleep(0.2)
        idle = thread_cpu(args.seconds)
        waiting = None if args.real else statistics.median(latencies(pads, simulated))
        scanner.stop()
        stop = threading.Event()
        baseline = threading.Thread(target=polling, args=(scanner, stop), daemon=True)
        baseline.start()
        polled = thread_cpu(args.seconds)
        polled_latency = None if args.real else statistics.median(latencies(pads, simulated))
        stop.set()
        baseline.join()
        print(f"idle thread: {idle:.3f} % of one core; baseline (a scan every {SCAN_PERIOD * 1000:.0f} ms): "
              f"{polled:.2f} %; goal ≤ 0.1 %: {'met' if idle <= 0.1 else 'NOT met'}")
        if waiting is not None:
            print(f"closed key → reported, median of 20: {waiting * 1000:.1f} ms (baseline {polled_latency * 1000:.1f}"
                  f" ms; {scanner.stable_scans} stable scans of {SCAN_PERIOD * 1000:.0f} ms)")
        # One read: idle; a key just closed (no row known yet); a key held (its row known from the last scans).
        for what in ("idle", "with a key just closed", "with a key held") if simulated else ("idle",):
            if what == "with a key just closed":
                simulated.close(0, 0)
            if what == "with a key held":  # debounced: its row known from the last scans
                for _ in range(scanner.stable_scans):
                    scanner.scan()
            started, count = time.perf_counter(), 0
            while time.perf_counter() - started < args.seconds / 3:
                scanner.read()
                count += 1
            per_scan = (time.perf_counter() - started) / count
            print(f"one scan {what}: {per_scan * 1e6:.0f} µs ({pads.rows} rows × 8 columns)")
    finally:
        pads.close()


if __name__ == "__main__":
    main()

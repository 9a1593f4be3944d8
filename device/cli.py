"""The `arbitro` command: `arbitro replay LOG` checks a game log; `arbitro labels` writes printable pad labels;
`arbitro doctor` checks a build; `arbitro wiring` draws the pin map; `arbitro [--mock]` runs the box. This is
the composition root: it builds the table, the box and the web app, and hands the app what it needs."""
import argparse
import json
import logging
import os
import secrets
import subprocess
import sys
import threading
from pathlib import Path

from engine.replay import LogError, replay

from .games import presentation


def replay_main(argv):
    parser = argparse.ArgumentParser(prog="arbitro replay", description="Replay a game log and print its "
                                     "final public view; exit 1 at the first line that breaks a rule.")
    parser.add_argument("log", type=Path, help="a JSON Lines game log")
    parser.add_argument("--json", action="store_true", help="print the final public view as one JSON object")
    parser.add_argument("--seed", type=int, help="draw the chance outcomes the log lacks from this seed")
    args = parser.parse_args(argv)
    try:
        text = args.log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        parser.exit(2, f"arbitro replay: cannot read {args.log}: {e}\n")
    try:
        record = replay(text, seed=args.seed)
    except LogError as e:
        print(f"arbitro replay: {args.log}: {e}", file=sys.stderr)
        return 1
    shown = record.view("public")
    if args.json:
        print(json.dumps(shown, ensure_ascii=False))
    else:
        print(summary(shown))
    return 0


def labels_main(argv):
    from engine.rules import GAMES
    from engine.words import LANGUAGES

    from .config import ConfigError, load_pinmap
    from .labels import layout, pdf, svg
    parser = argparse.ArgumentParser(prog="arbitro labels", description="Write printable pad labels for a game "
                                     "(A4, a strip per seat): SVG or PDF, by the file's extension.")
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--out", required=True, type=Path, help="the file to write: labels.svg or labels.pdf")
    parser.add_argument("--lang", choices=LANGUAGES, default="it")
    parser.add_argument("--seats", type=bounded(int, 1, 12),
                        help="the players of the game (default: the most it takes); a strip for each one with a pad")
    add_pinmap_option(parser)
    args = parser.parse_args(argv)
    if args.out.suffix.lower() not in (".svg", ".pdf"):
        parser.exit(2, f"arbitro labels: {args.out} must end in .svg or .pdf\n")
    low, high = GAMES[args.game].SEATS
    if args.seats is not None and not low <= args.seats <= high:
        parser.exit(2, f"arbitro labels: {GAMES[args.game].TITLE} takes {low} to {high} players, not {args.seats}\n")
    try:
        wired = len(load_pinmap(args.pinmap).seats)
    except ConfigError as e:
        parser.exit(2, f"arbitro labels: {e}\n")
    seats = min(args.seats or high, wired)  # the seats in play that have a pad: the others play by phone
    shapes = layout(args.game, seats, args.lang)
    try:
        if args.out.suffix.lower() == ".svg":
            args.out.write_text(svg(shapes), encoding="utf-8")
        else:
            args.out.write_bytes(pdf(shapes))
    except OSError as e:
        parser.exit(2, f"arbitro labels: cannot write {args.out}: {e}\n")
    print(f"arbitro labels: {args.out}: {seats} strips for {args.game} ({args.lang})", file=sys.stderr)
    return 0


def doctor_main(argv):
    from .config import ConfigError, load_pinmap
    from .doctor import run
    parser = argparse.ArgumentParser(prog="arbitro doctor", description="Check a box as it is built: the pin map, "
                                     "the GPIO back-end, the display, the buzzer, stuck keys and shorted "
                                     "columns; then name each press live. Exit 1 if anything needs fixing.")
    add_pinmap_option(parser)
    parser.add_argument("--seconds", type=bounded(float, 0, 3600), default=60.0,
                        help="how long to name presses (default 60; 0: only the checks)")
    parser.add_argument("--mock", action="store_true", help="on mock pins, as `arbitro --mock` runs")
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        print(f"PROBLEM: {e}", file=sys.stderr)
        return 1
    choose_pins(pinmap, args.mock)
    return 1 if run(pinmap, args.pinmap, seconds=args.seconds, mock=args.mock,
                    say=lambda line: print(line, flush=True)) else 0


def wiring_main(argv):
    from .config import ConfigError, load_pinmap
    from .wiring import markdown_table, svg
    parser = argparse.ArgumentParser(prog="arbitro wiring", description="Draw the pin map's wiring diagram (SVG), "
                                     "or print its pin table (Markdown, as in hardware/wiring.md).")
    add_pinmap_option(parser)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", type=Path, help="the SVG file to write")
    what.add_argument("--table", action="store_true", help="print the pin table")
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        parser.exit(2, f"arbitro wiring: {e}\n")
    if args.table:
        print(markdown_table(pinmap), end="")
        return 0
    if args.out.suffix.lower() != ".svg":
        parser.exit(2, f"arbitro wiring: {args.out} must end in .svg\n")
    try:
        args.out.write_text(svg(pinmap, args.pinmap.name), encoding="utf-8")
    except OSError as e:
        parser.exit(2, f"arbitro wiring: cannot write {args.out}: {e}\n")
    print(f"arbitro wiring: {args.out}: the wiring of {args.pinmap.name}", file=sys.stderr)
    return 0


def summary(shown):
    """A few lines for a person reading a replay in a terminal: the game's own, then the result."""
    lines = [f"{shown['game']}: {'over' if shown['over'] else 'in play'}"]
    lines += presentation(shown["game"]).summary(shown)
    result = shown["result"]
    if result and result["draw"]:
        lines.append("result: a draw")
    elif result:
        lines.append("winners: " + ", ".join(f"player {s + 1}" for s in result["winners"]))
        if result["losers"]:
            lines.append("losers: " + ", ".join(f"player {s + 1}" for s in result["losers"]))
    return "\n".join(lines)


def add_pinmap_option(parser):
    from .config import DEFAULT_PINMAP
    parser.add_argument("--pinmap", type=Path, default=Path(os.environ.get("ARBITRO_PINMAP", DEFAULT_PINMAP)),
                        help="the box's pin map (default: $ARBITRO_PINMAP, else hardware/pinmap.toml)")


SPARE_THREADS = 24  # server threads no waiting phone may take: the host, presses and plain requests
MOCK_REVISIONS = {"cm": "a020a0", "pi": "a02082"}  # gpiozero board revisions with the pin map's GPIO


def choose_pins(pinmap, mock):
    """gpiozero's back-end, before its first device: mock pins (PWM-capable, for a passive buzzer) of the pin
    map's board in mock mode; else GPIOZERO_PIN_FACTORY when set, else the pin map's pin_factory, else
    gpiozero's own order."""
    if mock:
        os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
        os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
        os.environ.setdefault("GPIOZERO_MOCK_REVISION", MOCK_REVISIONS[pinmap.board])
    elif pinmap.pin_factory:
        os.environ.setdefault("GPIOZERO_PIN_FACTORY", pinmap.pin_factory)


def bounded(kind, low, high):
    """An argparse type: a number of `kind` from `low` to `high`."""
    def parse(raw):
        try:
            value = kind(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {raw!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {raw}")
        return value
    return parse


def box_main(argv):
    parser = argparse.ArgumentParser(prog="arbitro", description="Run the Arbitro box. Also: `arbitro replay LOG`, "
                                     "`arbitro labels`, `arbitro doctor`, `arbitro wiring` (each with --help).")
    parser.add_argument("--mock", action="store_true", help="desktop mock mode: mock pins, emulated OLED, "
                        "the virtual box at /box")
    parser.add_argument("--host", default=None, help="address to serve on (default: 127.0.0.1 with --mock, "
                        "else 0.0.0.0)")
    parser.add_argument("--port", type=bounded(int, 1, 65535), default=8000)
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("ARBITRO_DATA", "data")),
                        help="where the journal lives (default: ./data)")
    add_pinmap_option(parser)
    parser.add_argument("--game", help="start this game unless one is unfinished")
    parser.add_argument("--seats", type=int, help="players for --game")
    parser.add_argument("--reveal-delay", type=bounded(float, 0, 10),
                        help="seconds picks may change after the last lock-in (0 to 10)")
    parser.add_argument("--rolls", type=faces, default=(),
                        help="mock mode only, for demos and tests: the d12 faces (0–11, comma-separated) the box "
                             "rolls first, in order; then it rolls live")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="arbitro: %(message)s")
    # A phone that leaves mid-stream is said once, by the stream itself: not again by waitress.
    logging.getLogger("waitress").addFilter(lambda record: not record.getMessage().startswith("Client disconnected"))
    if (args.game is None) != (args.seats is None):
        parser.error("--game and --seats go together")
    if args.rolls and not args.mock:
        parser.error("--rolls is for mock mode only: a real box always rolls live")
    try:
        return serve(args)
    except StartError as e:
        parser.exit(2, f"arbitro: {e}\n")


def faces(value):
    try:
        found = tuple(int(face) for face in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"faces 0–11 separated by commas, not {value!r}") from None
    if not all(0 <= face <= 11 for face in found):
        raise argparse.ArgumentTypeError(f"faces 0–11 separated by commas, not {value!r}")
    return found


class LoadedDie:
    """The OS's secure random source, except that the first d12 rolls take the faces given (mock mode)."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.live = secrets.SystemRandom()

    def choices(self, population, weights):
        if self.faces and population and population[0].get("chance") == "d12":
            face = self.faces.pop(0)
            return [next(a for a in population if a["outcome"] == face)]
        return self.live.choices(population, weights)


def power_off():
    """Shut the Pi down cleanly (the journal is on disk already). The service's user may: install.sh gives it
    a polkit rule for logind's power-off."""
    done = subprocess.run(["systemctl", "poweroff"], capture_output=True, text=True)
    if done.returncode:
        logging.error("cannot power off: %s", done.stderr.strip() or f"systemctl exited {done.returncode}")
    return done.returncode == 0


class StartError(Exception):
    """The box cannot start; one line says why."""


def is_loopback(host):
    import ipaddress
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve(args):
    import waitress
    from gpiozero.exc import GPIOZeroError
    from luma.core.error import Error as LumaError

    from engine.journal import Journal, StorageError
    from engine.rules import Rejected
    from engine.state_file import StateFile
    from engine.table import Table
    from web_companion import create_app
    from web_companion.streams import WAITERS

    from .box import Box
    from .config import ConfigError, load_pinmap
    from .display import device_opener
    from .network import box_url

    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        raise StartError(e) from None
    choose_pins(pinmap, args.mock)
    try:
        table = Table(Journal(args.data / "journal.sqlite3"), random=LoadedDie(args.rolls) if args.rolls else None,
                      reveal_delay=pinmap.reveal_delay if args.reveal_delay is None else args.reveal_delay)
    except StorageError as e:
        raise StartError(e) from None
    host = args.host or ("127.0.0.1" if args.mock else "0.0.0.0")
    url = box_url(host, args.port)
    try:
        # A damaged box.json is refused here (a StorageError), before anyone is served. The display opens on
        # its own thread: a missing one is logged and tried again, the box referees on.
        box = Box(table, pinmap, device_opener(pinmap, args.mock), url=url, state=StateFile(args.data / "box.json"),
                  power_off=None if args.mock else power_off)
    except StorageError as e:
        table.close()
        raise StartError(e) from None
    except (GPIOZeroError, LumaError, OSError) as e:
        table.close()
        raise StartError(f"the box's hardware is not answering ({type(e).__name__}: {e}); on a computer "
                         "without the box, run `arbitro --mock`") from None
    if args.mock and not is_loopback(host):
        print(f"arbitro: WARNING: mock mode on {host}: anyone who can reach this address may press every "
              "button of the virtual box (/box/press) and acts as the host (start, undo, end games, download "
              "the log with every secret once a game is over). Serve mock mode on 127.0.0.1 unless you mean "
              "it.", file=sys.stderr, flush=True)
    try:
        if args.game and (table.game is None or table.view()["over"]):
            box.new_game(args.game, args.seats)
        elif table.game:
            print(f"arbitro: resuming the unfinished {table.game} game from {args.data}", file=sys.stderr)
        try:
            # A phone following live holds a thread while it waits: WAITERS of them at most, and threads to spare
            # for everything else. Idle connections cost no thread; poll() has no 1,024-descriptor limit.
            threading.stack_size(512 * 1024)
            server = waitress.create_server(create_app(box, mock=args.mock), host=host, port=args.port,
                                            threads=WAITERS + SPARE_THREADS, connection_limit=2000,
                                            channel_timeout=60, asyncore_use_poll=True, ident="arbitro")
        except OSError as e:
            raise StartError(f"cannot serve on {host}:{args.port} ({e.strerror or e}): is another program "
                             f"using that port? Try --port") from None
        print(f"arbitro: serving on {url}" + (f" — the virtual box is at {url}/box" if args.mock else ""),
              file=sys.stderr, flush=True)
        box.start()
        server.run()
    except Rejected as e:
        raise StartError(e) from None
    finally:
        box.close()
        table.close()
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        return replay_main(argv[1:])
    if argv[:1] == ["labels"]:
        return labels_main(argv[1:])
    if argv[:1] == ["doctor"]:
        return doctor_main(argv[1:])
    if argv[:1] == ["wiring"]:
        return wiring_main(argv[1:])
    return box_main(argv)


if __name__ == "__main__":
    sys.exit(main())

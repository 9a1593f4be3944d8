"""The `arbitro` command: `arbitro replay LOG` checks a game log; `arbitro verify LOG` checks its draws against
the seed revealed at its end; `arbitro restore FILE` puts a backup back; `arbitro check` says whether this
code resumes a data folder (an upgrade asks it first); `arbitro labels` writes printable pad labels;
`arbitro doctor` checks a build; `arbitro wiring` draws the pin map; `arbitro [--mock]` runs the box. This is
the composition root: it builds the table, the box and the web app, and hands the app what it needs. It speaks
the terminal's language (the `cli` messages of the catalogs)."""
import argparse
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
from pathlib import Path

import games
from engine.games import register
from engine.version import about

from .games import presentation
from .texts import argparse_speaks_the_terminals_language, said, terminal_language


def log_parser(command, about):
    """The parser of a command that reads a game log (`arbitro replay`, `arbitro verify`)."""
    parser = argparse.ArgumentParser(prog=f"arbitro {command}", description=said(about))
    parser.add_argument("log", type=Path, help=said("replay_log"))
    return parser


def read_log(parser, path):
    """The log's text; a file that cannot be read ends the command with status 2, saying why."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        parser.exit(2, f"{parser.prog}: {said('cannot_read', path=path, error=e)}\n")


def replay_main(argv):
    from engine.replay import LogError, replay  # the commands load what they use: the box starts sooner

    parser = log_parser("replay", "replay_about")
    parser.add_argument("--json", action="store_true", help=said("replay_json"))
    parser.add_argument("--seed", type=int, help=said("replay_seed"))
    args = parser.parse_args(argv)
    text = read_log(parser, args.log)
    try:
        record = replay(text, seed=args.seed)
    except LogError as e:
        print(f"arbitro replay: {args.log}: {e.said(terminal_language())}", file=sys.stderr)
        return 1
    shown = record.view("public")
    if args.json:
        print(json.dumps(shown, ensure_ascii=False))
    else:
        print(summary(shown))
    return 0


def verify_main(argv):
    from engine.replay import LogError, verify

    parser = log_parser("verify", "verify_about")
    args = parser.parse_args(argv)
    text = read_log(parser, args.log)
    try:
        checked = verify(text)
    except LogError as e:  # Unchecked too: a draw that cannot be checked, or does not check
        print(f"arbitro verify: {args.log}: {e.said(terminal_language())}", file=sys.stderr)
        return 1
    print(said("verify_ok", n=checked))
    return 0


def restore_main(argv):
    from engine.backup import BackupError, restore
    from engine.journal import JournalError
    parser = argparse.ArgumentParser(prog="arbitro restore", description=said("restore_about"))
    parser.add_argument("backup", type=Path, help=said("restore_file"))
    add_data_option(parser)
    args = parser.parse_args(argv)
    if not args.backup.is_file():
        parser.exit(2, f"arbitro restore: {said('cannot_read', path=args.backup, error=said('not_a_file'))}\n")
    try:
        games, kept = restore(args.backup, args.data)
    except (BackupError, JournalError) as e:
        print(f"arbitro restore: {e.said(terminal_language())}", file=sys.stderr)
        return 1
    print(said("restored", n=games, data=args.data))
    if kept:
        print(said("restore_kept", path=kept))
    return 0


def recover_main(argv):
    from engine.backup import recover
    from engine.journal import JournalError
    parser = argparse.ArgumentParser(prog="arbitro recover", description=said("recover_about"))
    add_data_option(parser)
    args = parser.parse_args(argv)
    try:
        kept = recover(args.data)
    except JournalError as e:
        print(f"arbitro recover: {e.said(terminal_language())}", file=sys.stderr)
        return 1
    print(said("recovered", data=args.data, path=kept))
    return 0


def check_main(argv):
    from engine.backup import check_resumable
    from engine.journal import JournalError
    parser = argparse.ArgumentParser(prog="arbitro check", description=said("check_about"))
    add_data_option(parser)
    args = parser.parse_args(argv)
    try:
        games, found = check_resumable(args.data)
    except JournalError as e:
        print(f"arbitro check: {e.said(terminal_language())}", file=sys.stderr)
        return 1
    print(said("check_ok", n=games, data=args.data, found=found, **about()))
    return 0


def add_data_option(parser):
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("ARBITRO_DATA", "data")),
                        help=said("box_data"))


def labels_main(argv):
    from engine.games import GAMES
    from engine.words import LANGUAGES

    from .config import ConfigError, load_pinmap
    from .labels import layout, pdf, svg
    parser = argparse.ArgumentParser(prog="arbitro labels", description=said("labels_about"))
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--out", required=True, type=Path, help=said("labels_out"))
    parser.add_argument("--lang", choices=LANGUAGES, default="it", help=said("labels_lang"))
    parser.add_argument("--seats", type=bounded(int, 1, 12), help=said("labels_seats"))
    add_pinmap_option(parser)
    args = parser.parse_args(argv)
    if args.out.suffix.lower() not in (".svg", ".pdf"):
        parser.exit(2, f"arbitro labels: {said('labels_suffix', path=args.out)}\n")
    low, high = GAMES[args.game].seats
    if args.seats is not None and not low <= args.seats <= high:
        players = said("players", game=GAMES[args.game].title, low=low, high=high, n=args.seats)
        parser.exit(2, f"arbitro labels: {players}\n")
    try:
        wired = len(load_pinmap(args.pinmap).seats)
    except ConfigError as e:
        parser.exit(2, f"arbitro labels: {e.said(terminal_language())}\n")
    seats = min(args.seats or high, wired)  # the seats in play that have a pad: the others play by phone
    shapes = layout(args.game, seats, args.lang)
    try:
        if args.out.suffix.lower() == ".svg":
            args.out.write_text(svg(shapes), encoding="utf-8")
        else:
            args.out.write_bytes(pdf(shapes))
    except OSError as e:
        parser.exit(2, f"arbitro labels: {said('cannot_write', path=args.out, error=e)}\n")
    print(f"arbitro labels: {said('labels_written', path=args.out, n=seats, game=args.game, lang=args.lang)}",
          file=sys.stderr)
    return 0


def doctor_main(argv):
    from .config import ConfigError, load_pinmap
    from .doctor import run
    parser = argparse.ArgumentParser(prog="arbitro doctor", description=said("doctor_about"))
    add_pinmap_option(parser)
    parser.add_argument("--seconds", type=bounded(float, 0, 3600), default=60.0, help=said("doctor_seconds"))
    parser.add_argument("--mock", action="store_true", help=said("doctor_mock"))
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        print(said("problem", line=e.said(terminal_language())), file=sys.stderr)
        return 1
    options = {}  # on a Pi the doctor finds the back-end
    if args.mock:
        from .mock import mock_pins
        from .mock.doctor import doctor_options
        options = doctor_options(mock_pins(pinmap)[0])
    return 1 if run(pinmap, args.pinmap, seconds=args.seconds, say=lambda line: print(line, flush=True),
                    **options) else 0


def wiring_main(argv):
    from .config import ConfigError, load_pinmap
    from .wiring import markdown_table, svg
    parser = argparse.ArgumentParser(prog="arbitro wiring", description=said("wiring_about"))
    add_pinmap_option(parser)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", type=Path, help=said("wiring_out"))
    what.add_argument("--table", action="store_true", help=said("wiring_table"))
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        parser.exit(2, f"arbitro wiring: {e.said(terminal_language())}\n")
    if args.table:
        print(markdown_table(pinmap), end="")
        return 0
    if args.out.suffix.lower() != ".svg":
        parser.exit(2, f"arbitro wiring: {said('wiring_suffix', path=args.out)}\n")
    try:
        args.out.write_text(svg(pinmap, args.pinmap.name), encoding="utf-8")
    except OSError as e:
        parser.exit(2, f"arbitro wiring: {said('cannot_write', path=args.out, error=e)}\n")
    print(f"arbitro wiring: {said('wiring_written', path=args.out, name=args.pinmap.name)}", file=sys.stderr)
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
                        help=said("pinmap_option"))


def bounded(kind, low, high):
    """An argparse type: a number of `kind` from `low` to `high`."""
    def parse(raw):
        try:
            value = kind(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(said("not_a_number", value=raw)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(said("between", low=low, high=high, value=raw))
        return value
    return parse


class VersionAction(argparse.Action):
    """--version, looked up (`git describe` in a checkout) only when asked: not on every start."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(said("version", **about()))
        parser.exit()


def box_main(argv):
    parser = argparse.ArgumentParser(prog="arbitro", description=said("box_about"))
    parser.add_argument("--mock", action="store_true", help=said("box_mock"))
    parser.add_argument("--host", default=None, help=said("box_host"))
    parser.add_argument("--port", type=bounded(int, 1, 65535), default=8000, help=said("box_port"))
    add_data_option(parser)
    add_pinmap_option(parser)
    parser.add_argument("--version", action=VersionAction, nargs=0, help=said("box_version"))
    parser.add_argument("--game", help=said("box_game"))
    parser.add_argument("--seats", type=int, help=said("box_seats"))
    parser.add_argument("--reveal-delay", type=bounded(float, 0, 10), help=said("box_reveal_delay"))
    parser.add_argument("--chance", type=chance_lines, default=(), help=said("box_chance"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="arbitro: %(message)s")
    # A phone that leaves mid-stream is said once, by the stream itself: not again by waitress.
    logging.getLogger("waitress").addFilter(lambda record: not record.getMessage().startswith("Client disconnected"))
    if (args.game is None) != (args.seats is None):
        parser.error(said("game_and_seats"))
    if args.chance and not args.mock:
        parser.error(said("chance_mock_only"))
    try:
        return serve(args)
    except StartError as e:
        parser.exit(2, f"arbitro: {e}\n")


def chance_lines(value):
    """--chance: the chance lines the box draws first, in order, as a log writes them (any game's): a JSON
    array of {"chance": …, "outcome": …} objects, given inline or in a file."""
    try:
        text = value if value.lstrip().startswith("[") else Path(value).read_text(encoding="utf-8")
        lines = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        raise argparse.ArgumentTypeError(said("chance_lines", value=value)) from None
    if not isinstance(lines, list) or not all(isinstance(x, dict) and set(x) == {"chance", "outcome"} for x in lines):
        raise argparse.ArgumentTypeError(said("chance_lines", value=value))
    return tuple(lines)


class Scripted:
    """The OS's secure random source, except that a draw takes the next scripted chance line when the rules
    list it among the outcomes due (mock mode: demos and tests). The box knows no game's draws: the lines do."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.live = secrets.SystemRandom()

    def choices(self, population, weights):
        if self.lines and self.lines[0] in population:
            return [self.lines.pop(0)]
        return self.live.choices(population, weights)


def power_off():
    """Shut the Pi down cleanly (the journal is on disk already): None once it is going down, else why not. The
    service's user may: install.sh gives it a polkit rule for logind's power-off."""
    done = subprocess.run(["systemctl", "poweroff"], capture_output=True, text=True)
    if done.returncode:
        logging.error("%s", said("cannot_power_off",
                                 error=done.stderr.strip() or said("systemctl_exited", code=done.returncode)))
        return "poweroff_failed"
    return None


def stop_on_signals(first=lambda: None):
    """SIGTERM (`systemctl stop`, a shutdown) and SIGINT (Ctrl-C) stop the box cleanly: `first()` (the phones that
    wait are let go), then the server's loop ends (SystemExit, which waitress takes as its stop), then the
    composition root closes the box (the press being applied finishes, the OLED says it stopped) and the journal
    (the main file alone holds every game). A second signal during that stop exits at once: the journal is then
    as after a power cut, which loses nothing."""
    def stop(signum, frame):
        for each in (signal.SIGTERM, signal.SIGINT):
            signal.signal(each, now)
        # os.write, not print: the main thread may be inside a write to stderr as the signal comes
        os.write(2, f"arbitro: {said('stopping', signal=signal.Signals(signum).name)}\n".encode())
        first()
        raise SystemExit(0)

    def now(signum, frame):
        os._exit(128 + signum)

    for each in (signal.SIGTERM, signal.SIGINT):
        signal.signal(each, stop)


class StartError(Exception):
    """The box cannot start; one line says why."""


def is_loopback(host):
    import ipaddress
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve(args):
    from gpiozero.exc import GPIOZeroError
    from luma.core.error import Error as LumaError

    from engine.journal import Journal, StorageError
    from engine.rules import Rejected
    from engine.state_file import StateFile
    from engine.table import Table
    from engine.timers import Scheduler
    from engine.words import render
    from web_companion import create_app
    from web_companion.services import services

    from .box import Box
    from .config import ConfigError, load_pinmap
    from .display import device_opener
    from .network import box_url, names
    from .pins import real_pins
    from .server import make_server
    from . import memory
    from .virtual_box import VirtualBox
    from .web_port import WebPort
    if args.mock:  # mock mode's own parts: the box never carries them
        from . import mock

    memory.limit_arenas()  # before any thread starts: the threads share a few malloc arenas (device/memory.py)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as e:
        raise StartError(e.said(terminal_language())) from None
    try:
        pin_factory, simulated = mock.mock_pins(pinmap) if args.mock else (real_pins(pinmap), None)
    except (GPIOZeroError, ImportError, OSError) as e:
        raise StartError(said("hardware_silent", error=f"{type(e).__name__}: {e}")) from None
    scheduler = Scheduler()  # one thread runs every delay of the box: the table's and the box's
    try:
        table = Table(Journal(args.data / "journal.sqlite3"), random=Scripted(args.chance) if args.chance else None,
                      reveal_delay=pinmap.reveal_delay if args.reveal_delay is None else args.reveal_delay,
                      schedule=scheduler)
    except StorageError as e:
        scheduler.close()
        raise StartError(e.said(terminal_language())) from None
    host = args.host or ("127.0.0.1" if args.mock else "0.0.0.0")
    url = box_url(host, args.port)
    try:
        # A damaged box.json is refused here (a StorageError), before anyone is served. The display opens on
        # its own thread: a missing one is logged and tried again, the box referees on.
        box = Box(table, pinmap, mock.display if args.mock else device_opener(pinmap, pin_factory), url=url,
                  state=StateFile(args.data / "box.json"), pin_factory=pin_factory, schedule=scheduler,
                  power_off=mock.power_off if args.mock else power_off)
    except StorageError as e:
        table.close()
        scheduler.close()
        raise StartError(e.said(terminal_language())) from None
    except (GPIOZeroError, LumaError, OSError) as e:
        table.close()
        scheduler.close()
        raise StartError(said("hardware_silent", error=f"{type(e).__name__}: {e}")) from None
    if args.mock and not is_loopback(host):
        print(f"arbitro: {said('mock_exposed', host=host)}", file=sys.stderr, flush=True)
    try:
        if args.game and (table.game is None or table.view()["over"]):
            box.new_game(args.game, args.seats)
        elif table.game:
            print(f"arbitro: {said('resuming', game=table.game, data=args.data)}", file=sys.stderr)
        try:
            # A phone following live holds a thread while it waits: WAITERS of them at most, and threads to spare
            # for everything else, grown as phones come and given back as they leave (device/server.py).
            threading.stack_size(512 * 1024)
            virtual = VirtualBox(box, mock.Finger(box.pads, simulated)) if args.mock else None
            app = create_app(WebPort(box), virtual=virtual, names=lambda: names() | {host})  # --host's too
            server = make_server(app, services(app).changes, host, args.port)
        except OSError as e:
            raise StartError(said("port_taken", host=host, port=args.port, error=e.strerror or e)) from None
        print(f"arbitro: {said('serving_mock' if args.mock else 'serving', url=url)}", file=sys.stderr, flush=True)
        box.start()
        stop_on_signals(services(app).changes.close)
        memory.settle()  # what the start made is kept for good: the garbage collections skip it
        server.run()  # until a signal ends its loop: waitress then shuts its threads down
    except Rejected as e:
        raise StartError(render(terminal_language(), e.message)) from None
    finally:
        scheduler.close()  # no delay runs into a closed box
        box.close()
        table.close()
    return 0


COMMANDS = {"replay": replay_main, "check": check_main, "restore": restore_main, "recover": recover_main,
            "verify": verify_main, "labels": labels_main, "doctor": doctor_main, "wiring": wiring_main}


def main(argv=None):
    """`arbitro COMMAND …` runs that command; anything else runs the box."""
    argv = sys.argv[1:] if argv is None else argv
    register(games.ALL)  # the composition root hands the registry every game: the engine imports none
    argparse_speaks_the_terminals_language()
    if argv[:1] and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    return box_main(argv)


if __name__ == "__main__":
    sys.exit(main())

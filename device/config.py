"""The pin map: a TOML file naming every pin of the box, validated in full before anything starts.

Every error names the file and line, so the box never starts half-configured."""
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from engine.texts import LANGUAGES

DEFAULT_PINMAP = Path(__file__).resolve().parent.parent / "hardware" / "pinmap.toml"
BUTTONS_PER_PAD = 8
HOST_BUTTONS = ("menu", "prev", "next", "ok", "undo")
# BCM GPIO numbers per board; 0–1 (ID EEPROM, I2C0) and 2–3 (I2C1, the display) are never buttons.
BOARDS = {"cm": range(0, 46), "pi": range(0, 28)}
I2C_PINS = {0: "I2C0 (ID EEPROM)", 1: "I2C0 (ID EEPROM)", 2: "I2C1 SDA (the display)", 3: "I2C1 SCL (the display)"}
DRIVERS = ("ssd1306", "sh1106")
SCHEMA = {
    "": {"board"},
    "display": {"driver", "i2c_bus", "i2c_address", "rotate", "contrast"},
    "box": {"reveal_delay", "language", "debounce_ms"},
    "host": set(HOST_BUTTONS),
    "seats": None,  # keys "1" … "N"
}


class ConfigError(ValueError):
    def __init__(self, path, line, message):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")
        self.line = line


@dataclass(frozen=True)
class PinMap:
    board: str
    seats: tuple  # per seat, its 8 pins in button order
    host: dict  # host button name -> pin
    driver: str = "ssd1306"
    i2c_bus: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0  # quarter turns: 2 for a panel mounted upside down
    contrast: int = 0xCF
    reveal_delay: float = 1.0
    language: str = "it"
    debounce_ms: int = 20


def _key_lines(text):
    """(section, key) -> line number, for error messages (tomllib keeps no positions)."""
    lines, section = {}, ""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.split("#", 1)[0].strip()
        header = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", stripped)
        if header:
            section = header.group(1).strip('"')
            lines.setdefault((section, None), number)
            continue
        key = re.match(r"""("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""", stripped)
        if key:
            lines.setdefault((section, key.group(1).strip("\"'")), number)
    return lines


def load_pinmap(path=DEFAULT_PINMAP):
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(path, None, f"cannot read the pin map: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        match = re.search(r"line (\d+)", str(e))
        raise ConfigError(path, int(match.group(1)) if match else None, f"not valid TOML: {e}") from None
    return _validate(path, data, _key_lines(text))


def _validate(path, data, lines):
    def fail(section, key, message):
        raise ConfigError(path, lines.get((section, key)) or lines.get((section, None)), message)

    for name, value in data.items():
        if isinstance(value, dict):
            if name not in SCHEMA or name == "":
                fail(name, None, f"unknown section [{name}]")
            allowed = SCHEMA[name]
            for key in value:
                if allowed is not None and key not in allowed:
                    fail(name, key, f"unknown key {key!r} in [{name}]; expected one of {', '.join(sorted(allowed))}")
        elif name not in SCHEMA[""]:
            fail("", name, f"unknown key {name!r}")

    board = data.get("board", "cm")
    if board not in BOARDS:
        fail("", "board", f"board must be one of {', '.join(BOARDS)}, not {board!r}")
    def number(section, key, kind, low, high, default):
        value = data.get(section, {}).get(key, default)
        if not isinstance(value, kind) or isinstance(value, bool) or not low <= value <= high:
            fail(section, key, f"{key} must be a number from {low} to {high}, not {value!r}")
        return value

    def choice(section, key, options, default):
        value = data.get(section, {}).get(key, default)
        if value not in options:
            fail(section, key, f"{key} must be one of {', '.join(options)}, not {value!r}")
        return value

    used = {}

    def pin(section, key, value, what):
        if not isinstance(value, int) or isinstance(value, bool):
            fail(section, key, f"{what}: a pin is a BCM GPIO number, not {value!r}")
        if value in I2C_PINS:
            fail(section, key, f"{what}: GPIO {value} is reserved for {I2C_PINS[value]}")
        if value not in BOARDS[board]:
            span = BOARDS[board]
            fail(section, key, f"{what}: the {board} board has GPIO {span.start} to {span.stop - 1}, not {value}")
        if value in used:
            other, other_line = used[value]
            fail(section, key, f"{what}: GPIO {value} is used twice (also by {other}, line {other_line})")
        used[value] = (what, lines.get((section, key)))
        return value

    host_section = data.get("host")
    if host_section is None:
        fail("", None, "the [host] section is missing")
    host = {}
    for name in HOST_BUTTONS:
        if name not in host_section:
            fail("host", None, f"host button {name!r} has no pin")
        host[name] = pin("host", name, host_section[name], f"host {name}")

    seat_section = data.get("seats")
    if not seat_section:
        fail("", None, "the [seats] section is missing or empty")
    expected = [str(n) for n in range(1, len(seat_section) + 1)]
    if sorted(seat_section, key=lambda k: (len(k), k)) != expected:
        fail("seats", None, f"seats must be numbered 1 to {len(seat_section)}, not {', '.join(seat_section)}")
    seats = []
    for key in expected:
        buttons = seat_section[key]
        if not isinstance(buttons, list) or len(buttons) != BUTTONS_PER_PAD:
            count = len(buttons) if isinstance(buttons, list) else "no list of"
            fail("seats", key, f"seat {key} has {count} buttons; a pad has {BUTTONS_PER_PAD}")
        seats.append(tuple(pin("seats", key, p, f"seat {key} button {b}") for b, p in enumerate(buttons, 1)))

    return PinMap(
        board=board, seats=tuple(seats), host=host,
        driver=choice("display", "driver", DRIVERS, "ssd1306"),
        i2c_bus=number("display", "i2c_bus", int, 0, 10, 1),
        i2c_address=number("display", "i2c_address", int, 0x03, 0x77, 0x3C),
        rotate=number("display", "rotate", int, 0, 3, 0),
        contrast=number("display", "contrast", int, 0, 255, 0xCF),
        reveal_delay=float(number("box", "reveal_delay", (int, float), 0, 10, 1.0)),
        language=choice("box", "language", LANGUAGES, "it"),
        debounce_ms=number("box", "debounce_ms", int, 1, 200, 20),
    )

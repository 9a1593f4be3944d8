"""The pin map: a TOML file naming every pin of the box, validated in full before anything starts.

Every error names the file and line, so the box never starts half-configured."""
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from engine.words import LANGUAGES

# The default pin map ships inside the package (hardware/pinmap.toml links to it), so an installed box finds it.
DEFAULT_PINMAP = Path(__file__).resolve().parent / "pinmap.toml"
BUTTONS_PER_PAD = 8
HOST_BUTTONS = ("menu", "prev", "next", "ok", "undo")
# Per board, the BCM GPIO numbers a pin map may use; 0–1 (the HAT ID EEPROM) never.
BOARDS = {"cm": range(2, 46), "pi": range(2, 28)}
BOARD_NAMES = {"cm": "a Compute Module", "pi": "a Pi's 40-pin header"}
I2C1 = {2: "I2C1 SDA (the display)", 3: "I2C1 SCL (the display)"}
SPI_BUSES = {  # port -> every pin its driver takes once enabled; the chip select is chosen by spi_device
    0: {11: "SCLK", 10: "MOSI", 9: "MISO", 8: "CE0", 7: "CE1"},
    1: {21: "SCLK", 20: "MOSI", 19: "MISO", 18: "CE0", 17: "CE1", 16: "CE2"},
}
DRIVERS = ("ssd1306", "sh1106")
WIRINGS = ("direct", "matrix")
MAX_SEATS = 12  # a matrix has 13 rows at most: 12 seats and the host panel
BUZZERS = ("active", "passive")
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native")  # gpiozero's back-ends on a Pi, by its names
SCHEMA = {
    "": {"board", "wiring", "pin_factory"},
    "display": {"driver", "interface", "i2c_bus", "i2c_address", "spi_port", "spi_device", "dc", "reset",
                "rotate", "contrast"},
    "box": {"reveal_delay", "language", "debounce_ms"},
    "host": set(HOST_BUTTONS),
    "matrix": {"columns", "host_row"},
    "buzzer": {"pin", "kind"},
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
    seats: tuple  # direct: per seat, its 8 pins in button order; matrix: per seat, its row's pin
    host: dict | int  # direct: host button name -> pin; matrix: the host panel's row
    wiring: str = "direct"
    pin_factory: str | None = None  # gpiozero's back-end; None: GPIOZERO_PIN_FACTORY, or gpiozero's own choice
    columns: tuple = ()  # matrix: buttons 1–8 of every row (the host's menu … undo are 1–5)
    buzzer: int | None = None
    buzzer_kind: str = "active"
    driver: str = "ssd1306"
    interface: str = "i2c"
    spi_port: int = 0
    spi_device: int = 0
    dc: int | None = None  # SPI: the data/command pin
    reset: int | None = None  # SPI: the reset pin
    i2c_bus: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0  # quarter turns: 2 for a panel mounted upside down
    contrast: int = 0xCF
    reveal_delay: float = 1.0
    language: str = "it"
    debounce_ms: int = 20

    @property
    def rows(self):
        """Matrix: the rows' pins, a pad each, the host panel's last."""
        return [*self.seats, self.host]


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
    pin_factory = data.get("pin_factory")
    if pin_factory is not None and pin_factory not in PIN_FACTORIES:
        fail("", "pin_factory", f"pin_factory must be one of {', '.join(PIN_FACTORIES)}, not {pin_factory!r} "
                                "(mock pins are for `arbitro --mock`)")
    wiring = data.get("wiring", "direct")
    if wiring not in WIRINGS:
        fail("", "wiring", f"wiring must be one of {', '.join(WIRINGS)}, not {wiring!r}")

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

    display = data.get("display", {})
    interface = choice("display", "interface", ("i2c", "spi"), "i2c")
    wrong_bus = {"i2c": ("spi_port", "spi_device", "dc", "reset"), "spi": ("i2c_bus", "i2c_address")}[interface]
    for key in wrong_bus:
        if key in display:
            fail("display", key, f"{key} is for a display on {'SPI' if interface == 'i2c' else 'I2C'}; "
                                 f"this one is on {interface.upper()} (interface = {interface!r})")
    reserved = {}  # pin -> what holds it
    spi_port = spi_device = 0
    if interface == "i2c":
        reserved.update(I2C1)
    else:
        spi_port = number("display", "spi_port", int, 0, 1, 0)
        bus = SPI_BUSES[spi_port]
        spi_device = number("display", "spi_device", int, 0, sum(n.startswith("CE") for n in bus.values()) - 1, 0)
        reserved.update({p: f"SPI{spi_port} {name} (the display's bus)" for p, name in bus.items()})
    used = {}

    def pin(section, key, value, what):
        if not isinstance(value, int) or isinstance(value, bool):
            fail(section, key, f"{what}: a pin is a BCM GPIO number, not {value!r}")
        if value in (0, 1):
            fail(section, key, f"{what}: GPIO {value} is reserved for the HAT ID EEPROM (I2C0)")
        if value in reserved:
            fail(section, key, f"{what}: GPIO {value} is reserved for {reserved[value]}")
        if value not in BOARDS[board]:
            span = BOARDS[board]
            fail(section, key, f"{what}: {BOARD_NAMES[board]} (board = {board!r}) has GPIO {span.start} to "
                               f"{span.stop - 1}, not {value}")
        if value in used:
            other, other_line = used[value]
            fail(section, key, f"{what}: GPIO {value} is used twice (also by {other}, line {other_line})")
        used[value] = (what, lines.get((section, key)))
        return value

    spi_pins = {}
    if interface == "spi":
        for key in ("dc", "reset"):
            if key not in display:
                fail("display", None, f"a display on SPI needs its {key!r} pin")
            spi_pins[key] = pin("display", key, display[key], f"the display's {key}")

    if wiring == "direct":
        if "matrix" in data:
            fail("matrix", None, "[matrix] is for wiring = \"matrix\"; this pin map has wiring = \"direct\"")
        host_section = data.get("host")
        if host_section is None:
            fail("", None, "the [host] section is missing")
        host = {}
        for name in HOST_BUTTONS:
            if name not in host_section:
                fail("host", None, f"host button {name!r} has no pin")
            host[name] = pin("host", name, host_section[name], f"host {name}")
        columns = ()
    else:
        if "host" in data:
            fail("host", None, "[host] is for wiring = \"direct\"; in a matrix the host panel is a row: "
                               "[matrix] host_row")
        matrix = data.get("matrix")
        if matrix is None:
            fail("", None, "the [matrix] section is missing (wiring = \"matrix\")")
        columns = matrix.get("columns")
        if not isinstance(columns, list) or len(columns) != BUTTONS_PER_PAD:
            count = len(columns) if isinstance(columns, list) else "no list of"
            fail("matrix", "columns" if "columns" in matrix else None,
                 f"the matrix has {count} columns; it needs {BUTTONS_PER_PAD}, one per button")
        columns = tuple(pin("matrix", "columns", p, f"column {c}") for c, p in enumerate(columns, 1))
        if "host_row" not in matrix:
            fail("matrix", None, "the host panel's row has no pin: [matrix] host_row")
        host = pin("matrix", "host_row", matrix["host_row"], "the host panel's row")

    seat_section = data.get("seats")
    if not seat_section:
        fail("", None, "the [seats] section is missing or empty")
    if len(seat_section) > MAX_SEATS:
        fail("seats", None, f"{len(seat_section)} seats: a box wires {MAX_SEATS} at most"
                            + (" (13 rows with the host panel's)" if wiring == "matrix" else ""))
    expected = [str(n) for n in range(1, len(seat_section) + 1)]
    if sorted(seat_section, key=lambda k: (len(k), k)) != expected:
        fail("seats", None, f"seats must be numbered 1 to {len(seat_section)}, not {', '.join(seat_section)}")
    seats = []
    for key in expected:
        value = seat_section[key]
        if wiring == "matrix":
            if isinstance(value, list):
                fail("seats", key, f"seat {key}: in a matrix a seat is its row's one pin, not a list")
            seats.append(pin("seats", key, value, f"seat {key}'s row"))
            continue
        if not isinstance(value, list) or len(value) != BUTTONS_PER_PAD:
            count = len(value) if isinstance(value, list) else "no list of"
            fail("seats", key, f"seat {key} has {count} buttons; a pad has {BUTTONS_PER_PAD}")
        seats.append(tuple(pin("seats", key, p, f"seat {key} button {b}") for b, p in enumerate(value, 1)))

    buzzer = None
    if "buzzer" in data:
        if "pin" not in data["buzzer"]:
            fail("buzzer", None, "the buzzer has no pin: [buzzer] pin")
        buzzer = pin("buzzer", "pin", data["buzzer"]["pin"], "the buzzer")

    return PinMap(
        board=board, seats=tuple(seats), host=host, wiring=wiring, columns=columns,
        pin_factory=pin_factory,
        buzzer=buzzer, buzzer_kind=choice("buzzer", "kind", BUZZERS, "active"),
        driver=choice("display", "driver", DRIVERS, "ssd1306"), interface=interface,
        i2c_bus=number("display", "i2c_bus", int, 0, 10, 1),
        i2c_address=number("display", "i2c_address", int, 0x03, 0x77, 0x3C),
        spi_port=spi_port, spi_device=spi_device, dc=spi_pins.get("dc"), reset=spi_pins.get("reset"),
        rotate=number("display", "rotate", int, 0, 3, 0),
        contrast=number("display", "contrast", int, 0, 255, 0xCF),
        reveal_delay=float(number("box", "reveal_delay", (int, float), 0, 10, 1.0)),
        language=choice("box", "language", LANGUAGES, "it"),
        debounce_ms=number("box", "debounce_ms", int, 1, 200, 20),
    )

"""The pin map: a TOML file naming every pin of the box, validated in full before anything starts.

Each section is read into a dataclass of its own, whose fields are the schema (`_Reading.section`: the keys it
knows, those it needs, a Literal's choices, a number's Bounds); then the pins are checked together (the board's
GPIO, the display's bus, each pin used once). Every error names the file, the line and the field, worded in the
reader's language (the `cli` messages `pinmap_*`): the box never starts half-configured."""
import dataclasses
import re
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, NewType

from engine.rules.protocol import SHARED, Message
from engine.worded import Worded
from engine.words import LANGUAGES

# The default pin map ships inside the package (hardware/pinmap.toml links to it), so an installed box finds it.
DEFAULT_PINMAP = Path(__file__).resolve().parent / "pinmap.toml"
BUTTONS_PER_PAD = 8
# Per board, the BCM GPIO numbers a pin map may use; 0–1 (the HAT ID EEPROM) never.
BOARDS = {"cm": range(2, 46), "pi": range(2, 28)}
I2C1 = {2: "SDA", 3: "SCL"}  # the display's bus on I2C
SPI_BUSES = {  # port -> every pin its driver takes once enabled; the chip select is chosen by spi_device
    0: {11: "SCLK", 10: "MOSI", 9: "MISO", 8: "CE0", 7: "CE1"},
    1: {21: "SCLK", 20: "MOSI", 19: "MISO", 18: "CE0", 17: "CE1", 16: "CE2"},
}
MAX_SEATS = 12  # a matrix has 13 rows at most: 12 seats and the host panel
Pin = NewType("Pin", int)  # a BCM GPIO number: checked with the others once every section is read


@dataclass(frozen=True)
class Bounds:
    """A number field's range, as its annotation: Annotated[int, Bounds(0, 3)]."""
    low: int
    high: int


@dataclass(frozen=True)
class Top:
    """The file's own keys, before any section."""
    board: Literal["cm", "pi"] = "cm"
    wiring: Literal["direct", "matrix"] = "direct"
    # gpiozero's back-end on a Pi, by its names; None: GPIOZERO_PIN_FACTORY, or gpiozero's own choice
    pin_factory: Literal["lgpio", "rpigpio", "pigpio", "native"] | None = field(
        default=None, metadata={"refused": "pinmap_pin_factory"})


@dataclass(frozen=True)
class Display:
    driver: Literal["ssd1306", "sh1106"] = "ssd1306"
    interface: Literal["i2c", "spi"] = "i2c"
    i2c_bus: Annotated[int, Bounds(0, 10)] = 1
    i2c_address: Annotated[int, Bounds(0x03, 0x77)] = 0x3C
    spi_port: Annotated[int, Bounds(0, 1)] = 0
    spi_device: Annotated[int, Bounds(0, 2)] = 0  # and a chip select its port has
    dc: Pin | None = None  # SPI: the data/command pin
    reset: Pin | None = None  # SPI: the reset pin
    rotate: Annotated[int, Bounds(0, 3)] = 0  # quarter turns: 2 for a panel mounted upside down
    contrast: Annotated[int, Bounds(0, 255)] = 0xCF


@dataclass(frozen=True)
class Settings:
    """[box]"""
    reveal_delay: Annotated[float, Bounds(0, 10)] = 1.0
    language: Literal[LANGUAGES] = "it"
    debounce_ms: Annotated[int, Bounds(1, 200)] = 20


@dataclass(frozen=True)
class Matrix:
    columns: list  # buttons 1–8 of every row (the host's menu … undo are 1–5)
    host_row: Pin


@dataclass(frozen=True)
class Buzzer:
    pin: Pin
    kind: Literal["active", "passive"] = "active"


HOST_BUTTONS = ("menu", "prev", "next", "ok", "undo")
Host = dataclasses.make_dataclass("Host", [(name, Pin) for name in HOST_BUTTONS], frozen=True)  # direct: a pin each
SECTIONS = {"display": Display, "box": Settings, "host": Host, "matrix": Matrix, "buzzer": Buzzer, "seats": None}


@dataclass(frozen=True, kw_only=True)
class PinMap(Top, Display, Settings):
    """The file's keys and settings, and its pins as the box wires them."""
    seats: tuple  # direct: per seat, its 8 pins in button order; matrix: per seat, its row's pin
    host: dict | int  # direct: host button name -> pin; matrix: the host panel's row
    columns: tuple = ()  # matrix: buttons 1–8 of every row
    buzzer: int | None = None
    buzzer_kind: str = "active"

    @property
    def rows(self):
        """Matrix: the rows' pins, a pad each, the host panel's last."""
        return [*self.seats, self.host]


def said(key, /, **params):
    """A `cli` message, not yet in any language."""
    return Message(SHARED, key, params, context="cli")


class ConfigError(Worded, ValueError):
    """A pin map the box cannot start on: the file and line, then what is wrong, in the reader's language
    (`said`); str() is the English."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.where, self.line = f"{path}:{line}" if line else str(path), line

    def said(self, language):
        return f"{self.where}: {super().said(language)}"


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
    except FileNotFoundError:
        raise ConfigError(path, None, said("pinmap_no_file")) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(path, None, said("pinmap_unreadable", error=str(e))) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:  # its words are English: only where it stopped is said
        line, column = re.search(r"line (\d+), column (\d+)", str(e)).groups()
        raise ConfigError(path, int(line), said("pinmap_not_toml", column=int(column))) from None
    return _Reading(path, _key_lines(text)).pinmap(data)


class _Reading:
    """One pin map read: its sections into their dataclasses, then its pins, each checked as it is taken."""

    def __init__(self, path, lines):
        self.path, self.lines = path, lines
        self.used, self.reserved = {}, {}  # pin -> (what, its line); pin -> the bus that holds it
        self.board = None

    def fail(self, section, key, message, /, **params):
        line = self.lines.get((section, key)) or self.lines.get((section, None))
        raise ConfigError(self.path, line, said(message, **params))

    def section(self, kind, name, table):
        """`table` as a `kind`: every key one of its fields, those without a default there, a Literal's value one
        of its choices, a number within its Bounds; a pin as it is, for `pin`."""
        fields, hints = dataclasses.fields(kind), typing.get_type_hints(kind, include_extras=True)
        names = [f.name for f in fields]
        for key in table:
            if key not in names:
                self.fail(name, key, "pinmap_unknown_key" if name else "pinmap_unknown_top_key", key=repr(key),
                          section=name, expected=", ".join(sorted(names)))
        values = {}
        for f in fields:
            if f.name not in table:
                if f.default is dataclasses.MISSING:
                    self.fail(name, None, "pinmap_missing", key=f.name, section=name)
                continue
            value, hint = table[f.name], hints[f.name]
            if typing.get_origin(hint) is typing.Union:  # an optional one (TOML has no null): as its type
                hint = next(a for a in typing.get_args(hint) if a is not type(None))
            if typing.get_origin(hint) is Literal and value not in typing.get_args(hint):
                self.fail(name, f.name, f.metadata.get("refused", "pinmap_choice"), key=f.name, value=repr(value),
                          options=", ".join(typing.get_args(hint)))
            if typing.get_origin(hint) is Annotated:
                number, bounds = hint.__origin__, hint.__metadata__[0]
                if not isinstance(value, (int, float) if number is float else int) or isinstance(value, bool) \
                        or not bounds.low <= value <= bounds.high:
                    self.fail(name, f.name, "pinmap_number", key=f.name, low=bounds.low, high=bounds.high,
                              value=repr(value))
                value = number(value)
            values[f.name] = value
        return kind(**values)

    def pin(self, section, key, value, what):
        """`value` as the pin of `what` (a Message): a GPIO number the board has, no bus holds, no other pin uses."""
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(section, key, "pinmap_not_a_pin", what=what, value=repr(value))
        if value in (0, 1):
            self.fail(section, key, "pinmap_eeprom", what=what, pin=value)
        if value in self.reserved:
            self.fail(section, key, "pinmap_reserved", what=what, pin=value, holder=self.reserved[value])
        span = BOARDS[self.board]
        if value not in span:
            self.fail(section, key, "pinmap_off_board", what=what, pin=value, name=self.board,
                      board=said(f"pinmap_board_{self.board}"), low=span.start, high=span.stop - 1)
        if value in self.used:
            other, line = self.used[value]
            self.fail(section, key, "pinmap_used_twice", what=what, pin=value, other=other, line=line)
        self.used[value] = (what, self.lines.get((section, key)))
        return value

    def pinmap(self, data):
        tables = {name: value for name, value in data.items() if isinstance(value, dict)}
        for name in tables:
            if name not in SECTIONS:
                self.fail(name, None, "pinmap_unknown_section", section=name)
        top = self.section(Top, "", {key: value for key, value in data.items() if key not in tables})
        display = self.section(Display, "display", tables.get("display", {}))
        settings = self.section(Settings, "box", tables.get("box", {}))
        buzzer = self.section(Buzzer, "buzzer", tables["buzzer"]) if "buzzer" in tables else None
        self.board = top.board
        self.bus(display, tables.get("display", {}))
        wired, unwired, refused = {"direct": ("host", "matrix", "pinmap_matrix_in_direct"),
                                   "matrix": ("matrix", "host", "pinmap_host_in_matrix")}[top.wiring]
        if unwired in tables:
            self.fail(unwired, None, refused)
        if wired not in tables:
            self.fail("", None, "pinmap_section_missing", section=wired, wiring=top.wiring)
        found = self.section(SECTIONS[wired], wired, tables[wired])
        if top.wiring == "direct":
            columns, host = (), {name: self.pin("host", name, pin, said("pinmap_host_button", name=name))
                                 for name, pin in vars(found).items()}
        else:
            columns = self.pad("matrix", "columns", found.columns, "pinmap_columns", "pinmap_column")
            host = self.pin("matrix", "host_row", found.host_row, said("pinmap_host_row"))
        return PinMap(**vars(top), **vars(display), **vars(settings), host=host, columns=columns,
                      seats=self.seats(tables.get("seats"), top.wiring),
                      buzzer=buzzer and self.pin("buzzer", "pin", buzzer.pin, said("pinmap_buzzer")),
                      buzzer_kind=buzzer.kind if buzzer else "active")

    def bus(self, display, table):
        """The display's bus: the pins it holds, and on SPI the display's own two."""
        wrong = {"i2c": ("spi_port", "spi_device", "dc", "reset"), "spi": ("i2c_bus", "i2c_address")}
        for key in wrong[display.interface]:
            if key in table:
                self.fail("display", key, "pinmap_wrong_bus", key=key, interface=display.interface.upper(),
                          bus="SPI" if display.interface == "i2c" else "I2C", name=display.interface)
        if display.interface == "i2c":
            self.reserved = {pin: said("pinmap_i2c_pin", name=name) for pin, name in I2C1.items()}
            return
        bus = SPI_BUSES[display.spi_port]
        selects = sum(name.startswith("CE") for name in bus.values())
        if display.spi_device >= selects:
            self.fail("display", "spi_device", "pinmap_number", key="spi_device", low=0, high=selects - 1,
                      value=repr(display.spi_device))
        self.reserved = {pin: said("pinmap_spi_pin", port=display.spi_port, name=name) for pin, name in bus.items()}
        for key in ("dc", "reset"):
            if key not in table:
                self.fail("display", None, "pinmap_spi_needs", key=key)
            self.pin("display", key, table[key], said("pinmap_display_pin", key=key))

    def pad(self, section, key, value, count, what):
        """`value` as a pad's 8 pins, a seat's buttons or the matrix's columns: `count` words a list of another
        length, `what` its n-th pin."""
        if not isinstance(value, list):
            self.fail(section, key, "pinmap_not_a_list", section=section, key=key, needed=BUTTONS_PER_PAD,
                      value=repr(value))
        if len(value) != BUTTONS_PER_PAD:
            self.fail(section, key, count, seat=key, n=len(value), needed=BUTTONS_PER_PAD)
        return tuple(self.pin(section, key, pin, said(what, seat=key, n=n)) for n, pin in enumerate(value, 1))

    def seats(self, table, wiring):
        """Per seat, its row's pin (a matrix) or its pad's pins in button order (direct wiring)."""
        if not table:
            self.fail("", None, "pinmap_no_seats")
        if len(table) > MAX_SEATS:
            self.fail("seats", None, "pinmap_too_many_rows" if wiring == "matrix" else "pinmap_too_many_seats",
                      n=len(table), most=MAX_SEATS, rows=MAX_SEATS + 1)
        expected = [str(n) for n in range(1, len(table) + 1)]
        if sorted(table, key=lambda k: (len(k), k)) != expected:
            self.fail("seats", None, "pinmap_seat_numbers", n=len(table), keys=", ".join(table))
        if wiring == "direct":
            return tuple(self.pad("seats", key, table[key], "pinmap_buttons", "pinmap_seat_button") for key in expected)
        for key in expected:
            if isinstance(table[key], list):
                self.fail("seats", key, "pinmap_seat_list", seat=key)
        return tuple(self.pin("seats", key, table[key], said("pinmap_seat_row", seat=key)) for key in expected)

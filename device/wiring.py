"""What goes where, from the pin map: a pin table (Markdown, for hardware/wiring.md) and a wiring diagram (SVG):
the Pi's 40-pin header with each pin's wire, and the key matrix with a switch and a diode at each crossing.
Both come from `pin_roles`, so the table, the diagram and the pin map cannot disagree."""

from .config import BUTTONS_PER_PAD, HOST_BUTTONS, I2C1, SPI_BUSES
from .svg import document, text

HEADER = {  # a Pi's 40-pin header: physical pin -> BCM GPIO, or what the pin is
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15, 11: 17, 12: 18, 13: 27,
    14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND", 21: 9, 22: 25, 23: 11, 24: 8, 25: "GND",
    26: 7, 27: 0, 28: 1, 29: 5, 30: "GND", 31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20,
    39: "GND", 40: 21,
}
HEADER_PIN = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}
KINDS = {"row": "#c62828", "column": "#1565c0", "button": "#1565c0", "display": "#2e7d32", "buzzer": "#ef6c00",
         "power": "#555555", "free": "#bbbbbb"}


def pin_roles(pinmap):
    """GPIO -> (kind, what its wire goes to), for every GPIO the pin map uses."""
    roles = {}
    if pinmap.wiring == "matrix":
        for seat, row in enumerate(pinmap.seats):
            roles[row] = ("row", f"player {seat + 1}'s pad: its row (the diodes' bands)")
        roles[pinmap.host] = ("row", "host panel: its row (the diodes' bands)")
        for c, gpio in enumerate(pinmap.columns):
            host = f", host {HOST_BUTTONS[c]}" if c < len(HOST_BUTTONS) else ""
            roles[gpio] = ("column", f"column {c + 1}: button {c + 1} of every pad{host}")
    else:
        for seat, pins in enumerate(pinmap.seats):
            for button, gpio in enumerate(pins, start=1):
                roles[gpio] = ("button", f"player {seat + 1}, button {button} (its other leg to GND)")
        for name, gpio in pinmap.host.items():
            roles[gpio] = ("button", f"host {name} (its other leg to GND)")
    if pinmap.interface == "i2c":
        roles.update({gpio: ("display", f"display {name}") for gpio, name in I2C1.items()})
    else:
        for gpio, name in SPI_BUSES[pinmap.spi_port].items():
            if name in ("SCLK", "MOSI"):
                roles[gpio] = ("display", f"display {'SCK' if name == 'SCLK' else 'SDA (MOSI)'}")
            elif name == f"CE{pinmap.spi_device}":
                roles[gpio] = ("display", "display CS")
        roles[pinmap.dc] = ("display", "display DC")
        roles[pinmap.reset] = ("display", "display RES")
    if pinmap.buzzer is not None:
        roles[pinmap.buzzer] = ("buzzer", f"buzzer + ({pinmap.buzzer_kind}; its - to GND)")
    return roles


def power_roles(pinmap):
    """Header pin -> what its power wire feeds."""
    return {1: "display VCC (3.3 V)", 6: "display GND" + (", buzzer -" if pinmap.buzzer is not None else ""),
            **({9: "every button's other leg"} if pinmap.wiring == "direct" else {})}


def markdown_table(pinmap):
    """The pin table of hardware/wiring.md: by header pin on a Pi, by GPIO on a Compute Module."""
    roles = pin_roles(pinmap)
    if pinmap.board != "pi":
        lines = ["| GPIO | Wire to |", "|---:|---|"]
        lines += [f"| {gpio} | {what} |" for gpio, (_, what) in sorted(roles.items())]
        return "\n".join(lines) + "\n"
    lines = ["| Header pin | GPIO | Wire to |", "|---:|---:|---|"]
    power = power_roles(pinmap)
    for pin, gpio in HEADER.items():
        if isinstance(gpio, int) and gpio in roles:
            lines.append(f"| {pin} | {gpio} | {roles[gpio][1]} |")
        elif pin in power:
            lines.append(f"| {pin} | {gpio} | {power[pin]} |")
    return "\n".join(lines) + "\n"


def svg(pinmap, title):
    """The wiring diagram: the header (or, on a Compute Module, the GPIO list) on the left; on the right the key
    matrix (rows, columns, a switch and a diode at each crossing) or, wired direct, how a button is wired."""
    parts = [text(20, 30, 18, f"Arbitro wiring: {title}", bold=True)]
    parts += _header(pinmap) if pinmap.board == "pi" else _gpio_list(pinmap)
    parts += _matrix(pinmap) if pinmap.wiring == "matrix" else _direct_note()
    parts += _legend(pinmap)
    width, height = 1180, 800
    return document(width, height, [f'<rect width="{width}" height="{height}" fill="white"/>', *parts])


def _short(what):
    """A header label: the role, without the wiring notes the table gives."""
    return what.split(" (")[0].replace(": its row", " row").replace(" of every pad", "")


def _header(pinmap):
    roles, power = pin_roles(pinmap), power_roles(pinmap)
    parts = [text(20, 60, 13, "The Pi's 40-pin header, seen from above (pin 1 at the top left, by the SD card "
                   "end)")]
    left, top, step = 300, 90, 30
    parts.append(f'<rect x="{left - 16}" y="{top - 16}" width="62" height="{20 * step + 2}" rx="6" '
                 f'fill="#222"/>')
    for pin, gpio in HEADER.items():
        column, row = (pin - 1) % 2, (pin - 1) // 2
        x, y = left + column * 30, top + row * step
        if isinstance(gpio, int) and gpio in roles:
            kind, what = roles[gpio]
            label = f"GPIO {gpio} · {_short(what)}"
        elif pin in power:
            kind, label = "power", f"{gpio} · {power[pin]}"
        else:
            kind, label = "free", (gpio if isinstance(gpio, str) else
                                   f"GPIO {gpio} · {'HAT ID: leave free' if gpio in (0, 1) else 'free'}")
        parts.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{KINDS[kind]}" stroke="white" stroke-width="1.5"/>')
        parts.append(text(x, y + 4, 9, str(pin), anchor="middle", fill="white", bold=True))
        if column == 0:
            parts.append(text(x - 24, y + 4, 11, label, anchor="end", fill="black" if kind != "free" else "#888"))
        else:
            parts.append(text(x + 24, y + 4, 11, label, fill="black" if kind != "free" else "#888"))
    return parts


def _gpio_list(pinmap):
    parts = [text(20, 60, 13, "A Compute Module: wire each GPIO (BCM number) as listed; the display's VCC to "
                   "3.3 V, its GND to GND")]
    for i, (gpio, (kind, what)) in enumerate(sorted(pin_roles(pinmap).items())):
        x, y = 20 + (i // 26) * 290, 86 + (i % 26) * 24
        parts.append(f'<circle cx="{x + 8}" cy="{y - 4}" r="6" fill="{KINDS[kind]}"/>')
        parts.append(text(x + 20, y, 11, f"GPIO {gpio} · {_short(what)}"))
    return parts


def _matrix(pinmap):
    """Rows across, columns down; at each crossing the column branches through a switch, then a diode whose
    band faces the row (current flows from the pulled-up column into the row driven low)."""
    rows = [(f"player {s + 1}", gpio) for s, gpio in enumerate(pinmap.seats)] + [("host panel", pinmap.host)]
    left, top, dx, dy = 720, 200, 56, 40
    parts = [text(left - 100, 60, 13, "The key matrix: a pad is a row, a button a column."),
             text(left - 100, 78, 13, "Every switch has its diode (1N4148), the band towards the row:"),
             text(left - 100, 96, 13, "without diodes, three keys held make a fourth look pressed (a ghost).")]
    right = left + (BUTTONS_PER_PAD - 1) * dx + 30
    for c, gpio in enumerate(pinmap.columns):
        x = left + c * dx
        host = HOST_BUTTONS[c] if c < len(HOST_BUTTONS) else ""
        parts.append(f'<line x1="{x}" y1="{top - 36}" x2="{x}" y2="{top + len(rows) * dy - 30}" '
                     f'stroke="{KINDS["column"]}" stroke-width="2"/>')
        parts += [text(x, top - 66, 11, f"button {c + 1}", anchor="middle", fill=KINDS["column"], bold=True),
                  text(x, top - 54, 10, f"GPIO {gpio}", anchor="middle", fill=KINDS["column"]),
                  text(x, top - 42, 9, host, anchor="middle", fill="#555")]
    for r, (name, gpio) in enumerate(rows):
        y = top + r * dy
        parts.append(f'<line x1="{left - 20}" y1="{y}" x2="{right}" y2="{y}" stroke="{KINDS["row"]}" '
                     f'stroke-width="2"/>')
        parts.append(text(left - 26, y - 2, 11, name, anchor="end", fill=KINDS["row"], bold=True))
        parts.append(text(left - 26, y + 10, 10, f"GPIO {gpio}", anchor="end", fill=KINDS["row"]))
        for c in range(BUTTONS_PER_PAD):
            if r == len(rows) - 1 and c >= len(HOST_BUTTONS):
                continue  # the host panel has five buttons
            parts.append(_crossing(left + c * dx, y))
    return parts


def _crossing(x, y):
    """A branch from the column (a dot), a switch, then a diode pointing down into the row."""
    s = x + 16
    return (f'<g stroke="black" stroke-width="1.2" fill="none">'
            f'<circle cx="{x}" cy="{y - 30}" r="2.5" fill="black"/>'
            f'<path d="M{x} {y - 30} H{s} V{y - 26}"/>'  # to the switch
            f'<circle cx="{s}" cy="{y - 24}" r="1.6"/><circle cx="{s}" cy="{y - 16}" r="1.6"/>'
            f'<path d="M{s - 1} {y - 23} L{s + 5} {y - 17}"/>'  # the switch's lever, open
            f'<path d="M{s} {y - 14} V{y - 12}"/>'
            f'<path d="M{s - 4} {y - 12} H{s + 4} L{s} {y - 5} Z" fill="black"/>'  # the diode, pointing down
            f'<path d="M{s - 4} {y - 5} H{s + 4}" stroke-width="2"/>'  # its band
            f'<path d="M{s} {y - 5} V{y}"/><circle cx="{s}" cy="{y}" r="2.5" fill="black"/></g>')


def _direct_note():
    return [text(620, 100, 14, "Wired direct: each button has a pin of its own.", bold=True),
            text(620, 124, 13, "One leg of the button to its GPIO, the other to any GND pin."),
            text(620, 144, 13, "The box turns on the pin's pull-up: a press reads low. No diodes needed.")]


def _legend(pinmap):
    y = 740
    parts = []
    words = [("row", "a pad's row"), ("column", "a button's column"), ("display", "display"),
             ("buzzer", "buzzer"), ("power", "power"), ("free", "free")]
    if pinmap.wiring == "direct":
        words[:2] = [("button", "a button")]
    for i, (kind, what) in enumerate(words):
        x = 20 + i * 150
        parts += [f'<circle cx="{x + 8}" cy="{y - 4}" r="7" fill="{KINDS[kind]}"/>', text(x + 22, y, 12, what)]
    parts.append(text(20, y + 30, 12, "Made by `arbitro wiring` from the pin map: the pin table in "
                       "hardware/wiring.md comes from the same map."))
    return parts

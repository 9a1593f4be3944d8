"""`arbitro doctor`: the first command a builder runs. It checks the pin map, names gpiozero's back-end, finds
the display on its bus and puts a test screen on it, sounds the buzzer, looks for stuck keys and shorted
columns, then names each press live (warning of keys that could be ghosts) until its time is up. Every
problem is one line that says what to check; the exit status counts them."""
import importlib.util
import threading
import time
import warnings
from pathlib import Path

from gpiozero.exc import GPIOZeroError

from .config import BOARD_NAMES
from .display import Panel, device_opener, render
from .pads import make_pads, wires
from .screens import Screen
from .sounds import Sounds

BACKENDS = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO", "pigpio": "pigpio"}  # gpiozero's name -> its module
FACTORIES = {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "rpigpio", "PiGPIOFactory": "pigpio",
             "NativeFactory": "native", "MockFactory": "mock"}
I2C_ADDRESSES = range(0x08, 0x78)  # what i2cdetect scans: the rest are reserved
TEST_SCREEN = Screen("Arbitro doctor", ("Press each key:", "the terminal", "names it."))


def key_name(key):
    """How a person names a key: players from 1."""
    kind, *where = key
    return f"player {where[0] + 1}, button {where[1]}" if kind == "seat" else f"host panel, {where[0]}"


def wired_at(pinmap, key):
    """Where a key's wires go, for a builder with a multimeter."""
    pins = wires(pinmap)[key]
    return f"row GPIO {pins[0]}, column GPIO {pins[1]}" if len(pins) == 2 else f"GPIO {pins[0]}"


class Doctor:
    """Each check prints what it found through `say`; `problems` counts what needs fixing. `devices` is where
    the buses' device files are (/dev), `smbus` how an I2C bus is opened (smbus2's SMBus)."""

    def __init__(self, pinmap, say=print, *, pin_factory=None, mock=False, devices=Path("/dev"), smbus=None):
        self.pinmap, self.say, self.mock = pinmap, say, mock
        self.pin_factory = pin_factory
        self.devices, self.smbus = devices, smbus
        self.problems = 0
        self.pads = None
        self.pressed = set()
        self.watching = False
        self.ghosts_told = set()
        self.sounds = None
        self._lock = threading.Lock()  # presses arrive on the scanner's thread

    def problem(self, line):
        self.problems += 1
        self.say("PROBLEM: " + line)

    def describe(self, source):
        p = self.pinmap
        pads = f"{len(p.seats)} pads"
        wiring = (f"key matrix: {pads} and the host panel on {len(p.seats) + 1} rows, {len(p.columns)} columns"
                  if p.wiring == "matrix" else f"direct wiring: {pads} and the host panel, a pin per button")
        bus = (f"I2C bus {p.i2c_bus} at 0x{p.i2c_address:02X}" if p.interface == "i2c"
               else f"SPI{p.spi_port} CE{p.spi_device}, DC GPIO {p.dc}, reset GPIO {p.reset}")
        buzzer = f"buzzer on GPIO {p.buzzer} ({p.buzzer_kind})" if p.buzzer is not None else "no buzzer"
        self.say(f"pin map {source}: OK: {BOARD_NAMES[p.board]}, {wiring}; {p.driver.upper()} on {bus}; {buzzer}")

    def backend(self):
        """Which of gpiozero's back-ends are installed and which one is in use; False if none works here."""
        from gpiozero import Device
        installed = [name for name, module in BACKENDS.items() if _installed(module)]
        self.say("GPIO back-ends installed: " + (", ".join(installed) or "none"))
        if self.pin_factory is None:
            with warnings.catch_warnings(record=True) as fallbacks:
                warnings.simplefilter("always")
                try:
                    Device.ensure_pin_factory()
                except Exception as e:  # gpiozero's BadPinFactory, or the chosen back-end failing to load
                    self.problem(f"no GPIO back-end works here ({e}); on a Pi, install the pi extra "
                                 "(hardware/install.sh); on a computer, run `arbitro doctor --mock`")
                    return False
            for fallback in fallbacks:
                self.say(f"  ({fallback.message})")
            self.pin_factory = Device.pin_factory
        name = type(self.pin_factory).__name__
        self.say(f"GPIO back-end in use: {FACTORIES.get(name, name)}"
                 + (" (mock pins: nothing is wired)" if name == "MockFactory" else ""))
        return True

    def display(self):
        """Find the display on its bus, then open it and show the test screen."""
        p = self.pinmap
        if self.mock:
            self.say("display: mock mode, the emulated display (no bus to look on)")
            return
        if p.interface == "i2c" and not self._i2c_answers():
            return
        if p.interface == "spi" and not (self.devices / f"spidev{p.spi_port}.{p.spi_device}").exists():
            self.problem(f"SPI is off (no {self.devices}/spidev{p.spi_port}.{p.spi_device}): turn it on with "
                         "`sudo raspi-config nonint do_spi 0` and reboot")
            return
        try:
            Panel(device_opener(p, False, self.pin_factory)()).send(render(TEST_SCREEN))
        except Exception as e:  # whatever the driver or bus raises: the builder needs to read it
            self.problem(f"the {p.driver.upper()} did not take a frame ({type(e).__name__}: {e})")
            return
        self.say(f"display: the {p.driver.upper()} took a test screen; it should read {TEST_SCREEN.title!r}")

    def _i2c_answers(self):
        p = self.pinmap
        path = self.devices / f"i2c-{p.i2c_bus}"
        if not path.exists():
            self.problem(f"I2C bus {p.i2c_bus} is off (no {path}): turn it on with `sudo raspi-config nonint "
                         "do_i2c 0` and reboot")
            return False
        if self.smbus is None:
            from smbus2 import SMBus
            self.smbus = SMBus
        try:
            bus = self.smbus(p.i2c_bus)
        except OSError as e:
            self.problem(f"cannot open {path} ({e.strerror or e}): is this user in the i2c group?")
            return False
        found = []
        try:
            for address in I2C_ADDRESSES:
                try:
                    bus.read_byte(address)
                    found.append(address)
                except OSError:
                    pass  # nothing answers there
        finally:
            bus.close()
        listed = ", ".join(f"0x{a:02X}" for a in found)
        if p.i2c_address in found:
            self.say(f"display: something answers at 0x{p.i2c_address:02X} on I2C bus {p.i2c_bus}"
                     + (f" (the bus has: {listed})" if len(found) > 1 else ""))
            return True
        if found:
            self.problem(f"nothing answers at 0x{p.i2c_address:02X} on I2C bus {p.i2c_bus}, but {listed} does: "
                         "if that is the display, set i2c_address in the pin map's [display]")
        else:
            self.problem(f"nothing answers on I2C bus {p.i2c_bus}: check the display's VCC and GND, SDA on "
                         "GPIO 2 and SCL on GPIO 3")
        return False

    def buzzer(self, sleep=time.sleep):
        if self.pinmap.buzzer is None:
            return
        self.sounds = self._claim("the buzzer's pin", lambda: Sounds(
            self.pinmap.buzzer, self.pinmap.buzzer_kind, pin_factory=self.pin_factory, sleep=sleep))
        if self.sounds:
            self.sounds.play("reveal")
            self.say(f"buzzer: a chord now, and a tick at each press (GPIO {self.pinmap.buzzer})")

    def open_pads(self):
        self.pads = self._claim("the pads' pins", lambda: make_pads(
            self.pinmap, lambda seat, button: self._pressed(("seat", seat, button)),
            lambda name: self._pressed(("host", name)), pin_factory=self.pin_factory))
        return self.pads is not None

    def _claim(self, what, open_devices):
        """The devices `open_devices` makes, or None (a problem) if their pins are not to be had."""
        try:
            return open_devices()
        except (GPIOZeroError, OSError) as e:
            self.problem(f"cannot use {what} ({type(e).__name__}: {e}): if the box is running, stop it first "
                         "(`sudo systemctl stop arbitro`)")
            return None

    def at_start(self):
        """Keys that read closed before anyone presses, and matrix columns that read low with no row driven."""
        before = self.problems
        scanner = getattr(self.pads, "scanner", None)
        shorted = []
        if scanner is not None:
            for _ in range(scanner.stable_scans):  # let the debounce settle on what is closed now
                scanner.scan()
            shorted = scanner.idle_columns()
            for column in shorted:
                self.problem(f"column {column + 1} (GPIO {self.pinmap.columns[column]}) reads low with no row "
                             "driven: it is shorted to ground")
        for key in self.pads.held():
            if shorted and self.pads.places[key][1] in shorted:
                continue  # every key of a shorted column reads pressed: the column is the one problem
            self.problem(f"{key_name(key)} reads pressed before anyone presses it ({wired_at(self.pinmap, key)}): "
                         "a stuck switch or a short, or a finger on it")
        if self.problems == before:
            self.say("pads: no key reads pressed at start" + (", no column shorted" if scanner else ""))
        self.watching = True
        self.pads.start()  # from now on the pads read on their own, each press named as it comes

    def _pressed(self, key):
        if not self.watching:
            return None
        with self._lock:
            self.pressed.add(key)
            self.say(f"{key_name(key)}  ({wired_at(self.pinmap, key)})")
            if self.sounds:
                self.sounds.play("tick")
            self._tell_ghosts()
        return None

    def _tell_ghosts(self):
        scanner = getattr(self.pads, "scanner", None)
        ghosts = frozenset(scanner.ghosts()) if scanner else frozenset()
        if not ghosts or ghosts in self.ghosts_told:
            return
        self.ghosts_told.add(ghosts)
        names = "; ".join(key_name(self.pads.keys[r][c]) for r, c in sorted(ghosts) if self.pads.keys[r][c])
        self.say(f"WARNING: keys at the corners of a rectangle read pressed together ({names}). If all of them "
                 "are held, fine; if one is not, its ghost shows a diode missing or in backwards")

    def watch(self, seconds, sleep=time.sleep):
        if seconds <= 0:
            return
        self.say(f"press each key: each press is named here for {seconds:g} s (Ctrl-C ends sooner)")
        try:
            sleep(seconds)
        except KeyboardInterrupt:
            pass
        keys = list(wires(self.pinmap))
        missing = [k for k in keys if k not in self.pressed]
        self.say(f"{len(keys) - len(missing)} of {len(keys)} keys pressed")
        if self.pressed and missing:
            self.say("not pressed: " + _by_pad(missing))

    def close(self):
        for part in (self.pads, self.sounds):
            if part is not None:
                part.close()


def _installed(module):
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a package whose parent is missing
        return False


def _by_pad(keys):
    """Keys grouped by pad: "player 1 (buttons 3 4), host panel (undo)"."""
    pads = {}
    for kind, *where in keys:
        pad = f"player {where[0] + 1}" if kind == "seat" else "host panel"
        pads.setdefault(pad, []).append(str(where[-1]))
    return ", ".join(f"{pad} ({'buttons ' if pad != 'host panel' else ''}{' '.join(names)})"
                     for pad, names in pads.items())


def run(pinmap, source, *, seconds, mock, say=print, sleep=time.sleep, **options):
    """The whole check, in the order a builder fixes things; returns how many problems it found."""
    doctor = Doctor(pinmap, say, mock=mock, **options)
    doctor.describe(source)
    try:
        if doctor.backend():
            doctor.display()
            doctor.buzzer()
            if doctor.open_pads():
                doctor.at_start()
                doctor.watch(seconds, sleep)
    finally:
        doctor.close()
    say("no problems found" if not doctor.problems else f"{doctor.problems} problem(s): see PROBLEM above")
    return doctor.problems

"""`arbitro doctor`: the first command a builder runs. It checks the pin map, names gpiozero's back-end, finds
the display on its bus and puts a test screen on it, sounds the buzzer, looks for stuck keys and shorted
columns, then names each press live (warning of keys that could be ghosts) until its time is up. Every
problem is one line that says what to check; the exit status counts them. It speaks the terminal's language
(the `cli` messages of the catalogs)."""
import importlib.util
import threading
import time
import warnings
from pathlib import Path

from gpiozero.exc import GPIOZeroError

from engine.timers import Scheduler
from engine.version import about

from .display import Panel, device_opener, render
from .pads import make_pads, wires
from .pins import real_pins
from .screens import Screen
from .sounds import Sounds
from .texts import said

BACKENDS = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO", "pigpio": "pigpio"}  # gpiozero's name -> its module
FACTORIES = {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "rpigpio", "PiGPIOFactory": "pigpio",
             "NativeFactory": "native"}
I2C_ADDRESSES = range(0x08, 0x78)  # what i2cdetect scans: the rest are reserved


def doctor_screen():
    """What the display shows while the doctor runs."""
    return Screen("Arbitro doctor", tuple(said("doctor_screen").split("\n")))


def key_name(key):
    """How a person names a key: players from 1."""
    kind, *where = key
    if kind == "seat":
        return said("doctor_seat_key", player=where[0] + 1, button=where[1])
    return said("doctor_host_key", button=where[0])


def wired_at(pinmap, key):
    """Where a key's wires go, for a builder with a multimeter."""
    pins = wires(pinmap)[key]
    return said("doctor_wired_matrix", row=pins[0], column=pins[1]) if len(pins) == 2 else f"GPIO {pins[0]}"


class Doctor:
    """Each check prints what it found through `say`; `problems` counts what needs fixing. `devices` is where
    the buses' device files are (/dev), `smbus` how an I2C bus is opened (smbus2's SMBus). The composition root
    may hand in the pins it made (`pin_factory`, else the doctor finds the back-end the pin map names), with the
    message id of the line that names them (`pins_line`, else the back-end is named), and the message id said
    in place of looking for the display (`no_display`, when there is no bus to look on): mock mode's are
    device/mock/doctor.py's."""

    def __init__(self, pinmap, say=print, *, pin_factory=None, pins_line=None, no_display=None,
                 devices=Path("/dev"), smbus=None):
        self.pinmap, self.say = pinmap, say
        self.pin_factory, self.pins_line, self.no_display = pin_factory, pins_line, no_display
        self.scheduler = Scheduler()  # a direct key's debounce looks again later
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
        self.say(said("problem", line=line))

    def describe(self, source):
        self.say(said("doctor_version", **about()))
        p = self.pinmap
        wiring = (said("doctor_matrix", n=len(p.seats), rows=len(p.seats) + 1, columns=len(p.columns))
                  if p.wiring == "matrix" else said("doctor_direct", n=len(p.seats)))
        bus = (said("doctor_i2c_bus", bus=p.i2c_bus, address=f"0x{p.i2c_address:02X}") if p.interface == "i2c"
               else f"SPI{p.spi_port} CE{p.spi_device}, DC GPIO {p.dc}, reset GPIO {p.reset}")
        buzzer = (said("doctor_buzzer_on", pin=p.buzzer, kind=p.buzzer_kind) if p.buzzer is not None
                  else said("doctor_no_buzzer"))
        self.say(said("doctor_pinmap", source=source, board=said(f"pinmap_board_{p.board}"), wiring=wiring,
                      driver=p.driver.upper(), bus=bus, buzzer=buzzer))

    def backend(self):
        """Which of gpiozero's back-ends are installed and which one is in use; False if none works here."""
        installed = [name for name, module in BACKENDS.items() if _installed(module)]
        self.say(said("doctor_backends", names=", ".join(installed) or said("none")))
        if self.pin_factory is None:
            with warnings.catch_warnings(record=True) as fallbacks:
                warnings.simplefilter("always")
                try:
                    self.pin_factory = real_pins(self.pinmap)
                except Exception as e:  # gpiozero's BadPinFactory, or the chosen back-end failing to load
                    self.problem(said("doctor_no_backend", error=e))
                    return False
            for fallback in fallbacks:
                self.say(f"  ({fallback.message})")
        if self.pins_line:
            self.say(said(self.pins_line))
        else:
            name = type(self.pin_factory).__name__
            self.say(said("doctor_backend", name=FACTORIES.get(name, name)))
        return True

    def display(self):
        """Find the display on its bus, then open it and show the test screen."""
        p = self.pinmap
        if self.no_display:
            self.say(said(self.no_display))
            return
        if p.interface == "i2c" and not self._i2c_answers():
            return
        if p.interface == "spi" and not (self.devices / f"spidev{p.spi_port}.{p.spi_device}").exists():
            self.problem(said("doctor_spi_off", path=self.devices / f"spidev{p.spi_port}.{p.spi_device}"))
            return
        try:
            Panel(device_opener(p, self.pin_factory)()).send(render(doctor_screen()))
        except Exception as e:  # whatever the driver or bus raises: the builder needs to read it
            self.problem(said("doctor_no_frame", driver=p.driver.upper(), error=f"{type(e).__name__}: {e}"))
            return
        self.say(said("doctor_frame", driver=p.driver.upper(), title=doctor_screen().title))

    def _i2c_answers(self):
        p = self.pinmap
        path = self.devices / f"i2c-{p.i2c_bus}"
        if not path.exists():
            self.problem(said("doctor_i2c_off", bus=p.i2c_bus, path=path))
            return False
        if self.smbus is None:
            from smbus2 import SMBus
            self.smbus = SMBus
        try:
            bus = self.smbus(p.i2c_bus)
        except OSError as e:
            self.problem(said("doctor_i2c_cannot_open", path=path, error=e.strerror or e))
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
        listed, address = ", ".join(f"0x{a:02X}" for a in found), f"0x{p.i2c_address:02X}"
        if p.i2c_address in found:
            self.say(said("doctor_i2c_found_among", address=address, bus=p.i2c_bus, found=listed) if len(found) > 1
                     else said("doctor_i2c_found", address=address, bus=p.i2c_bus))
            return True
        if found:
            self.problem(said("doctor_i2c_elsewhere", address=address, bus=p.i2c_bus, found=listed))
        else:
            self.problem(said("doctor_i2c_silent", bus=p.i2c_bus))
        return False

    def buzzer(self, sleep=time.sleep):
        if self.pinmap.buzzer is None:
            return
        self.sounds = self._claim(said("doctor_buzzer_pin"), lambda: Sounds(
            self.pinmap.buzzer, self.pinmap.buzzer_kind, pin_factory=self.pin_factory, sleep=sleep))
        if self.sounds:
            self.sounds.play("reveal")
            self.say(said("doctor_buzzer", pin=self.pinmap.buzzer))

    def open_pads(self):
        self.pads = self._claim(said("doctor_pads_pins"), lambda: make_pads(
            self.pinmap, lambda seat, button: self._pressed(("seat", seat, button)),
            lambda name: self._pressed(("host", name)), schedule=self.scheduler, pin_factory=self.pin_factory))
        return self.pads is not None

    def _claim(self, what, open_devices):
        """The devices `open_devices` makes, or None (a problem) if their pins are not to be had."""
        try:
            return open_devices()
        except (GPIOZeroError, OSError) as e:
            self.problem(said("doctor_pins_taken", what=what, error=f"{type(e).__name__}: {e}"))
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
                self.problem(said("doctor_column_shorted", column=column + 1, pin=self.pinmap.columns[column]))
        for key in self.pads.held():
            if shorted and self.pads.places[key][1] in shorted:
                continue  # every key of a shorted column reads pressed: the column is the one problem
            self.problem(said("doctor_key_stuck", key=key_name(key), wires=wired_at(self.pinmap, key)))
        if self.problems == before:
            self.say(said("doctor_pads_clear_matrix" if scanner else "doctor_pads_clear"))
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
        names = "; ".join(key_name(self.pads.names[key]) for key in sorted(ghosts) if key in self.pads.names)
        self.say(said("doctor_ghosts", keys=names))

    def watch(self, seconds, sleep=time.sleep):
        if seconds <= 0:
            return
        self.say(said("doctor_watch", seconds=seconds))
        try:
            sleep(seconds)
        except KeyboardInterrupt:
            pass
        keys = list(wires(self.pinmap))
        missing = [k for k in keys if k not in self.pressed]
        self.say(said("doctor_pressed", n=len(keys) - len(missing), keys=len(keys)))
        if self.pressed and missing:
            self.say(said("doctor_not_pressed", keys=_by_pad(missing)))

    def close(self):
        for part in (self.pads, self.sounds):
            if part is not None:
                part.close()
        self.scheduler.close()


def _installed(module):
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a package whose parent is missing
        return False


def _by_pad(keys):
    """Keys grouped by pad: "player 1 (buttons 3 4), host panel (undo)"."""
    pads = {}
    for kind, *where in keys:
        pads.setdefault(where[0] if kind == "seat" else None, []).append(str(where[-1]))
    return ", ".join(said("doctor_host_buttons", buttons=" ".join(names)) if seat is None
                     else said("doctor_seat_buttons", player=seat + 1, buttons=" ".join(names))
                     for seat, names in pads.items())


def run(pinmap, source, *, seconds, say=print, sleep=time.sleep, **options):
    """The whole check, in the order a builder fixes things (`options`: the Doctor's); returns how many problems
    it found."""
    doctor = Doctor(pinmap, say, **options)
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
    say(said("doctor_problems", n=doctor.problems) if doctor.problems else said("doctor_no_problems"))
    return doctor.problems

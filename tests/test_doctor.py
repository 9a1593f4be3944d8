"""`arbitro doctor` on mock pins: the pin map, the back-end, the display on its bus, stuck keys and shorted
columns, each press named live with its wires, and the ghost-key warning on a matrix without diodes."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.config import load_pinmap
from device.display import render
from device.doctor import Doctor, run, doctor_screen
from device.mock import Finger, simulated_matrix
from device.mock.doctor import doctor_options
from engine.journal import FORMAT
from engine.version import version
from tests.conftest import DIRECT_PINMAP
from tests.test_display import Wire, panel_ram

ROOT = Path(__file__).parent.parent


@pytest.fixture
def doctor(pin_factory):
    """make(pinmap=None, mock=True, **options) -> a Doctor on mock pins whose lines are in its `lines`: handed
    them as `arbitro doctor --mock` is (mock), or as pins it was handed otherwise (its display looked for)."""
    made = []

    def make(pinmap=None, mock=True, **options):
        lines, loaded = [], load_pinmap(*[pinmap] if pinmap else [])
        # as `arbitro doctor --mock` makes them: the matrix simulated on the mock pins, which the tests' finger
        # presses (device/mock/finger.py)
        simulated = simulated_matrix(pin_factory, loaded) if mock else None
        handed = doctor_options(pin_factory) if mock else {"pin_factory": pin_factory}
        made_doctor = Doctor(loaded, lines.append, **handed, **options)
        made_doctor.lines, made_doctor.simulated = lines, simulated
        made_doctor.finger = lambda: Finger(made_doctor.pads, simulated)
        made.append(made_doctor)
        return made_doctor

    yield make
    for made_doctor in made:
        made_doctor.close()


def problems(lines):
    return [line for line in lines if line.startswith("PROBLEM: ")]


def test_a_healthy_mock_box_has_no_problems(pin_factory):
    lines = []
    found = run(load_pinmap(), "hardware/pinmap.toml", seconds=0, say=lines.append, **doctor_options(pin_factory))
    assert found == 0 and problems(lines) == []
    assert lines[0] == f"Arbitro {version()}, journal format {FORMAT}"  # what software it is, first
    assert lines[1].startswith("pin map hardware/pinmap.toml: OK: a Pi's 40-pin header, key matrix: 12 pads "
                               "and the host panel on 13 rows, 8 columns; SSD1306 on I2C bus 1 at 0x3C; buzzer "
                               "on GPIO 27 (active)")
    assert "GPIO back-end in use: mock (mock pins: nothing is wired)" in lines
    assert "pads: no key reads pressed at start, no column shorted" in lines
    assert lines[-1] == "no problems found"


def test_each_press_is_named_with_its_wires_and_the_keys_not_pressed_are_listed(doctor):
    checking = doctor()
    checking.open_pads()
    checking.at_start()
    finger = checking.finger()

    def presses(seconds):  # the builder presses while the doctor waits
        for key in [("seat", 0, 1), ("seat", 11, 8), ("host", "ok"), ("seat", 0, 1)]:
            finger.tap(key, True)
            finger.tap(key, False)

    checking.watch(60, sleep=presses)
    assert checking.lines[1:5] == [
        "press each key: each press is named here for 60 s (Ctrl-C ends sooner)",
        "player 1, button 1  (row GPIO 5, column GPIO 19)",
        "player 12, button 8  (row GPIO 18, column GPIO 26)",
        "host panel, ok  (row GPIO 4, column GPIO 22)"]
    assert checking.lines[6] == "3 of 101 keys pressed"
    assert checking.lines[7].startswith("not pressed: player 1 (buttons 2 3 4 5 6 7 8), player 2 (buttons 1 2 ")
    assert checking.lines[7].endswith("player 12 (buttons 1 2 3 4 5 6 7), host panel (menu prev next undo)")


def test_a_key_held_at_start_is_a_stuck_key(doctor):
    checking = doctor()
    checking.open_pads()
    checking.simulated.close(2, 4)  # player 3's button 5
    checking.at_start()
    assert problems(checking.lines) == [
        "PROBLEM: player 3, button 5 reads pressed before anyone presses it (row GPIO 7, column GPIO 23): a stuck "
        "switch or a short, or a finger on it"]
    checking.watch(0)
    assert checking.lines == problems(checking.lines)  # a stuck key is not named again as a press


def test_a_column_shorted_to_ground_is_one_problem_not_thirteen_stuck_keys(doctor):
    checking = doctor()
    checking.open_pads()
    checking.simulated.columns[2].drive_low()
    checking.at_start()
    assert problems(checking.lines) == ["PROBLEM: column 3 (GPIO 21) reads low with no row driven: it is shorted "
                                        "to ground"]


def test_a_rectangle_of_keys_warns_of_ghosts_where_a_diode_is_missing(doctor):
    checking = doctor()
    checking.open_pads()
    checking.at_start()
    simulated, scanner = checking.simulated, checking.pads.scanner
    simulated.diodes = False  # a matrix built without diodes
    for place in [(0, 0), (0, 1), (1, 0)]:  # three keys held: the fourth corner, (1, 1), is a ghost
        simulated.close(*place)
    for _ in range(scanner.stable_scans):
        scanner.scan()
    assert checking.pads.held() == [("seat", 0, 1), ("seat", 0, 2), ("seat", 1, 1), ("seat", 1, 2)]
    warnings = [line for line in checking.lines if line.startswith("WARNING: ")]
    assert warnings == ["WARNING: keys at the corners of a rectangle read pressed together (player 1, button 1; "
                        "player 1, button 2; player 2, button 1; player 2, button 2). If all of them are held, "
                        "fine; if one is not, its ghost shows a diode missing or in backwards"]
    scanner.scan()
    assert len([line for line in checking.lines if line.startswith("WARNING: ")]) == 1  # said once


def test_on_direct_wiring_a_stuck_key_is_named_by_its_pin(doctor, pin_factory):
    checking = doctor(DIRECT_PINMAP)
    checking.open_pads()
    pin_factory.pin(checking.pinmap.seats[1][2]).drive_low()
    checking.at_start()
    assert problems(checking.lines) == [
        f"PROBLEM: player 2, button 3 reads pressed before anyone presses it (GPIO {checking.pinmap.seats[1][2]}): "
        "a stuck switch or a short, or a finger on it"]
    assert checking.lines == problems(checking.lines)


def test_each_press_ticks_the_buzzer(doctor):
    checking = doctor()
    checking.buzzer(sleep=lambda seconds: None)
    played = []
    checking.sounds.play = played.append
    checking.open_pads()
    checking.at_start()
    checking.finger().tap(("seat", 4, 2), True)
    assert played == ["tick"] and "buzzer: a chord now, and a tick at each press (GPIO 27)" in checking.lines


class Bus:
    """smbus2's SMBus as the doctor uses it: a device answers at each of `answering`."""

    def __init__(self, answering):
        self.answering = answering

    def __call__(self, number):
        if self.answering is PermissionError:
            raise PermissionError(13, "Permission denied")
        return self

    def read_byte(self, address):
        if address not in self.answering:
            raise OSError(121, "Remote I/O error")
        return 0

    def close(self):
        pass


@pytest.mark.parametrize("answering, expected", [
    ({0x3C}, "display: something answers at 0x3C on I2C bus 1"),
    ({0x3C, 0x68}, "display: something answers at 0x3C on I2C bus 1 (the bus has: 0x3C, 0x68)"),
    ({0x3D}, "PROBLEM: nothing answers at 0x3C on I2C bus 1, but 0x3D does: if that is the display, set "
             "i2c_address in the pin map's [display]"),
    (set(), "PROBLEM: nothing answers on I2C bus 1: check the display's VCC and GND, SDA on GPIO 2 and SCL on "
            "GPIO 3"),
    (PermissionError, "PROBLEM: cannot open {dev}/i2c-1 (Permission denied): is this user in the i2c group?"),
    (None, "PROBLEM: I2C bus 1 is off (no {dev}/i2c-1): turn it on with `sudo raspi-config nonint do_i2c 0` and "
           "reboot"),
])
def test_the_display_is_looked_for_on_its_i2c_bus(doctor, tmp_path, monkeypatch, answering, expected):
    import luma.core.interface.serial as serial
    wire = Wire()
    monkeypatch.setattr(serial, "i2c", lambda port, address: wire)
    if answering is not None:
        (tmp_path / "i2c-1").touch()
    checking = doctor(mock=False, devices=tmp_path, smbus=Bus(answering))
    checking.display()
    assert checking.lines[0] == expected.format(dev=tmp_path)
    if answering is None or answering is PermissionError or 0x3C not in answering:
        assert checking.lines[1:] == [] and wire.sent == []  # the driver is not even opened
        return
    assert checking.lines[1:] == ["display: the SSD1306 took a test screen; it should read 'Arbitro doctor'"]
    assert panel_ram(wire, "ssd1306").tobytes() == render(doctor_screen()).tobytes()


def test_the_doctor_is_told_what_pins_it_was_handed_and_never_asks_their_class(doctor, tmp_path):
    """Defect: the doctor knew it ran in mock mode by its pin factory's class name. The composition root now says
    so (device/mock/doctor.py); pins handed in without that are named by their back-end, and the display is
    looked for on its bus."""
    checking = doctor(mock=False, devices=tmp_path)
    assert checking.backend()
    checking.display()
    assert checking.lines[1:] == ["GPIO back-end in use: MockFactory",
                                  f"PROBLEM: I2C bus 1 is off (no {tmp_path}/i2c-1): turn it on with `sudo "
                                  "raspi-config nonint do_i2c 0` and reboot"]


def test_a_display_on_spi_needs_spi_turned_on(doctor, tmp_path):
    from tests.test_pinmap import SPI, write
    checking = doctor(write(tmp_path, SPI), mock=False, devices=tmp_path)
    checking.display()
    assert checking.lines == [f"PROBLEM: SPI is off (no {tmp_path}/spidev0.0): turn it on with `sudo raspi-config "
                              "nonint do_spi 0` and reboot"]


def arbitro(*args, **env):
    return subprocess.run([sys.executable, "-m", "device.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env})


def test_the_doctor_command_checks_a_mock_box_and_refuses_a_bad_pin_map(tmp_path):
    done = arbitro("doctor", "--mock", "--seconds", "0")
    assert done.returncode == 0 and "GPIO back-end in use: mock" in done.stdout
    assert done.stdout.splitlines()[-1] == "no problems found"
    bad = tmp_path / "pinmap.toml"
    bad.write_text('board = "pi"\nwiring = "grid"\n')
    done = arbitro("doctor", "--pinmap", str(bad), "--seconds", "0")
    assert done.returncode == 1
    assert done.stderr == f"PROBLEM: {bad}:2: wiring must be one of direct, matrix, not 'grid'\n"


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio works here")
def test_without_a_working_back_end_the_doctor_says_what_to_install():
    done = arbitro("doctor", "--seconds", "0", GPIOZERO_PIN_FACTORY="lgpio")
    assert done.returncode == 1
    assert "GPIO back-ends installed: " in done.stdout
    assert ("PROBLEM: no GPIO back-end works here (No module named 'lgpio'); on a Pi, install the pi extra "
            "(hardware/install.sh); on a computer, run `arbitro doctor --mock`") in done.stdout


def test_pins_another_program_holds_are_a_problem_that_says_to_stop_the_box(pin_factory):
    from gpiozero import DigitalInputDevice
    held = [DigitalInputDevice(5, pin_factory=pin_factory), DigitalInputDevice(27, pin_factory=pin_factory)]
    lines = []
    try:
        found = run(load_pinmap(), "pinmap.toml", seconds=0, say=lines.append, **doctor_options(pin_factory))
    finally:
        for device in held:
            device.close()
    assert found == 2 and lines[-1] == "2 problems: see PROBLEM above"
    assert [line.split(" (")[0] for line in problems(lines)] == ["PROBLEM: cannot use the buzzer's pin",
                                                                 "PROBLEM: cannot use the pads' pins"]
    assert all(line.endswith("if the box is running, stop it first (`sudo systemctl stop arbitro`)")
               for line in problems(lines))


def test_an_italian_terminal_reads_the_doctor_in_italian():
    done = arbitro("doctor", "--mock", "--seconds", "0", LANGUAGE="", LANG="it_IT.UTF-8")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == f"Arbitro {version()}, formato dell'archivio {FORMAT}"
    assert lines[1].startswith("mappa dei pin ") and "OK: il connettore a 40 pin di un Pi, matrice di tasti: " \
                                                     "12 pulsantiere e il pannello del conduttore su 13 righe e " \
                                                     "8 colonne" in lines[1]
    assert "back-end GPIO in uso: simulato (pin simulati: niente è collegato)" in lines
    assert lines[-1] == "nessun problema trovato"


def test_an_italian_terminal_counts_the_problems_in_italian(pin_factory, monkeypatch):
    from gpiozero import DigitalInputDevice
    monkeypatch.setenv("LANGUAGE", "it")
    held = DigitalInputDevice(27, pin_factory=pin_factory)  # the buzzer's pin
    lines = []
    try:
        found = run(load_pinmap(), "pinmap.toml", seconds=0, say=lines.append, **doctor_options(pin_factory))
    finally:
        held.close()
    assert found == 1 and lines[-1] == "1 problema: vedi PROBLEMA sopra"
    assert problems(lines) == []  # PROBLEM is English: the Italian line says PROBLEMA
    assert [line.split(" (")[0] for line in lines if line.startswith("PROBLEMA: ")] == [
        "PROBLEMA: non posso usare il pin del cicalino"]

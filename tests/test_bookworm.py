"""hardware/install.sh, run as a builder runs it: in a fresh Debian 12 (Bookworm) root made by `mmdebstrap
--variant=minbase`, the checkout copied in, the script run as root under `chroot`. Only what a Raspberry Pi has
and a minimal root lacks stands in: `raspi-config` and `systemctl` record their calls, the Pi's gpio, i2c and spi
groups exist, and the machine's certificate authorities and pip settings are copied in (a Pi has its own way
out). Then the box it installed is started as its service would start it (with --mock), `arbitro doctor --mock`
runs as the service user, and the script runs a second time over an edited pin map and a journal with a game.

The root is this machine's architecture, and also the Pi's: armhf (32-bit Raspberry Pi OS, armv7l) and arm64
(aarch64), run under qemu-user through binfmt_misc, where the lock's pi extra installs and what has no wheel there
builds with Debian's gcc. Those take tens of minutes each: marked `emulated`, left out of `make test` and run by
`make test-pi` (which installs qemu-user-static).

Needs root, chroot and mmdebstrap (`make test` installs it); minutes, not seconds: marked slow and bookworm."""
import json
import os
import shutil
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.browser import free_port

pytestmark = [pytest.mark.slow, pytest.mark.bookworm]

ROOT = Path(__file__).resolve().parent.parent
STUB = """#!/bin/sh
# stands in for {name} (the Pi's own, or systemd): records its calls
echo "$*" >> /var/log/{name}.calls
"""
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"  # found on the host's PATH, not the root's
CARRIED = ["engine", "device", "web_companion", "games", "hardware", "pyproject.toml", "requirements.lock", "README.md"]


# A Pi's Debian architecture: the binfmt_misc handler that runs its programs here, the machine it reports
PI = {"armhf": ("qemu-arm", "armv7l"), "arm64": ("qemu-aarch64", "aarch64")}
# mmdebstrap's sources for a root (none: its own, Debian's bookworm, -updates and -security). armhf's leave out
# the security suite, whose armhf index a mirror served stale (not the size its Release names, so apt's update
# fails); Raspberry Pi OS takes its updates from its own archive anyway.
SOURCES = {"armhf": ["deb http://deb.debian.org/debian bookworm main",
                     "deb http://deb.debian.org/debian bookworm-updates main"]}
SLOWER = 6  # how much longer each step may take under qemu than natively


def unavailable(arch):
    if os.geteuid() != 0:
        return "needs root (chroot, mmdebstrap)"
    if shutil.which("mmdebstrap") is None:
        return "mmdebstrap is not installed (make test installs it)"
    if arch and not Path(f"/proc/sys/fs/binfmt_misc/{PI[arch][0]}").exists():
        return f"no binfmt_misc handler runs {arch} programs here (make test-pi installs qemu-user-static)"
    return None


@pytest.fixture(scope="module", ids=["native", "armhf", "arm64"],
                params=[None, pytest.param("armhf", marks=pytest.mark.emulated),
                        pytest.param("arm64", marks=pytest.mark.emulated)])
def bookworm(request, tmp_path_factory):
    """(the root, seconds mmdebstrap took, the architecture: None for this machine's own)."""
    arch = request.param
    why = unavailable(arch)
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the Bookworm install test cannot run in CI: {why}")
        pytest.skip(why)
    root = tmp_path_factory.mktemp(f"bookworm-{arch or 'native'}") / "root"
    started = time.monotonic()
    subprocess.run(["mmdebstrap", "--variant=minbase", "--quiet", *([f"--arch={arch}"] if arch else []), "bookworm",
                    str(root), *SOURCES.get(arch, [])], check=True, timeout=900 * (SLOWER if arch else 1))
    made = time.monotonic() - started
    for name in ("raspi-config", "systemctl"):
        stub = root / "usr" / "bin" / name
        stub.write_text(STUB.format(name=name))
        stub.chmod(0o755)
    for group in ("gpio", "i2c", "spi"):
        run(root, "groupadd", "--system", group)
    # in a file of its own: the ca-certificates package the script pulls in rewrites the system's bundle
    shutil.copy("/etc/ssl/certs/ca-certificates.crt", root / "etc" / "pip-authorities.crt")
    (root / "etc" / "pip.conf").write_text("[global]\ncert = /etc/pip-authorities.crt\n")
    checkout = root / "src" / "arbitro"
    checkout.mkdir(parents=True)
    for part in CARRIED:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, checkout / part, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(source, checkout / part)
    for mount in ("proc", "dev"):
        subprocess.run(["mount", "--bind", f"/{mount}", str(root / mount)], check=True)
    try:
        yield root, made, arch
    finally:
        for mount in ("dev", "proc"):
            subprocess.run(["umount", "-l", str(root / mount)], check=False)


def run(root, *command, user=None, env=None, timeout=900, check=True):
    """`command` inside the root, as root or as `user` (with its groups)."""
    prefix = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--"] if user else []
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", **(env or {})}
    done = subprocess.run([CHROOT, str(root), *prefix, *command], capture_output=True, text=True,
                          timeout=timeout, env=environment)
    if check:
        assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def locked_for(machine):
    """The pins of requirements.lock that apply on a Bookworm of `machine`: {name: version}."""
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith((" ", "#")):
            requirement = Requirement(line.rstrip(" \\"))
            if requirement.marker is None or requirement.marker.evaluate(
                    {"platform_machine": machine, "sys_platform": "linux", "python_version": "3.11"}):
                pins[canonicalize_name(requirement.name)] = str(requirement.specifier).lstrip("=")
    return pins


def calls(root, name):
    path = root / "var" / "log" / f"{name}.calls"
    return path.read_text().splitlines() if path.exists() else []


def unit_settings(root):
    text = (root / "etc" / "systemd" / "system" / "arbitro.service").read_text()
    environment = dict(line.split("=", 2)[1:] for line in text.splitlines() if line.startswith("Environment="))
    start = next(line.split("=", 1)[1] for line in text.splitlines() if line.startswith("ExecStart="))
    return text, environment, start.split()


def serve_as_the_service(root, extra=()):
    """The unit's ExecStart as its user, in its directories and environment, with --mock and a free port."""
    _, environment, command = unit_settings(root)
    for folder in ("var/lib/arbitro", "run/arbitro"):  # what systemd's StateDirectory, RuntimeDirectory make
        (root / folder).mkdir(parents=True, exist_ok=True)
        run(root, "chown", "arbitro:arbitro", "/" + folder)
    port = free_port()
    prefix = ["setpriv", "--reuid=arbitro", "--regid=arbitro", "--init-groups", "--"]
    process = subprocess.Popen([CHROOT, str(root), *prefix, "sh", "-c",
                                f"cd /run/arbitro && exec {' '.join(command)} --mock --port {port} {' '.join(extra)}"],
                               env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **environment},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, port


def answer(port, path, body=None, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", body and json.dumps(body).encode(),
                                             {"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.load(response)
        except OSError:
            assert time.monotonic() < deadline, f"nothing answered on {path}"
            time.sleep(0.2)


def test_the_install_script_builds_a_box_on_a_fresh_bookworm_and_a_second_run_keeps_everything(bookworm):
    root, made, arch = bookworm
    patience = SLOWER if arch else 1
    started = time.monotonic()
    first = run(root, "bash", "/src/arbitro/hardware/install.sh", timeout=900 * patience)
    installed = time.monotonic() - started
    machine = run(root, "uname", "-m").stdout.strip()
    print(f"\n{arch or 'native'} ({machine}): mmdebstrap {made:.0f} s; install.sh {installed:.0f} s", end="")
    assert calls(root, "raspi-config") == ["nonint do_i2c 0", "nonint do_spi 0"]
    assert calls(root, "systemctl") == ["daemon-reload", "enable arbitro.service", "restart arbitro.service"]
    assert "venv: made" in first.stdout
    groups = run(root, "id", "-nG", "arbitro").stdout.split()
    assert {"gpio", "i2c", "spi"} <= set(groups)
    # as the checkout copied in has them (the work tree may change during an emulated root's half hour)
    checkout = root / "src" / "arbitro"
    assert (root / "etc" / "arbitro" / "pinmap.toml").read_text() == (checkout / "device" / "pinmap.toml").read_text()
    assert (root / "etc" / "polkit-1" / "rules.d" / "50-arbitro-power-off.rules").exists()
    text, _, _ = unit_settings(root)
    assert text == (checkout / "hardware" / "arbitro.service").read_text()
    listed = run(root, "/opt/arbitro/bin/pip", "show", "arbitro").stdout
    assert "Name: arbitro" in listed and "Location: /opt/arbitro/lib/" in listed  # installed, not the checkout
    frozen = run(root, "/opt/arbitro/bin/pip", "freeze", "--all").stdout.split()
    installed = {canonicalize_name(name): version for name, version in (p.split("==") for p in frozen if "==" in p)}
    locked = locked_for(machine)
    for name, version in locked.items():
        assert installed.get(name) == version, (name, version, installed.get(name))  # the lock, nothing newer
    if arch:  # the Pi's own: its pi extra, the venv's (the system's Python packages are not seen)
        assert machine == PI[arch][1] and {"lgpio", "rpi-gpio", "spidev"} <= set(locked)
        found = run(root, "/opt/arbitro/bin/python", "-c",
                    "import cbor2, lgpio, spidev, luma.core.bitmap_font; print(spidev.__file__, lgpio.__file__); "
                    "print(cbor2.loads(cbor2.dumps({'seat': 1})))").stdout.split()
        assert all(path.startswith("/opt/arbitro/lib/") for path in found[:2]) and found[2:] == ["{'seat':", "1}"]

    # The box as its service starts it: it answers, and a game it plays is journaled in /var/lib/arbitro.
    process, port = serve_as_the_service(root)
    try:
        assert answer(port, "/api/table", timeout=60 * patience)[0] == 200
        assert answer(port, "/api/host/game", {"game": "ponte", "seats": 3, "options": {}})[0] == 201
    finally:
        process.terminate()
        process.wait(timeout=30 * patience)
    journal = root / "var" / "lib" / "arbitro" / "journal.sqlite3"
    assert journal.exists()

    # `arbitro doctor --mock` as the service user, with no ARBITRO_PINMAP: it finds its own default pin map.
    doctor = run(root, "/usr/local/bin/arbitro", "doctor", "--mock", "--seconds", "0", user="arbitro", check=False)
    assert doctor.returncode == 0 and "no problems found" in doctor.stdout, doctor.stdout + doctor.stderr

    # A second run: the builder's pin map and the games stay, the service restarts once, and it says so. The venv
    # is one an older install.sh made, which saw the system's Python packages: now it sees only its own.
    edited = (root / "etc" / "arbitro" / "pinmap.toml").read_text() + "# the builder's own note\n"
    (root / "etc" / "arbitro" / "pinmap.toml").write_text(edited)
    games = journal.read_bytes()
    (root / "var" / "log" / "systemctl.calls").unlink()
    settings = root / "opt" / "arbitro" / "pyvenv.cfg"
    settings.write_text(settings.read_text().replace("system-site-packages = false", "system-site-packages = true"))
    started = time.monotonic()
    second = run(root, "bash", "/src/arbitro/hardware/install.sh", "--upgrade", timeout=900 * patience)
    print(f"; install.sh --upgrade {time.monotonic() - started:.0f} s", end="")
    assert "with its locked dependencies, resumes the games" in second.stdout
    assert "1 game, journal format 2: arbitro" in second.stdout  # the code checked it resumes the game
    assert not (root / "opt" / "arbitro.next").exists()
    assert "user arbitro: there already" in second.stdout and "pin map: yours, kept as it is" in second.stdout
    assert "venv: it no longer sees the system's Python packages" in second.stdout
    seen = run(root, "/opt/arbitro/bin/python", "-c", "import sys; print(*sys.path)").stdout.split()
    assert "/usr/lib/python3/dist-packages" not in seen and "/opt/arbitro/lib/python3.11/site-packages" in seen
    assert (root / "etc" / "arbitro" / "pinmap.toml").read_text() == edited
    assert journal.read_bytes() == games
    assert calls(root, "systemctl").count("restart arbitro.service") == 1

    # An upgrade whose code cannot resume the journal (here: written by a newer box) is refused, by name, and
    # the box is left running as it was.
    with sqlite3.connect(journal) as db:
        db.execute("PRAGMA user_version = 99")
    (root / "var" / "log" / "systemctl.calls").unlink()
    refused = run(root, "bash", "/src/arbitro/hardware/install.sh", "--upgrade", check=False, timeout=900 * patience)
    assert refused.returncode == 1
    assert "is in format 99, newer than this box's" in refused.stderr and "not upgraded" in refused.stderr
    assert calls(root, "systemctl") == ["stop arbitro.service", "start arbitro.service"]

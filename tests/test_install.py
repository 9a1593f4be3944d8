"""What installs the box on a Pi: the pi extra's markers, the systemd unit (`systemd-analyze verify`, where the
machine has it) and the install script (`shellcheck`), and that the two agree on paths and the user."""
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
UNIT = ROOT / "hardware" / "arbitro.service"
INSTALL = ROOT / "hardware" / "install.sh"


def needs(tool):
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing in CI: `make test` should have installed it")
        pytest.skip(f"{tool} is not installed (make test installs it where it can)")


@pytest.mark.parametrize("machine, wanted", [("aarch64", True), ("armv7l", True), ("armv6l", True),
                                             ("x86_64", False), ("AMD64", False)])
def test_the_pi_extra_installs_the_gpio_back_ends_only_on_a_pi(machine, wanted):
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]
    requirements = [Requirement(line) for line in extra]
    assert {r.name for r in requirements} == {"lgpio", "RPi.GPIO", "spidev"}
    for platform in ("linux", "darwin", "win32"):
        environment = {"sys_platform": platform, "platform_machine": machine}
        assert all(r.marker.evaluate(environment) == (wanted and platform == "linux") for r in requirements)


def unit():
    return dict(re.findall(r"^(\w+)=(.*)$", UNIT.read_text(), re.M)), UNIT.read_text()


def test_the_unit_runs_the_box_at_boot_as_an_unprivileged_user_with_its_data_in_var_lib():
    keys, text = unit()
    assert keys["User"] == "arbitro" and set(keys["SupplementaryGroups"].split()) >= {"gpio", "i2c"}
    assert "Environment=GPIOZERO_PIN_FACTORY=lgpio" in text
    assert keys["StateDirectory"] == "arbitro" and "--data /var/lib/arbitro" in keys["ExecStart"]
    assert keys["Restart"] == "on-failure" and keys["WantedBy"] == "multi-user.target"
    assert keys["WorkingDirectory"] == f"/run/{keys['RuntimeDirectory']}"  # lgpio writes its pipes there


def test_the_install_script_puts_things_where_the_unit_looks():
    keys, text = unit()
    script = INSTALL.read_text()
    prefix = re.search(r"^PREFIX=(.*)$", script, re.M).group(1)
    config = re.search(r"^CONFIG=(.*)$", script, re.M).group(1)
    assert keys["ExecStart"].split()[0] == f"{prefix}/bin/arbitro"
    assert f"Environment=ARBITRO_PINMAP={config}/pinmap.toml" in text
    assert re.search(r"^SERVICE_USER=(.*)$", script, re.M).group(1) == keys["User"]
    assert "do_i2c 0" in script
    # one lgpio and one spidev, the lock's: the venv sees none of the system's Python packages
    installed = re.search(r"^apt-get install (.*)$", script, re.M).group(1).split()
    assert not {"python3-lgpio", "python3-spidev"} & set(installed)
    assert "venv --system-site-packages" not in script and 'python3 -m venv "$PREFIX"' in script
    # run twice, it keeps the builder's pin map (tests/test_bookworm.py runs it twice)
    assert 'if [[ -e $CONFIG/pinmap.toml ]]; then\n  say "pin map: yours, kept as it is"' in script


def test_the_install_script_passes_shellcheck():
    needs("shellcheck")
    done = subprocess.run(["shellcheck", "--severity=style", str(INSTALL)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    needs("systemd-analyze")
    keys, text = unit()
    # verify insists that ExecStart exists: this machine's Python stands in for /opt/arbitro/bin/arbitro
    copy = tmp_path / "arbitro.service"
    copy.write_text(text.replace(keys["ExecStart"].split()[0], f"{sys.executable} -m device.cli"))
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True)
    assert done.returncode == 0 and "arbitro.service" not in done.stderr, done.stderr


def test_make_lock_says_what_moved(tmp_path):
    """`make lock` prints each package whose pin moved, came or went (hardware/lock_changes.py)."""
    sys.path.insert(0, str(ROOT / "hardware"))
    try:
        import lock_changes
    finally:
        sys.path.remove(str(ROOT / "hardware"))
    old, new = tmp_path / "old.lock", tmp_path / "new.lock"
    old.write_text("babel==2.18.0 \\\n    --hash=sha256:aa\nflask==3.1.3 \\\n    --hash=sha256:bb\n"
                   "lgpio==0.2.2.0 ; platform_machine in 'aarch64' \\\n    --hash=sha256:cc\n")
    new.write_text("babel==2.19.0 \\\n    --hash=sha256:dd\nflask==3.1.3 \\\n    --hash=sha256:bb\n"
                   "smbus2==0.6.1 \\\n    --hash=sha256:ee\n")
    assert lock_changes.changes(lock_changes.pins(old), lock_changes.pins(new)) == [
        "babel 2.18.0 -> 2.19.0", "smbus2 0.6.1 (new)", "lgpio 0.2.2.0 (gone)"]
    assert lock_changes.pins(ROOT / "requirements.lock")["smbus2"]  # the code imports it: the lock pins it

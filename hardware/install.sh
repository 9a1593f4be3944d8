#!/usr/bin/env bash
# Install Arbitro on Raspberry Pi OS Bookworm as a service that starts at boot:
#   sudo hardware/install.sh            (from a copy of the repository on the Pi)
#   sudo hardware/install.sh --upgrade  (from a newer copy: the same, refused unless there is a box to upgrade)
# Safe to run again: it never overwrites /etc/arbitro/pinmap.toml nor the games in /var/lib/arbitro, and it
# says what it did. Before it installs over a box that has games, the new code checks that it resumes them
# (`arbitro check`): a journal newer than the code, or a game in play it cannot resume, stops it unchanged.
# tests/test_bookworm.py runs it in a fresh Debian Bookworm root.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/arbitro
CONFIG=/etc/arbitro
SERVICE_USER=arbitro
DATA=/var/lib/arbitro

say() { printf 'install.sh: %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

UPGRADE=no
case "${1:-}" in
  "") ;;
  --upgrade) UPGRADE=yes ;;
  *) fail "unknown option $1 (only --upgrade)" ;;
esac

[[ $EUID -eq 0 ]] || fail "run it as root: sudo $0"
[[ -f $SOURCE/pyproject.toml ]] || fail "run it from the repository (no pyproject.toml in $SOURCE)"
grep -q 'VERSION_CODENAME=bookworm' /etc/os-release \
  || say "warning: made for Raspberry Pi OS Bookworm; this system may need other packages"

if [[ $UPGRADE == yes && ! -x $PREFIX/bin/arbitro ]]; then
  fail "nothing to upgrade: no box in $PREFIX (run it without --upgrade to install one)"
fi
# What the box runs is requirements.lock: every package pinned and every file's hash checked; then this code,
# with nothing more to fetch (the lock holds its build backend).
install_into() {
  "$1/bin/pip" install --quiet --require-hashes -r "$SOURCE/requirements.lock"
  "$1/bin/pip" install --quiet --no-deps --no-build-isolation --force-reinstall "$SOURCE"
}

if [[ -x $PREFIX/bin/python && -e $DATA/journal.sqlite3 ]]; then
  # The new code and the new lock, in a venv of their own beside the box (which plays on meanwhile), are asked
  # first; the box is changed only when they resume every game.
  say "checking that this code, with its locked dependencies, resumes the games in $DATA"
  rm -rf "$PREFIX.next"
  python3 -m venv "$PREFIX.next"
  install_into "$PREFIX.next"
  systemctl stop arbitro.service || true
  if ! "$PREFIX.next/bin/python" -m device.cli check --data "$DATA"; then
    rm -rf "$PREFIX.next"
    systemctl start arbitro.service || true
    fail "not upgraded: this code cannot resume the games in $DATA (the reason is above); the box runs as before"
  fi
  rm -rf "$PREFIX.next"
fi

# The GPIO and SPI libraries are the lock's too (its pi extra: lgpio, RPi.GPIO, spidev), in the venv, not Raspberry
# Pi OS's python3-lgpio and python3-spidev. What PyPI has no wheel of for the board is built from its locked
# source with Debian's gcc: RPi.GPIO and spidev, and on armv7 Pillow (with zlib's and libjpeg's headers).
say "packages: Python's venv, i2c-tools, and what builds the locked packages that have no wheel for this board"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q python3-venv python3-dev gcc zlib1g-dev libjpeg-dev i2c-tools

say "I2C on (the display), SPI too (a display may use it)"
if command -v raspi-config >/dev/null; then
  raspi-config nonint do_i2c 0
  raspi-config nonint do_spi 0
else
  say "warning: no raspi-config: turn on I2C (and SPI) yourself (dtparam=i2c_arm=on in config.txt)"
fi

say "user $SERVICE_USER, in the gpio, i2c and spi groups"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
  say "user $SERVICE_USER: there already"
else
  useradd --system --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
  say "user $SERVICE_USER: made"
fi
for group in gpio i2c spi; do
  if getent group "$group" >/dev/null; then
    usermod -a -G "$group" "$SERVICE_USER"
  else
    say "warning: no group $group on this system"
  fi
done

say "Arbitro in $PREFIX (a venv of its own: nothing of the system's Python packages), from requirements.lock"
if [[ ! -x $PREFIX/bin/python ]]; then
  python3 -m venv "$PREFIX"
  say "venv: made"
elif grep -qx 'include-system-site-packages = true' "$PREFIX/pyvenv.cfg"; then
  # an older install.sh made it with --system-site-packages, for python3-lgpio and python3-spidev
  sed -i 's/^include-system-site-packages = true$/include-system-site-packages = false/' "$PREFIX/pyvenv.cfg"
  say "venv: it no longer sees the system's Python packages (the lock's lgpio and spidev serve)"
fi
BEFORE=$("$PREFIX/bin/arbitro" --version 2>/dev/null || echo "nothing")
install_into "$PREFIX"
ln -sf "$PREFIX/bin/arbitro" /usr/local/bin/arbitro
say "software: $BEFORE -> $("$PREFIX/bin/arbitro" --version)"

say "the pin map: $CONFIG/pinmap.toml (yours to edit; kept as it is if it is there)"
install -d -m 755 "$CONFIG"
if [[ -e $CONFIG/pinmap.toml ]]; then
  say "pin map: yours, kept as it is"
else
  install -m 644 "$SOURCE/hardware/pinmap.toml" "$CONFIG/pinmap.toml"
  say "pin map: the default, installed"
fi
# `arbitro doctor` and the other commands find it too, in a login shell
printf 'export ARBITRO_PINMAP=%s/pinmap.toml\n' "$CONFIG" > /etc/profile.d/arbitro.sh

say "the box may power the Pi off (holding Menu for 5 s): a polkit rule for its user"
install -d -m 755 /etc/polkit-1/rules.d
cat > /etc/polkit-1/rules.d/50-arbitro-power-off.rules <<EOF
// Arbitro: the box's user may power the Pi off (the host panel's Menu held for 5 s)
polkit.addRule(function (action, subject) {
    if (subject.user == "$SERVICE_USER" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
EOF

say "the service: starts at boot, restarts if it fails"
install -m 644 "$SOURCE/hardware/arbitro.service" /etc/systemd/system/arbitro.service
systemctl daemon-reload
systemctl enable arbitro.service
systemctl restart arbitro.service

say "the games in $DATA: kept (download a backup from the host page before an upgrade, to be safe)"
say "done: the box serves on http://$(hostname).local/ (logs: journalctl -u arbitro)"
say "check the build with: sudo systemctl stop arbitro && arbitro doctor; then sudo systemctl start arbitro"
if [[ ! -e /dev/i2c-1 ]]; then
  say "I2C was just turned on: reboot (sudo reboot) before the display can answer"
fi

#!/usr/bin/env bash
# Install the companion table on a fresh Raspberry Pi OS (Bookworm, 64- or 32-bit; Zero 2 W, 3, 4, 5).
# Run from a clone of the repository:  sudo firmware/install.sh
# It installs the packages, a dedicated user in the gpio and i2c groups, the program in
# /opt/companion/.venv, the pin map and config in /etc/companion, the boot-config fragment
# (I2C on, 400 kHz) and the systemd service. Safe to run again (updates in place).
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run me with sudo" >&2; exit 1; }
cd "$(dirname "$0")/.."
SRC=$(pwd)

echo "== packages"
apt-get update -qq
# python3-lgpio: lgpio from Raspberry Pi OS's own archive (plain Debian has no such package); the venv sees it
# (--system-site-packages).
apt-get install -y -qq python3-venv python3-lgpio i2c-tools >/dev/null
# The voice (voice = "espeak" in the config) and its player, aplay.
apt-get install -y -qq espeak-ng alsa-utils >/dev/null

echo "== user 'companion' (groups gpio, i2c)"
id companion >/dev/null 2>&1 || useradd --system --home-dir /var/lib/companion --shell /usr/sbin/nologin companion
for group in gpio i2c; do getent group "$group" >/dev/null || groupadd --system "$group"; done
usermod -a -G gpio,i2c companion
install -d -o companion -g companion -m 0750 /var/lib/companion

echo "== program in /opt/companion"
install -d /opt/companion
rm -rf /opt/companion/src && cp -r "$SRC" /opt/companion/src
python3 -m venv --system-site-packages /opt/companion/.venv
/opt/companion/.venv/bin/pip install -q --upgrade pip
# COMPANION_PURE: the engine runs from its sources, not compiled by Cython (see README): the table applies an input
# a second, and compiling takes a Pi Zero 2 W minutes and most of its 512 MB.
COMPANION_PURE=1 /opt/companion/.venv/bin/pip install -q "/opt/companion/src[pi]"

echo "== /etc/companion (kept if present)"
install -d /etc/companion
[ -f /etc/companion/pins.toml ] || install -m 0644 hardware/pins.toml /etc/companion/pins.toml
[ -f /etc/companion/config.toml ] || install -m 0644 firmware/config.toml /etc/companion/config.toml

echo "== boot config: I2C at 400 kHz"
BOOT=/boot/firmware/config.txt; [ -f "$BOOT" ] || BOOT=/boot/config.txt
if ! grep -q "^# companion:" "$BOOT"; then
  printf '\n' >> "$BOOT"; cat firmware/boot-config.txt >> "$BOOT"; REBOOT=1
fi
# SPI for the seat lights' strip, on a Pi installed before the fragment had it.
grep -q "^dtparam=spi=on" "$BOOT" || { printf 'dtparam=spi=on\n' >> "$BOOT"; REBOOT=1; }
grep -q "^i2c-dev" /etc/modules || echo i2c-dev >> /etc/modules

echo "== the host menu may power the Pi off"
# Written aside and checked first: a broken file in /etc/sudoers.d would break sudo for everyone.
RULE=$(mktemp)
echo "companion ALL=(root) NOPASSWD: /usr/bin/systemctl poweroff" > "$RULE"
visudo -cf "$RULE" >/dev/null
install -m 0440 "$RULE" /etc/sudoers.d/companion
rm -f "$RULE"

echo "== service"
install -m 0644 firmware/companion.service /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service >/dev/null
if [ "${REBOOT:-0}" = 1 ]; then
  echo "I2C was just enabled: reboot now (sudo reboot); the table starts by itself."
else
  systemctl restart companion.service
  echo "companion is running: journalctl -u companion -f"
fi

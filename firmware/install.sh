#!/usr/bin/env bash
# Install the companion table on a fresh Raspberry Pi OS (Bookworm, 64- or 32-bit; Zero 2 W, 3, 4, 5).
# Run from a clone of the repository:  sudo firmware/install.sh
# It installs the packages, a dedicated user in the gpio, i2c, spi and audio groups, the program in
# /opt/companion/.venv (from firmware/wheels without an index when firmware/bundle.sh made it), the pin map and
# config in /etc/companion, the boot-config fragment (I2C on, 400 kHz), the hotspot's DNS drop-in and polkit rule,
# and the systemd service. Safe to run again (updates in place).
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run me with sudo" >&2; exit 1; }
cd "$(dirname "$0")/.."
SRC=$(pwd)

# True when the package archive knows package $1 (Raspberry Pi OS's has python3-lgpio; plain Debian's has not).
in_archive() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }

echo "== packages"
apt-get update -qq
apt-get install -y -qq python3-venv i2c-tools >/dev/null
# lgpio (the pin factory): python3-lgpio from Raspberry Pi OS's own archive, which the venv sees
# (--system-site-packages). On a Debian without it, pip takes lgpio from PyPI (or the bundle): its wheel where PyPI
# has one for this Python (3.9-3.12 on aarch64 and x86-64), else built from its source with PYPI=1, which makes
# lgpio's setup.py link its own copy of the C library in (plain Debian has no liblgpio either): that takes a C
# compiler and swig.
LGPIO_BUILD=()
if in_archive python3-lgpio; then
  apt-get install -y -qq python3-lgpio >/dev/null
else
  echo "python3-lgpio is not in this system's archive (it is Raspberry Pi OS's): pip takes lgpio from PyPI or the" \
       "bundle instead (a wheel, or its source built here)"
  apt-get install -y -qq swig gcc libc6-dev python3-dev >/dev/null
  LGPIO_BUILD=(PYPI=1)
fi
# The voice (voice = "espeak" in the config) and its player, aplay.
apt-get install -y -qq espeak-ng alsa-utils >/dev/null
# The table's own Wi-Fi (companion/network): NetworkManager, the dnsmasq of its shared mode, iw (the Wi-Fi country).
apt-get install -y -qq network-manager dnsmasq-base iw >/dev/null

echo "== user 'companion' (groups gpio, i2c, spi, audio)"
# The pins (/dev/gpiochip*), the OLED and NFC reader (/dev/i2c-1), the seat lights' strip (/dev/spidev*) and the
# sound card (/dev/snd/*): Raspberry Pi OS gives each to its group.
id companion >/dev/null 2>&1 || useradd --system --home-dir /var/lib/companion --shell /usr/sbin/nologin companion
for group in gpio i2c spi audio; do getent group "$group" >/dev/null || groupadd --system "$group"; done
usermod -a -G gpio,i2c,spi,audio companion
install -d -o companion -g companion -m 0750 /var/lib/companion

echo "== program in /opt/companion"
install -d /opt/companion
rm -rf /opt/companion/src && cp -r "$SRC" /opt/companion/src
python3 -m venv --system-site-packages /opt/companion/.venv
# firmware/wheels: made by firmware/bundle.sh on a computer with internet; then nothing is asked of an index.
WHEELS=(); [ -d "$SRC/firmware/wheels" ] && WHEELS=(--no-index --find-links "$SRC/firmware/wheels")
[ ${#WHEELS[@]} -gt 0 ] || /opt/companion/.venv/bin/pip install -q --upgrade pip
# COMPANION_PURE: the engine and the bots run from their sources, not compiled by Cython (see README): the table
# applies an input a second, and compiling takes a Pi Zero 2 W minutes and most of its 512 MB.
env COMPANION_PURE=1 "${LGPIO_BUILD[@]}" /opt/companion/.venv/bin/pip install -q "${WHEELS[@]}" "/opt/companion/src[pi]"

echo "== /etc/companion (kept if present)"
install -d /etc/companion
[ -f /etc/companion/pins.toml ] || install -m 0644 hardware/pins.toml /etc/companion/pins.toml
[ -f /etc/companion/config.toml ] || install -m 0644 firmware/config.toml /etc/companion/config.toml

echo "== boot config: I2C at 400 kHz"
BOOT=/boot/firmware/config.txt; [ -f "$BOOT" ] || BOOT=/boot/config.txt
if [ ! -f "$BOOT" ]; then
  echo "no /boot/firmware/config.txt nor /boot/config.txt (not Raspberry Pi OS?): add firmware/boot-config.txt to" \
       "the Pi's boot config yourself to turn I2C on"
elif ! grep -q "^# companion:" "$BOOT"; then
  printf '\n' >> "$BOOT"; cat firmware/boot-config.txt >> "$BOOT"; REBOOT=1
fi
# SPI for the seat lights' strip, on a Pi installed before the fragment had it.
[ ! -f "$BOOT" ] || grep -q "^dtparam=spi=on" "$BOOT" || { printf 'dtparam=spi=on\n' >> "$BOOT"; REBOOT=1; }
grep -qs "^i2c-dev" /etc/modules || echo i2c-dev >> /etc/modules
# The unit opens its devices by class (DeviceAllow=char-alsa, char-spi), which systemd looks up in /proc/devices when
# the service starts: a class whose driver loaded later (a sound card or spidev found by udev beside the boot, a USB
# speaker plugged in afterwards) stayed closed to the table until a restart (the booted box's voice: "audio open
# error"). Their cores load before it (systemd-modules-load), so any card that comes later is the table's.
{ echo "# companion (firmware/install.sh): the device classes companion.service allows, known before it starts"
  echo snd
  if compgen -G "/lib/modules/*/kernel/drivers/spi/spidev.ko*" >/dev/null; then echo spidev; fi
} > /etc/modules-load.d/companion.conf

echo "== the table's own Wi-Fi (config: network, wifi_country)"
# NetworkManager's shared mode answers every name with the Pi (phones then open the page by themselves), and the
# table's user may open and close its hotspot (polkit). Raspberry Pi OS Bookworm has NetworkManager and iw.
if [ -d /etc/NetworkManager ]; then
  install -d /etc/NetworkManager/dnsmasq-shared.d
  /opt/companion/.venv/bin/python -m companion.network.dnsmasq > /etc/NetworkManager/dnsmasq-shared.d/companion.conf
fi
install -d /etc/polkit-1/rules.d
install -m 0644 firmware/polkit-companion.rules /etc/polkit-1/rules.d/50-companion.rules
COUNTRY=$(/opt/companion/.venv/bin/python -c \
  'from companion.config import load_config; print(load_config("/etc/companion/config.toml").wifi_country)')
if [ -n "$COUNTRY" ] && command -v raspi-config >/dev/null; then
  raspi-config nonint do_wifi_country "$COUNTRY"  # the radio rules the hotspot obeys (and the Wi-Fi unblocked)
fi

# The host menu powers the Pi off through logind, allowed by the polkit rule above (the unit's NoNewPrivileges=yes
# rules sudo out): the sudoers rule of earlier installs goes.
rm -f /etc/sudoers.d/companion

echo "== service"
install -m 0644 firmware/companion.service /etc/systemd/system/companion.service
# systemd runs only on a system booted with it (sd_booted(3): /run/systemd/system), not in a chroot or a container;
# enabling the unit is a link, made either way.
booted() { [ -d /run/systemd/system ]; }
if booted; then systemctl daemon-reload; fi
systemctl enable companion.service >/dev/null
if ! booted; then
  echo "systemd is not running here (a chroot or a container, not a booted system): companion.service is enabled" \
       "and starts when this system boots; nothing was started now"
elif [ "${REBOOT:-0}" = 1 ]; then
  echo "I2C was just enabled: reboot now (sudo reboot); the table starts by itself."
else
  systemctl restart companion.service
  echo "companion is running: journalctl -u companion -f"
fi

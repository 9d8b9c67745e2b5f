#!/usr/bin/env bash
# The table's whole system in a booted virtual machine (docs/box.md):
#   sudo firmware/check-box.sh [--installed] [CUTS]       (CUTS: power cuts, 1 or more, default 10)
# It builds (once; then reuses) a Debian Bookworm x86-64 root with debootstrap: systemd, NetworkManager,
# dnsmasq-base, wpa_supplicant, iw, alsa-utils, Python, and every package install.sh asks apt for (the box has no
# network); dresses it as a Pi (user pi, a /boot/firmware/config.txt stand-in, two mac80211_hwsim radios and an
# snd-aloop sound card) and writes it into a disk image. Then it boots copies of that image under QEMU with
# Debian's own kernel and initramfs (TCG: emulated, no KVM), the repository and a wheel bundle of
# firmware/bundle.sh (x86-64) shared over 9p, and checks, boot after boot (firmware/box/agent.sh inside):
#   1. user pi runs `sudo firmware/install.sh` in ~/companion; the owner edits the config; reboot;
#   2. systemd starts companion.service (its user, groups, capabilities): the page answers, port 80 redirects; with
#      network = "auto" NetworkManager opens the WPA2 hotspot on wlan0; a phone (wlan1 in a network namespace, with
#      wpa_supplicant) joins with the name and password read off the host page's QR code, gets an address by DHCP,
#      is sent to the page by the captive portal, joins as Ann and rolls, and the voice is recorded off snd-aloop;
#      the host presses the host menu's Wi-Fi switch (the table's mock pins, through its mock_presses FIFO): back to
#      the home network, the hotspot goes down; pressed again, it opens; two phones stream inputs: power cut 1;
#   3. CUTS - 1 more boots: the table resumes by itself, its hotspot opens, two phones stream inputs, and QEMU is
#      killed at a random moment (the disk with cache=writethrough); after each boot every input a phone saw
#      acknowledged must be in the game;
#   4. a last boot: every acknowledged input is in the game, the service's user and rights, `systemctl stop` ends
#      the table with status 0.
# Each boot's time and the box's own marks are printed at the end (where the time goes).
# --installed: start from the image the last passing install left (skips step 1). Exit status 0: all passed.
# Needs: qemu-system-x86, qemu-utils, debootstrap, e2fsprogs (Debian packages), Debian's archive and PyPI for the
# first run, ~3 GB in the cache: $COMPANION_BOX_CACHE, default /var/cache/companion-box (outside the repository).
# COMPANION_BOX_ACCEL=kvm tries KVM instead of TCG. The whole script is read before it runs (main, at the end).
set -euo pipefail

step() { printf '\n== [%3ds] %s\n' "$SECONDS" "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# What the box has before install.sh runs: a Raspberry Pi OS Lite's share (systemd, NetworkManager, wpa_supplicant,
# iw, Python), the kernel, the phone's tools (dhclient), and every package install.sh asks apt for.
PACKAGES=systemd,systemd-sysv,libpam-systemd,udev,dbus,kmod,linux-image-amd64,initramfs-tools,iproute2,iw
PACKAGES+=,wpasupplicant,network-manager,dnsmasq-base,polkitd,alsa-utils,espeak-ng,i2c-tools,python3,python3-venv
PACKAGES+=,python3-dev,swig,gcc,libc6-dev,sudo,ca-certificates,isc-dhcp-client,wireless-regdb,procps

build_root() {
  rm -rf "$PRISTINE.new"; mkdir -p "$CACHE/debs"
  debootstrap --arch=amd64 --variant=minbase --cache-dir="$CACHE/debs" --include="$PACKAGES" \
    bookworm "$PRISTINE.new" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 ||
    fail "debootstrap (see $CACHE/debootstrap.log)"
  mv "$PRISTINE.new" "$PRISTINE"
}

# The root made into a Pi-like box, written into the image (the files of $1).
dress() {
  local root=$1
  echo raspberrypi > "$root/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 raspberrypi\n::1 localhost\n' > "$root/etc/hosts"
  printf '/dev/vda / ext4 defaults 0 1\nbox /mnt/box 9p trans=virtio,version=9p2000.L,msize=262144,nofail 0 0\n' \
    > "$root/etc/fstab"
  mkdir -p "$root/mnt/box" "$root/boot/firmware"
  printf '# stand-in for the Pi boot partition config.txt (firmware/check-box.sh)\n[all]\n' \
    > "$root/boot/firmware/config.txt"
  chroot "$root" useradd --create-home --shell /bin/bash --groups sudo pi
  echo "pi ALL=(ALL) NOPASSWD: ALL" > "$root/etc/sudoers.d/010_pi-nopasswd"
  # The Pi's Wi-Fi chip and the phone's (two radios: wlan0, wlan1), a sound card whose output can be recorded. A
  # Pi's udev loads its chips' drivers as it finds them, beside the rest of the boot; here a unit of the box's own
  # does, before NetworkManager, rather than systemd-modules-load before everything (under emulation these
  # modules took 22 s of a 31 s way to the table's start). The 9p share loads its own.
  printf 'options mac80211_hwsim radios=2\noptions snd-aloop pcm_substreams=1\n' > "$root/etc/modprobe.d/box.conf"
  cat > "$root/etc/systemd/system/box-devices.service" <<'UNIT'
[Unit]
Description=firmware/check-box.sh: the box's radios and sound card (mac80211_hwsim, snd-aloop)
DefaultDependencies=no
Before=NetworkManager.service
[Service]
Type=oneshot
ExecStart=/sbin/modprobe -a mac80211_hwsim snd-aloop
[Install]
WantedBy=NetworkManager.service
UNIT
  mkdir -p "$root/etc/systemd/system/NetworkManager.service.wants"
  ln -sf /etc/systemd/system/box-devices.service "$root/etc/systemd/system/NetworkManager.service.wants/"
  # What the box's boot needs no time for (no other architectures' binaries, no display, no FUSE, no e2scrub).
  local unit
  for unit in systemd-binfmt.service proc-sys-fs-binfmt_misc.automount proc-sys-fs-binfmt_misc.mount \
      e2scrub_reap.service modprobe@drm.service modprobe@fuse.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
  done
  # A small initramfs: the disk's drivers and its file system, not every storage driver (MODULES=most).
  printf 'virtio_pci\nvirtio_blk\next4\ncrc32c_generic\n' >> "$root/etc/initramfs-tools/modules"
  echo MODULES=list > "$root/etc/initramfs-tools/conf.d/box.conf"
  chroot "$root" update-initramfs -u -k all >/dev/null
  # wlan1 is the phone's, not the table's: NetworkManager leaves it alone.
  printf '[keyfile]\nunmanaged-devices=interface-name:wlan1\n' > "$root/etc/NetworkManager/conf.d/box-phone.conf"
  # No network: apt has no source to ask (install.sh's packages are all installed already).
  echo "# the box has no network (firmware/check-box.sh): every package install.sh names is installed" \
    > "$root/etc/apt/sources.list"
  rm -f "$root"/var/lib/apt/lists/*_* "$root"/var/cache/apt/archives/*.deb
  cat > "$root/etc/systemd/system/box-agent.service" <<'UNIT'
[Unit]
Description=firmware/check-box.sh's agent: runs /mnt/box/agent.sh
RequiresMountsFor=/mnt/box
[Service]
Type=simple
ExecStart=/bin/bash /mnt/box/agent.sh
[Install]
WantedBy=multi-user.target
UNIT
  ln -sf /etc/systemd/system/box-agent.service "$root/etc/systemd/system/multi-user.target.wants/box-agent.service"
  # The phones' camera (Pillow, zxing-cpp): a venv of the check's own, never the table's; made here, natively, not
  # in every run under emulation.
  cp -r "$CACHE/phone-wheels" "$root/tmp/phone-wheels"
  chroot "$root" python3 -m venv /opt/box-phone
  chroot "$root" /opt/box-phone/bin/pip install -q --no-index --find-links /tmp/phone-wheels pillow zxing-cpp
  rm -rf "$root/tmp/phone-wheels"
  passwd --root "$root" -d root >/dev/null  # a root shell on the serial console, for a person looking into a failure
}

# The phones' wheels (Pillow, zxing-cpp for their camera), downloaded once.
phone_wheels() {
  [ -d "$CACHE/phone-wheels" ] && return
  python3 -m pip download -q --dest "$CACHE/phone-wheels.new" --only-binary=:all: pillow zxing-cpp ||
    fail "the phones' wheels (pillow, zxing-cpp)"
  mv "$CACHE/phone-wheels.new" "$CACHE/phone-wheels"
}

# The disk image of the dressed root, made again whenever dress() or the package list changes.
build_image() {
  local stamp dressed=$CACHE/dressed
  stamp=$( { declare -f dress; echo "$PACKAGES"; } | sha256sum | cut -c1-16)
  if [ -f "$CACHE/base.img" ] && [ "$(cat "$CACHE/base.stamp" 2>/dev/null)" = "$stamp" ]; then
    step "reusing $CACHE/base.img"
    return
  fi
  step "the disk image: the root dressed as a Pi (once)"
  rm -rf "$dressed" "$CACHE/base.img" "$CACHE/installed.qcow2"
  cp -a "$PRISTINE" "$dressed"
  dress "$dressed"
  cp "$dressed"/boot/vmlinuz-* "$CACHE/vmlinuz"
  cp "$dressed"/boot/initrd.img-* "$CACHE/initrd.img"
  mkfs.ext4 -q -F -L box -d "$dressed" "$CACHE/base.img" 6G
  rm -rf "$dressed"
  echo "$stamp" > "$CACHE/base.stamp"
}

# The share: the repository as a clone holds it with the bundle in firmware/wheels, the agent and its files.
fill_share() {
  mkdir -p "$SHARE/out" "$SHARE/clone"
  git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - |
    tar -xf - -C "$SHARE/clone"
  if [ ! -f "$CACHE/wheels.stamp" ] || [ "$(cat "$CACHE/wheels.stamp")" != "$(sha256sum pyproject.toml)" ]; then
    step "firmware/bundle.sh for x86-64 (once per pyproject.toml)"
    rm -rf "$CACHE/wheels"
    PI_ARCH=x86_64 firmware/bundle.sh "$CACHE/wheels" > "$CACHE/bundle.log" 2>&1 || fail "bundle.sh ($CACHE/bundle.log)"
    sha256sum pyproject.toml > "$CACHE/wheels.stamp"
  fi
  rm -rf "$SHARE/clone/firmware/wheels" && cp -r "$CACHE/wheels" "$SHARE/clone/firmware/wheels"
  cp firmware/box/agent.sh firmware/box/phone.py firmware/box/wifi-switch.presses "$SHARE/"
}

# Start the box for PHASE with the disk's CACHE mode; QEMU's pid in $QEMU_PID.
start_box() {
  local phase=$1 cache=$2
  echo "$phase" > "$SHARE/phase"
  BOOTS=$((BOOTS + 1))
  qemu-system-x86_64 -accel "$ACCEL" -m 1024 -smp 2 -nodefaults -display none -no-reboot -nic none \
    -serial "file:$WORK/console-$BOOTS-$phase.log" \
    -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" -append "root=/dev/vda rw console=ttyS0 quiet panic=-1" \
    -drive "file=$WORK/disk.qcow2,if=virtio,format=qcow2,cache=$cache" \
    -virtfs "local,path=$SHARE,mount_tag=box,security_model=none" -device virtio-rng-pci &
  QEMU_PID=$!
  BOOTED_AT=$SECONDS
}

# A boot that ends by itself (the agent powers off): PHASE, time limit in seconds.
boot() {
  local phase=$1 limit=$2
  step "boot $((BOOTS + 1)): $phase"
  start_box "$phase" writeback
  while kill -0 "$QEMU_PID" 2>/dev/null; do
    if [ $((SECONDS - BOOTED_AT)) -gt "$limit" ]; then
      kill -9 "$QEMU_PID"; wait "$QEMU_PID" || true
      tail -30 "$SHARE/out/$phase.log" 2>/dev/null
      fail "$phase: the box did not finish within $limit s (console: $WORK/console-$BOOTS-$phase.log)"
    fi
    sleep 1
  done
  wait "$QEMU_PID" || true
  echo "   (powered off after $((SECONDS - BOOTED_AT)) s)"
  echo "$phase $((SECONDS - BOOTED_AT))" >> "$WORK/timings"
  local result
  result=$(cat "$SHARE/out/$phase.result" 2>/dev/null || echo "FAILED: no result (console: $WORK/console-$BOOTS-$phase.log)")
  [ "$result" = passed ] || { tail -40 "$SHARE/out/$phase.log" 2>/dev/null; fail "$phase: $result"; }
}

acked() { if [ -f "$SHARE/out/acked.jsonl" ]; then wc -l < "$SHARE/out/acked.jsonl"; else echo 0; fi; }

# A boot that ends in power cut N of CUTS: PHASE runs until the phones have 2 more inputs acknowledged, then 0-4 s
# later (while they go on) QEMU is killed. A box that stops by itself failed (its result says why). A power-N boot
# whose guest hangs (no 2 inputs within LIMIT s: the emulated radio's kernel driver once locked both CPUs while a
# phone joined, about one join in 30) is killed like any cut and booted again once, as PHASE-again: the disk is as
# the hang left it, and the verify boot still wants every acknowledged input in the game. Two hangs in a row fail.
cut_boot() {
  local phase=$1 n=$2 cuts=$3 limit=$4
  cut_once "$phase" "$n" "$cuts" "$limit" && return
  case "$phase" in power-*) ;; *) fail "$phase: fewer than 2 inputs acknowledged within $limit s" ;; esac
  HANGS=$((HANGS + 1))
  echo "   the box hung (console: $WORK/console-$BOOTS-$phase.log): killed as one more power cut, booted again"
  cut_once "$phase-again" "$n" "$cuts" "$limit" || fail "$phase: fewer than 2 inputs acknowledged within $limit s, twice"
}

# One such boot; returns 1 (QEMU killed) when fewer than 2 inputs were acknowledged within LIMIT s.
cut_once() {
  local phase=$1 n=$2 cuts=$3 limit=$4 before
  before=$(acked)
  step "boot $((BOOTS + 1)): $phase, ending in power cut $n of $cuts ($before inputs acknowledged so far)"
  start_box "$phase" writethrough
  until [ "$(acked)" -ge $((before + 2)) ]; do
    if ! kill -0 "$QEMU_PID" 2>/dev/null; then
      wait "$QEMU_PID" || true
      tail -40 "$SHARE/out/$phase.log"
      fail "$phase: $(cat "$SHARE/out/$phase.result" 2>/dev/null || echo "the box stopped")"
    fi
    if [ $((SECONDS - BOOTED_AT)) -ge "$limit" ]; then
      kill -9 "$QEMU_PID"; wait "$QEMU_PID" 2>/dev/null || true
      tail -30 "$SHARE/out/$phase.log" 2>/dev/null
      echo "$phase $((SECONDS - BOOTED_AT))" >> "$WORK/timings"
      return 1
    fi
    sleep 0.5
  done
  sleep "$((RANDOM % 4)).$((RANDOM % 10))"  # the cut: a random moment while the phones go on
  kill -9 "$QEMU_PID"; wait "$QEMU_PID" 2>/dev/null || true
  echo "   cut after $((SECONDS - BOOTED_AT)) s; $(( $(acked) - before )) inputs acknowledged in this boot"
  echo "$phase $((SECONDS - BOOTED_AT))" >> "$WORK/timings"
}

figures() {
  step "figures (a VM under emulation: QEMU $ACCEL on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
  python3 - "$SHARE/out/marks" "$WORK/timings" <<'PY'
import sys
marks, order = {}, []
for line in open(sys.argv[1]):
    phase, name, uptime = line.split()
    marks.setdefault(phase, {})[name] = float(uptime)
print("  where the time goes: each boot (QEMU started to powered off or cut) and the box's marks in it, seconds")
print("  since its kernel started:")
for line in open(sys.argv[2]):
    phase, seconds = line.split()
    steps = ", ".join(f"{name} {at:.0f}" for name, at in marks.get(phase, {}).items())
    print(f"    {phase:<9} {int(seconds):>5} s   {steps}")
t = marks.get("table", {})
def row(what, value):
    print(f"  {what:<58} {value}")
if "page" in t:
    row("boot to the page answering (since the kernel started)", f"{t['page']:.1f} s")
if "hotspot" in t and "page" in t:
    row("hotspot up, after the page answered (network = auto: 45 s)", f"{t['hotspot'] - t['page']:.1f} s")
if "phone-input" in t and "phone-wifi" in t:
    row("phone on the Wi-Fi to its first input (DHCP, portal, join)", f"{t['phone-input'] - t['phone-wifi']:.1f} s")
cuts = [m["page"] for p, m in marks.items() if p.startswith(("power-", "verify")) and "page" in m]
if cuts:
    row(f"after a power cut: boot to the page answering ({len(cuts)} boots)",
        f"{min(cuts):.1f}-{max(cuts):.1f} s")
PY
  grep -h "Overall exposure" "$SHARE/out/security.txt" || true
}

main() {
  local installed=0 cuts=10
  [ "${1:-}" = --installed ] && { installed=1; shift; }
  cuts=${1:-10}
  [[ "$cuts" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--installed] [CUTS (1 or more)]" >&2; exit 2; }
  [ "$(id -u)" = 0 ] || { echo "run me with sudo (debootstrap, chroot)" >&2; exit 1; }
  cd "$(dirname "$0")/.."
  CACHE=${COMPANION_BOX_CACHE:-/var/cache/companion-box}
  MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
  ACCEL=${COMPANION_BOX_ACCEL:-tcg}
  PRISTINE=$CACHE/bookworm-amd64
  WORK=$CACHE/run  # kept after the run: the logs and the share, for a person looking into a failure
  SHARE=$WORK/share
  BOOTS=0
  HANGS=0
  QEMU_PID=
  trap '[ -z "$QEMU_PID" ] || kill -9 "$QEMU_PID" 2>/dev/null || true' EXIT
  SECONDS=0

  step "tools"
  for tool in debootstrap qemu-system-x86_64 qemu-img mkfs.ext4 git; do
    command -v "$tool" >/dev/null || fail "no $tool: apt-get install debootstrap qemu-system-x86 qemu-utils e2fsprogs git"
  done
  if [ -d "$PRISTINE" ]; then
    step "reusing $PRISTINE"
  else
    step "debootstrap Bookworm amd64 into $PRISTINE (once; minutes)"
    build_root
  fi
  phone_wheels
  build_image
  rm -rf "$WORK"; mkdir -p "$WORK"
  fill_share
  if [ "$installed" = 1 ]; then
    [ -f "$CACHE/installed.qcow2" ] || fail "--installed: no installed image yet (run once without it)"
    cp "$CACHE/installed.qcow2" "$WORK/disk.qcow2"
    cp "$CACHE/installed.marks" "$SHARE/out/marks"
  else
    qemu-img create -q -f qcow2 -b "$CACHE/base.img" -F raw "$WORK/disk.qcow2"
    boot install 1800
    cp "$WORK/disk.qcow2" "$CACHE/installed.qcow2"
    cp "$SHARE/out/marks" "$CACHE/installed.marks"
  fi
  cut_boot table 1 "$cuts" 1200
  local n
  for n in $(seq 2 "$cuts"); do cut_boot "power-$n" "$n" "$cuts" "${COMPANION_BOX_CUT_LIMIT:-300}"; done
  boot verify 900
  tail -1 "$SHARE/out/verified.jsonl"
  figures
  local from="install"; [ "$installed" = 0 ] || from="(from the installed image)"
  step "passed: $from, the table under systemd, its Wi-Fi with a phone, the voice, the host menu's Wi-Fi switch, $cuts power cuts ($HANGS hung boots killed and booted again); $SECONDS s"
}

main "$@"; exit  # nothing after main is read: the file may change while it runs

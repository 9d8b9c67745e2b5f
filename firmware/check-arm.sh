#!/usr/bin/env bash
# The install script and the running table on the Pi's own architecture, emulated (docs/arm.md):
#   sudo firmware/check-arm.sh [arm64|armhf] [bookworm|trixie]   (default arm64 bookworm; on Debian or Ubuntu)
# It builds (once; then reuses) a Debian root of that architecture and release with debootstrap, run by
# qemu-user-static through binfmt_misc; dresses a fresh copy of it as a Pi (a sudo user "pi", a
# /boot/firmware/config.txt); copies the repository into ~pi/companion and runs `sudo firmware/install.sh` there as
# a user would (on trixie from a bundle of firmware/bundle.sh made for the root's Python and C library, so pip
# installs without an index, lgpio built from its bundled source). Then, with no network but loopback: starts the table as the systemd unit's ExecStart does (its user,
# groups and capability, its config with mock pins and no display), checks the phone page and port 80 answer; plays the bundled demo to its winner;
# replays the game files of every ruleset on the installed (pure) engine; prints the figures of bench/arm.py beside
# the same figures measured natively in the same run. Exit status 0: every check passed.
# Needs: debootstrap, qemu-user-static, binfmt-support (Debian packages), about 1.6 GB in the cache (arm64, measured) and the network
# (Debian's archive, PyPI). Cache: $COMPANION_ARM_CACHE, default /var/cache/companion-arm (outside the repository).
# The whole script is read before it runs (main, at the end): a `git pull` during a run does not change it.
set -euo pipefail

step() { printf '\n== [%3ds] %s\n' "$SECONDS" "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# binfmt_misc mounted, Debian's qemu-$QEMU entry enabled, and an entry of our own with the C flag for this run.
setup_binfmt() {
  local debian=/proc/sys/fs/binfmt_misc/qemu-$QEMU
  [ -f /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  grep -qx enabled "$debian" 2>/dev/null || update-binfmts --enable "qemu-$QEMU" 2>/dev/null || true
  grep -qx enabled "$debian" 2>/dev/null ||
    fail "binfmt_misc has no qemu-$QEMU entry: apt-get install binfmt-support qemu-user-static"
  grep -q '^flags: .*F' "$debian" ||
    fail "qemu-$QEMU is registered without the F flag: a chroot cannot reach the emulator (Debian's entry has it)"
  # A setuid program (sudo) keeps its rights under the emulator only with binfmt_misc's C flag, which Debian's
  # entry lacks. For this run, an entry of our own with it (the kernel tries the newest entry first).
  hex() { sed -n "s/^$1 //p" "$debian" | sed 's/../\\x&/g'; }
  [ ! -e "$ENTRY" ] || echo -1 > "$ENTRY"
  printf ':%s:M:0:%s:%s:%s:PFC' "${ENTRY##*/}" "$(hex magic)" "$(hex mask)" \
    "$(sed -n 's/^interpreter //p' "$debian")" > /proc/sys/fs/binfmt_misc/register
}

# The cached root: Debian minbase of $SUITE with what Raspberry Pi OS Lite has and install.sh expects.
build_root() {
  rm -rf "$PRISTINE.new"; mkdir -p "$CACHE"
  debootstrap --arch="$ARCH" --variant=minbase --include=python3,sudo,ca-certificates,systemd \
    "$SUITE" "$PRISTINE.new" "$MIRROR" > "$CACHE/debootstrap-$TAG.log" ||
    fail "debootstrap (see $CACHE/debootstrap-$TAG.log)"
  mv "$PRISTINE.new" "$PRISTINE"
}

# A fresh copy of the cached root, dressed as a Pi, the repository cloned into ~pi/companion (and into $WORK/clone).
fresh_root() {
  rm -rf "$ROOT"; cp -a "$PRISTINE" "$ROOT"
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  echo raspberrypi > "$ROOT/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 raspberrypi\n::1 localhost\n' > "$ROOT/etc/hosts"
  chroot "$ROOT" useradd --create-home --shell /bin/bash --groups sudo pi
  echo "pi ALL=(ALL) NOPASSWD: ALL" > "$ROOT/etc/sudoers.d/010_pi-nopasswd"
  # This machine's own certificate authorities (a proxy that inspects TLS, say) are trusted there too, and pip is
  # told to use the system's store rather than its own (certifi): else no download from PyPI gets through. A Pi
  # behind such a proxy needs the same. (Added to the bundle as update-ca-certificates would: it takes minutes
  # under emulation.)
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    cat /usr/local/share/ca-certificates/*.crt >> "$ROOT/etc/ssl/certs/ca-certificates.crt"
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
  fi
  mkdir -p "$ROOT/boot/firmware"
  printf '# stand-in for the Pi boot partition config.txt (firmware/check-arm.sh)\n[all]\n' \
    > "$ROOT/boot/firmware/config.txt"
  # The clone: the files git knows (tracked, and new ones not ignored), as `git clone` would give them.
  mkdir "$WORK/clone"
  git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - |
    tar -xf - -C "$WORK/clone"
  cp -r "$WORK/clone" "$ROOT/home/pi/companion"
  chroot "$ROOT" chown -R pi:pi /home/pi/companion
  # Downloads kept between runs: Debian's packages and pip's cache (wheels built under emulation: lgpio's, ...).
  mkdir -p "$CACHE/apt-$TAG" "$CACHE/pip-$TAG"
}

# The wheel bundle of firmware/bundle.sh in ~pi/companion/firmware/wheels, made here (with the internet) for the
# root's own Python and C library, as a user makes one for a Pi without internet: install.sh then installs with
# pip's --no-index. Trixie's Python 3.13 has no lgpio wheel on PyPI: the bundle carries lgpio's source, which
# install.sh builds there (PYPI=1, with Debian's swig and gcc).
bundle_for_the_root() {
  local python glibc
  read -r python glibc < <(in_root python3 -c 'import platform, sys
print("%d.%d" % sys.version_info[:2], platform.libc_ver()[1])')
  step "firmware/bundle.sh for the root: Python $python, glibc $glibc, $QEMU"
  PI_ARCH=$([ "$ARCH" = arm64 ] && echo aarch64 || echo armv7l) PI_PYTHON=$python PI_GLIBC=$glibc \
    firmware/bundle.sh "$ROOT/home/pi/companion/firmware/wheels" > "$WORK/bundle.log" 2>&1 ||
    { tail -20 "$WORK/bundle.log"; fail "bundle.sh for Python $python"; }
  tail -2 "$WORK/bundle.log"
  chroot "$ROOT" chown -R pi:pi /home/pi/companion/firmware/wheels
}

# Run "$@" in the root as a booted Pi would see it, in namespaces of its own: its mounts (gone when it ends), its
# process ids (nothing it starts outlives it), its host name; with --offline, a network of loopback only (the table
# listens on its config's port without meeting anything of this machine's). systemd does not run there.
in_root() {
  local net=()
  if [ "$1" = --offline ]; then net=(--net); shift; fi
  # shellcheck disable=SC2016 # expanded by the inner bash, from its arguments
  unshare --mount --uts --ipc --pid --fork "${net[@]}" --mount-proc="$ROOT/proc" \
    bash -euc '
      root=$1 cache=$2 tag=$3; shift 3
      hostname raspberrypi
      ip link set lo up
      mount -t sysfs sysfs "$root/sys"
      mount -t tmpfs tmpfs "$root/run"
      mount -t tmpfs tmpfs "$root/dev/shm"
      mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
      mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"
      mount --bind "$cache/apt-$tag" "$root/var/cache/apt/archives"
      mkdir -p "$root/root/.cache/pip"; mount --bind "$cache/pip-$tag" "$root/root/.cache/pip"
      exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM=dumb HOME=/root "$@"' _ "$ROOT" "$CACHE" "$TAG" "$@"
}

# A shell command as user pi, as after logging in: as_pi [--offline] COMMAND
as_pi() {
  local net=()
  if [ "$1" = --offline ]; then net=(--offline); shift; fi
  in_root "${net[@]}" runuser -l pi -c "$1"
}

# The unit's config with mock pins and no display (no Pi hardware here); the rest as installed.
check_config() { sed -e 's/^pin_factory = .*/pin_factory = "mock"/' -e 's/^display = .*/display = "none"/' "$@"; }

install_as_a_user_would() {
  step "sudo firmware/install.sh, as user pi in ~/companion"
  as_pi 'cd ~/companion && sudo firmware/install.sh' 2>&1 | tee "$WORK/install.log"
  grep -q "nothing was started now" "$WORK/install.log" || fail "install.sh did not say that it started nothing"
}

check_installed() {
  step "what install.sh left; pytest beside it for the game files (in /opt/check, not in the table's venv)"
  # shellcheck disable=SC2016 # expanded in the root
  in_root bash -euc '
    [ "$(systemctl is-enabled companion.service)" = enabled ] || { echo "companion.service is not enabled"; exit 1; }
    id companion
    ls -l /etc/companion
    grep -q "^# companion:" /boot/firmware/config.txt || { echo "no I2C lines in /boot/firmware/config.txt"; exit 1; }
    /opt/companion/.venv/bin/python -c "import lgpio, platform, sys
from companion.engine import BUILD
from companion.sim import BUILD as BOTS
print(\"lgpio:\", lgpio.__file__, \"|\", platform.machine(), sys.version.split()[0], \"| engine:\", BUILD.describe(),
      \"| bots:\", BOTS.describe())"
    # The host menu powers the Pi off through logind, which the polkit rule allows user companion (no sudo: the
    # unit has NoNewPrivileges=yes, and install.sh removes the sudoers rule of earlier installs).
    [ -f /etc/polkit-1/rules.d/50-companion.rules ] || { echo "no polkit rule for powering off"; exit 1; }
    [ ! -e /etc/sudoers.d/companion ] || { echo "the sudoers rule of earlier installs is still there"; exit 1; }
    python3 -m venv /opt/check && /opt/check/bin/pip install -q pytest' || fail "the installed system"
}

check_table_demo_and_games() {
  step "the table as companion.service starts it (user companion, its config with mock pins and no display)"
  check_config "$ROOT/etc/companion/config.toml" > "$ROOT/etc/companion/check.toml"
  in_root --offline bash -euc 'cd /home/pi/companion && /opt/companion/.venv/bin/python bench/arm.py table \
    --unit /etc/systemd/system/companion.service --config /etc/companion/check.toml' > "$WORK/emulated-table.json" ||
    fail "the table"

  step "the bundled demo, as pi, from another directory"
  as_pi --offline 'cd /tmp && /opt/companion/.venv/bin/companion demo --headless < /dev/null' | tee "$WORK/demo.log" |
    tail -3
  grep -qx "Winner: Ann" "$WORK/demo.log" || fail "the demo did not play to its winner, Ann"

  step "the game files of every ruleset, on the installed engine (tests/test_gamefiles.py, from outside the clone)"
  # shellcheck disable=SC2016 # expanded in the root
  in_root --offline bash -euc 'rm -rf /tmp/replay && mkdir /tmp/replay && cp -r /home/pi/companion/tests /tmp/replay &&
    cd /tmp/replay && PYTHONPATH=$(echo /opt/check/lib/python3*/site-packages) \
    /opt/companion/.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_gamefiles.py' || fail "the game files"
}

figures() {
  step "figures: emulated $ARCH, then natively"
  in_root --offline bash -euc 'cd /home/pi/companion &&
    COMPANION_ENGINE=pure /opt/companion/.venv/bin/python bench/arm.py engine --seconds 10' \
    > "$WORK/emulated-engine.json"
  # Natively: the same program installed the same way (not editable, pure), in a venv kept in the cache.
  local native=$CACHE/native-$ARCH
  python3 -m venv --clear "$native"
  COMPANION_PURE=1 "$native/bin/pip" install -qq "$WORK/clone[table]"
  cd "$WORK/clone"  # the files copied into the root, whatever happened to the repository since
  check_config -e "s|^journal = .*|journal = \"$WORK/native.sqlite3\"|" -e '/^pins = /d' firmware/config.toml \
    > "$WORK/native.toml"
  unshare --net bash -euc 'ip link set lo up && exec "$@"' _ "$native/bin/python" bench/arm.py table \
    --unit firmware/companion.service --config "$WORK/native.toml" --here > "$WORK/native-table.json" ||
    fail "the table, natively"
  COMPANION_ENGINE=pure "$native/bin/python" bench/arm.py engine --seconds 10 > "$WORK/native-engine.json"
  echo
  "$native/bin/python" bench/arm.py compare --native "$WORK"/native-{table,engine}.json \
    --emulated "$WORK"/emulated-{table,engine}.json --label "$ARCH, qemu-user (EMULATED)"
}

main() {
  ARCH=${1:-arm64}
  SUITE=${2:-bookworm}
  case "$ARCH" in
    arm64) QEMU=aarch64 ;;
    armhf) QEMU=arm ;;
    *) echo "usage: $0 [arm64|armhf] [bookworm|trixie]" >&2; exit 2 ;;
  esac
  case "$SUITE" in
    bookworm) TAG=$ARCH BUNDLE=0 ;;  # the names of the caches before trixie came
    trixie) TAG=$ARCH-trixie BUNDLE=1 ;;
    *) echo "usage: $0 [arm64|armhf] [bookworm|trixie]" >&2; exit 2 ;;
  esac
  [ "$(id -u)" = 0 ] || { echo "run me with sudo (debootstrap, chroot, mounts)" >&2; exit 1; }
  cd "$(dirname "$0")/.."
  CACHE=${COMPANION_ARM_CACHE:-/var/cache/companion-arm}
  MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
  PRISTINE=$CACHE/$SUITE-$ARCH
  ROOT=$CACHE/run-$ARCH
  ENTRY=/proc/sys/fs/binfmt_misc/companion-check-$QEMU
  WORK=$(mktemp -d)
  trap '[ ! -e "$ENTRY" ] || echo -1 > "$ENTRY"; rm -rf "$WORK"' EXIT
  SECONDS=0

  step "tools and binfmt_misc (qemu-$QEMU)"
  for tool in debootstrap "qemu-$QEMU-static" unshare ip git; do
    command -v "$tool" >/dev/null ||
      fail "no $tool: apt-get install debootstrap qemu-user-static binfmt-support iproute2 git"
  done
  setup_binfmt
  if [ -d "$PRISTINE" ]; then
    step "reusing $PRISTINE"
  else
    step "debootstrap $SUITE $ARCH into $PRISTINE (once; minutes under emulation)"
    build_root
  fi
  step "a fresh copy of it, dressed as a Pi: user pi (sudo without a password), /boot/firmware/config.txt"
  fresh_root
  [ "$BUNDLE" = 0 ] || bundle_for_the_root
  install_as_a_user_would
  check_installed
  check_table_demo_and_games
  figures
  step "passed: install.sh$([ "$BUNDLE" = 0 ] || echo " (from a bundle)"), the table, the demo and the game files on $SUITE $ARCH (emulated); $SECONDS s in all"
}

main "$@"; exit  # nothing after main is read: the file may change while it runs

#!/usr/bin/env bash
# Download every Python package the table installs, for a Pi that has no internet at install time.
# Run on any computer with internet and Python 3.11 or newer, from a clone of the repository:
#     firmware/bundle.sh [FOLDER]        (default: firmware/wheels, where firmware/install.sh looks for them)
# then copy the whole clone (with the folder) onto the Pi; `sudo firmware/install.sh` installs from the folder with
# pip's --no-index. The Debian packages still come from apt (README: "A table without internet").
# PI_ARCH: aarch64 (64-bit Raspberry Pi OS, the default) or armv7l (32-bit: PyPI has few wheels for it; add an index
# that has them, such as piwheels, with PIP_EXTRA_INDEX_URL). PI_PYTHON: the Pi's Python (Bookworm's 3.11).
# PYTHON: the python3 that runs pip here. PIP: the pip command (default: "$PYTHON -m pip").
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-firmware/wheels}
PI_ARCH=${PI_ARCH:-aarch64}
PI_PYTHON=${PI_PYTHON:-3.11}
PYTHON=${PYTHON:-python3}
read -r -a PIP <<< "${PIP:-$PYTHON -m pip}"
case "$PI_ARCH" in
  aarch64|armv7l) ;;
  *) echo "PI_ARCH must be aarch64 (64-bit Raspberry Pi OS) or armv7l (32-bit), not $PI_ARCH" >&2; exit 2 ;;
esac
ABI="cp${PI_PYTHON/./}"
# Bookworm's C library is glibc 2.36: every manylinux wheel up to it runs there, and pip has to be told each one
# (it does not count down from the newest).
TARGET=(--only-binary=:all: --platform "linux_$PI_ARCH" --platform "manylinux2014_$PI_ARCH")
for minor in $(seq 17 36); do TARGET+=(--platform "manylinux_2_${minor}_$PI_ARCH"); done
TARGET+=(--python-version "$PI_PYTHON" --implementation cp --abi "$ABI" --abi abi3 --abi none)

# What `pip install '.[pi]'` needs, read from pyproject.toml: the extras' requirements (markers dropped: they are
# the Pi's, not this computer's) and the build's own (setuptools, Cython).
mapfile -t REQUIREMENTS < <("$PYTHON" - <<'PY'
import re, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))
extras = project["project"]["optional-dependencies"]
wanted, seen, todo = [], set(), ["pi"]
while todo:
    extra = todo.pop()
    if extra in seen:
        continue
    seen.add(extra)
    for requirement in extras[extra]:
        inner = re.fullmatch(r"companion\[(\w+)\]", requirement.strip())
        if inner:
            todo.append(inner.group(1))
        else:
            wanted.append(requirement.split(";")[0].strip())
wanted += project["build-system"]["requires"]
print("\n".join(sorted(set(wanted), key=str.lower)))
PY
)
mkdir -p "$DEST"
echo "== ${#REQUIREMENTS[@]} requirements and what they need, for Python $PI_PYTHON on $PI_ARCH, into $DEST"
"${PIP[@]}" download --dest "$DEST" "${TARGET[@]}" "${REQUIREMENTS[@]}"
echo "== done: $(find "$DEST" -name '*.whl' | wc -l) wheels. Copy the clone with $DEST onto the Pi, then run"
echo "   sudo firmware/install.sh (it installs from $DEST without an index)"

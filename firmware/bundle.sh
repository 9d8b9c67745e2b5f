#!/usr/bin/env bash
# Download every Python package the table installs, for a Pi that has no internet at install time.
# Run on any computer with internet and Python 3.11 or newer, from a clone of the repository:
#     firmware/bundle.sh [FOLDER]        (default: firmware/wheels, where firmware/install.sh looks for them)
# then copy the whole clone (with the folder) onto the Pi; `sudo firmware/install.sh` installs from the folder with
# pip's --no-index. The Debian packages still come from apt (README: "A table without internet").
# PI_ARCH: aarch64 (64-bit Raspberry Pi OS, the default), armv7l (32-bit: PyPI has few wheels for it; add an index
# that has them, such as piwheels, with PIP_EXTRA_INDEX_URL) or x86_64 (a PC or the virtual machine of
# firmware/check-box.sh). PI_PYTHON: the Pi's Python; PI_GLIBC: its C library (Bookworm: 3.11 and 2.36, the
# defaults; Trixie: PI_PYTHON=3.13 PI_GLIBC=2.41). Where PyPI has no wheel of lgpio for that Python (none for 3.13),
# its source is bundled: Raspberry Pi OS's python3-lgpio stands in for it, and elsewhere install.sh builds it.
# PYTHON: the python3 that runs pip here. PIP: the pip command (default: "$PYTHON -m pip").
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=${1:-firmware/wheels}
PI_ARCH=${PI_ARCH:-aarch64}
PI_PYTHON=${PI_PYTHON:-3.11}
PI_GLIBC=${PI_GLIBC:-2.36}
PYTHON=${PYTHON:-python3}
read -r -a PIP <<< "${PIP:-$PYTHON -m pip}"
case "$PI_ARCH" in
  aarch64|armv7l|x86_64) ;;
  *) echo "PI_ARCH must be aarch64 (64-bit Raspberry Pi OS), armv7l (32-bit) or x86_64, not $PI_ARCH" >&2; exit 2 ;;
esac
[[ "$PI_GLIBC" =~ ^2\.([0-9]+)$ ]] || { echo "PI_GLIBC must read 2.N (Bookworm: 2.36), not $PI_GLIBC" >&2; exit 2; }
GLIBC_MINOR=${BASH_REMATCH[1]}
ABI="cp${PI_PYTHON/./}"
# Every manylinux wheel up to the Pi's C library runs there (Bookworm's glibc 2.36), and pip has to be told each
# one (it does not count down from the newest).
TARGET=(--only-binary=:all: --platform "linux_$PI_ARCH" --platform "manylinux2014_$PI_ARCH")
for minor in $(seq 17 "$GLIBC_MINOR"); do TARGET+=(--platform "manylinux_2_${minor}_$PI_ARCH"); done
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
# lgpio: PyPI's wheels stop at Python 3.12 (and an old placeholder wheel would stand in for the real one). Without
# a wheel for the Pi's Python, its source: Raspberry Pi OS's python3-lgpio satisfies the requirement (the venv sees
# the system's packages), and on a Debian without it install.sh builds the source (PYPI=1, with swig and gcc).
LGPIO=$(printf '%s\n' "${REQUIREMENTS[@]}" | grep '^lgpio' || true)
if [ -n "$LGPIO" ] && ! "${PIP[@]}" download --dest "$DEST" --no-deps "${TARGET[@]}" "$LGPIO"; then
  echo "== no lgpio wheel for Python $PI_PYTHON on $PI_ARCH: its source instead"
  "${PIP[@]}" download --dest "$DEST" --no-deps --no-binary=:all: "$LGPIO"
  # Built without an index there: what pip builds a setup.py-only project with comes along.
  mapfile -t REQUIREMENTS < <(printf '%s\n' "${REQUIREMENTS[@]}" | grep -v '^lgpio'; echo wheel)
fi
echo "== ${#REQUIREMENTS[@]} requirements and what they need, for Python $PI_PYTHON on $PI_ARCH, into $DEST"
"${PIP[@]}" download --dest "$DEST" "${TARGET[@]}" "${REQUIREMENTS[@]}"
echo "== done: $(find "$DEST" -name '*.whl' | wc -l) wheels$(find "$DEST" -name 'lgpio-*.tar.gz' | grep -q . && echo ", lgpio's source"). Copy the clone with $DEST onto the Pi, then run"
echo "   sudo firmware/install.sh (it installs from $DEST without an index)"

"""The engine's optional compiled modules: Cython compiles the engine's own ``.py`` files as they are.

Everything else about the package is in ``pyproject.toml``. The engine is plain Python and stays so:
Cython turns the same sources into C extension modules (no ``.pyx``, no type declarations; the
type hints are not read as C types), which Python imports in place of the ``.py`` files, about 1.4×
as fast (docs/simulate.md). Each module is ``optional``: with no C compiler or no Python headers the
build warns and the package installs with the pure engine.

Compiled on request: ``COMPANION_COMPILE=1`` at install (or ``CI`` set, as CI services do and ``.ci/run``
does), so that the README's first command reaches the demo within a minute on a fresh 2-core machine (the
compile took it to 171 s); ``COMPANION_PURE=1`` always skips it. An engine already compiled from the same
sources (``compiled.json`` holds each source's hash, and every module is there) is not compiled again.

Beside the modules the build writes ``compiled.json``, the SHA-256 of each source compiled:
``companion.compiled`` uses the compiled modules only while every source still has its hash (an
engine file edited after ``pip install -e .`` is imported from its source, with a warning).

The build also bundles the pin map, ``hardware/pins.toml`` (the one in git), into the package as
``companion/devices/pins.toml``, so that an install that is not editable (``pip install .``, pipx,
``firmware/install.sh``) has a pin map of its own; an editable install reads the source tree's.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from pathlib import Path

from build_backend import compile_requested  # beside this file: the backend asks for Cython only then
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ENGINE = Path("companion", "engine")
#: Not compiled: the package's ``__init__`` runs the check of the compiled modules before it imports them.
NOT_COMPILED = {"__init__.py"}
MANIFEST = "compiled.json"
#: The pin map in git, and where the build puts it in the package (``companion.devices.pins.PACKAGED_PINS``).
PIN_MAP = Path("hardware", "pins.toml")
PACKAGED_PIN_MAP = Path("companion", "devices", "pins.toml")
#: Memory one compiler needs: gcc 12's cc1 took 349 MB on the largest module at -O3. A machine with less free
#: (a Pi Zero 2 W has 512 MB in all) is not asked to compile, and a larger one runs one compiler per such share.
MEMORY_PER_COMPILER = 512 * 2**20


def available_memory() -> int | None:
    """Bytes of memory available now (Linux's MemAvailable), or None where that is not known."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def compilers() -> int:
    """How many modules to compile at once: one per core, as memory allows (0: none)."""
    memory = available_memory()
    cores = os.cpu_count() or 1
    return cores if memory is None else min(cores, memory // MEMORY_PER_COMPILER)


def engine_sources() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if p.name not in NOT_COMPILED)


def module_name(source: Path) -> str:
    return ".".join(source.with_suffix("").parts)


def already_compiled() -> bool:
    """Whether every engine module is compiled, for this Python, from the sources as they are now (an editable
    install compiled them before): then a second install does not compile them again."""
    try:
        manifest = json.loads((ENGINE / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return all(source.with_suffix(suffix).is_file()
               and manifest.get(source.relative_to(ENGINE).as_posix()) == hashlib.sha256(source.read_bytes()).hexdigest()
               for source in engine_sources())


def engine_extensions() -> list[Extension]:
    """The engine's modules as Cython extensions; none (the pure engine) unless asked for, when already compiled from
    the same sources, or if Cython is missing or cannot translate them."""
    if not compile_requested():
        return []
    if already_compiled():
        print("the engine is already compiled from these sources: not compiled again", file=sys.stderr)
        return []
    if compilers() == 0:
        print(f"warning: the engine is not compiled (less than {MEMORY_PER_COMPILER >> 20} MB of memory available); "
              "it runs from its sources", file=sys.stderr)
        return []
    extensions = [Extension(module_name(p), [str(p)], optional=True) for p in engine_sources()]
    try:
        from Cython.Build import cythonize  # a build requirement (pyproject.toml), absent without build isolation

        return cythonize(extensions, quiet=True, build_dir="build/cython", compiler_directives={
            "language_level": 3,
            "annotation_typing": False,  # hints stay hints: ``-> list[str]`` must not refuse a list subclass
            "binding": True,  # functions keep Python's introspection (inspect.signature, __wrapped__)
        })
    except Exception as error:  # noqa: BLE001 - ImportError, or Cython's CompileError on syntax it does not know yet
        print(f"warning: the engine is not compiled ({type(error).__name__}: {error}); it runs from its sources",
              file=sys.stderr)
        return []


class BuildEngine(build_ext):
    """build_ext that compiles on every core memory allows and writes the manifest of the sources it compiled."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = max(1, compilers())

    def build_extensions(self) -> None:
        self.not_built: set[str] = set()
        super().build_extensions()
        # What was not built is not copied into the sources (``pip install -e``) nor listed in the wheel.
        self.extensions = [ext for ext in self.extensions if ext.name not in self.not_built]

    def build_extension(self, ext: Extension) -> None:
        # Every module is optional. setuptools' own ``optional`` lets a failed compiler command through in recent
        # releases (a CalledProcessError), so the failure is caught here, whatever form it takes.
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001 - no compiler, no headers, a compiler error: the source runs
            self.not_built.add(ext.name)
            self.warn(f"{ext.name} is not compiled ({error}): it runs from its source")

    def run(self) -> None:
        super().run()
        built = {}
        for extension in self.extensions:
            module = Path(self.get_ext_fullpath(extension.name))
            if module.exists():
                source = Path(*extension.name.split(".")).with_suffix(".py")
                built[source.relative_to(ENGINE).as_posix()] = hashlib.sha256(source.read_bytes()).hexdigest()
        if not self.extensions:
            return  # nothing compiled: no manifest, the engine runs from its sources
        target = Path(self.get_ext_fullpath(module_name(ENGINE / "core.py"))).parent / MANIFEST
        target.write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")


class BuildWithPins(build_py):
    """build_py that also copies ``hardware/pins.toml`` into the built package (not for an editable install, which
    reads it from the source tree: a copy there would be a second pin map to keep in step)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / PACKAGED_PIN_MAP
            self.mkpath(str(target.parent))
            self.copy_file(str(PIN_MAP), str(target))


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildEngine, "build_py": BuildWithPins})

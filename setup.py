"""The optional compiled modules: Cython compiles the engine's own ``.py`` files as they are, and the bots'.

Everything else about the package is in ``pyproject.toml``. The engine and the simulator are plain Python and
stay so: Cython turns the same sources into C extension modules (no ``.pyx``; the type hints are not read as C
types), which Python imports in place of the ``.py`` files (docs/simulate.md: the engine about 1.4× as fast; the
simulator's modules that bots play through, :data:`COMPILED`, another ~1.2× on classic bot games). Three classes
every input goes through, the engine's ``Draft`` and the bots' ``Strategy`` and ``PropertyStrategy``, have their
attributes declared in a ``.pxd`` beside their source, which makes them C classes in the compiled build (about 10%
fewer instructions per classic bot turn); the sources never read those files. Each module is ``optional``: with no
C compiler or no Python headers the build warns and the package installs with its sources.

Compiled on request: ``COMPANION_COMPILE=1`` at install (or ``CI`` set, as CI services do and ``.ci/run``
does), so that the README's first command reaches the demo within a minute on a fresh 2-core machine (the
compile took it to 171 s); ``COMPANION_PURE=1`` always skips it. A package already compiled from the same
sources (its ``compiled.json`` holds each source's hash, and every module is there) is not compiled again.

Beside each package's modules the build writes its ``compiled.json``, the SHA-256 of each source compiled (and
of its ``.pxd``):
``companion.compiled`` uses a package's compiled modules only while every source still has its hash (a
file edited after ``pip install -e .`` is imported, with its whole package, from its source, with a warning).

The build also bundles the pin map, ``hardware/pins.toml`` (the one in git), into the package as
``companion/drivers/pins.toml``, so that an install that is not editable (``pip install .``, pipx,
``firmware/install.sh``) has a pin map of its own; an editable install reads the source tree's.
"""

from __future__ import annotations

import json
import os
import sys
import sysconfig
from pathlib import Path

from build_backend import compile_requested  # beside this file: the backend asks for Cython only then
from companion.compiled import MANIFEST, declarations_of, digest  # the package's own check of what was compiled
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The packages compiled, each with the names of its files that are not. Never compiled: a package's ``__init__``,
#: which runs the check of the compiled modules (``companion.compiled.choose``) before it imports them. Nor the
#: simulator's command line, reports (one run, a comparison) and SVG plots: they run once per run, not per game (bots
#: play through the rest); nor the engine's msgid extractor (``pybabel extract`` runs it, never a game).
COMPILED = {
    Path("companion", "engine"): {"__init__.py", "extract.py"},
    Path("companion", "sim"): {"__init__.py", "command.py", "summary.py", "plot.py", "compare.py"},
}
#: The pin map in git, and where the build puts it in the package (``companion.drivers.pins.PACKAGED_PINS``).
PIN_MAP = Path("hardware", "pins.toml")
PACKAGED_PIN_MAP = Path("companion", "drivers", "pins.toml")
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


def package_sources(package: Path) -> list[Path]:
    """The sources of ``package`` (and its subpackages) that are compiled."""
    return sorted(p for p in package.rglob("*.py") if p.name not in COMPILED[package])


def module_name(source: Path) -> str:
    return ".".join(source.with_suffix("").parts)


def already_compiled(package: Path) -> bool:
    """Whether every module of ``package`` is compiled, for this Python, from the sources as they are now (an
    editable install compiled them before): then a second install does not compile them again."""
    try:
        manifest = json.loads((package / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return all(source.with_suffix(suffix).is_file()
               and all(manifest.get(name) == sha for name, sha in compiled_digests(package, source).items())
               for source in package_sources(package))


def compiled_digests(package: Path, source: Path) -> dict[str, str | None]:
    """What a package's manifest records of one compiled source: its SHA-256, and its declaration file's (None:
    there is none)."""
    relative = source.relative_to(package).as_posix()
    return {relative: digest(source), declarations_of(relative): digest(package / declarations_of(relative))}


def package_of(module: str) -> Path:
    """The compiled package (a key of :data:`COMPILED`) that the module ``module`` belongs to."""
    return next(package for package in COMPILED if module.startswith(module_name(package) + "."))


def compiled_extensions() -> list[Extension]:
    """The compiled packages' modules as Cython extensions; none (the sources run) unless asked for, and none of a
    package already compiled from the same sources; none at all if Cython is missing or cannot translate them."""
    if not compile_requested():
        return []
    packages = []
    for package in COMPILED:
        if already_compiled(package):
            print(f"{module_name(package)} is already compiled from these sources: not compiled again", file=sys.stderr)
        else:
            packages.append(package)
    if not packages:
        return []
    names = " and ".join(module_name(package) for package in packages)
    if compilers() == 0:
        print(f"warning: {names} not compiled (less than {MEMORY_PER_COMPILER >> 20} MB of memory available); "
              "they run from their sources", file=sys.stderr)
        return []
    extensions = [Extension(module_name(p), [str(p)], optional=True) for package in packages
                  for p in package_sources(package)]
    try:
        from Cython.Build import cythonize  # a build requirement (pyproject.toml), absent without build isolation

        return cythonize(extensions, quiet=True, build_dir="build/cython", compiler_directives={
            "language_level": 3,
            "annotation_typing": False,  # hints stay hints: ``-> list[str]`` must not refuse a list subclass
            "binding": True,  # functions keep Python's introspection (inspect.signature, __wrapped__)
        })
    except Exception as error:  # noqa: BLE001 - ImportError, or Cython's CompileError on syntax it does not know yet
        print(f"warning: {names} not compiled ({type(error).__name__}: {error}); they run from their sources",
              file=sys.stderr)
        return []


class BuildCompiled(build_ext):
    """build_ext that compiles on every core memory allows and writes, in each package it compiled, the manifest of
    the sources it compiled there."""

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
        # package: {source or declaration file: hash}, for the packages compiled by this build
        built: dict[Path, dict[str, str]] = {}
        for extension in self.extensions:
            package = package_of(extension.name)
            hashes = built.setdefault(package, {})
            if Path(self.get_ext_fullpath(extension.name)).exists():
                source = Path(*extension.name.split(".")).with_suffix(".py")
                hashes.update((name, sha) for name, sha in compiled_digests(package, source).items() if sha)
        # A package none of whose modules is built this time gets no manifest: its sources run (or its earlier
        # build, if every source is still the one compiled then).
        for package, hashes in built.items():
            # Where the build puts the package's modules (the source tree for ``pip install -e``, else build_lib).
            target = Path(self.get_ext_fullpath(module_name(package / "__init__.py"))).parent / MANIFEST
            target.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")


class BuildWithPins(build_py):
    """build_py that also copies ``hardware/pins.toml`` into the built package (not for an editable install, which
    reads it from the source tree: a copy there would be a second pin map to keep in step)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / PACKAGED_PIN_MAP
            self.mkpath(str(target.parent))
            self.copy_file(str(PIN_MAP), str(target))


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildCompiled, "build_py": BuildWithPins})

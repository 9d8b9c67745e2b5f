"""Which code runs: the modules Cython compiled from a package's sources, or the sources themselves.

``setup.py`` may compile the ``.py`` files of the engine and of the simulator (the modules bots play
through) into extension modules beside them, which Python then imports first, and writes each
package's ``compiled.json``: the SHA-256 of each source it compiled, and of each source's Cython
declarations (a ``.pxd`` beside it: which classes become C classes). Before the package (its
``__init__``) imports its modules, :func:`choose` checks that manifest. While every compiled source
and declaration file still has its hash, the compiled modules run; when one was edited since
(``pip install -e .`` compiled it, then a developer changed it), or an extension module has no hash
recorded (left from an older build), the whole package is imported from its sources, with a warning,
so what runs is always what the files say. ``COMPANION_ENGINE=pure`` asks for the sources of every
such package.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

MANIFEST = "compiled.json"


@dataclass(frozen=True)
class Build:
    """What :func:`choose` decided: ``compiled`` is True when the compiled modules are the ones imported."""

    compiled: bool
    reason: str

    def describe(self) -> str:
        return ("compiled (Cython)" if self.compiled else "pure Python") + f": {self.reason}"


def shadowed_sources(directory: Path) -> list[str]:
    """The sources under ``directory`` that an extension module beside them (one Python would import first) shadows."""
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*.py")
                  if any(p.with_suffix(suffix).is_file() for suffix in EXTENSION_SUFFIXES))


def declarations_of(relative: str) -> str:
    """The name of a source's Cython declaration file (``draft.py``: ``draft.pxd``), compiled with it if present."""
    return relative.removesuffix(".py") + ".pxd"


def digest(path: Path) -> str | None:
    """The SHA-256 of a file, or None if there is no such file."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def stale_sources(directory: Path, shadowed: Sequence[str], manifest: Mapping[str, str]) -> list[str]:
    """The ``shadowed`` sources, and their declaration files, whose SHA-256 is not the one the manifest recorded
    when they were compiled (a declaration file added or removed since counts as changed)."""
    stale = []
    for relative in shadowed:
        if manifest.get(relative) != digest(directory / relative):
            stale.append(relative)
        declarations = declarations_of(relative)
        if manifest.get(declarations) != digest(directory / declarations):
            stale.append(declarations)
    return stale


class SourceFinder:
    """Finds the modules of one package from their ``.py`` files only, never an extension module beside them (a
    meta path finder: ``find_spec`` is all the import system asks of one; ``importlib.abc``'s base class would import
    ``importlib.resources``, ~4 ms of every start here: issue 43)."""

    def __init__(self, package: str, directory: Path) -> None:
        self.prefix = package + "."
        self.directory = directory

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        base = self.directory.joinpath(*fullname[len(self.prefix):].split("."))
        if (base / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(fullname, base / "__init__.py",
                                                          submodule_search_locations=[str(base)])
        if base.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, base.with_suffix(".py"))
        return None


def choose(package: str, directory: Path, environ: Mapping[str, str] = os.environ) -> Build:
    """Decide which modules ``package`` (its ``__init__`` in ``directory``) imports, compiled or sources; call it
    before importing them."""
    shadowed = shadowed_sources(directory)
    if not shadowed:
        return Build(False, "not compiled on this machine")
    if environ.get("COMPANION_ENGINE") == "pure":
        use_sources(package, directory)
        return Build(False, "COMPANION_ENGINE=pure")
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError):
        manifest = {}  # compiled modules with no record of their sources: none can be trusted
    stale = stale_sources(directory, shadowed, manifest)
    if stale:
        use_sources(package, directory)
        warnings.warn(f"{package}: {', '.join(stale)} changed since {package} was compiled: {package} runs from "
                      f"its sources (slower); `pip install -e .` compiles it again", stacklevel=3)
        return Build(False, f"sources changed since compiled: {', '.join(stale)}")
    return Build(True, f"{len(shadowed)} modules")


def use_sources(package: str, directory: Path) -> None:
    """Import ``package``'s modules from their sources from now on (once per process and package)."""
    if not any(isinstance(f, SourceFinder) and f.prefix == package + "." for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(package, directory))

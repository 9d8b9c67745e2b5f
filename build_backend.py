"""The build backend: setuptools' own, with Cython among the build requirements only when the engine is compiled.

Compiling is asked for with ``COMPANION_COMPILE=1`` (or in CI; never with ``COMPANION_PURE=1``): see ``setup.py``.
Without it, pip's isolated build environment does not download and install Cython at all, which is most of what an
install of the demo spent building once the compile itself was gone.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook of setuptools' backend, these two extended

CYTHON = "Cython>=3.0,<4"


def compile_requested() -> bool:
    """Whether this install compiles the engine: ``COMPANION_COMPILE=1`` (or ``CI`` set), never ``COMPANION_PURE=1``."""
    if os.environ.get("COMPANION_PURE"):
        return False
    return bool(os.environ.get("COMPANION_COMPILE") or os.environ.get("CI"))


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *([CYTHON] if compile_requested() else [])]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *([CYTHON] if compile_requested() else [])]

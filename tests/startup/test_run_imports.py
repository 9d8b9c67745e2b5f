"""`companion run` imports nothing it does not use (issue 43: a Pi Zero's start-up)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import contextlib, io, sys
from companion import cli
import companion.startup.pi, companion.web.app, companion.web.server
with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
    cli.main(["run", "--help"])
print(sorted({m.split(".")[0] if not m.startswith("companion.") else ".".join(m.split(".")[:2])
              for m in sys.modules}))
"""


def test_the_table_starts_without_the_simulator_the_rate_limiter_or_wtforms() -> None:
    """(multiprocessing is luma's own, through luma.core.interface.serial.)"""
    found = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True).stdout
    for module in ("companion.sim", "flask_limiter", "limits", "wtforms", "flask_wtf"):
        assert f"'{module}'" not in found, module
    assert "'flask'" in found and "'companion.face'" in found  # what it does use

"""`companion run` imports nothing it does not use (issue 43: a Pi Zero's start-up)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from companion.journal import Journal
from tests.web.running import free_port

CHECK = """
import contextlib, io, sys
from companion import cli
import companion.startup.pi, companion.web.app, companion.web.server
with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
    cli.main(["run", "--help"])
print(sorted({m.split(".")[0] if not m.startswith("companion.") else ".".join(m.split(".")[:2])
              for m in sys.modules}))
"""

#: ``companion run`` itself, until it says where its phone page is: then the modules it holds, and out at once.
STARTED = """
import gc, io, os, sys
class Out(io.StringIO):
    def write(self, text):
        if "phone page on" in text:
            sys.__stdout__.write(repr((sorted(sys.modules), gc.isenabled(), gc.get_freeze_count() > 0)))
            sys.__stdout__.flush()
            os._exit(0)
        return super().write(text)
from companion import cli
sys.exit(cli.main(["run", "--config", sys.argv[1]], out=Out()))
"""


def test_the_table_starts_without_the_simulator_the_rate_limiter_or_wtforms() -> None:
    """(multiprocessing is luma's own, through luma.core.interface.serial.)"""
    found = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True).stdout
    for module in ("companion.sim", "flask_limiter", "limits", "wtforms", "flask_wtf"):
        assert f"'{module}'" not in found, module
    assert "'flask'" in found and "'companion.face'" in found  # what it does use


def test_a_started_table_has_not_imported_what_only_a_later_request_or_another_command_uses(tmp_path: Path) -> None:
    """A table resuming a game up to its phone page's address: no version lookup (``--version`` only), no QR writer
    (the host's QR codes and the OLED's join screen make them when shown), no websocket protocol (the first
    phone's socket imports it), no ruleset but the resumed game's (and the one it extends), no test presses' FIFO
    and its button
    scripts (``mock_presses`` only), hence no unittest.mock nor asyncio. The garbage collector, paused for the start,
    collects again, what the start made frozen."""
    with Journal(tmp_path / "games.sqlite3") as journal:
        journal.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 1})
    config = tmp_path / "config.toml"
    config.write_text(f'display = "none"\ndice = "software"\nphone_dice = "software"\npin_factory = "mock"\n'
                      f'web_host = "127.0.0.1"\nweb_port = {free_port()}\njournal = "{tmp_path / "games.sqlite3"}"\n',
                      encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", STARTED, str(config)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    names, collecting, frozen = ast.literal_eval(run.stdout)
    assert collecting and frozen  # the collections paused for the start only, what it made frozen
    modules = set(names)
    for module in ("segno", "wsproto", "h11", "unittest.mock", "asyncio", "companion.startup.presses", "companion.drivers.script",
                   "companion.sim", "companion.engine.rules.chambers", "companion.engine.rules.magie1904",
                   "companion.engine.rules.magie1924"):
        assert module not in modules, module
    assert {"flask", "cheroot.server", "companion.web.app", "gpiozero", "luma.core.device"} <= modules  # it serves

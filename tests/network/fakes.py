"""Fakes of OS tools that have no library mock: ``nmcli`` (:mod:`.fake_nmcli`) and ``iw``, put on ``PATH``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent


class FakeNetworkManager:
    """The fake nmcli's folder: its state (to set up and to read back) and the calls it recorded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.state: dict[str, Any] = {"devices": [["wlan0", "wifi"], ["eth0", "ethernet"], ["lo", "loopback"]],
                                      "connections": ["preconfigured"], "active": [], "state": "disconnected",
                                      "fail": {}, "running": True}
        self.save()

    def save(self) -> None:
        (self.folder / "state.json").write_text(json.dumps(self.state), encoding="utf-8")

    def set(self, **changes: Any) -> None:
        self.state.update(changes)
        self.save()

    def read(self) -> dict[str, Any]:
        return json.loads((self.folder / "state.json").read_text(encoding="utf-8"))

    def calls(self) -> list[list[str]]:
        log = self.folder / "calls.jsonl"
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def install(folder: Path, monkeypatch: pytest.MonkeyPatch, *, country: str = "GB") -> FakeNetworkManager:
    """Put ``nmcli`` and ``iw`` (whose ``reg get`` says ``country``) first on ``PATH``."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "nmcli").write_text(f"#!/bin/sh\nexec {sys.executable} {HERE / 'fake_nmcli.py'} \"$@\"\n")
    (bin_dir / "iw").write_text(f"#!/bin/sh\nprintf 'global\\ncountry {country}: DFS-ETSI\\n"
                                "\\t(2400 - 2483 @ 40), (N/A, 20), (N/A)\\n'\n")
    for tool in ("nmcli", "iw"):
        (bin_dir / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:" + os.environ.get("PATH", ""))
    monkeypatch.setenv("FAKE_NMCLI_DIR", str(folder))
    return FakeNetworkManager(folder)

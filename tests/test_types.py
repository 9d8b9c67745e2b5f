"""The package's type hints hold: mypy (configured in pyproject.toml) finds nothing in ``companion/``."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_type_checks(tmp_path: Path) -> None:
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      "--cache-dir", str(tmp_path / "mypy-cache"), str(ROOT / "companion")])
    assert status == 0, report + errors

"""``companion run``'s configuration file: defaults, and a clear message naming the key for every bad value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import ConfigError, TableConfig, load_config

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_a_file_sets_what_it_names_and_the_rest_is_default(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'dice = "manual"\npin_factory = "auto"\n'))
    assert (config.dice, config.pin_factory, config.display, config.web_port) == ("manual", "auto", "ssd1306", 8080)
    assert config.source == str(tmp_path / "config.toml")
    assert TableConfig().pin_factory == "lgpio"
    assert load_config(write(tmp_path, 'web_names = ["games.example.org"]\n')).web_names == ("games.example.org",)


@pytest.mark.parametrize(("text", "says"), [
    ('pin_factory = "pigpoi"\n', "pin_factory must be one of lgpio, rpigpio, mock, auto, not 'pigpoi'"),
    ('dice = "rolller"\n', "dice must be one of roller, software, manual"),
    ('display = "ssd1309"\n', "display must be one of ssd1306, sh1106, none"),
    ("web_port = 70000\n", "web_port must be a port number"),
    ("web_port = true\n", "web_port must be a port number"),
    ('journal = ""\n', "journal must be a non-empty string"),
    ("pins = 5\n", "pins must be a file name"),
    ('web_names = "games.example.org"\n', "web_names must be a list of host names"),
    ('web_names = [""]\n', "web_names must be a list of host names"),
    ('dicee = "software"\n', "unknown key 'dicee'"),
    ('dice = "software"\ndice = "manual"\n', "config.toml:"),
    (b"\xff\xfe = 1\n", "not UTF-8 text"),
])
def test_a_bad_value_is_refused_naming_the_file_and_the_key(tmp_path: Path, text: str | bytes, says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(write(tmp_path, text))
    assert says in str(refused.value) and "config.toml" in str(refused.value)


def test_companion_run_with_a_bad_config_says_why_without_a_traceback(tmp_path: Path) -> None:
    """A file that is not UTF-8 used to end `companion run` with a traceback."""
    path = write(tmp_path, b"\xff\xfe = 1\n")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--config", str(path)],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 1
    assert result.stderr.startswith("companion: ") and "not UTF-8" in result.stderr
    assert "Traceback" not in result.stderr

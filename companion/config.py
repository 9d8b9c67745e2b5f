"""The table's configuration file (TOML) for ``companion run``.

Looked for in ``--config FILE``, else ``/etc/companion/config.toml``, else the defaults below::

    display = "ssd1306"        # or "sh1106" (the 1.3" modules), or "none"
    dice = "roller"            # "roller" (GPIO), "software" (the Pi rolls), "manual" (real dice, entered)
    web_port = 8080            # the phone page; 0: no web server
    journal = "/var/lib/companion/games.sqlite3"
    pins = "/etc/companion/pins.toml"   # optional: the pin map (else found as pins.py says)
    pin_factory = "lgpio"      # gpiozero pin factory: "lgpio" (every Pi, the Pi 5 too), "rpigpio" (RPi.GPIO: Raspberry
                               # Pi OS before Bookworm, not the Pi 5), "mock", "auto"
    phone_dice = "none"        # may a phone send the dice: "none", "manual", "software"
    web_names = []             # names the phone page answers to besides its addresses and local names
                               # (companion.web.hosts: a defence against DNS rebinding), e.g. ["games.example.org"]
    sound = true               # the buzzer's cues (pins.toml [buzzer]); the host menu mutes them too
    quiet_hours = ""           # e.g. "22:00-08:00": no buzzer and no voice then (local time)
    voice = "off"              # "espeak": the Pi says what happens (espeak-ng); "piper" with voice_model, else espeak
    voice_model = ""           # a piper voice file (.onnx, its .onnx.json beside it) for voice = "piper"
    language = "en"            # the table's: the OLED's and the voice's ("en", "de", "fr", "es"); the host menu
                               # changes it for the run; each phone has its own (docs/languages.md)
    network = "home"           # "home" (the network the Pi joined), "hotspot" (its own Wi-Fi), "auto" (its own
                               # when none is joined 45 s after the start): companion.network
    wifi_country = ""          # the Wi-Fi country for the hotspot, e.g. "GB" ("": the system's)
    hotspot_channel = 6        # 1-13: 2.4 GHz (every phone); 36-165: 5 GHz
    captive_port = 80          # on the hotspot, phones' connectivity checks are redirected to the page; 0: none
    mock_presses = ""          # only with pin_factory = "mock": a FIFO whose lines of button script the table plays
                               # (companion.startup.presses; the booted test box's host presses); "": none
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from datetime import time
from pathlib import Path
from typing import Any, Literal, get_args

from companion.engine import CompanionError
from companion.localfiles import MAX_SETTINGS_BYTES, parse_toml, read_text

SYSTEM_CONFIG = Path("/etc/companion/config.toml")
DISPLAYS = ("ssd1306", "sh1106", "none")
DICE = ("roller", "software", "manual")
#: gpiozero pin factories: lgpio (every Pi, the Pi 5 included), mock (no pins), auto (gpiozero's own choice, or the
#: GPIOZERO_PIN_FACTORY environment variable). A misspelt name used to fall back to gpiozero's choice in silence.
#: rpigpio: RPi.GPIO, for Raspberry Pi OS before Bookworm (not on a Pi 5: README, "Pin factories").
PIN_FACTORIES = ("lgpio", "rpigpio", "mock", "auto")
VOICES = ("off", "espeak", "piper")
#: The languages the table speaks (companion.words.LANGUAGES; kept here too, so that reading the config needs no Babel).
TABLE_LANGUAGES = ("en", "de", "fr", "es")
PhoneDice = Literal["none", "manual", "software"]  # may a phone send the dice (the web's rule too)
PHONE_DICE: tuple[PhoneDice, ...] = get_args(PhoneDice)
Network = Literal["home", "hotspot", "auto"]  # the network adapter's modes (companion.network)
NETWORKS: tuple[Network, ...] = get_args(Network)


class ConfigError(CompanionError, ValueError):
    """A configuration file that cannot be used (names the file and the key)."""


@dataclass(frozen=True)
class TableConfig:
    """What ``companion run`` builds."""

    display: str = "ssd1306"
    dice: str = "roller"
    web_port: int = 8080
    web_host: str = "0.0.0.0"
    journal: str = "/var/lib/companion/games.sqlite3"
    pins: str | None = None
    pin_factory: str = "lgpio"
    phone_dice: PhoneDice = "none"
    web_names: tuple[str, ...] = ()
    sound: bool = True
    quiet_hours: str = ""
    voice: str = "off"
    voice_model: str = ""
    language: str = "en"
    network: Network = "home"
    wifi_country: str = ""
    hotspot_channel: int = 6
    captive_port: int = 80
    mock_presses: str = ""
    source: str = "<defaults>"


def load_config(path: str | Path | None = None) -> TableConfig:
    """Read ``path`` (or ``/etc/companion/config.toml`` if it exists); defaults for what is missing."""
    file = Path(path) if path is not None else (SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None)
    if file is None:
        return TableConfig()
    return parse_config(read_toml(file, ConfigError), str(file))


def read_toml(file: Path, error: type[CompanionError]) -> dict[str, Any]:
    """A settings file's TOML; ``error`` (naming the file) when it cannot be read or parsed."""
    try:
        return parse_toml(read_text(file, MAX_SETTINGS_BYTES, "a settings file"), str(file))
    except OSError as problem:
        raise error(f"{file}: {problem.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{file}: not UTF-8 text (a TOML file is UTF-8)") from None
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{file}: {problem}") from None


def parse_config(data: dict[str, Any], source: str = "<config>") -> TableConfig:
    known = {f.name: f for f in fields(TableConfig) if f.name != "source"}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    config = replace(TableConfig(), source=source, **data)
    for key, allowed in (("display", DISPLAYS), ("dice", DICE), ("phone_dice", PHONE_DICE),
                         ("pin_factory", PIN_FACTORIES), ("voice", VOICES), ("network", NETWORKS),
                         ("language", TABLE_LANGUAGES)):
        if getattr(config, key) not in allowed:
            raise ConfigError(f"{source}: {key} must be one of {', '.join(allowed)}, not {getattr(config, key)!r}")
    for key in ("web_port", "captive_port"):
        port = getattr(config, key)
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ConfigError(f"{source}: {key} must be a port number (0: none)")
    channel = config.hotspot_channel
    if isinstance(channel, bool) or not isinstance(channel, int) or not (1 <= channel <= 14 or 32 <= channel <= 177):
        raise ConfigError(f"{source}: hotspot_channel must be a Wi-Fi channel: 1-13 (2.4 GHz) or 36-165 (5 GHz)")
    if not isinstance(config.wifi_country, str):
        raise ConfigError(f"{source}: wifi_country must be a country code in quotes, such as \"GB\"")
    for key in ("journal", "web_host"):
        if not isinstance(getattr(config, key), str) or not getattr(config, key):
            raise ConfigError(f"{source}: {key} must be a non-empty string")
    if config.pins is not None and not isinstance(config.pins, str):
        raise ConfigError(f"{source}: pins must be a file name")
    names = config.web_names
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n.strip() for n in names):
        raise ConfigError(f"{source}: web_names must be a list of host names, such as [\"games.example.org\"]")
    _check_sound(config, source)
    if not isinstance(config.mock_presses, str):
        raise ConfigError(f"{source}: mock_presses must be a file name (\"\": none)")
    if config.mock_presses and config.pin_factory != "mock":
        raise ConfigError(f"{source}: mock_presses is for a table on mock pins (pin_factory = \"mock\"), not "
                          f"{config.pin_factory!r}: real buttons are pressed by hand")
    return replace(config, web_names=tuple(names))


def parse_quiet_hours(text: str) -> tuple[time, time] | None:
    """``"22:00-08:00"`` -> (22:00, 08:00); ``""`` -> None. ``ValueError`` when it is neither."""
    if not text.strip():
        return None
    start, _, end = text.partition("-")
    return time.fromisoformat(start.strip()), time.fromisoformat(end.strip())


def _check_sound(config: TableConfig, source: str) -> None:
    """The buzzer's and the voice's keys."""
    if not isinstance(config.sound, bool):
        raise ConfigError(f"{source}: sound must be true or false")
    if not isinstance(config.voice_model, str):
        raise ConfigError(f"{source}: voice_model must be a file name")
    try:
        parse_quiet_hours(config.quiet_hours)
    except (ValueError, AttributeError, TypeError):
        raise ConfigError(f"{source}: quiet_hours must read like \"22:00-08:00\" (or \"\" for none)") from None


def demo_journal_path() -> Path:
    """Where ``companion demo`` keeps its games (and ``companion games`` looks without a config's journal)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "companion" / "demo.sqlite3"

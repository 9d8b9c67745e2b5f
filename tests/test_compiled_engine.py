"""The compiled engine (Cython, from the same sources) plays exactly as the sources do, and is used only while current.

``setup.py`` compiles the engine's ``.py`` files when it can; :mod:`companion.compiled` decides at import
which ones run. These tests check that choice on small packages made for the purpose, and that both engines
give the same states and events, input by input, over every game file and bot games of every ruleset.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import companion.engine
from companion.compiled import MANIFEST, SourceFinder, choose
from companion.engine import ruleset_ids
from companion.gamefile import GameFileError, replay
from companion.sim.game import GameSpec, play_game

ROOT = Path(__file__).parents[1]
GAME_FILES = sorted((ROOT / "tests" / "gamefiles").glob("*/*.jsonl"))


def engine_digest() -> str:
    """SHA-256 over what this process's engine makes of every game file and three bot games per ruleset."""
    digest = hashlib.sha256()
    for path in GAME_FILES:
        try:
            result = replay(path.read_text().splitlines())
            digest.update(json.dumps([result.state, result.events], sort_keys=True).encode())
        except GameFileError as error:
            digest.update(str(error).encode())
    for ruleset in ruleset_ids():
        for index in range(3):
            lines: list = []
            record = play_game(GameSpec(ruleset, 4, seed=11), index, lines)
            digest.update(json.dumps([lines, record.winner_seat, record.turns, record.cut]).encode())
    return digest.hexdigest()


def test_compiled_and_pure_engines_play_the_same_games() -> None:
    if not companion.engine.BUILD.compiled:  # no compiler at install, or a source edited since (pip install -e .)
        reason = f"this process runs one engine only ({companion.engine.BUILD.describe()})"
        if os.environ.get("CI"):  # .ci/run installs a compiler: CI never passes without comparing the two
            pytest.fail(reason)
        pytest.skip(reason)
    pure = subprocess.run(
        [sys.executable, "-c", "from tests.test_compiled_engine import engine_digest as d, companion as c; "
                               "print(c.engine.BUILD.compiled, d())"],
        cwd=ROOT, env={**os.environ, "COMPANION_ENGINE": "pure"}, capture_output=True, text=True, check=True)
    compiled_flag, pure_digest = pure.stdout.split()
    assert compiled_flag == "False"
    assert len(GAME_FILES) > 100
    assert pure_digest == engine_digest()


def make_package(tmp_path: Path, name: str, source: str = "VALUE = 'from the source'\n") -> Path:
    """A package ``name`` with one module, ``mod.py``, and a broken extension module beside it."""
    directory = tmp_path / name
    directory.mkdir()
    (directory / "__init__.py").write_text("")
    (directory / "mod.py").write_text(source)
    (directory / f"mod{EXTENSION_SUFFIXES[0]}").write_bytes(b"not a shared object")
    return directory


def manifest_of(directory: Path, **digests: str) -> None:
    (directory / MANIFEST).write_text(json.dumps(digests))


@pytest.fixture
def isolated_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """sys.path and sys.meta_path as they were after the test (a SourceFinder installed by one stays there)."""
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_modules_changed_since_compiled_are_imported_from_their_sources(isolated_imports: Path) -> None:
    directory = make_package(isolated_imports, "stalepkg")
    manifest_of(directory, **{"mod.py": hashlib.sha256(b"VALUE = 'as compiled'\n").hexdigest()})
    with pytest.warns(UserWarning, match="mod.py changed since the engine was compiled"):
        build = choose("stalepkg", directory, environ={})
    assert not build.compiled and "mod.py" in build.reason
    import stalepkg.mod  # the broken extension beside it would fail to load

    assert stalepkg.mod.VALUE == "from the source"


def test_current_compiled_modules_are_used(isolated_imports: Path) -> None:
    directory = make_package(isolated_imports, "currentpkg")
    manifest_of(directory, **{"mod.py": hashlib.sha256((directory / "mod.py").read_bytes()).hexdigest()})
    build = choose("currentpkg", directory, environ={})
    assert build.compiled and build.reason == "1 modules"
    assert not any(isinstance(f, SourceFinder) and f.prefix == "currentpkg." for f in sys.meta_path)
    with pytest.raises(ImportError):  # Python's own order: the extension module first (here a broken one)
        import currentpkg.mod  # noqa: F401


def test_an_extension_module_the_manifest_does_not_name_is_not_trusted(isolated_imports: Path) -> None:
    """A module left by an older build (the new one could not compile it) is as good as stale."""
    directory = make_package(isolated_imports, "leftpkg")
    (directory / "other.py").write_text("")
    manifest_of(directory, **{"other.py": hashlib.sha256(b"").hexdigest()})
    with pytest.warns(UserWarning, match="mod.py changed"):
        build = choose("leftpkg", directory, environ={})
    assert not build.compiled
    import leftpkg.mod

    assert leftpkg.mod.VALUE == "from the source"


def test_compiled_modules_without_a_manifest_are_not_trusted(isolated_imports: Path) -> None:
    directory = make_package(isolated_imports, "bareso")
    with pytest.warns(UserWarning):
        assert not choose("bareso", directory, environ={}).compiled
    import bareso.mod

    assert bareso.mod.VALUE == "from the source"


def test_pure_engine_on_request(isolated_imports: Path) -> None:
    directory = make_package(isolated_imports, "purepkg")
    manifest_of(directory, **{"mod.py": hashlib.sha256((directory / "mod.py").read_bytes()).hexdigest()})
    build = choose("purepkg", directory, environ={"COMPANION_ENGINE": "pure"})
    assert build == type(build)(False, "COMPANION_ENGINE=pure")
    import purepkg.mod

    assert purepkg.mod.VALUE == "from the source"


def test_no_extension_module_means_not_compiled(isolated_imports: Path) -> None:
    """A manifest alone (the compiler failed for every module, or they were built for another Python) is not
    a compiled engine."""
    directory = make_package(isolated_imports, "otherpkg")
    (directory / f"mod{EXTENSION_SUFFIXES[0]}").unlink()
    manifest_of(directory, **{"mod.py": hashlib.sha256((directory / "mod.py").read_bytes()).hexdigest()})
    build = choose("otherpkg", directory, environ={})
    assert build == type(build)(False, "not compiled on this machine")
    assert not any(isinstance(f, SourceFinder) and f.prefix == "otherpkg." for f in sys.meta_path)

"""The compiled engine and bots (Cython, from the same sources) play exactly as the sources do, and are used only
while current.

``setup.py`` compiles the ``.py`` files of the engine and of the simulator's bots when it can;
:mod:`companion.compiled` decides at import which ones run, package by package. These tests check that choice on
small packages made for the purpose and on a copy of the two real ones, and that both builds give the same states
and events, input by input, over every game file and bot games of every ruleset.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import companion.engine
import companion.sim
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


#: The packages setup.py compiles, by what they are: the engine, and the simulator's modules the bots play through.
BUILDS = {"engine": companion.engine.BUILD, "bots": companion.sim.BUILD}


def require_compiled(every: bool = False) -> None:
    """Skip a test that needs the compiled build where nothing is compiled (``every``: where anything is not); in
    CI, fail unless everything is."""
    pure = [f"{name} {build.describe()}" for name, build in BUILDS.items() if not build.compiled]
    if not pure:
        return
    # No compiler at install, or a source edited since (pip install -e .).
    reason = f"this process does not run the compiled build ({'; '.join(pure)})"
    if os.environ.get("CI"):  # .ci/run installs a compiler: CI never passes without comparing the two builds
        pytest.fail(reason)
    if every or len(pure) == len(BUILDS):
        pytest.skip(reason)


def test_compiled_and_pure_engines_play_the_same_games() -> None:
    require_compiled()
    pure = subprocess.run(
        [sys.executable, "-c", "from tests.test_compiled_engine import engine_digest as d, companion as c; "
                               "print(c.engine.BUILD.compiled, c.sim.BUILD.compiled, d())"],
        cwd=ROOT, env={**os.environ, "COMPANION_ENGINE": "pure"}, capture_output=True, text=True, check=True)
    engine_flag, bots_flag, pure_digest = pure.stdout.split()
    assert (engine_flag, bots_flag) == ("False", "False")  # COMPANION_ENGINE=pure: the engine and bots' sources
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
    with pytest.warns(UserWarning, match="mod.py changed since stalepkg was compiled: stalepkg runs from its sources"):
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


@pytest.mark.parametrize(("recorded", "present", "compiled"), [
    ("cdef class C:\n    pass\n", "cdef class C:\n    pass\n", True),  # the declarations compiled
    (None, None, True),  # none, then or now
    ("cdef class C:\n    pass\n", "cdef class C:\n    cdef object x\n", False),  # edited since
    (None, "cdef class C:\n    pass\n", False),  # added since: the compiled module was built without them
    ("cdef class C:\n    pass\n", None, False),  # removed since
])
def test_a_declaration_file_changed_since_compiled_counts_as_its_source_changed(
        isolated_imports: Path, recorded: str | None, present: str | None, compiled: bool) -> None:
    """``mod.pxd`` (Cython's declarations for ``mod.py``) is part of what was compiled: the manifest records it."""
    directory = make_package(isolated_imports, "declaredpkg")
    digests = {"mod.py": hashlib.sha256((directory / "mod.py").read_bytes()).hexdigest()}
    if recorded is not None:
        digests["mod.pxd"] = hashlib.sha256(recorded.encode()).hexdigest()
    if present is not None:
        (directory / "mod.pxd").write_text(present)
    manifest_of(directory, **digests)
    if compiled:
        assert choose(directory.name, directory, environ={}).compiled
    else:
        with pytest.warns(UserWarning, match=f"mod.pxd changed since {directory.name} was compiled"):
            build = choose(directory.name, directory, environ={})
        assert not build.compiled and build.reason == "sources changed since compiled: mod.pxd"


def test_the_declared_classes_are_c_classes_in_the_compiled_build() -> None:
    """Each ``.pxd`` beside a compiled source makes its classes C classes (static types, attributes in a struct):
    the compile read the declarations. The sources' classes are ordinary ones."""
    require_compiled(every=True)
    heap_type = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement that Python runs
    root = ROOT / "companion"
    declared = sorted(root.glob("engine/**/*.pxd")) + sorted(root.glob("sim/**/*.pxd"))
    assert [p.relative_to(root).as_posix() for p in declared] == [
        "engine/draft.pxd", "sim/property.pxd", "sim/strategy.pxd"]
    from companion.engine.draft import Draft
    from companion.sim.property import PropertyStrategy
    from companion.sim.strategy import Strategy

    for cls in (Draft, Strategy, PropertyStrategy):
        assert not cls.__flags__ & heap_type, f"{cls.__qualname__} is not a C class in the compiled build"
    pure = subprocess.run(
        [sys.executable, "-c", "from companion.engine.draft import Draft as D; print(D.__flags__)"],
        cwd=ROOT, env={**os.environ, "COMPANION_ENGINE": "pure"}, capture_output=True, text=True, check=True)
    assert int(pure.stdout) & heap_type


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


@pytest.mark.parametrize(("edited", "stale", "current"), [("sim/strategy.py", "sim", "engine"),
                                                          ("engine/rng.py", "engine", "sim"),
                                                          ("engine/draft.pxd", "engine", "sim")])
def test_a_package_edited_since_compiled_runs_from_its_sources_the_other_stays_compiled(
        tmp_path: Path, edited: str, stale: str, current: str) -> None:
    """On a copy of the installed engine and simulator (compiled modules, manifests and all), one source edited."""
    require_compiled(every=True)
    copy = tmp_path / "companion"
    copy.mkdir()
    for name in ("__init__.py", "compiled.py"):
        shutil.copy2(ROOT / "companion" / name, copy / name)
    for name in ("engine", "sim", "boards"):
        shutil.copytree(ROOT / "companion" / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / edited).open("a") as source:
        source.write("# edited since compiled\n")
    source = Path(edited).with_suffix(".py")  # the module's source (a declaration file is read by its compile only)
    module = "companion." + ".".join(source.with_suffix("").parts)
    ran = subprocess.run(
        [sys.executable, "-W", "always", "-c",
         f"import companion.engine, companion.sim, {module} as m; from companion.sim import play_game, GameSpec; "
         f"play_game(GameSpec('classic', 2, seed=1), 0); "
         f"print(companion.{stale}.BUILD.compiled, companion.{current}.BUILD.compiled, m.__file__)"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path), "COMPANION_ENGINE": ""},
        capture_output=True, text=True, check=True)
    stale_flag, current_flag, source_file = ran.stdout.split()
    assert f"companion.{stale}: {Path(edited).name} changed since companion.{stale} was compiled" in ran.stderr
    assert stale_flag == "False" and source_file == str(copy / source)  # the stale package: its sources
    assert current_flag == "True"  # the other one still runs its compiled modules

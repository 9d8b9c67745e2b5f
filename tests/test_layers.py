"""The rooms' dependency rules (DESIGN.md, README's "Layout") are import-linter contracts in pyproject.toml: the
arrows go down from the start-up, the face and the phone page never import each other, the engine imports no other
room and has no clock, randomness, threads or I/O of its own, the face uses the parts through their drivers, and no
two modules or packages import each other. ``lint-imports`` checks the same contracts from the command line."""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path

import grimp
import pytest
from importlinter import configuration
from importlinter.application.use_cases import lint_imports, read_user_options
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract

configuration.configure()  # what `lint-imports` and importlinter.api do first: its readers and graph builder

ROOT = Path(__file__).parents[1]
KINDS: dict[str, type[Contract]] = {"layers": LayersContract, "forbidden": ForbiddenContract,
                                    "acyclic_siblings": AcyclicSiblingsContract}


@pytest.fixture(scope="module")
def contracts() -> dict[str, Contract]:
    options = read_user_options(str(ROOT / "pyproject.toml"))
    return {o["id"]: KINDS[o["type"]](name=o["name"], session_options=options.session_options, contract_options=o)
            for o in options.contracts_options}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("companion", include_external_packages=True, cache_dir=None)


def test_every_contract_of_pyproject_is_kept(contracts: dict[str, Contract]) -> None:
    """As ``lint-imports`` runs them (its report is printed: pytest shows it when a contract is broken)."""
    assert set(contracts) >= {"rooms", "engine-alone", "engine-pure", "parts-through-drivers", "no-cycles",
                              "words-on-engine"}
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)


@pytest.mark.parametrize(("importer", "imported", "contract"), [
    ("companion.engine.core", "companion.table", "rooms"),  # the engine imports no other room
    ("companion.engine.core", "companion.seats", "engine-alone"),
    ("companion.engine.core", "time", "engine-pure"),  # no clock of its own
    ("companion.engine.rules.classic", "random", "engine-pure"),
    ("companion.drivers.buttons", "companion.face.screens", "rooms"),  # a driver never knows the face
    ("companion.face.controller", "companion.web.app", "rooms"),  # the face and the page are independent
    ("companion.web.api", "companion.face.screens", "rooms"),
    ("companion.table", "companion.startup.station", "rooms"),  # only the start-up wires
    ("companion.face.controller", "gpiozero", "parts-through-drivers"),  # pins through the drivers
    ("companion.face.draw", "luma", "parts-through-drivers"),
    ("companion.face.screens", "companion.face.controller", "no-cycles"),
    ("companion.drivers.clock", "companion.drivers.virtual", "no-cycles"),
    ("companion.words.words", "companion.face.screens", "rooms"),  # the words know no adapter
    ("companion.words.words", "companion.web.app", "rooms"),
    ("companion.words.words", "companion.table", "rooms"),
    ("companion.engine.core", "companion.words", "rooms"),  # the engine says no sentence in a language
    ("companion.words.catalogue", "companion.config", "words-on-engine"),
    ("companion.web.api", "companion.web.app", "no-cycles"),  # the app imports its blueprints, never they the app
    ("companion.web.context", "companion.web.app", "no-cycles"),
    ("companion.boards", "companion.engine.core", "no-cycles"),  # the rulesets read their boards, which know only
    ("companion.errors", "companion.engine", "no-cycles"),  # the shared errors
])
def test_an_import_against_the_rules_breaks_its_contract(graph: grimp.ImportGraph, contracts: dict[str, Contract],
                                                         importer: str, imported: str, contract: str) -> None:
    assert contracts[contract].check(deepcopy(graph), verbose=False).kept  # as the rooms are
    changed = deepcopy(graph)
    changed.add_import(importer=importer, imported=imported)
    assert not contracts[contract].check(changed, verbose=False).kept

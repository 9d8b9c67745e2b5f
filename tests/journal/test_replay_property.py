"""Property: however a game is cut by reopening, and whatever the snapshots, the state is the full replay's."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import ruleset_ids
from companion.gamefile import replay
from companion.journal import Journal

from .inputs import SETUP, play, replay_all


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rnd=st.randoms(use_true_random=False),
    seed=st.integers(0, 2**32),
    snapshot_every=st.integers(1, 6),
    chunks=st.lists(st.integers(0, 40), min_size=1, max_size=5),
)
def test_the_loaded_state_is_the_full_replay(
    rnd: random.Random, seed: int, snapshot_every: int, chunks: list[int]
) -> None:
    setup = {**SETUP, "seed": seed}
    sent: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite3"
        with Journal(path, snapshot_every=snapshot_every) as journal:
            game_id = journal.new_game(setup).id
        for count in chunks:  # play a while, then close and resume from the latest snapshot
            with Journal(path, snapshot_every=snapshot_every) as journal:
                assert journal.problems == []
                game = journal.open_game(game_id)
                assert game.state == replay_all(setup, sent)
                sent += play(game, count, rnd)
                assert game.state == replay_all(setup, sent)
        with Journal(path, snapshot_every=snapshot_every) as journal:
            game = journal.open_game(game_id)
            truth = replay_all(setup, sent)
            assert game.state == truth
            assert replay(game.export().splitlines()).state == truth


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_ruleset_survives_snapshots_and_reopening(tmp_path: Path, ruleset: str) -> None:
    setup = {**SETUP, "ruleset": ruleset}
    rnd = random.Random(ruleset)
    sent: list[dict] = []
    path = tmp_path / "games.sqlite3"
    with Journal(path, snapshot_every=3) as journal:
        game_id = journal.new_game(setup).id
    for _ in range(4):
        with Journal(path, snapshot_every=3) as journal:
            game = journal.open_game(game_id)
            assert game.state == replay_all(setup, sent)
            sent += play(game, 60, rnd)
    with Journal(path, snapshot_every=3) as journal:
        game = journal.open_game(game_id)
        assert game.state == replay_all(setup, sent)
        assert replay(game.export().splitlines()).state == game.state

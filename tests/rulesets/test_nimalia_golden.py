"""Nimalia behaves as it did when the golden games were recorded: folding each
recorded game's wire moves over its setup gives the same state, views, legal moves, secrets,
determinized states, evaluations, log events and result, position by position
(``nimalia_golden.py`` says what is recorded and how to record again)."""

from __future__ import annotations

import pytest

from tests.rulesets.nimalia_golden import GAMES, load_golden, observe, position_labels

GOLDEN = load_golden()


def test_the_golden_file_holds_every_player_count_and_option_set():
    assert [(game["players"], game["options"], game["seed"]) for game in GOLDEN] == GAMES
    assert all(len(game["moves"]) == 15 * game["players"] for game in GOLDEN)


@pytest.mark.parametrize("game", GOLDEN, ids=[f"{g['players']}p-seed{g['seed']}" for g in GOLDEN])
def test_replaying_a_golden_game_observes_the_same_hashes(game):
    replayed = observe(game)
    labels = position_labels(game["players"])
    for ply, (recorded, now) in enumerate(zip(game["positions"], replayed["positions"], strict=True)):
        changed = [label for label, old, new in zip(labels, recorded, now, strict=True) if old != new]
        assert not changed, f"position {ply} (after {ply} moves): {', '.join(changed)} changed"
    for ply, (recorded, now) in enumerate(zip(game["events"], replayed["events"], strict=True)):
        assert recorded == now, f"the log events of move {ply + 1} changed"
    assert replayed["result"] == game["result"]

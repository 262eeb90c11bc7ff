"""The golden games of Heroes replay exactly (behaviour stays the same through the typed
state): the same states, views, legal moves, log entries and results, ply by ply, from the stored
wire moves (``heroes_golden.py`` says how they were recorded)."""

from __future__ import annotations

import json

import pytest

from app.rulesets.heroes import Heroes
from tests.rulesets.heroes_golden import replay_checking_each_ply, GOLDEN_FILE, ply_hashes, result_hash

RULES = Heroes()
GOLDEN = json.loads(GOLDEN_FILE.read_text())["games"]


def test_the_golden_file_covers_every_player_count_and_variant():
    setups = {(game["n_players"], game["options"]["nomads"]) for game in GOLDEN}
    assert setups == {(n, nomads) for n in (1, 2, 3, 4) for nomads in ("wandering", "mercenary", "none")}
    played = {move["type"] for game in GOLDEN for _, move in game["moves"]}
    assert {"place_nomad", "move_nomad", "tactic", "conscript", "casualties", "fire_mercenary", "pass"} <= played


@pytest.mark.parametrize("game", GOLDEN, ids=lambda game: f"{game['n_players']}p-{game['options']['nomads']}-{game['seed']}")
def test_a_golden_game_replays_ply_by_ply(game):
    state = RULES.setup(game["n_players"], RULES.parse_options({**game["options"], "edition": "core"}), game["seed"])
    assert ply_hashes(RULES, state, []) == game["plies"][0], "setup"
    state = replay_checking_each_ply(RULES, state, game)
    assert not RULES.to_act(state)
    assert result_hash(RULES, state) == game["result"]

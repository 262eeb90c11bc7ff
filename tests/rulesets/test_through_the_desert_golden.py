"""Golden replays: the stored random games of Through the Desert play out exactly as recorded.

The moves are parsed from their stored wire form and folded over ``setup``; after every ply the
state, every view, the legal moves, the log events, the secrets and the bot hooks must hash as
they did with the code the games were recorded with (``through_the_desert_golden.py``).
"""

from __future__ import annotations

import pytest

from app.rulesets.through_the_desert.rules import ThroughTheDesert
from tests.rulesets.through_the_desert_golden import CHANNELS, digest, load, ply_hashes

RULES = ThroughTheDesert()
GOLDEN = load()


def differences(expected: list[str], actual: list[str]) -> list[str]:
    """The channels whose hashes differ."""
    return [channel for channel, want, got in zip(CHANNELS, expected, actual, strict=True) if want != got]


def test_the_golden_file_covers_every_player_count_and_option_set():
    games = GOLDEN["games"]
    assert GOLDEN["channels"] == list(CHANNELS)
    assert sorted({game["players"] for game in games}) == [2, 3, 4, 5]
    assert {"palm", "return_leader", "leader", "camel"} <= {move["type"] for game in games for _, move in game["moves"]}
    assert all(len(game["plies"]) == len(game["moves"]) + 1 for game in games)


@pytest.mark.parametrize("index", range(len(GOLDEN["games"])))
def test_golden_game_replays_with_the_same_states_views_moves_and_log(index):
    game = GOLDEN["games"][index]
    where = f"golden game {index} ({game['players']} players, options {game['options']})"
    state = RULES.setup(game["players"], RULES.parse_options(game["options"]), game["seed"])
    assert differences(game["plies"][0], ply_hashes(RULES, state, [], 0)) == [], f"{where}, after setup"
    for ply, (seat, wire) in enumerate(game["moves"], start=1):
        state, events = RULES.check_and_apply(state, seat, RULES.parse_move(wire))
        changed = differences(game["plies"][ply], ply_hashes(RULES, state, events, ply))
        assert changed == [], f"{where}, ply {ply} ({wire}): {changed} differ"
    result = RULES.result(state)
    assert result is not None and digest(result.model_dump(mode="json")) == game["result"], f"{where}: result"

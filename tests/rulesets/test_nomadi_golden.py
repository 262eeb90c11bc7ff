"""Nomadi behaves as it did before the typed state: the golden games of
``nomadi_golden.py`` replay to the same states, views, legal moves, log events and results, and
the default bot still chooses the recorded moves."""

from __future__ import annotations

import pytest

from tests.rulesets import nomadi_golden as golden
from tests.rulesets.nomadi_golden import RULESET, digest, event_form, legal_forms, views

GAMES = golden.load()
PARTS = ("state", "views", "legal moves", "events")
BOT_CHECKS_PER_GAME = 30
"""Positions of each bot game on which the bot is asked again (spread over the game)."""


def game_id(game: dict) -> str:
    return f"{game['players']}p-{game['player']}-seed{game['seed']}"


def test_the_golden_games_cover_every_phase_player_count_and_option():
    assert {game["players"] for game in GAMES} == {2, 3, 4, 5}
    options = {name for game in GAMES for name in game["options"]} - {"turn_limit"}
    assert options == set(RULESET.Options.model_fields) - {"turn_limit"}
    types = {move["type"] for game in GAMES for _, move in game["moves"]}
    assert types == {"place_card", "place", "roll", "move", "end_turn", "offer", "accept", "decline", "gift"}
    assert sum(len(game["plies"]) for game in GAMES) > 2000


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_golden_game_replays_to_the_same_states_views_moves_and_events(game):
    state = RULESET.setup(game["players"], RULESET.parse_options(game["options"]), game["seed"])
    for ply, ((seat, wire), recorded) in enumerate(zip(game["moves"], game["plies"], strict=True)):
        before = [digest(state), digest(views(state)), digest(legal_forms(state))]
        state, events = RULESET.check_and_apply(state, seat, RULESET.parse_move(wire))
        now = [*before, digest(event_form(events))]
        for part, old, new in zip(PARTS, recorded.split(":"), now, strict=True):
            assert new == old, f"{game_id(game)} ply {ply} (move {wire} of seat {seat}): the {part} changed"
    result = RULESET.result(state)
    assert result is not None
    final = [digest(state), digest(views(state)), digest(result.model_dump(mode="json"))]
    assert ":".join(final) == game["final"], f"{game_id(game)}: the final state, views or result changed"


@pytest.mark.parametrize("game", [game for game in GAMES if game["player"] == "bot"], ids=game_id)
def test_the_default_bot_still_chooses_the_recorded_moves(game):
    state = RULESET.setup(game["players"], RULESET.parse_options(game["options"]), game["seed"])
    positions = []
    for ply, (seat, wire) in enumerate(game["moves"]):
        legal = RULESET.legal_moves(state, seat)
        if len(legal) > 1:
            positions.append((ply, state, seat, legal, wire))
        state, _ = RULESET.apply(state, seat, RULESET.parse_move(wire))
    step = max(1, len(positions) // BOT_CHECKS_PER_GAME)
    for ply, state, seat, legal, wire in positions[::step]:
        move = golden.bot().choose(RULESET, RULESET.view(state, seat), legal, seat, golden.bot_rng(game["seed"], ply))
        assert RULESET.dump_move(move) == wire, f"{game_id(game)} ply {ply}: the bot chose {move} instead of {wire}"

"""Nomadi under the conformance kit (2-5 players, every variant option), plus rule invariants
over the random games.

Random legal play does not steer the caravan: it drifts, and the chasm (R-23) slowly ratchets it
towards the goal, but a game rarely gets there within the 150-turn limit. The default-option
games therefore run into the turn limit; the variant games use a shorter limit to save time.
"""

from __future__ import annotations

import pytest

from app.rulesets.nomadi.movement import Caravan, StoneAt
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import check_ruleset

RULES = Nomadi()
VARIANTS = [
    {"trading": True, "hidden_coins": True, "turn_limit": 40},
    {"short_game": True, "voluntary_pass": True, "turn_limit": 40},
    {"card_placement": "players", "first_player": "host", "turn_limit": 40},
]


@pytest.fixture(scope="module")
def default_games():
    return check_ruleset(RULES, games=1)


def test_conformance_kit_default_options_two_to_five_players(default_games):
    assert sorted(game.n_players for game in default_games) == [2, 3, 4, 5]
    assert all(RULES.result(game.final) is not None for game in default_games)


@pytest.mark.parametrize(
    "options", VARIANTS, ids=["trading+hidden_coins", "short_game+voluntary_pass", "players_lay_cards+host_starts"]
)
def test_conformance_kit_variant_options(options):
    games = check_ruleset(RULES, n_players=[2, 5], games=1, seed=3, options=[options])
    assert all(game.final["phase"] == "over" for game in games)


def test_invariants_after_random_games(default_games):
    """R-3/R-4: one connected caravan, one stone per cell; R-8: 18 cards; R-22, R-31 hold."""
    board = RULES.board
    for game in default_games:
        state = game.final
        cells = [tuple(stone["cell"]) for stone in state["stones"]]
        assert len(set(cells)) == len(cells) and all(board.playable(cell) for cell in cells)
        caravan = Caravan(board, {cell: StoneAt() for cell in cells})
        assert caravan._cut_stones() is not None, "the caravan fell apart"
        held = sum(len(hand) for hand in state["hands"])
        assert len(state["cards"]) + held + len(state["card_pool"]) == 18
        for stone in state["stones"]:
            cell = tuple(stone["cell"])
            assert stone["departed"] or cell in board.start_set
            assert stone["locked"] == (cell in board.goal_cells(state["oasis"]))
        assert state["turn"] == 150 or state["arrivals"] == 3

"""Nomadi: rule invariants over random games (2-5 players).  The contract itself is checked for
every ruleset, player count and declared variant by ``tests/rulesets/test_conformance.py``.

Random legal play does not steer the caravan: it drifts, and the chasm (R-23) slowly ratchets it
towards the goal, but a game rarely gets there within a turn limit; these games use a limit of 40
turns (A-30) to save time.
"""

from __future__ import annotations

import pytest

from app.rulesets.nomadi.movement import Caravan, StoneAt
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import random_games

RULES = Nomadi()
TURN_LIMIT = 40


@pytest.fixture(scope="module")
def default_games():
    return random_games(RULES, games=1, options=[{"turn_limit": TURN_LIMIT}])


def test_invariants_after_random_games(default_games):
    """R-3/R-4: one connected caravan, one stone per cell; R-8: 18 cards; R-22, R-31 hold."""
    board = RULES.board
    assert sorted(game.n_players for game in default_games) == [2, 3, 4, 5]
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
        assert state["turn"] == TURN_LIMIT or state["arrivals"] == 3

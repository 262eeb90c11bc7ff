"""A fifth game from outside the platform (``tests/support/three_in_a_row``) passes the conformance
kit unedited, and its two rules hold (worked out by hand on the 3x3 grid, cells 0-8 row by row)."""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.registry import Registry
from app.rulesets.testing import cases, check_case
from tests.support.three_in_a_row.rules import Mark, ThreeInARow

RULES = ThreeInARow()


def play(cells: list[int]):
    """The state after the seats mark ``cells`` in turn (seat 0 first)."""
    state = RULES.setup(2, RULES.parse_options({}), seed=1)
    for ply, cell in enumerate(cells):
        state, _ = RULES.apply(state, ply % 2, Mark(type="mark", cell=cell))
    return state


def test_the_kit_takes_the_fifth_game_unedited():
    for case in cases(RULES):
        games = check_case(RULES, case, seeds=(1, 2, 3))
        assert all(game.moves for game in games)


def test_the_registry_loads_it_as_an_extra_ruleset_by_its_dotted_name():
    registry = Registry.discover(["tests.support.three_in_a_row.rules:ThreeInARow"])
    assert registry.get("toy-three-in-a-row").title == "Three in a row"


def test_a_diagonal_wins_for_the_first_seat():
    # Seat 0 marks 0, 4, 8 (the diagonal); seat 1 marks 1 and 2 in between.
    state = play([0, 1, 4, 2, 8])
    assert RULES.result(state).scores == [1, 0]
    assert RULES.result(state).ranks == [1, 2]
    assert RULES.to_act(state) == set()


def test_a_full_grid_without_a_line_is_a_draw():
    # X O X / X O O / O X X: no row, column or diagonal of one seat.
    state = play([0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert RULES.result(state).ranks == [1, 1]


def test_a_marked_cell_cannot_be_marked_again():
    state = play([4])
    with pytest.raises(IllegalMove):
        RULES.apply(state, 1, Mark(type="mark", cell=4))
    assert [move.cell for move in RULES.legal_moves(state, 1)] == [0, 1, 2, 3, 5, 6, 7, 8]

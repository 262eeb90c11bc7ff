"""The Nomadi move generator (``movement.py``, Spec R-19 .. R-24) against the rules read one by one.

The generator answers from tables it works out once per position (rows of stones, one search of
the caravan for R-24); these tests ask the same questions the slow way: a flood fill for R-24, the
path shapes of ``board.paths`` for R-20, and the rules' own words for R-19, R-22 and R-23.
"""

from __future__ import annotations

import random

from app.rulesets.base import copy_state
from app.rulesets.nomadi.board import Board, paths
from app.rulesets.nomadi.movement import Caravan, StoneAt, caravan
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import play_random_game

BOARD = Board.standard()
OPEN = Board("open", ["." * 12] * 12)
"""12 x 12 sand, no chasm, no start: only R-19 .. R-21 and R-24 bind."""


def one_piece(cells: set) -> bool:
    """Spec R-4 by flood fill: the cells form one N4 component (or none)."""
    if not cells:
        return True
    seen, todo = set(), [next(iter(cells))]
    while todo:
        row, col = todo.pop()
        if (row, col) in seen:
            continue
        seen.add((row, col))
        todo += [cell for cell in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)) if cell in cells]
    return seen == cells


def legal_by_the_rules(board: Board, stones: dict, origin, value: int) -> list:
    """R-19 .. R-24 read one by one: movable, a path shape over stones only, a free playable
    landing, R-22, R-23, and one piece after the move."""
    stone = stones[origin]
    around = [(origin[0] + dr, origin[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    if stone.locked or all(board.playable(cell) and cell in stones for cell in around):
        return []
    found = set()
    for jumped, offset in paths(value):
        if not all((origin[0] + dr, origin[1] + dc) in stones for dr, dc in jumped):
            continue
        landing = (origin[0] + offset[0], origin[1] + offset[1])
        if landing in stones or not board.playable(landing):
            continue
        if stone.departed and landing in board.start_set:
            continue
        if board.far_side(origin) and not board.far_side(landing):
            continue
        if one_piece((set(stones) - {origin}) | {landing}):
            found.add(landing)
    return sorted(found)


def random_stones(chooser: random.Random, rows: range, cols: range) -> dict:
    cells = {(chooser.randrange(rows.start, rows.stop), chooser.randrange(cols.start, cols.stop))
             for _ in range(chooser.randrange(3, 22))}
    return {cell: StoneAt(departed=chooser.random() < 0.7, locked=chooser.random() < 0.1) for cell in cells}


def test_r24_a_line_of_three_holds_together_only_from_its_ends():
    """Hand-worked: stones on F6, G6, H6 (row 5, columns 5-7) of an open board.  The middle stone
    splits the line when lifted and no landing touches both ends, so it cannot move; an end stone
    with a 1 may go to the two cells diagonal to it that touch the middle stone, and with a 3 over
    both others to the far side; no 2 (it would need exactly one stone to jump)."""
    position = Caravan(OPEN, {(5, 5): StoneAt(), (5, 6): StoneAt(), (5, 7): StoneAt()})
    for value in range(1, 7):
        assert position.landings((5, 6), value) == []
    assert position.landings((5, 5), 1) == [(4, 6), (6, 6)]
    assert position.landings((5, 5), 2) == []
    assert position.landings((5, 5), 3) == [(5, 8)]
    assert position.refusal((5, 6), 1, (4, 6)).startswith("R-24")
    assert position.refusal((5, 5), 1, (4, 6)) is None


def test_r24_a_ring_stays_whole_without_any_one_stone():
    """Hand-worked: eight stones around an empty centre.  Lifting any one leaves a bent row that
    holds together, so every landing that touches it is fine: the centre with a 1 from a corner."""
    ring = {(r, c): StoneAt() for r in (4, 5, 6) for c in (4, 5, 6) if (r, c) != (5, 5)}
    position = Caravan(OPEN, ring)
    assert position._cut_stones() == set()
    assert (5, 5) in position.landings((4, 4), 1)
    assert position.stays_connected((4, 5), (3, 5)) is False  # touches nothing but the lifted stone
    assert position.stays_connected((4, 5), (3, 4)) is True


def test_r24_connectivity_agrees_with_a_flood_fill():
    """Random blobs, joined or not: ``stays_connected`` says what a flood fill after the move says."""
    chooser = random.Random(11)
    for _ in range(150):
        stones = random_stones(chooser, range(3, 9), range(3, 9))
        position = Caravan(OPEN, stones)
        for origin in stones:
            for landing in [(r, c) for r in range(1, 11) for c in range(1, 11) if (r, c) not in stones]:
                expected = one_piece((set(stones) - {origin}) | {landing})
                assert position.stays_connected(origin, landing) == expected, (sorted(stones), origin, landing)


def test_r19_to_r24_landings_agree_with_the_rules_read_one_by_one():
    """Random blobs across the chasm and the start, with departed and locked stones: the listed
    landings, ``can_use`` and ``refusal`` agree with the rules applied to every path shape."""
    chooser = random.Random(7)
    for _ in range(120):
        stones = random_stones(chooser, range(7, 17), range(8, 16))
        position = Caravan(BOARD, stones)
        for value in range(1, 7):
            expected = {origin: legal_by_the_rules(BOARD, stones, origin, value) for origin in sorted(stones)}
            expected = {origin: landings for origin, landings in expected.items() if landings}
            assert position.moves(value) == expected, (sorted(stones), value)
            assert position.can_use(value) == bool(expected)
            for origin in stones:
                for landing in position.reachable(origin, value):
                    assert (position.refusal(origin, value, landing) is None) == (landing in expected.get(origin, []))


def test_r18_forbidden_landings_are_left_out():
    position = Caravan(OPEN, {(5, 5): StoneAt(), (5, 6): StoneAt(), (5, 7): StoneAt()})
    assert position.landings((5, 5), 1, {(4, 6)}) == [(6, 6)]
    assert position.moves(1, {(5, 5): {(4, 6), (6, 6)}}) == {(5, 7): [(4, 6), (6, 6)]}
    assert position.can_use(3, {(5, 5): {(5, 8)}, (5, 7): {(5, 4)}}) is False


def test_one_shared_position_per_arrangement_of_stones():
    """``caravan`` answers equal arrangements with one position (its answers are kept), and a moved
    stone with another."""
    rules = Nomadi()
    game = play_random_game(rules, 2, 3, check=False, cap=60)
    state = game.final
    assert caravan(state, rules.board) is caravan(copy_state(state), rules.board)
    moved = copy_state(state)
    stone = next(s for s in moved["stones"] if s["cell"])
    stone["cell"] = [stone["cell"][0] - 1, stone["cell"][1]]
    assert caravan(moved, rules.board) is not caravan(state, rules.board)

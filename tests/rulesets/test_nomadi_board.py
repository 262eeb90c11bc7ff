"""The Nomadi board and the die-path geometry (Spec rules 1-2, 20 and §4), counted by hand."""

from __future__ import annotations

import random

import pytest

from app.rulesets.nomadi.board import Board, paths
from app.rulesets.nomadi.movement import Caravan, StoneAt

BOARD = Board.standard()


def test_r1_board_size_and_cell_types():
    """§4: 16 x 20 cells; 30 blocked (15 per dune sea), so 290 playable."""
    assert (BOARD.width, BOARD.height) == (16, 20)
    assert len(BOARD.playable_cells) == 290
    assert len(BOARD.kind) - len(BOARD.playable_cells) == 30


def test_r1_start_goal_and_water_sources():
    """§4: a 4x4 start bottom right, a 4x4 goal top left, 9 water sources (5 far, 4 near)."""
    assert BOARD.start_cells == tuple((r, c) for r in range(16, 20) for c in range(12, 16))
    assert BOARD.printed_goal == tuple((r, c) for r in range(4) for c in range(4))
    assert BOARD.water_sources == ((1, 5), (3, 10), (5, 3), (7, 11), (8, 6), (11, 10), (13, 6), (14, 12), (18, 8))
    far = [cell for cell in BOARD.water_sources if BOARD.far_side(cell)]
    assert len(far) == 5 and len(BOARD.water_sources) - len(far) == 4
    # 290 playable = 16 start + 16 goal + 9 water sources + 249 sand
    assert len(BOARD.sand_cells) == 249


def test_r2_chasm_between_rows_9_and_10():
    assert all(BOARD.far_side((9, c)) and not BOARD.far_side((10, c)) for c in range(16))
    assert BOARD.far_side((0, 0)) and not BOARD.far_side((19, 15))


def test_r40_movable_oasis_spots_are_3x3_beyond_the_chasm():
    assert sorted(BOARD.oasis_spots) == ["A", "B", "C"]
    assert BOARD.goal_cells("B") == {(r, c) for r in (1, 2, 3) for c in (6, 7, 8)}
    for spot in "ABC":
        cells = BOARD.goal_cells(spot)
        assert len(cells) == 9 and all(BOARD.far_side(cell) for cell in cells)
        assert not cells & set(BOARD.water_sources)
    assert BOARD.goal_cells(None) == set(BOARD.printed_goal)


def test_r40_rows_with_the_oasis_in_play():
    rows = BOARD.rows_with_goal("C")
    assert rows[0] == "...........#####"[:16]  # the printed goal plays as sand
    assert rows[4] == ".....GGG.......#" and rows[6] == ".....GGG........"
    assert BOARD.rows_with_goal(None)[0] == "GGGG.......#####"


@pytest.mark.parametrize(("value", "count"), [(1, 8), (2, 4), (3, 4), (4, 4), (5, 4 + 4 * 2 * 4), (6, 4 + 4 * 2 * 5)])
def test_r20_number_of_path_shapes(value, count):
    """Spec §3: a 1 has 8 slides, 2-4 four straight jumps, 5/6 four straight plus 4 x 2 x (v-1) turned."""
    assert len(paths(value)) == count
    assert all(len(jumped) == value - 1 for jumped, _ in paths(value))


def test_r20_turned_path_turns_once_on_a_jumped_cell():
    """5: east 4 then south 1 lands beside the last jumped cell; no 180 degree turn exists."""
    to_1_4 = {jumped for jumped, landing in paths(5) if landing == (1, 4)}
    # east 4 then south 1, or south 1 then east 4: two paths, one landing (one move, rule 20)
    assert to_1_4 == {((0, 1), (0, 2), (0, 3), (0, 4)), ((1, 0), (1, 1), (1, 2), (1, 3))}
    assert (0, 3) not in {landing for _, landing in paths(5)}  # east 4 and back west 1: a 180 degree turn
    landings = {landing for _, landing in paths(6)}
    assert (0, 6) in landings and (1, 5) in landings and (5, 1) in landings and (3, 3) in landings
    assert (2, 2) not in landings  # that would need two turns


def brute_force_reachable(board: Board, stones: set, origin, value: int) -> set:
    """Rule 20-21 straight from the path shapes: every jumped cell a stone, the landing empty."""
    found = set()
    for jumped, offset in paths(value):
        if all((origin[0] + dr, origin[1] + dc) in stones for dr, dc in jumped):
            landing = (origin[0] + offset[0], origin[1] + offset[1])
            if landing not in stones and board.playable(landing):
                found.add(landing)
    return found


def test_r20_row_walking_generator_agrees_with_the_path_shapes():
    """The generator walks rows of stones; on random blobs it finds exactly what the shapes give."""
    chooser = random.Random(5)
    for _ in range(60):
        stones = {(chooser.randrange(8, 14), chooser.randrange(3, 10)) for _ in range(chooser.randrange(8, 25))}
        position = Caravan(BOARD, {cell: StoneAt() for cell in stones})
        for origin in stones:
            for value in range(1, 7):
                assert position.reachable(origin, value) == brute_force_reachable(BOARD, stones, origin, value)


def test_r1_board_rejects_ragged_rows_and_unknown_letters():
    with pytest.raises(ValueError):
        Board("bad", ["..", "..."])
    with pytest.raises(ValueError):
        Board("bad", [".X"])

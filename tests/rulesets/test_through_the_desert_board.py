"""The board and hex geometry (Spec §2.2, §2.3, S-1, E-9): no rules here."""

from __future__ import annotations

import pytest

from app.rulesets.through_the_desert.board import Board, hex_key, neighbours, parse_key, show


@pytest.fixture(scope="module")
def board():
    return Board.standard()


def test_standard_board_counts_match_the_spec(board):
    full, small = board.in_use(4), board.in_use(2)
    assert board.name == "ttd-own-board-v1"
    assert (len(full.spaces), len(small.spaces)) == (237, 193)
    assert (len(full.palm_spaces), len(small.palm_spaces)) == (7, 6)
    assert (len(full.well_spaces), len(small.well_spaces)) == (43, 33)
    assert len(full.mountains) == 7 and not {hex_key(h) for h in full.mountains} & full.space_set
    assert board.in_use(3) is small and board.in_use(5) is full


def test_e9_thick_line_is_a_wall_for_two_and_three_players(board):
    small = board.in_use(3)
    assert "15,0" in small.space_set and "16,0" not in small.space_set
    assert "16,0" not in small.neighbours["15,0"]
    assert "16,0" in board.in_use(4).neighbours["15,0"]


def test_neighbours_are_symmetric_and_skip_walls(board):
    area = board.in_use(4)
    for key, around in area.neighbours.items():
        assert all(key in area.neighbours[n] for n in around)
    assert "6,5" in area.space_set and "7,5" not in area.neighbours["6,5"]  # (7, 5) is a mountain


def test_spec_design_properties(board):
    area = board.in_use(4)
    wells, palms = set(area.well_spaces), set(area.palm_spaces)
    assert all(not set(area.neighbours[w]) & wells for w in wells)
    assert all(not set(area.neighbours[w]) & palms for w in wells)


def test_hex_helpers():
    assert hex_key((3, -1)) == "3,-1" and parse_key("3,-1") == (3, -1) and show("3,-1") == "row -1, hex 3"
    assert sorted(neighbours((0, 0))) == sorted([(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)])


def test_hexagon_test_board():
    area = Board.hexagon(3).in_use(2)
    assert len(area.spaces) == 37 and area.small_area is False
    assert len(area.neighbours["0,0"]) == 6 and len(area.neighbours["3,-3"]) == 3


def test_board_rejects_inconsistent_data():
    with pytest.raises(ValueError):
        Board("bad", spaces=[(0, 0)], palm_spaces=[(1, 0)])
    with pytest.raises(ValueError):
        Board("bad", spaces=[(0, 0)], mountains=[(0, 0)])

"""The enclosure detector (Spec E-1 .. E-10, A-1 .. A-6) on hand-built positions."""

from __future__ import annotations

from app.rulesets.through_the_desert.board import Board, hex_key
from app.rulesets.through_the_desert.enclosure import new_enclosures, region_of, regions
from tests.rulesets.through_the_desert_fixtures import TEST_BOARD, A, B

AREA = TEST_BOARD.in_use(2)
RING_1 = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
"""The six spaces around (0, 0)."""
RING_2 = [(2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 1)]
"""The twelve spaces at distance 2 from (0, 0), going round."""


def camels(*groups: tuple[int, str, list[tuple[int, int]]]) -> dict:
    """A camels mapping from ``(seat, colour, hexes)`` groups (no leaders: they enclose alike)."""
    return {hex_key(h): {"seat": s, "colour": c, "leader": False} for s, c, hexes in groups for h in hexes}


def keys(hexes) -> list[str]:
    return list(AREA.sort(hex_key(h) for h in hexes))


def test_e3_enclosure_against_the_board_edge():
    ring = [(-1, 3), (-1, 2), (-1, 1), (-2, 1), (-3, 1)]
    position = camels((A, "yellow", ring), (B, "pink", [(0, -2)]))
    assert new_enclosures(AREA, position, hex_key((-3, 1))) == [keys([(-3, 2), (-3, 3), (-2, 2), (-2, 3)])]


def test_e3_open_ring_encloses_nothing():
    ring = [(-1, 3), (-1, 2), (-1, 1), (-2, 1)]
    position = camels((A, "yellow", ring), (B, "pink", [(0, -2)]))
    assert new_enclosures(AREA, position, hex_key((-2, 1))) == []


def test_e9_mountains_close_a_region():
    board = Board.hexagon(3, mountains=[(1, 0), (0, 1), (1, -1)])
    area = board.in_use(2)
    position = camels((A, "pink", [(-1, 0), (0, -1), (-1, 1)]), (B, "green", [(3, -3)]))
    assert new_enclosures(area, position, hex_key((-1, 1))) == [["0,0"]]


def test_e9_same_ring_without_mountains_is_open():
    position = camels((A, "pink", [(-1, 0), (0, -1), (-1, 1)]), (B, "green", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((-1, 1))) == []


def test_e4a_camel_of_another_player_inside_blocks_it():
    position = camels((A, "pink", RING_2), (B, "green", [(0, 0)]), (B, "turquoise", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((1, 1))) == []


def test_e4a_own_camel_of_another_colour_inside_blocks_it():
    position = camels((A, "pink", RING_2), (A, "green", [(0, 0)]), (B, "turquoise", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((1, 1))) == []


def test_e4a_empty_inside_is_enclosed():
    position = camels((A, "pink", RING_2), (B, "turquoise", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((1, 1))) == [keys([(0, 0), *RING_1])]


def test_e4b_two_colours_cannot_enclose_together():
    position = camels((A, "pink", RING_2[:6]), (A, "turquoise", RING_2[6:]), (B, "green", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((1, 1))) == []
    assert new_enclosures(AREA, position, hex_key((2, 0))) == []


def test_a4_other_players_camels_are_no_wall():
    position = camels((A, "pink", RING_2[:11]), (B, "pink", [(1, 1)]), (B, "green", [(3, -3)]))
    assert new_enclosures(AREA, position, hex_key((0, 2))) == []


def test_a5_oasis_is_not_a_wall():
    """Five camels round (0, 0) and the oasis (1, 0) in the sixth place: the oasis is a free
    space, so (0, 0) still reaches the open board through it."""
    position = camels((A, "pink", [(-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]), (B, "green", [(3, -3)]))
    region, border = region_of(AREA, position, "0,0")
    assert "1,0" in region and len(region) > 2
    assert (B, "green") in border
    assert new_enclosures(AREA, position, hex_key((-1, 1))) == []


def test_e4d_cutting_the_board_encloses_both_empty_halves():
    """A pink line across row r = 0 splits the board into two camel-free halves of 15 spaces."""
    line = [(q, 0) for q in range(-3, 4)]
    position = camels((A, "pink", line))
    found = new_enclosures(AREA, position, hex_key((0, 0)))
    assert sorted(len(region) for region in found) == [15, 15]
    tops = [region for region in found if all(k.endswith(("-1", "-2", "-3")) for k in region)]
    assert len(tops) == 1


def test_e4e_one_camel_closes_several_regions_and_only_adjacent_ones():
    """The line with a B camel in the bottom half: only the top half is enclosed."""
    line = [(q, 0) for q in range(-3, 4)]
    position = camels((A, "pink", line), (B, "green", [(0, 3)]))
    found = new_enclosures(AREA, position, hex_key((0, 0)))
    assert [len(region) for region in found] == [15]


def test_e1_regions_lists_every_region_with_its_border():
    line = [(q, 0) for q in range(-3, 4)]
    position = camels((A, "pink", line), (B, "green", [(0, 3)]))
    found = regions(AREA, position)
    assert sorted((len(region), sorted(border)) for region, border in found) == [
        (14, [(A, "pink"), (B, "green")]),
        (15, [(A, "pink")]),
    ]


def test_e2_region_without_camels_has_empty_border():
    region, border = region_of(AREA, {}, "0,0")
    assert len(region) == 37 and border == set()


def test_a6_e9_the_two_to_three_player_line_is_a_wall():
    """(15,0) on the top row of our board: its neighbours are (14,0), (14,1), (15,1), and (16,0)
    beyond row 0's thick line (small_q_max 15); (15,-1) and (16,-1) are off the board.  Pink on
    the three inner ones closes (15,0) with 2-3 players; with 4, (16,0) is in play and leads on to
    the free (16,1), so nothing is closed."""
    board = Board.standard()
    wall = [(14, 0), (14, 1), (15, 1)]
    position = camels((A, "pink", wall), (B, "green", [(5, 5)]))
    assert new_enclosures(board.in_use(2), position, hex_key((15, 1))) == [["15,0"]]
    assert new_enclosures(board.in_use(4), position, hex_key((15, 1))) == []

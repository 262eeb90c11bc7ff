"""Spec §2.2, §2.3: every objective face O1 - O22 on small reserves worked out by hand.

Each grid is drawn in the test; the comment beside an expected value says how it was counted.
"""

from __future__ import annotations

import pytest

from app.rulesets.nimalia.objectives import OBJECTIVES, ranking
from tests.rulesets.nimalia_fixtures import grid, row_of


def score(objective_id: int, *grids) -> list[int]:
    return OBJECTIVES[objective_id].score(list(grids))


def one(objective_id: int, g) -> int:
    return score(objective_id, g)[0]


def river(length: int, terrain: str = "j"):
    """A diagonal chain of ``\\`` otters: each meets the next at a shared corner point."""
    rows = []
    for r in range(length):
        rows.append(" ".join(f"O{terrain}\\" if c == r else "." for c in range(length)))
    return grid(*rows)


def test_faces_colours_and_cards_match_spec_table():
    colours = {colour: sorted(o.id for o in OBJECTIVES.values() if o.colour == colour) for colour in ("blue", "green", "yellow", "red")}
    assert colours == {
        "blue": [2, 3, 5, 9, 11],
        "green": [8, 12, 14, 17, 19, 22],
        "yellow": [1, 4, 6, 7, 10, 15],
        "red": [13, 16, 18, 20, 21],
    }
    assert all(o.card == (o.id + 1) // 2 for o in OBJECTIVES.values())
    assert sorted(o.id for o in OBJECTIVES.values() if o.first_game) == [4, 5, 16, 19]


# -- O1 otter company ---------------------------------------------------------------------------


def test_o1_two_species_twice_each_scores_the_maximum_4():
    g = grid(
        r"Be  Be  .",
        r"Pe  On/ Be",
        r".   Pe  .",
    )
    assert one(1, g) == 4  # neighbours Be (0,1), Be (1,2), Pe (1,0), Pe (2,1): 2 + 2


def test_o1_a_neighbour_shared_by_two_otters_counts_for_each():
    g = grid(
        r".   Li  .   Li  .",
        r"Li  Os/ Li  Os\ Li",
        r".   Pe  .   Pe  .",
    )
    assert one(1, g) == 6  # each otter: 3 lions (the middle one shared) = 3; the lone penguin 0


def test_o1_otters_are_a_species_and_singles_score_nothing():
    g = grid(
        r"Oj/ Go",
        r"Oj\ Oj/",
    )
    # (1,0) sees two otters -> 2; (0,0) sees Go + otter -> 0; (1,1) sees Go + otter -> 0
    assert one(1, g) == 2


def test_o1_no_otter_scores_0():
    assert one(1, grid("Be Be", "Be Be")) == 0


# -- O2 otters by the lake ----------------------------------------------------------------------


def test_o2_water_diagonal_at_the_river_end_touches():
    g = grid(
        r"Os\ Li",
        r"Pe  Fl",
    )
    assert one(2, g) == 2  # the \ river ends at the corner shared with the flamingo


def test_o2_water_diagonal_at_the_other_corner_does_not_touch():
    g = grid(
        r"Os/ Li",
        r"Pe  Fl",
    )
    assert one(2, g) == 0  # the / river ends bottom-left and top-right; the flamingo is bottom-right


def test_o2_orthogonal_water_always_meets_one_end():
    assert one(2, grid(r"Os/ Cr")) == 2
    assert one(2, grid(r"Os\ Cr")) == 2


def test_o2_scores_per_otter_not_per_river():
    g = grid(
        r"Cr  Oj\ .",
        r".   .   Oj\ ",
    )
    # (0,1) touches the crocodile at its top-left end -> 2; (1,2) is on the same river, but no
    # water meets either of its own ends -> 0
    assert one(2, g) == 2


def test_o2_an_otter_is_not_water():
    assert one(2, grid(r"Os\ Oj/", r"On/ Os\ ")) == 0


# -- O3 jungle areas ------------------------------------------------------------------------------


def test_o3_counts_orthogonal_jungle_areas_with_otters_as_jungle():
    g = grid(
        r"Pa  Go  Fl",
        r"Fl  Fl  Pa",
        r"Oj/ Fl  Go",
    )
    assert one(3, g) == 6  # {(0,0),(0,1)}, {(1,2),(2,2)} (diagonal to (0,1): separate), {(2,0)}


def test_o3_no_jungle_scores_0():
    assert one(3, row_of("Fl", "Li")) == 0


# -- O4 gorillas at the water ---------------------------------------------------------------------


def test_o4_gorilla_next_to_water_once_and_never_diagonally():
    g = grid(
        r"Go  Fl  Go",
        r"Li  Cr  Cr",
        r"Go  Pe  Os/",
    )
    # (0,0) next to Fl -> 2; (0,2) next to Fl and Cr -> 2 once; (2,0) has Cr only diagonally -> 0
    assert one(4, g) == 4


def test_o4_an_otter_is_not_water():
    assert one(4, row_of("Go", "Os/")) == 0


# -- O5 largest savannah / O6 savannahs of exactly 4 --------------------------------------------


def test_o5_largest_savannah_area_only():
    g = grid(
        r"Li  Gi  Fl",
        r"Fl  Os/ Li",
        r"Gi  Fl  Gi",
    )
    # area (0,0),(0,1),(1,1),(1,2),(2,2) = 5 (the otter is savannah); (2,0) alone = 1
    assert one(5, g) == 10
    assert one(6, g) == 0  # no area of exactly 4


def test_o5_no_savannah_scores_0():
    assert one(5, row_of("Fl", "Pa")) == 0


def test_o6_each_area_of_exactly_4_in_any_shape():
    g = grid(
        r"Li  Li  Fl  Gi",
        r"Li  Li  Fl  Gi",
        r"Fl  Fl  Fl  Gi",
        r"Gi  Li  Fl  Gi",
    )
    # the 2x2 block and the column (0,3)-(3,3) are areas of 4; (3,0),(3,1) is an area of 2
    assert one(6, g) == 12
    assert one(5, g) == 8


# -- O7 snow squares ------------------------------------------------------------------------------


def test_o7_overlapping_snow_blocks_each_count_and_snow_otters_are_snow():
    g = grid(
        r"Be  Pe  Be",
        r"Pe  On/ Pe",
        r"Fl  Be  Pe",
    )
    assert one(7, g) == 12  # blocks at (0,0), (0,1), (1,1); (1,0) holds the flamingo


def test_o7_a_savannah_otter_breaks_the_block():
    g = grid(
        r"Be  Pe  Be",
        r"Pe  Os/ Pe",
        r"Fl  Be  Pe",
    )
    assert one(7, g) == 0


# -- O8 polar bear families -----------------------------------------------------------------------


def test_o8_groups_score_2_per_bear_and_lone_bears_lose_1():
    g = grid(
        r"Be  Be  Fl  Be",
        r"Fl  Fl  Fl  Fl",
        r"Be  Fl  Be  Be",
        r"Fl  Fl  Be  Fl",
    )
    assert one(8, g) == 8  # pair +4, lone (0,3) -1, lone (2,0) -1, group of 3 +6


def test_o8_diagonal_bears_are_alone_and_the_total_may_be_negative():
    assert one(8, grid("Be Fl", "Fl Be")) == -2


# -- O9 balanced terrains -------------------------------------------------------------------------


def test_o9_twice_the_smallest_terrain_count():
    assert one(9, grid("Fl Li Pa Be", "Cr Gi Go .")) == 2  # snow 1
    assert one(9, grid(r"Fl Os/ Pa Be", r"Cr Gi Oj\ Pe")) == 4  # every terrain 2, otters by terrain


def test_o9_a_missing_terrain_scores_0():
    assert one(9, row_of("Fl", "Li", "Pa")) == 0


# -- O10 filled square ----------------------------------------------------------------------------


def test_o10_a_hole_in_the_middle_leaves_only_2x2():
    g = grid(
        "Fl Fl Fl Fl",
        "Fl Fl Fl Fl",
        "Fl Fl .  Fl",
        "Fl Fl Fl Fl",
    )
    assert one(10, g) == 3  # every 3x3 window of a 4x4 holds (2,2)


def test_o10_the_square_need_not_touch_a_corner():
    g = grid(
        ".  Fl Fl Fl",
        "Fl Fl Fl Fl",
        ".  Fl Fl Fl",
    )
    assert one(10, g) == 5


@pytest.mark.parametrize("side, points", [(1, 0), (2, 3), (3, 5), (4, 8), (5, 13), (6, 21)])
def test_o10_points_by_side(side, points):
    assert one(10, grid(*[" ".join(["Li"] * side)] * side)) == points


# -- O11 four-terrain rows ------------------------------------------------------------------------


def test_o11_rows_with_all_four_terrains_otters_by_printed_terrain():
    g = grid(
        r"Fl  Li  Pa  Be",
        r"Fl  Os/ Oj\ On/",
        r"Cr  Cr  Li  Go",
    )
    assert one(11, g) == 6  # rows 0 and 1; row 2 has no snow


# -- O12 horizontal couples -----------------------------------------------------------------------


def test_o12_runs_of_exactly_two():
    g = grid(
        r"Be  Be  Be  Li",
        r"Pe  Pe  .   Pe",
        r"Gi  Gi  Li  Li",
        r"Oj/ Os\ Fl  Cr",
    )
    # row 0: a run of 3 scores 0; row 1: one pair (the gap breaks the row); row 2: two pairs;
    # row 3: two otters are a pair (one species), flamingo-crocodile is not
    assert one(12, g) == 12


def test_o12_a_run_of_three_ending_in_the_last_column_scores_nothing():
    assert one(12, row_of("Li", "Be", "Be", "Be")) == 0  # D-7: not BGA's edge bug


def test_o12_vertical_pairs_do_not_count():
    assert one(12, grid("Fl", "Fl")) == 0


# -- O13 few giraffes -----------------------------------------------------------------------------


@pytest.mark.parametrize("giraffes, points", [(0, 8), (1, 5), (2, 3), (3, 0), (4, 0)])
def test_o13_giraffe_table(giraffes, points):
    assert one(13, row_of("Li", *["Gi"] * giraffes)) == points


def test_o13_is_individual_although_red():
    assert score(13, row_of("Gi"), row_of("Gi"), row_of("Li")) == [5, 5, 8]


# -- O14 sheltered flamingos ----------------------------------------------------------------------


def test_o14_enclosed_flamingos_diagonal_gaps_do_not_matter():
    g = grid(
        "Li Li Li .",
        "Li Fl Fl Li",
        "Li Li Li Li",
    )
    assert one(14, g) == 6  # both enclosed; (0,3) is only diagonal to (1,2)


def test_o14_an_empty_neighbour_exposes_the_flamingo():
    assert one(14, grid("Li Li Li", "Li Fl .", "Li Li Li")) == 0


# -- O15 long river -------------------------------------------------------------------------------


@pytest.mark.parametrize("length, points", [(0, 0), (1, 0), (2, 1), (3, 3), (4, 6), (5, 10), (6, 15)])
def test_o15_triangular_points(length, points):
    assert one(15, river(length) if length else row_of("Li")) == points


def test_o15_capped_at_15_for_seven_otters():
    g = grid(
        r"Oj\ On/ Oj\ On/ Oj\ On/",
        r".   .   .   .   .   Os\ ",
    )
    assert one(15, g) == 15  # a zigzag of 6 plus (1,5) joined at corner (1,5): 7 otters


def test_o15_a_fork_counts_every_branch():
    g = grid(
        r"Oj\ On/",
        r".   Os\ ",
    )
    assert one(15, g) == 3  # D-2: three otters meet at corner (1,1): length 3


def test_o15_a_loop_counts_every_otter():
    g = grid(
        r"On/ Oj\ ",
        r"Os\ On/",
    )
    assert one(15, g) == 6  # the four rivers close a diamond: length 4


def test_o15_parallel_rivers_do_not_join():
    assert one(15, grid(r"Oj/ Oj/")) == 0  # no shared end point: two rivers of 1


# -- O16 longest river race -----------------------------------------------------------------------


def test_o16_first_and_second_with_three_players():
    assert score(16, river(3), river(2), river(1)) == [5, 2, 0]


def test_o16_tied_first_means_no_second():
    assert score(16, river(3), river(1), river(3)) == [5, 0, 5]


def test_o16_ties_for_second_all_score_with_four_players():
    assert score(16, river(3), river(2), river(2), row_of("Li")) == [5, 2, 2, 0]


def test_o16_two_players_pay_first_only():
    assert score(16, river(3), river(2)) == [5, 0]


def test_o16_no_river_is_not_ranked():
    assert score(16, row_of("Li"), row_of("Fl"), row_of("Pa")) == [0, 0, 0]  # D-3
    assert score(16, river(2), row_of("Li"), row_of("Fl")) == [5, 0, 0]  # nobody is 2nd


# -- O17 pandas at the edge -----------------------------------------------------------------------


def test_o17_only_pandas_with_an_empty_neighbour():
    assert one(17, grid("Li Li Li", "Li Pa Pa", "Li Li Li")) == 3  # (1,2) touches the outside


def test_o17_an_interior_hole_is_an_edge():
    assert one(17, grid("Li Li Li", "Li Pa Li", "Li .  Li", "Li Li Li")) == 3


# -- O18 gorillas yes, pandas no ------------------------------------------------------------------


def test_o18_net_of_both_rankings_three_players():
    a = row_of("Go", "Go", "Go", "Pa")
    b = row_of("Go", "Go", "Pa", "Pa", "Pa", "Pa")
    c = row_of("Pa", "Pa", "Pa", "Pa")
    # gorillas 3, 2, 0 -> +5, +2, 0; pandas 1, 4, 4 -> tied first -5, -5, nobody 2nd
    assert score(18, a, b, c) == [5, -3, -5]


def test_o18_two_players_and_zero_pandas_not_ranked():
    a = row_of("Go", "Go")
    b = row_of("Go", "Go", "Pa", "Pa", "Pa")
    assert score(18, a, b) == [5, 0]  # gorillas tied +5 each; pandas: only b ranked, -5


def test_o18_nobody_with_the_animals_scores_nothing():
    assert score(18, row_of("Li"), row_of("Fl"), row_of("Be")) == [0, 0, 0]


# -- O19 lone penguins ----------------------------------------------------------------------------


def test_o19_columns_with_exactly_one_penguin():
    g = grid(
        "Pe Pe Fl",
        "Pe Fl Fl",
        "Fl Fl Pe",
    )
    assert one(19, g) == 6  # column 0 has 2; columns 1 and 2 have 1


# -- O20 fewest lions -----------------------------------------------------------------------------


def test_o20_fewest_plus_3_everyone_else_minus_2():
    assert score(20, row_of("Li", "Li"), row_of("Fl"), row_of("Pa")) == [-2, 3, 3]
    assert score(20, row_of("Fl"), row_of("Li"), row_of("Li", "Li"), row_of("Li", "Li", "Li")) == [3, -2, -2, -2]


def test_o20_two_players_tied_both_plus_3():
    assert score(20, row_of("Li", "Li"), row_of("Li", "Li")) == [3, 3]


# -- O21 crocodiles yes, flamingos no -------------------------------------------------------------


def test_o21_net_of_both_rankings_three_players():
    a = row_of("Cr", "Cr", "Cr", "Fl", "Fl")
    b = row_of("Cr", "Fl", "Fl")
    c = row_of("Fl", "Fl", "Fl", "Fl", "Fl")
    # crocodiles 3, 1, 0 -> +5, +2, 0; flamingos 2, 2, 5 -> tied fewest +5, +5, nobody 2nd
    assert score(21, a, b, c) == [10, 7, 0]


def test_o21_zero_flamingos_is_best_zero_crocodiles_unranked():
    assert score(21, row_of("Li"), row_of("Pa"), row_of("Be")) == [5, 5, 5]


def test_o21_four_players():
    a = row_of("Cr", "Cr", "Fl")
    b = row_of("Cr", "Cr", "Fl", "Fl")
    c = row_of("Cr", "Fl", "Fl", "Fl")
    d = row_of("Fl", "Fl", "Fl")
    # crocodiles 2, 2, 1, 0 -> tied first +5, +5, no 2nd; flamingos 1, 2, 3, 3 -> +5, +2, 0, 0
    assert score(21, a, b, c, d) == [10, 7, 0, 0]


# -- O22 crocodiles and giraffes ------------------------------------------------------------------


def test_o22_crocodiles_next_to_a_giraffe_once_never_diagonally():
    g = grid(
        "Cr Gi Cr",
        "Cr Gi Li",
        "Gi Cr Cr",
    )
    # (0,0), (0,2), (1,0), (2,1) touch a giraffe; (2,2) has one only diagonally
    assert one(22, g) == 8


# -- the ranking rule itself (Spec §2.3) --------------------------------------------------------


def test_ranking_rules():
    assert ranking([4, 2, 2], 5, 2) == [5, 2, 2]
    assert ranking([4, 4, 2], 5, 2) == [5, 5, 0]
    assert ranking([4, 0, 0], 5, 2) == [5, 0, 0]
    assert ranking([0, 3], 5, 2, fewest=True) == [5, 0]
    assert ranking([1, 3, 2, 3], 5, 2, fewest=True) == [5, 0, 2, 0]

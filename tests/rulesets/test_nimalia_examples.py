"""Spec §4 worked examples with the spec's numbers (Examples 1, 2, 5, 5b, 5c)."""

from __future__ import annotations

import pytest

from app.rulesets.nimalia.cards import TERRAINS
from app.rulesets.nimalia.objectives import (
    OBJECTIVES,
    count_animal,
    count_terrain,
    largest_population,
)
from app.rulesets.nimalia.scoring import (
    add_with_floor,
    colours_scored,
    final_ranks,
    final_result,
    score_round,
)
from tests.rulesets.nimalia_fixtures import EXAMPLE_1, EXAMPLE_2, grid, row_of

# -- Example 1 ------------------------------------------------------------------------------------

EXAMPLE_1_POINTS = {
    1: 4, 2: 0, 3: 4, 4: 2, 5: 8, 6: 12, 7: 8, 8: 7, 9: 14, 10: 21, 11: 3,
    12: 15, 13: 0, 14: 3, 15: 0, 17: 6, 19: 9, 22: 6,
}


def test_example_1_counts():
    g = grid(*EXAMPLE_1)
    assert [count_terrain(g, t) for t in TERRAINS] == [7, 10, 8, 11]
    animals = ["polar bear", "penguin", "lion", "giraffe", "gorilla", "crocodile", "panda", "flamingo", "otter"]
    assert [count_animal(g, a) for a in animals] == [5, 5, 5, 5, 4, 4, 3, 3, 2]
    assert largest_population(g) == 5


@pytest.mark.parametrize("objective_id, points", sorted(EXAMPLE_1_POINTS.items()))
def test_example_1_objective(objective_id, points):
    assert OBJECTIVES[objective_id].score([grid(*EXAMPLE_1)]) == [points]


# -- Example 2 ------------------------------------------------------------------------------------

EXAMPLE_2_POINTS = {
    1: 0, 2: 0, 15: 0, 3: 10, 4: 4, 5: 2, 6: 0, 7: 0, 8: 0, 9: 0, 10: 5, 11: 0,
    12: 6, 13: 0, 14: 9, 17: 15, 19: 0, 22: 6,
}


def test_example_2_counts():
    g = grid(*EXAMPLE_2)
    assert [count_terrain(g, t) for t in TERRAINS] == [13, 3, 8, 0]
    animals = ["flamingo", "crocodile", "panda", "gorilla", "giraffe", "lion"]
    assert [count_animal(g, a) for a in animals] == [8, 5, 5, 3, 3, 0]
    assert largest_population(g) == 8


@pytest.mark.parametrize("objective_id, points", sorted(EXAMPLE_2_POINTS.items()))
def test_example_2_objective(objective_id, points):
    assert OBJECTIVES[objective_id].score([grid(*EXAMPLE_2)]) == [points]


# -- Example 5: full game flow, zero floor and tie-break ------------------------------------------

EXAMPLE_5_OBJECTIVES = {"blue": 9, "green": 8, "yellow": 15, "red": 20}
EXAMPLE_5_ROUNDS_1_TO_4 = {
    # round: per colour in application order, (P, Q)
    1: {"blue": (2, 4), "green": (-3, 4)},
    2: {"green": (4, -1), "yellow": (1, 3)},
    3: {"blue": (4, 6), "red": (-2, 3)},
    4: {"green": (6, 5), "yellow": (3, 6), "red": (3, -2)},
}


def _records_rounds_1_to_4():
    totals, history = [0, 0], []
    for number, results in EXAMPLE_5_ROUNDS_1_TO_4.items():
        steps = [{"colour": c, "objective": EXAMPLE_5_OBJECTIVES[c], "points": list(results[c])} for c in colours_scored(number)]
        after = [add_with_floor(total, [step["points"][seat] for step in steps]) for seat, total in enumerate(totals)]
        history.append({"round": number, "steps": steps, "before": totals, "after": after})
        totals = after
    return history


def test_example_5_running_totals_rounds_1_to_4():
    assert [record["after"] for record in _records_rounds_1_to_4()] == [[0, 8], [5, 10], [7, 19], [19, 28]]


def test_example_5_zero_floor_in_round_1():
    assert add_with_floor(0, [2, -3]) == 0  # P: +2 -> 2; -3 -> 0 (floor), not -1
    assert add_with_floor(0, [-3, 2]) == 2  # the floor applies after each card: -3 -> 0, then +2


def test_example_5_round_5_with_the_example_reserves():
    p, q = grid(*EXAMPLE_1), grid(*EXAMPLE_2)
    record = score_round(EXAMPLE_5_OBJECTIVES, 5, [p, q], [19, 28])
    assert [(s["colour"], s["points"]) for s in record["steps"]] == [
        ("blue", [14, 0]),
        ("yellow", [0, 0]),
        ("red", [-2, 3]),  # 5 lions against 0
    ]
    assert record["after"] == [31, 31]


def test_example_5_tie_break_gives_q_the_win():
    history = _records_rounds_1_to_4()
    p, q = grid(*EXAMPLE_1), grid(*EXAMPLE_2)
    history.append(score_round(EXAMPLE_5_OBJECTIVES, 5, [p, q], history[-1]["after"]))
    result = final_result(EXAMPLE_5_OBJECTIVES, history, [p, q])
    assert result.scores == [31, 31]
    assert result.ranks == [2, 1]  # largest population: P 5, Q 8 (flamingos)
    assert "tie-break" in result.reason
    # without the floor P would have 30 and Q would win outright
    raw_p = sum(step["points"][0] for record in history for step in record["steps"])
    assert raw_p == 30
    assert sum(result.breakdown[0].values()) == 31 and result.breakdown[0]["zero floor"] == 1


def test_example_5b_application_order_blue_yellow_red():
    assert colours_scored(5) == ["blue", "yellow", "red"]
    assert add_with_floor(0, [0, 3, -2]) == 1
    assert add_with_floor(0, [0, -2, 3]) == 3  # BGA's printed order would give 3
    # the same through the round's scoring: blue O2 0, yellow O10 +3 (a 2x2), red O20 -2 (lions)
    lions = grid("Li Li", "Li Li")
    no_lions = grid("Fl Fl", "Fl Fl")
    record = score_round({"blue": 2, "green": 8, "yellow": 10, "red": 20}, 5, [lions, no_lions], [0, 0])
    assert [s["points"][0] for s in record["steps"]] == [0, 3, -2]
    assert record["after"] == [1, 6]


def test_example_5c_composite_red_is_applied_as_one_net_value():
    a = row_of("Go", "Go", "Go")
    b = row_of("Go", "Go", "Pa", "Pa", "Pa", "Pa")
    c = row_of("Go", "Pa")
    # gorillas 3, 2, 1 -> +5, +2, 0; pandas 0, 4, 1 -> a unranked, b 1st -5, c 2nd -2
    # so b nets +2 - 5 = -3 and c nets 0 - 2 = -2
    record = score_round({"blue": 2, "green": 8, "yellow": 10, "red": 18}, 3, [a, b, c], [0, 0, 0])
    assert record["steps"][-1] == {"colour": "red", "objective": 18, "points": [5, -3, -2]}
    assert record["after"][1] == 0  # 0 - 3 -> 0; halves applied one by one would give 2


def test_final_ranks_shared_when_the_tie_break_ties():
    assert final_ranks([31, 31, 20], [5, 5, 9]) == [1, 1, 3]  # D-6

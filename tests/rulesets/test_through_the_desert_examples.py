"""Spec §5 worked examples, with the spec's numbers, on the radius-3 test board."""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove, rank_by_score
from app.rulesets.through_the_desert.moves import Camel
from app.rulesets.through_the_desert.scoring import (
    area_value,
    breakdown,
    largest_caravan_points,
    seat_breakdown,
    totals,
)
from tests.rulesets.through_the_desert_fixtures import RULES, A, B, C, area_sets, place, points_so_far, position

# -- Example 1: oasis connections, wells and same-colour separation ---------------------------


@pytest.fixture
def example_1():
    state = position(
        leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink"), (-2, 0): (A, "turquoise"), (2, 1): (B, "turquoise")},
        oases=((0, 0),),
        wells={(3, -1): 2},
    )
    steps = [
        (A, "pink", (1, -1), 5, 0),
        (A, "pink", (1, 0), 5, 0),
        (B, "pink", (-1, 1), 5, 5),
        (A, "turquoise", (-1, 0), 10, 5),
        (B, "turquoise", (2, 0), 10, 5),
        (B, "turquoise", (3, -1), 10, 7),
    ]
    return state, steps


def test_example_1_oasis_and_well_points_step_by_step(example_1):
    state, steps = example_1
    for seat, colour, hex_, expected_a, expected_b in steps:
        state, _ = place(state, seat, colour, hex_)
        assert (points_so_far(state, A), points_so_far(state, B)) == (expected_a, expected_b), (seat, colour, hex_)


def test_example_1_legality_after_step_6(example_1):
    state, steps = example_1
    for seat, colour, hex_, _, _ in steps:
        state, _ = place(state, seat, colour, hex_)
    with pytest.raises(IllegalMove, match="P-5"):
        place(state, A, "pink", (0, 1))
    with pytest.raises(IllegalMove, match="P-5"):
        place(state, B, "pink", (0, 1))
    place(state, A, "pink", (1, 1))  # P-6: B's turquoise neighbours do not matter
    for seat, colour in ((A, "pink"), (A, "turquoise"), (B, "pink"), (B, "turquoise")):
        with pytest.raises(IllegalMove, match="P-2"):
            place(state, seat, colour, (0, 0))


def test_example_1_step_6_also_closes_the_corner_space(example_1):
    """Worked by hand from E-3: after B's turquoise (3,-1), the space (3,0) touches only B's
    turquoise (2,0), (2,1), (3,-1) and the board edge, so it is B's area worth 1 (not a point
    of the table above, which counts wells and oases only)."""
    state, steps = example_1
    for seat, colour, hex_, _, _ in steps:
        state, _ = place(state, seat, colour, hex_)
    assert area_sets(state) == [(B, "turquoise", {(3, 0)}, 1)]


# -- Example 2: enclosure against the board edge with a well and an oasis inside --------------


@pytest.fixture
def example_2():
    state = position(
        leaders={(-1, 3): (A, "yellow"), (2, 0): (B, "turquoise"), (0, -2): (B, "pink")},
        oases=((-3, 3),),
        wells={(-2, 2): 3, (1, -3): 1},
    )
    for hex_ in ((-1, 2), (-1, 1), (-2, 1)):
        state, _ = place(state, A, "yellow", hex_)
        assert state["areas"] == []
    state, events = place(state, A, "yellow", (-3, 1))
    return state, events


def test_example_2_enclosure_takes_well_and_oasis(example_2):
    state, events = example_2
    assert area_sets(state) == [(A, "yellow", {(-3, 2), (-3, 3), (-2, 2), (-2, 3)}, 3)]
    assert points_so_far(state, A) == 8
    assert any("enclosed an area of 4 spaces with the yellow caravan" in e.render(("A", "B")) for e in events)


def test_example_2_p3_area_is_closed_to_everyone(example_2):
    state, _ = example_2
    for hex_ in ((-2, 2), (-3, 2)):
        with pytest.raises(IllegalMove, match="P-3"):
            place(state, A, "yellow", hex_)
    assert all(move.hex not in {(-2, 2), (-3, 2), (-2, 3)} for move in RULES.legal_moves(dict(state, current=A), A))


def test_example_2_final_scoring(example_2):
    state, _ = example_2
    rows = breakdown(state)
    assert rows[A] == {"caravans": 10, "wells": 3, "oases": 5, "areas": 3}
    assert rows[B] == {"caravans": 20, "wells": 0, "oases": 0, "areas": 0}
    assert totals(rows) == [21, 20]


# -- Example 5: final scoring with ties (table fixture, 3 players) ----------------------------

EXAMPLE_5_SIZES = [
    {"pink": 8, "green": 12, "yellow": 3, "purple": 6, "turquoise": 1},
    {"pink": 8, "green": 2, "yellow": 3, "purple": 4, "turquoise": 10},
    {"pink": 5, "green": 7, "yellow": 3, "purple": 9, "turquoise": 10},
]


def test_example_5_f1_largest_caravans_with_ties():
    assert largest_caravan_points(EXAMPLE_5_SIZES) == [20, 15, 20]


def test_example_5_totals_and_shared_victory():
    areas = [
        area_value(["a1", "a2", "a3", "a4", "oasis"], ["oasis"]),
        0,
        area_value(["c1", "c2", "c3"], []) + area_value(["c4", "c5"], []),
    ]
    assert areas == [4, 0, 5]
    rows = [
        seat_breakdown(20, [1, 3, 2], 3, areas[A]),
        seat_breakdown(15, [2, 2], 4, areas[B]),
        seat_breakdown(20, [3, 3, 3, 1], 2, areas[C]),
    ]
    assert rows[A] == {"caravans": 20, "wells": 6, "oases": 15, "areas": 4}
    assert rows[B] == {"caravans": 15, "wells": 4, "oases": 20, "areas": 0}
    assert rows[C] == {"caravans": 20, "wells": 10, "oases": 10, "areas": 5}
    scores = totals(rows)
    assert scores == [45, 39, 45]
    assert rank_by_score(scores) == [1, 3, 1]  # F-5: A and C share first place


def test_example_5_from_a_game_state():
    """The same table, held in a finished game state: ``result`` gives the shared victory."""
    state = position(leaders={}, n_players=3)
    camels, index = {}, 0
    for seat, sizes in enumerate(EXAMPLE_5_SIZES):
        for colour, size in sizes.items():
            for number in range(size):
                camels[f"{index},99"] = {"seat": seat, "colour": colour, "leader": number == 0}
                index += 1
    state.update(
        camels=camels,
        phase="over",
        current=None,
        end_reason="table fixture",
        taken_wells=[
            [{"id": f"w{v}{i}", "value": v} for i, v in enumerate(values)] for values in ([1, 3, 2], [2, 2], [3, 3, 3, 1])
        ],
        oasis_credits=[[["pink", f"o{i}"] for i in range(count)] for count in (3, 4, 2)],
        areas=[
            {"seat": A, "colour": "green", "hexes": ["x"] * 5, "points": 4},
            {"seat": C, "colour": "purple", "hexes": ["y"] * 3, "points": 3},
            {"seat": C, "colour": "purple", "hexes": ["z"] * 2, "points": 2},
        ],
    )
    result = RULES.result(state)
    assert result.scores == [45, 39, 45]
    assert result.ranks == [1, 3, 1]
    assert [row["caravans"] for row in result.breakdown] == [20, 15, 20]


def test_example_moves_read_well():
    """A move reads with the hex's name as the board labels it (row letter, column number)."""
    assert str(Camel(colour="pink", hex=(3, 0))) == "pink camel on A4"  # row 0 = A, column 3 + 0 + 1
    assert str(Camel(colour="pink", hex=(-2, 11))) == "pink camel on M4"  # row 11 = M (no I), column -2 + 5 + 1

"""Spec §1.2 - §1.5: the 60-card deck and how cards turn; river geometry of the reserve (§2.1)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rulesets.nimalia.cards import OTTER, card_number, card_token, deck, parse_space
from app.rulesets.nimalia.reserve import (
    build_grid,
    river_ends,
    rivers,
    spaces_at_corner,
)


def test_deck_has_60_cards_with_the_spec_distribution():
    cards = deck()
    assert sorted(cards) == list(range(1, 61))
    spaces = [space for card in cards.values() for space in card.spaces]
    assert Counter(space.terrain for space in spaces) == {"water": 60, "savannah": 60, "jungle": 60, "snow": 60}
    assert Counter(space.animal for space in spaces) == {
        "flamingo": 30, "crocodile": 30, "otter": 30, "lion": 25, "giraffe": 25,
        "panda": 25, "gorilla": 25, "polar bear": 25, "penguin": 25,
    }
    otters = Counter((space.terrain, space.river) for space in spaces if space.animal == OTTER)
    assert otters == {
        ("snow", "/"): 6, ("snow", "\\"): 4, ("savannah", "/"): 4,
        ("savannah", "\\"): 6, ("jungle", "/"): 5, ("jungle", "\\"): 5,
    }


def test_no_card_has_three_spaces_of_one_terrain_and_cards_differ_under_rotation():
    seen = set()
    for card in deck().values():
        assert max(Counter(space.terrain for space in card.spaces).values()) <= 2
        for rotation in (0, 90, 180, 270):
            codes = tuple(card.codes(rotation))
            assert codes not in seen
            seen.add(codes)


def test_otter_rivers_run_from_the_card_centre_to_its_outer_corner():
    for card in deck().values():
        for quadrant, space in zip(("TL", "TR", "BL", "BR"), card.spaces):
            if space.animal == OTTER:
                assert space.river == ("\\" if quadrant in ("TL", "BR") else "/"), (card.number, quadrant)


def test_card_1_as_in_the_table():
    assert deck()[1].codes() == ["Cr", "Li", "Pa", "Oj\\"]
    assert deck()[59].codes() == ["Os\\", "Go", "Oj/", "Gi"]


def test_quarter_turn_moves_quadrants_and_swaps_rivers():
    # Spec §1.4: [TL, TR, BL, BR] -> [BL, TL, BR, TR], / <-> \
    assert deck()[1].codes(90) == ["Pa", "Cr", "Oj/", "Li"]
    # 180: [BR, BL, TR, TL], diagonals unchanged
    assert deck()[1].codes(180) == ["Oj\\", "Pa", "Li", "Cr"]
    assert deck()[1].codes(270) == ["Li", "Oj/", "Cr", "Pa"]


def test_card_tokens_are_zero_padded_and_distinct_as_substrings():
    assert card_token(7) == "nimalia-card-07"
    assert card_number("nimalia-card-07") == 7
    assert card_number("nimalia-card-61") is None and card_number("nimalia-card-7") is None
    tokens = [card_token(n) for n in range(1, 61)]
    assert not any(a != b and a in b for a in tokens for b in tokens)


def test_parse_space_rejects_nonsense():
    with pytest.raises(ValueError):
        parse_space("Ox/")


def test_river_end_points_and_corner_spaces():
    assert river_ends((2, 3), "/") == ((3, 3), (2, 4))
    assert river_ends((2, 3), "\\") == ((2, 3), (3, 4))
    assert spaces_at_corner((1, 1)) == ((0, 0), (0, 1), (1, 0), (1, 1))


def test_later_cards_cover_earlier_ones():
    grid = build_grid([{"card": 1, "rotation": 0, "at": [0, 0]}, {"card": 3, "rotation": 0, "at": [1, 1]}])
    assert grid[(0, 0)].code == "Cr" and grid[(1, 0)].code == "Pa"
    assert grid[(1, 1)].code == "Gi" and grid[(1, 1)].card == 3  # card 1's otter is covered
    assert rivers(grid) == []
    assert len(grid) == 7

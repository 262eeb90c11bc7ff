"""Through the Desert: rule invariants over random games, and ``legal_moves`` lists exactly the
moves ``apply`` accepts.  The contract itself is checked for every ruleset, player count and
declared variant by ``tests/rulesets/test_conformance.py``."""

from __future__ import annotations

import pytest

from app.rulesets.testing import check_legal_moves_complete, random_games
from app.rulesets.through_the_desert.enclosure import region_of
from app.rulesets.through_the_desert.moves import COLOURS
from app.rulesets.through_the_desert.options import PILE_SIZES
from app.rulesets.through_the_desert.rules import ThroughTheDesert

RULES = ThroughTheDesert()


@pytest.fixture(scope="module")
def default_games():
    return random_games(RULES, games=2)


def test_invariants_after_random_games(default_games):
    """P-5, P-8, E-3, E-7 and the camel count hold in every final position."""
    assert sorted({game.n_players for game in default_games}) == [2, 3, 4, 5]
    for game in default_games:
        state = game.final
        area = RULES.area(state)
        camels = state["camels"]
        for key, camel in camels.items():
            for n in area.neighbours[key]:
                other = camels.get(n)
                assert not (other and other["colour"] == camel["colour"] and other["seat"] != camel["seat"]), "P-5"
        for seat in range(game.n_players):
            for colour in COLOURS:
                cells = {k for k, c in camels.items() if c["seat"] == seat and c["colour"] == colour}
                if cells:
                    start = next(k for k in cells if camels[k]["leader"])
                    reached, todo = {start}, [start]
                    while todo:
                        for n in area.neighbours[todo.pop()]:
                            if n in cells and n not in reached:
                                reached.add(n)
                                todo.append(n)
                    assert reached == cells, "P-8: a caravan is connected to its leader"
        for enclosed in state["areas"]:
            region, border = region_of(area, camels, enclosed["hexes"][0])
            assert sorted(region) == sorted(enclosed["hexes"]), "E-7: areas never change"
            assert border == {(enclosed["seat"], enclosed["colour"])}, "E-3"
        pile = PILE_SIZES["classic"][game.n_players]
        placed = sum(not c["leader"] for c in camels.values())
        assert placed == sum(pile - state["piles"][colour] for colour in COLOURS)
        assert min(state["piles"].values()) == 0 or "T-6" in state["end_reason"]


def every_placement(state, seat):
    """Every move of the phase's type on every space of the full board, and one off it."""
    from app.rulesets.through_the_desert.moves import Camel, Leader, Palm, ReturnLeader

    full = RULES.board.in_use(5)
    hexes = [full.coords[key] for key in full.spaces] + [(30, 30)]
    phase = state["phase"]
    if phase == "camels":
        return [Camel(colour=colour, hex=hex) for colour in COLOURS for hex in hexes]
    if phase == "leaders":
        return [Leader(colour=colour, hex=hex) for colour in COLOURS for hex in hexes]
    if phase == "palms":
        return [Palm(hex=hex) for hex in hexes]
    return [ReturnLeader(colour=colour) for colour in COLOURS]


@pytest.mark.parametrize(("n_players", "options"), [(2, {}), (3, {"palm_placement": "choose"}),
                                                    (5, {"leader_return": "choose"})])
def test_legal_moves_are_exactly_the_accepted_moves(n_players, options):
    compared = check_legal_moves_complete(RULES, n_players, 7, every_placement, RULES.parse_options(options), every=9)
    assert compared > 5

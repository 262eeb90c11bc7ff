"""The map graph, the house data and the starting position (spec 1.2, 1.5, 2.3, 2.4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.rulesets.heroes.board import Board, region_name
from app.rulesets.heroes.houses import HOUSE
from tests.rulesets.heroes_fixtures import RULES

# The team spec's data files, copied into the repository (the spec itself lives outside it).
SPEC_DATA = Path(__file__).parent / "data"
BOARD = Board.four_isles()


def test_map_has_28_land_regions_and_symmetric_adjacency_with_ferries():
    assert len(BOARD.land) == 28
    for region, neighbours in BOARD.adjacent.items():
        assert all(region in BOARD.adjacent[other] for other in neighbours)
    # spec 2.4: each continent's Mountain links by ferry to the next continent's Forest
    assert {"E_forest", "W_forest", "S_forest"} & BOARD.adjacent["N_mountain"] == {"E_forest"}
    assert "W_mountain" in BOARD.adjacent["N_forest"]


def test_land_distances_count_ferries():
    """Spec 1.7 Build a Tower: shortest march distance, ferries count as adjacency."""
    distance = BOARD.land_distances("N_capital")
    assert distance["N_plains"] == 1 and distance["N_mountain"] == 2
    assert distance["E_forest"] == 3  # N_capital - N_desert - N_mountain - E_forest
    # via E: N_desert, N_mountain, E_forest, E_desert, E_mountain, S_forest, S_desert, S_capital
    assert distance["S_capital"] == 8


@pytest.mark.parametrize("players, continents", [(2, ("N", "S")), (3, ("N", "E", "W")), (4, ("N", "E", "S", "W"))])
def test_continents_by_player_count(players, continents):
    """Spec 2.4 / docs/heroes.md: N,S / N,E,W / N,E,S,W; capital `{continent}_capital`."""
    state = RULES.setup(players, RULES.parse_options({}), 3)
    assert tuple(player["continent"] for player in state["players"]) == continents
    assert [player["capital"] for player in state["players"]] == [f"{c}_capital" for c in continents]


def test_data_files_are_copies_of_the_spec_data():
    package = Path(__file__).parents[2] / "app/rulesets/heroes/data"
    assert json.loads((package / "four_isles.json").read_text()) == json.loads(
        (SPEC_DATA / "heroes_map_four_isles.json").read_text())
    ours = json.loads((package / "house_values.json").read_text())
    spec = json.loads((SPEC_DATA / "heroes_house_values.json").read_text())
    for key, value in spec.items():
        if isinstance(value, dict):
            assert {k: v for k, v in ours[key].items() if k not in ("_note", "count", "cc_level")} == value, key
        else:
            assert ours[key] == value, key
    for added in ("tactics", "nomads"):
        assert "_source" in ours[added]
    assert (ours["start"]["cc_level"], ours["worker_yield_bonus"], ours["army_limit"]) == (1, 1, 5)  # spec 1.5, 1.9, 1.7


def test_every_number_of_the_engine_follows_the_data_file(monkeypatch):
    """Changing the tax track values in the data changes what a Tax gives and how the track turns."""
    from app.rulesets.heroes import actions

    monkeypatch.setitem(HOUSE.raw, "tax_track_values", [5, 3, 1])
    state = RULES.setup(2, RULES.parse_options({"first_player": "host"}), 4)
    assert sorted(state["tax_track"]) == ["1", "3", "5"]
    top = state["tax_track"]["5"]
    middle, bottom = state["tax_track"]["3"], state["tax_track"]["1"]
    actions.rotate_tax_track(state)
    assert state["tax_track"] == {"5": middle, "3": bottom, "1": top}


def test_house_tactic_set_of_spec_2_3():
    cards = HOUSE.tactics
    assert list(cards) == ["hold", "stand_firm", "first_strike", "charge", "ambush", "shield_wall", "conscripts"]
    table = {card.id: (card.cost, card.strength, card.vp, card.restriction) for card in cards.values()}
    assert table == {
        "hold": ({}, 0, 0, None),
        "stand_firm": ({"food": 2}, 2, 0, "defender_only"),
        "first_strike": ({"mana": 4}, 2, 2, None),
        "charge": ({"mana": 6}, 4, 3, "not_serf_only"),
        "ambush": ({"ore": 3}, 3, 1, "attacker_only"),
        "shield_wall": ({"food": 3}, 1, 0, None),
        "conscripts": ({"food": 2}, 0, 0, None),
    }
    assert cards["charge"].bonus_against == {"first_strike": 3}  # +4 +3 = the known +7
    assert cards["shield_wall"].cancels == ("charge",)
    assert cards["conscripts"].conscripts == 2


def test_starting_position_spec_1_5():
    state = RULES.setup(3, RULES.parse_options({"first_player": "host"}), 7)
    assert state["round"] == 1 and state["first_player"] == 0
    assert state["phase"] == "nomad"  # NW-1: the placement comes first
    for seat, player in enumerate(state["players"]):
        assert state["regions"][player["capital"]]["units"][str(seat)] == {"serf": 2, "warrior": 1, "hero": 0}
        assert player["resources"] == {"ore": 2, "mana": 2, "food": 2}
        assert player["score"] == 0 and player["cc_level"] == 1 and player["tokens"] == 2
        # faction totals 12 Serfs, 5 Warriors, 1 Hero, 3 Towers; the Courtyard comes out of them
        assert player["supply"] == {"serf": 10, "warrior": 4, "hero": 1, "tower": 3}
        assert [slot for slot, held in player["bar"].items() if held == "disabled"] == ["research", "sail", "fly", "cast"]
        assert len(player["tactics"]) == 7
    assert sorted(state["tax_track"].values()) == ["food", "mana", "ore"]
    assert state["nomad_supply"] == 10


def test_without_nomads_round_1_starts_with_actions():
    state = RULES.setup(2, RULES.parse_options({"nomads": "none"}), 7)
    assert state["phase"] == "action" and state["nomad_supply"] == 0
    assert RULES.to_act(state) == {state["first_player"]}


def test_random_first_player_and_tax_track_come_from_the_seed():
    firsts = {RULES.setup(4, RULES.parse_options({}), seed)["first_player"] for seed in range(40)}
    tracks = {tuple(RULES.setup(4, RULES.parse_options({}), seed)["tax_track"].values()) for seed in range(40)}
    assert firsts == {0, 1, 2, 3} and len(tracks) == 6
    assert RULES.setup(4, RULES.parse_options({}), 5) == RULES.setup(4, RULES.parse_options({}), 5)


def test_options_are_validated():
    with pytest.raises(Exception):
        RULES.parse_options({"round_limit": 3})
    with pytest.raises(Exception):
        RULES.parse_options({"nomads": "wandering+mercenary"})  # NS0-1: one variant, not both
    with pytest.raises(ValueError):
        RULES.setup(5, RULES.parse_options({}), 1)


def test_region_names_in_log_lines():
    assert region_name("N_plains") == "North Plains" and region_name("W_capital") == "West Capital"
    assert region_name("sea_NE") == "sea_NE" and region_name(None) == "nowhere"

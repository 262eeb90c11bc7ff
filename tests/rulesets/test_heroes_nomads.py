"""Wandering Nomads (spec 3.2-3.5, the defaults of 3.8) and the spec's scenarios 3.9 #1, #2, #4, #5."""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.heroes.collection import income
from app.rulesets.heroes.moves import Build, March, PlaceNomad, Recruit, Skip, Tax
from app.rulesets.heroes.nomads import placements
from app.rulesets.heroes.pieces import board_nomads
from tests.rulesets.heroes_fixtures import A, B, RULES, play, position, put, resources, texts, units

BOARD = RULES.board


def nomads_on(state, *regions):
    for region in regions:
        state["regions"][region]["nomad"] = True
        state["nomad_supply"] -= 1


# -- the spec's scenarios ----------------------------------------------------------------------

def test_scenario_1_round_1_placements_are_the_four_deserts_until_a_serf_enters_one():
    """3.9 #1: 2 players (N, S), every unit in its Courtyard: exactly the four Deserts; after N
    marches a Serf into N_desert: {E_desert, S_desert, W_desert}."""
    state = RULES.setup(2, RULES.parse_options({"first_player": "host"}), 4)
    assert state["phase"] == "nomad" and RULES.to_act(state) == {A}
    assert set(RULES.legal_moves(state, A)) == {PlaceNomad(region=f"{c}_desert") for c in "NESW"}
    state["regions"]["N_capital"]["units"]["0"]["serf"] -= 1
    put(state, "N_desert", A, serf=1)
    assert placements(state, BOARD) == ["E_desert", "S_desert", "W_desert"]


def test_scenario_2_a_nomad_next_door_costs_one_of_the_worker_bonus():
    """3.9 #2: Nomad on E_desert; N controls E_forest with 1 Serf (base 1, worker +1): at
    Collection N gains 1 Mana, not 2."""
    state = position()
    nomads_on(state, "E_desert")
    put(state, "E_forest", A, serf=1)
    assert income(state, BOARD, A) == {"ore": 0, "mana": 1, "food": 0}
    state["nomad_supply"] = 0  # no new Nomad next round, so the round ends cleanly
    state["turn"]["lap"] = 2
    state, _ = play(state, (A, Tax(resource="ore")), (B, Tax(resource="food")))
    assert state["round"] == 2
    assert state["players"][A]["resources"]["mana"] == 2 + 1


def test_scenario_4_an_army_must_be_stronger_than_the_board_nomads_to_enter():
    """3.9 #4: 3 board Nomads. Warrior + Serf (3) may not enter; Warrior + Warrior (4) may: its
    owner gains +1 VP and the Nomad goes to the Courtyard with N = 2."""
    state = position()
    nomads_on(state, "N_plains", "E_desert", "W_desert")
    put(state, "N_capital", A, serf=1, warrior=2)
    into = {(m.serf, m.warrior) for m in RULES.legal_moves(state, A) if m.type == "march" and m.destination == "N_plains"}
    assert (1, 1) not in into and (0, 2) in into and (1, 2) in into
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, March(slot="march_1", origin="N_capital", destination="N_plains", serf=1, warrior=1))
    state, events = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=2)))
    assert state["players"][A]["score"] == 1 and state["players"][A]["nomads"] == 1
    assert board_nomads(state) == 2 and state["regions"]["N_plains"]["nomad"] is False
    assert units(state, "N_plains", A)["warrior"] == 2  # NB-4/NB-6: no losses, the army stays
    assert "{seat0} battles the Nomad on North Plains (+1 VP) and captures it" in texts(events)
    assert state["phase"] != "tactics"  # NB-4: no tactic cards


def test_scenario_5_a_captured_nomad_follows_a_tax_and_goes_to_the_supply_at_round_end():
    """3.9 #5: 0 Serfs and 1 captured Nomad can follow a Tax; after Round End the Courtyard has
    0 Nomads and the supply has grown by 1."""
    state = position()
    state["players"][B]["nomads"] = 1
    state["nomad_supply"] = 4
    state["turn"]["lap"] = 2
    state, _ = play(state, (A, Tax(resource="ore")))
    assert state["phase"] == "follow" and RULES.legal_moves(state, B)[0].worker == "nomad"
    state, events = play(state, (B, Tax(resource="ore", worker="nomad")))
    assert state["players"][B]["resources"]["ore"] == 2 + 4 and state["players"][B]["bar"]["tax"] == "nomad"
    assert "{seat1} follows the Tax with a captured Nomad: taxes Ore: +4" in texts(events)
    state, events = play(state, (B, Recruit(unit="serf")))  # B's own second action ends the round
    assert state["round"] == 2
    assert state["players"][B]["nomads"] == 0 and state["nomad_supply"] == 5
    assert "1 Nomad of {seat1} go back to the Nomad supply" in texts(events)


# -- placement ---------------------------------------------------------------------------------

def test_nw3_nw4_next_nomads_go_next_to_a_board_nomad_ferries_included():
    state = position()
    nomads_on(state, "N_mountain")
    put(state, "N_swamp", B, serf=1)
    # N_mountain's neighbours: N_desert, N_meadow, N_swamp (occupied) and, by ferry, E_forest
    assert placements(state, BOARD) == ["E_forest", "N_desert", "N_meadow"]


def test_nw5_a8_units_towers_standing_capitals_and_nomads_block_placement():
    state = position(3)  # N, E, W play; S_capital stands empty
    nomads_on(state, "S_desert")
    state["regions"]["S_plains"]["tower"] = A
    put(state, "S_forest", B, serf=1)
    assert placements(state, BOARD) == ["S_capital", "S_meadow", "S_mountain", "S_swamp"]


def test_nw8_fallback_to_an_empty_desert_then_any_empty_land_region():
    state = position(4)
    nomads_on(state, "N_plains")
    for region in BOARD.adjacent["N_plains"]:
        if region != "N_capital":
            put(state, region, A, serf=1)
    assert placements(state, BOARD) == ["E_desert", "S_desert", "W_desert"]
    for continent in "ESW":
        put(state, f"{continent}_desert", B, serf=1)
    expected = sorted(r for r in BOARD.land if not state["regions"][r]["units"] and not state["regions"][r]["nomad"]
                      and r not in BOARD.capital_regions)
    assert placements(state, BOARD) == expected and "E_plains" in expected


def test_nw2_nw8_no_board_nomad_and_every_desert_held_falls_back_to_any_empty_land_region():
    """Our reading of NW-8 (see ``nomads.placements``): 4 players, no Nomad on the board, a Serf
    in each Desert: every region that is neither a Desert nor a standing Capital is empty."""
    state = position(4)
    for continent in "NESW":
        put(state, f"{continent}_desert", A, serf=1)
    assert placements(state, BOARD) == sorted(f"{continent}_{kind}" for continent in "NESW"
                                              for kind in ("forest", "meadow", "mountain", "plains", "swamp"))


def test_a_w6_no_placement_with_an_empty_supply():
    state = position()
    state["nomad_supply"] = 0
    state["turn"]["lap"] = 2
    state, events = play(state, (A, Tax(resource="ore")), (B, Tax(resource="ore")))
    assert state["round"] == 2 and state["phase"] == "action"
    assert "No Nomad can be placed this round (the Nomad supply is empty)" in texts(events)


def test_nw9_no_placement_when_no_region_is_empty():
    state = position()
    for region in ("E_capital", "W_capital"):
        put(state, region, B, serf=1)
    for region in BOARD.land:
        if not BOARD.is_capital_region(region):
            state["regions"][region]["tower"] = A
    state["turn"]["lap"] = 2
    state, events = play(state, (A, Tax(resource="ore")), (B, Tax(resource="ore")))
    assert state["round"] == 2 and state["phase"] == "action" and state["nomad_supply"] == 10
    assert "No Nomad can be placed this round (no region is legal)" in texts(events)


def test_nw1_the_first_player_places_before_anyone_acts_each_round():
    state = position()
    state["turn"]["lap"] = 2
    state, _ = play(state, (A, Tax(resource="ore")), (B, Tax(resource="ore")))
    assert state["phase"] == "nomad" and RULES.to_act(state) == {B}  # the token passed to seat 1
    state, events = play(state, (B, PlaceNomad(region="E_desert")))
    assert state["regions"]["E_desert"]["nomad"] and state["nomad_supply"] == 9
    assert state["phase"] == "action" and RULES.to_act(state) == {B}
    with pytest.raises(IllegalMove):
        RULES.apply(state, B, PlaceNomad(region="W_desert"))


def test_variant_off_means_no_placement_and_no_penalty():
    state = position(nomads="none")
    state["regions"]["E_desert"]["nomad"] = True  # cannot happen; shows the penalty is off
    put(state, "E_forest", A, serf=1)
    assert income(state, BOARD, A)["mana"] == 2


# -- yield penalty -----------------------------------------------------------------------------

def test_a_w4_a_w5_one_in_total_off_the_whole_yield_never_below_zero():
    state = position()
    nomads_on(state, "E_desert", "N_mountain")  # both next to E_forest
    put(state, "E_forest", A, serf=1)
    state["regions"]["E_forest"]["tower"] = A
    put(state, "E_plains", A, warrior=1)
    # E_forest: 1 + 1 (Serf) + 2 (Tower) - 1 = 3 Mana; E_plains: 1 - 1 = 0 Food
    assert income(state, BOARD, A) == {"ore": 0, "mana": 3, "food": 0}
    put(state, "N_plains", A, warrior=1)  # not next to a Nomad: 1 Food
    assert income(state, BOARD, A)["food"] == 1


def test_nw12_nomads_in_a_courtyard_cause_no_penalty():
    state = position()
    state["players"][B]["nomads"] = 3
    put(state, "S_plains", B, serf=1)
    assert income(state, BOARD, B)["food"] == 2


# -- battles with Nomads -----------------------------------------------------------------------

def test_nb2_a_nomad_cannot_be_passed_through():
    state = position()
    nomads_on(state, "N_plains")
    put(state, "N_capital", A, warrior=2)
    reach = {m.destination for m in RULES.legal_moves(state, A) if m.type == "march"}
    assert "N_plains" in reach and "N_forest" not in reach


def test_nb7_each_nomad_battle_uses_the_n_of_its_moment():
    state = position()
    nomads_on(state, "N_plains", "N_swamp")
    put(state, "N_capital", A, serf=3, warrior=2)
    state, _ = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=2)))
    assert state["phase"] == "muster" and board_nomads(state) == 1
    # one Serf pays the Muster; the other 2 (strength 2 > N = 1) may now enter N_swamp
    state, _ = play(state, (A, March(slot="march_2", origin="N_capital", destination="N_swamp", serf=2, worker="serf")))
    assert state["players"][A]["nomads"] == 2 and state["players"][A]["score"] == 2 and board_nomads(state) == 0


def test_nc7_a_follower_chooses_a_serf_or_a_nomad():
    state = position()
    state["players"][B]["nomads"] = 1
    put(state, "S_capital", B, serf=1)
    state, _ = play(state, (A, Tax(resource="food")))
    workers = {m.worker for m in RULES.legal_moves(state, B) if m.type == "tax"}
    assert workers == {"serf", "nomad"} and Skip() in RULES.legal_moves(state, B)
    state, _ = play(state, (B, Tax(resource="food", worker="serf")))
    assert state["players"][B]["nomads"] == 1 and units(state, "S_capital", B)["serf"] == 0


def test_nc1_a_captured_nomad_pays_a_muster():
    state = position()
    state["players"][A]["nomads"] = 1
    put(state, "N_capital", A, warrior=2)
    state, _ = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=1)))
    assert state["phase"] == "muster"
    assert {m.worker for m in RULES.legal_moves(state, A) if m.type == "march"} == {"nomad"}
    state, _ = play(state, (A, March(slot="march_2", origin="N_capital", destination="N_swamp", warrior=1, worker="nomad")))
    assert state["players"][A]["bar"]["march_2"] == "nomad" and state["players"][A]["nomads"] == 0


def test_nw3_courtyard_nomads_do_not_count_as_regions_with_a_nomad():
    """NW-3: Nomads in a Courtyard are not "a region holding a board Nomad": with captured Nomads only,
    the next Nomad goes to an empty Desert (NW-2) as in round 1."""
    state = position()
    state["players"][A]["nomads"] = 2
    state["nomad_supply"] -= 2
    assert placements(state, BOARD) == ["E_desert", "N_desert", "S_desert", "W_desert"]


def test_nc2_a_captured_nomad_cannot_build_march_or_be_a_worker_for_the_hall():
    """NC-2: N has 2 captured Nomads, no Serf anywhere and 6 Ore: no Hall (it locks a Serf from the
    Courtyard), no Tower (it needs a Serf in the region), and no march (Nomads are not units)."""
    state = position()
    state["players"][A]["nomads"] = 2
    state["nomad_supply"] -= 2
    resources(state, A, ore=6, food=0, mana=0)
    legal = RULES.legal_moves(state, A)
    assert not [m for m in legal if m.type == "build" and m.what in ("hall", "tower")]
    assert not [m for m in legal if m.type == "march"]
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, Build(what="hall"))


def test_nc4_an_unused_captured_nomad_stays_in_the_courtyard_across_rounds():
    state = position()
    state["players"][B]["nomads"] = 1
    state["nomad_supply"] -= 1
    state["turn"]["lap"] = 2
    state, _ = play(state, (A, Tax(resource="ore")), (B, Skip()), (B, Tax(resource="ore")))
    assert state["round"] == 2
    assert state["players"][B]["nomads"] == 1 and state["nomad_supply"] == 9

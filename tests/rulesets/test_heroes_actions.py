"""Capital Actions, Follow, Muster and the turn order (spec 1.6, 1.7, 2.2)."""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.heroes.moves import Build, March, Pass, Recruit, Skip, Tax
from tests.rulesets.heroes_fixtures import A, B, C, RULES, legal_types, play, position, put, resources, texts, units


# -- Recruit ---------------------------------------------------------------------------------

def test_recruit_costs_serf_2_food_pair_3_food_warrior_2_food():
    state = position()
    resources(state, A, food=2)
    recruits = {move.unit for move in RULES.legal_moves(state, A) if move.type == "recruit"}
    assert recruits == {"serf", "warrior"}  # 2 Serfs need 3 Food; a Hero needs the Hall
    resources(state, A, food=3)
    after, events = play(state, (A, Recruit(unit="serf_pair")))
    assert units(after, "N_capital", A)["serf"] == 2
    assert after["players"][A]["resources"]["food"] == 0
    assert after["players"][A]["supply"]["serf"] == 10  # 12 in all, these 2 now in play
    assert after["players"][A]["bar"]["recruit"] == "token" and after["players"][A]["tokens"] == 1
    assert "{seat0} recruits 2 Serfs for 3 Food" in texts(events)


def test_recruit_hero_needs_the_hall_and_costs_3_food_2_ore():
    state = position()
    resources(state, A, ore=2, food=3)
    assert Recruit(unit="hero") not in RULES.legal_moves(state, A)
    state["players"][A]["hall"] = True
    after, _ = play(state, (A, Recruit(unit="hero")))
    assert units(after, "N_capital", A)["hero"] == 1
    assert after["players"][A]["resources"] == {"ore": 0, "mana": 0, "food": 0}
    state["players"][A]["supply"]["hero"] = 0  # the one Hero is in play already
    assert Recruit(unit="hero") not in RULES.legal_moves(state, A)


def test_recruit_without_pieces_in_supply_is_illegal():
    state = position()
    resources(state, A, food=10)
    state["players"][A]["supply"]["warrior"] = 0
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, Recruit(unit="warrior"))


# -- Build -----------------------------------------------------------------------------------

def test_build_hall_costs_3_ore_and_locks_a_courtyard_serf():
    state = position()
    resources(state, A, ore=3)
    assert Build(what="hall") not in RULES.legal_moves(state, A)  # no Serf in the Courtyard
    put(state, "N_capital", A, serf=1)
    after, _ = play(state, (A, Build(what="hall")))
    assert after["players"][A]["hall"] is True
    assert units(after, "N_capital", A)["serf"] == 0 and after["players"][A]["resources"]["ore"] == 0
    assert after["players"][A]["supply"]["serf"] == 11  # the locked Serf is in play, not in supply


def test_build_capital_levels_cost_4_4_4_then_6_6_6_and_stop_at_3():
    state = position()
    resources(state, A, ore=10, mana=10, food=10)
    after, _ = play(state, (A, Build(what="capital")))
    assert after["players"][A]["cc_level"] == 2
    assert after["players"][A]["resources"] == {"ore": 6, "mana": 6, "food": 6}
    after["players"][A]["bar"]["build"] = None
    after["turn"]["seat"] = A
    after, _ = play(after, (A, Build(what="capital")))
    assert after["players"][A]["cc_level"] == 3 and after["players"][A]["resources"] == {"ore": 0, "mana": 0, "food": 0}
    after["players"][A]["bar"]["build"] = None
    after["turn"]["seat"] = A
    resources(after, A, ore=10, mana=10, food=10)
    assert Build(what="capital") not in RULES.legal_moves(after, A)


def test_tower_costs_1_ore_per_region_of_distance_from_the_capital():
    state = position()
    put(state, "N_plains", A, serf=1)   # distance 1
    put(state, "E_forest", A, serf=1)   # distance 3 (through N_desert and N_mountain, then the ferry)
    resources(state, A, ore=2)
    towers = {move.region for move in RULES.legal_moves(state, A) if move.type == "build" and move.what == "tower"}
    assert towers == {"N_plains"}
    resources(state, A, ore=3)
    after, events = play(state, (A, Build(what="tower", region="E_forest")))
    assert after["regions"]["E_forest"]["tower"] == A and after["players"][A]["resources"]["ore"] == 0
    assert after["players"][A]["supply"]["tower"] == 2
    assert "{seat0} builds a Tower on East Forest for 3 Ore" in texts(events)


def test_tower_needs_an_own_serf_and_never_goes_in_a_capital_region():
    state = position()
    resources(state, A, ore=10)
    put(state, "N_plains", A, warrior=1)
    put(state, "E_capital", A, serf=1)  # an unoccupied capital region in a 2-player game
    assert not [move for move in RULES.legal_moves(state, A) if move.type == "build"]


def test_tower_limit_is_the_capital_level_and_one_per_continent_with_three_players():
    state = position(3)
    resources(state, A, ore=10)
    for region in ("N_plains", "N_swamp", "E_forest"):
        put(state, region, A, serf=1)
    state["regions"]["N_meadow"]["tower"] = A
    state["players"][A]["supply"]["tower"] = 2
    assert not [move for move in RULES.legal_moves(state, A) if move.type == "build"]  # level 1: 1 Tower
    state["players"][A]["cc_level"] = 2
    towers = {move.region for move in RULES.legal_moves(state, A) if move.type == "build" and move.what == "tower"}
    assert towers == {"E_forest"}  # N already has its one Tower


def test_two_player_game_allows_two_towers_per_continent():
    state = position(2)
    resources(state, A, ore=10)
    state["players"][A]["cc_level"] = 3
    for region in ("N_plains", "N_swamp"):
        put(state, region, A, serf=1)
    state["regions"]["N_meadow"]["tower"] = A
    state["players"][A]["supply"]["tower"] = 2
    towers = {move.region for move in RULES.legal_moves(state, A) if move.type == "build" and move.what == "tower"}
    assert towers == {"N_plains", "N_swamp"}
    state["regions"]["N_mountain"]["tower"] = A
    state["players"][A]["supply"]["tower"] = 1
    assert not [move for move in RULES.legal_moves(state, A) if move.type == "build"]


# -- Tax -------------------------------------------------------------------------------------

def test_tax_gains_the_slot_value_and_rotates_the_track():
    state = position()  # track 4: ore, 3: mana, 2: food
    after, events = play(state, (A, Tax(resource="mana")))
    assert after["players"][A]["resources"]["mana"] == 2 + 3
    # the marker on 2 goes to 3, the one on 3 to 4, the one on 4 drops to 2
    assert after["tax_track"] == {"4": "mana", "3": "food", "2": "ore"}
    assert "{seat0} taxes Mana: +3" in texts(events)


def test_tax_is_capped_at_10():
    state = position()
    resources(state, A, ore=8)
    after, events = play(state, (A, Tax(resource="ore")))
    assert after["players"][A]["resources"]["ore"] == 10
    assert "{seat0} taxes Ore: +2 (capped at 10)" in texts(events)


def test_collection_is_capped_at_10():
    """Spec 1.9: N holds N_meadow and N_plains (Food 1 each) with a Serf in each: +2 +2 = 4 Food,
    but 8 Food + 4 stops at 10; Ore 0 + 0 stays 0."""
    from app.rulesets.heroes.collection import collect

    state = position(nomads="none")
    resources(state, A, food=8)
    put(state, "N_meadow", A, serf=1)
    put(state, "N_plains", A, serf=1)
    events = []
    collect(state, RULES.board, events)
    assert state["players"][A]["resources"] == {"ore": 0, "mana": 0, "food": 10}
    assert "{seat0} collects 2 Food" in texts(events)


# -- Follow ----------------------------------------------------------------------------------

def test_followers_decide_clockwise_from_the_leader_and_share_the_tax_position():
    """Spec 2.2 [H]: clockwise from the active player; spec 1.7 Tax FAQ [K~]: the leader and every
    follower use the same track position; the track rotates once after the last follower."""
    state = position(3)
    state["turn"]["seat"] = B
    for seat in (A, B, C):
        put(state, state["players"][seat]["capital"], seat, serf=1)
    after, _ = play(state, (B, Tax(resource="ore")))
    assert after["phase"] == "follow"
    assert after["pending"]["queue"] == [C, A] and after["pending"]["tax_slot"] == "4"
    assert RULES.to_act(after) == {C}
    assert Skip() in RULES.legal_moves(after, C)
    after, events = play(after, (C, Tax(resource="ore", worker="serf")), (A, Tax(resource="mana", worker="serf")))
    assert [p["resources"]["ore"] for p in after["players"]] == [2, 6, 6]   # 4 for the leader and for C
    assert after["players"][A]["resources"]["mana"] == 5                      # 3: the track had not turned
    assert after["tax_track"] == {"4": "mana", "3": "food", "2": "ore"}       # turned once
    assert after["players"][C]["bar"]["tax"] == "serf" and units(after, "W_capital", C)["serf"] == 0
    assert "{seat2} follows the Tax with a Serf: taxes Ore: +4" in texts(events)
    assert after["phase"] == "action" and after["turn"]["seat"] == C


def test_only_seats_with_an_open_slot_and_a_worker_may_follow():
    state = position(3)
    put(state, "N_capital", A, serf=1)
    state["players"][A]["bar"]["tax"] = "serf"   # seat 0's Tax slot is filled this round
    # seat 2 has no Serf and no Nomad in its Courtyard
    after, _ = play(state, (A, Recruit(unit="serf")))
    assert after["phase"] == "action" and after["turn"]["seat"] == B  # nobody could follow
    state["turn"]["seat"] = B
    after, _ = play(state, (B, Tax(resource="food")))
    assert after["phase"] == "action"  # A's Tax slot is filled, C has no worker


def test_follow_build_hall_needs_a_second_courtyard_serf():
    state = position()
    resources(state, A, ore=3)
    resources(state, B, ore=3)
    put(state, "N_capital", A, serf=1)
    put(state, "S_capital", B, serf=1)
    after, _ = play(state, (A, Build(what="hall")))
    assert after["phase"] == "action"  # B's only Serf would be the worker; the Hall needs another
    put(state, "S_capital", B, serf=2)
    after, _ = play(state, (A, Build(what="hall")))
    assert after["phase"] == "follow"
    after, _ = play(after, (B, Build(what="hall", worker="serf")))
    assert after["players"][B]["hall"] and units(after, "S_capital", B)["serf"] == 0


def test_a_follower_may_skip_and_keeps_its_slot_open():
    state = position()
    put(state, "S_capital", B, serf=1)
    after, events = play(state, (A, Tax(resource="ore")), (B, Skip()))
    assert after["players"][B]["bar"]["tax"] is None and units(after, "S_capital", B)["serf"] == 1
    assert "{seat1} does not follow" in texts(events)
    assert after["tax_track"] == {"4": "mana", "3": "food", "2": "ore"}


def test_serf_on_the_bar_comes_back_at_round_end():
    state = position()
    put(state, "S_capital", B, serf=1)
    state["turn"]["lap"] = 2
    after, _ = play(state, (A, Tax(resource="ore")), (B, Tax(resource="food", worker="serf")))
    assert after["turn"]["seat"] == B and units(after, "S_capital", B)["serf"] == 0
    with pytest.raises(IllegalMove):
        RULES.apply(after, B, Tax(resource="mana"))  # spec 1.6: the filled slot cannot be taken again
    after, _ = play(after, (B, Recruit(unit="serf")))  # B's last action of the round
    assert after["round"] == 2
    assert units(after, "S_capital", B)["serf"] == 2  # the bar Serf came back, plus the recruit
    assert after["players"][B]["bar"]["tax"] is None and after["players"][B]["tokens"] == 2


# -- pass, turn order, Muster ----------------------------------------------------------------

def test_pass_only_when_no_action_is_legal():
    state = position()
    resources(state, A)
    assert Pass() not in RULES.legal_moves(state, A)  # Tax is always possible while its slot is open
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, Pass())
    state["players"][A]["bar"]["tax"] = "token"
    assert RULES.legal_moves(state, A) == [Pass()]
    after, events = play(state, (A, Pass()))
    assert after["turn"]["seat"] == B and "{seat0} cannot act and passes" in texts(events)


def test_two_laps_then_collection_round_end_and_the_first_player_token_moves():
    state = position(3)
    for seat in (A, B, C):
        state, _ = RULES.apply(state, seat, Tax(resource="food"))
    assert state["turn"] == {"seat": A, "lap": 2, "order": [A, B, C]}
    for seat in (A, B, C):
        assert state["phase"] == "action"  # nobody has a Serf to follow with
        state, _ = RULES.apply(state, seat, Recruit(unit="serf"))
    assert state["round"] == 2 and state["first_player"] == B
    assert state["phase"] == "nomad" and RULES.to_act(state) == {B}
    assert state["turn"]["order"] == [B, C, A]


def test_muster_once_after_a_token_march_into_the_other_march_slot():
    state = position()
    put(state, "N_capital", A, serf=3, warrior=1)
    first = March(slot="march_1", origin="N_capital", destination="N_plains", warrior=1)
    after, _ = play(state, (A, first))
    assert after["phase"] == "muster" and RULES.to_act(after) == {A}
    legal = RULES.legal_moves(after, A)
    assert Skip() in legal and {move.slot for move in legal if move.type == "march"} == {"march_2"}
    assert {move.worker for move in legal if move.type == "march"} == {"serf"}
    # the mustering Serf leaves the Courtyard: at most 2 Serfs are left to march from it
    assert max(move.serf for move in legal if move.type == "march" and move.origin == "N_capital") == 2
    second = March(slot="march_2", origin="N_plains", destination="N_forest", warrior=1, worker="serf")
    after, events = play(after, (A, second))
    assert after["phase"] == "action" and after["turn"]["seat"] == B  # no second Muster
    assert after["players"][A]["bar"]["march_1"] == "token" and after["players"][A]["bar"]["march_2"] == "serf"
    assert units(after, "N_forest", A)["warrior"] == 1 and units(after, "N_capital", A)["serf"] == 2
    assert "{seat0} marches 1 Warrior from North Plains to North Forest (Muster)" in texts(events)


def test_no_muster_without_a_worker_or_after_a_mustered_slot():
    state = position()
    put(state, "N_capital", A, warrior=1)
    after, _ = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=1)))
    assert after["phase"] == "action" and after["turn"]["seat"] == B
    assert legal_types(after, A) == set()


def test_moves_out_of_turn_or_out_of_phase_are_refused_with_clear_codes():
    state = position()
    with pytest.raises(IllegalMove) as refused:
        RULES.apply(state, B, Tax(resource="ore"))
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as refused:
        RULES.apply(state, A, Skip())
    assert refused.value.message == "a Skip move is not possible in the Action selection phase"  # the board's words
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, Tax(resource="ore", worker="serf"))  # own turn: the Action Token
    assert RULES.legal_moves(state, B) == []

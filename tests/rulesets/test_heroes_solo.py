"""Solo Heroes: one player against the Enemy (spec 1.12, 2.6, NS-1..NS-18, A-S1..A-S5).

Every expected value is worked out by hand from the spec and the map data of four-isles-v1
(coordinates with north up: N_desert (0, 5), N_capital (0, 6.7), N_swamp (1.47, 5.85), ...).
Positions come from ``solo_position`` (the player's action of round 1, lap 1 or 2; after the
player's move the Enemy draws the first card of the given deck).
"""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove, Rival, amount
from app.rulesets.heroes import compass
from app.rulesets.heroes.enemy import enemy_losses, take_enemy_losses
from app.rulesets.heroes.deck import draw
from app.rulesets.heroes.moves import March, MoveNomad, PlaceNomad, Recruit, Skip, Tactic, Tax
from app.rulesets.heroes.solo import nomad_moves, result
from tests.rulesets.heroes_fixtures import (
    A, ENEMY, RULES, move_hero, play, put, resources, solo_position, texts, units,
)

BOARD = RULES.solo_board


def enemy(state):
    return state["players"][ENEMY]


def joined(events):
    return "\n".join(texts(events))


# -- setup (spec 1.12 setup, A-S1, NS-1) ---------------------------------------------------------

def test_a_one_seat_table_is_the_solo_game_on_north_east_and_west():
    state = RULES.setup(1, RULES.parse_options({}), 5)
    assert RULES.min_players == 1
    assert state["n_players"] == 1 and RULES.to_act(state) == {A}
    assert {region.split("_")[0] for region in state["regions"]} == {"N", "E", "W"}  # A-S1: South out of play
    assert BOARD.adjacent["E_mountain"] == {"E_desert", "E_meadow", "E_swamp"}  # the ferry to S_forest is gone
    player, rival = state["players"]
    assert player["capital"] == "N_capital" and player["resources"] == {"ore": 2, "mana": 2, "food": 2}
    assert units(state, "N_capital", A) == {"serf": 2, "warrior": 1, "hero": 0}
    assert rival["capital"] == "E_capital" and rival["resources"] == {"ore": 3, "mana": 3, "food": 3}
    assert units(state, "E_capital", ENEMY) == {"serf": 0, "warrior": 0, "hero": 3}
    assert rival["supply"] == {"serf": 12, "warrior": 5, "hero": 0, "tower": 3}
    assert rival["tactics"] == [] and state["solo"]["track"] == 0  # no spells, no tactic hand, track on Start
    assert state["solo"]["heroes"] == ["E_capital"] * 3
    assert sorted(state["solo"]["deck"] + [state["solo"]["slots"][0]]) == list(range(1, 9))
    # NS-1: the first Nomad goes on the free continent's Capital City region, then the compass move
    assert state["regions"]["W_capital"]["nomad"] and state["nomad_supply"] == 9
    assert state["phase"] == "nomad_move"


def test_the_enemy_is_no_seat_and_its_log_lines_name_it_in_words():
    state = solo_position(lap=2, deck=[7, 3, 4, 5, 6, 8])
    put(state, "N_capital", A, serf=0)
    move_hero(state, 3, "N_swamp")
    state, events = play(state, (A, Tax(resource="food")))
    assert RULES.to_act(state) == {A}
    assert not any("{seat1}" in text for text in texts(events))
    assert "The Enemy attacks the capital of {seat0} at North Capital (+1 VP)" in texts(events)


# -- the compass (spec 2.6, A-S5) -----------------------------------------------------------------

def test_bearings_are_degrees_clockwise_from_north():
    assert compass.bearing(BOARD, "N_desert", "N_capital") == pytest.approx(0.0)
    assert compass.bearing(BOARD, "N_desert", "N_meadow") == pytest.approx(180.0)
    assert compass.bearing(BOARD, "N_desert", "N_mountain") == pytest.approx(120.04, abs=0.01)
    assert compass.bearing(BOARD, "E_forest", "N_mountain") == pytest.approx(315.0)  # across the ferry


def test_the_arrow_takes_the_neighbour_in_its_sector_else_the_first_clockwise():
    around = BOARD.adjacent["N_desert"]  # N_capital 0, N_swamp 60, N_mountain 120, N_meadow 180, N_forest 240, N_plains 300
    assert compass.step(BOARD, "N_desert", around, "N") == "N_capital"
    assert compass.step(BOARD, "N_desert", around, "NE") == "N_swamp"  # 15 degrees off, inside 22.5
    # N_plains lies 15 degrees anticlockwise of NW: inside the sector, before N_capital 45 clockwise
    assert compass.step(BOARD, "N_desert", around, "NW") == "N_plains"
    assert compass.in_direction(BOARD, "N_desert", around, "E") is None  # 30 degrees either side
    assert compass.step(BOARD, "N_desert", around, "E") == "N_mountain"  # 30 degrees clockwise
    assert compass.step(BOARD, "N_desert", around - {"N_mountain"}, "E") == "N_meadow"
    assert compass.step(BOARD, "N_desert", [], "E") is None


# -- Enemy actions (spec 1.12 "Enemy actions", 2.6) -------------------------------------------------

def test_recruit_puts_a_warrior_in_the_courtyard_for_a_hero_in_the_courtyard():
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    state, events = play(state, (A, Tax(resource="food")))
    assert units(state, "E_capital", ENEMY) == {"serf": 0, "warrior": 1, "hero": 3}
    assert enemy(state)["resources"] == {"ore": 3, "mana": 3, "food": 1}  # a Warrior costs 2 Food
    assert enemy(state)["supply"]["warrior"] == 4
    assert "recruits a Warrior for 2 Food into East Capital" in joined(events)
    assert state["phase"] == "action" and state["turn"]["lap"] == 2  # no Serf in your Courtyard: no Follow


def test_recruit_goes_to_the_acting_heros_region_and_a_serf_when_no_warrior_is_left():
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    move_hero(state, 2, "E_plains")
    enemy(state)["supply"]["warrior"] = 0
    state, events = play(state, (A, Tax(resource="food")))
    assert units(state, "E_plains", ENEMY) == {"serf": 1, "warrior": 0, "hero": 1}
    assert "recruits a Serf for 2 Food into East Plains" in joined(events)


def test_a_failed_recruit_moves_the_hero_first_clockwise_from_the_arrow():
    """Card 2, arrow SE (135).  From E_capital (6.7, 0): E_swamp 210, E_desert 270, E_plains 330:
    none within 22.5 degrees, so the first clockwise from 135 is E_swamp (75 degrees on)."""
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    resources(state, ENEMY, 3, 3, 1)
    state, events = play(state, (A, Tax(resource="food")))
    assert state["solo"]["heroes"] == ["E_capital", "E_swamp", "E_capital"]
    assert units(state, "E_swamp", ENEMY) == {"serf": 0, "warrior": 0, "hero": 1}
    assert enemy(state)["resources"] == {"ore": 3, "mana": 3, "food": 1}  # a Swamp yields nothing
    assert "moves from East Capital to East Swamp (the first way clockwise from SE; failed action)" in joined(events)


def test_the_army_leaving_the_courtyard_takes_warriors_first_and_one_serf():
    """Card 2 fails (no Food); the Courtyard holds 3 Heroes, 5 Warriors, 2 Serfs: Hero 2 leaves
    with 1 Serf and 3 Warriors (5 units)."""
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    resources(state, ENEMY, 3, 3, 0)
    put(state, "E_capital", ENEMY, serf=2, warrior=5, hero=3)
    state, _ = play(state, (A, Tax(resource="food")))
    assert units(state, "E_swamp", ENEMY) == {"serf": 1, "warrior": 3, "hero": 1}
    assert units(state, "E_capital", ENEMY) == {"serf": 1, "warrior": 2, "hero": 2}


def test_the_move_never_enters_a_region_with_another_enemy_hero():
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    resources(state, ENEMY, 3, 3, 0)
    move_hero(state, 1, "E_swamp")
    state, _ = play(state, (A, Tax(resource="food")))
    assert state["solo"]["heroes"][1] == "E_desert"  # E_swamp holds Hero 1: next clockwise is E_desert (270)


def test_enemy_tax_takes_the_top_slot_and_rotates_after_a_follower():
    """Your March leaves a Serf in the Courtyard; card 3 (Tax): the Enemy takes the 4-slot (Ore,
    +4), you follow with the Serf and take Food from the 2-slot (+2), then the track rotates."""
    state = solo_position(deck=[3, 4, 5, 6, 7, 8, 2])
    put(state, "N_capital", A, serf=2)
    march = March(slot="march_1", origin="N_capital", destination="N_plains", serf=1)
    state, events = play(state, (A, march), (A, Skip()))
    assert enemy(state)["resources"]["ore"] == 7
    assert state["phase"] == "follow" and state["pending"]["leader"] == ENEMY and RULES.to_act(state) == {A}
    assert state["tax_track"] == {"4": "ore", "3": "mana", "2": "food"}  # not yet rotated
    state, events = play(state, (A, Tax(resource="food", worker="serf")))
    assert state["players"][A]["resources"]["food"] == 2
    assert state["players"][A]["bar"]["tax"] == "serf"
    assert state["tax_track"] == {"4": "mana", "3": "food", "2": "ore"}
    assert state["phase"] == "action" and state["turn"]["lap"] == 2


def test_enemy_tax_without_a_follower_rotates_at_once():
    state = solo_position(deck=[3, 4, 5, 6, 7, 8, 2])
    state, _ = play(state, (A, Tax(resource="ore")))  # your Tax: +4 Ore, the track rotates to mana/food/ore
    assert enemy(state)["resources"]["mana"] == 7
    assert state["tax_track"] == {"4": "food", "3": "ore", "2": "mana"}


def test_build_puts_a_tower_in_the_heros_region_with_a_serf_else_a_track_step():
    state = solo_position(deck=[5, 3, 4, 6, 7, 8, 2])
    move_hero(state, 2, "E_plains")
    put(state, "E_plains", ENEMY, serf=1, hero=1)
    state, events = play(state, (A, Tax(resource="food")))
    assert state["regions"]["E_plains"]["tower"] == ENEMY
    assert enemy(state)["resources"]["ore"] == 2  # 1 Ore per region of distance from E_capital
    assert "builds a Tower on East Plains for 1 Ore" in joined(events)

    state = solo_position(deck=[5, 3, 4, 6, 7, 8, 2])  # Hero 2 in the Courtyard: no Tower, so the track
    state, events = play(state, (A, Tax(resource="food")))
    assert state["solo"]["track"] == 1 and enemy(state)["score"] == 2
    assert enemy(state)["resources"] == {"ore": 0, "mana": 3, "food": 3}  # 3 of the most plentiful (tie: Ore)
    assert "builds its C.C. track to step 1 of 6 for 3 Ore (+2 VP)" in joined(events)


def test_the_sixth_track_step_sets_the_end():
    state = solo_position(deck=[6, 3, 4, 5, 7, 8, 2])
    state["solo"]["track"] = 5
    resources(state, ENEMY, 1, 4, 2)
    state, events = play(state, (A, Tax(resource="food")))
    assert state["solo"]["track"] == 6 and enemy(state)["resources"]["mana"] == 1
    assert enemy(state)["cc_level"] == 3  # 1 + 6 // 2
    assert state["end"] == {"objective": "track", "by": ENEMY, "round": 1, "last_round": 2}


def test_attack_ties_go_to_the_arrow_then_clockwise():
    """Hero 2 on E_forest (4.15, 1.47); your Serfs on N_mountain (bearing 315, one ferry away)
    and E_mountain (bearing 180, two regions away).  Card 7 (S) attacks E_mountain, card 8 (NW)
    N_mountain."""
    for card, target in ((7, "E_mountain"), (8, "N_mountain")):
        state = solo_position(deck=[card, 1, 3, 4, 5, 6, 2])
        move_hero(state, 2, "E_forest")
        put(state, "N_mountain", A, serf=1)
        put(state, "E_mountain", A, serf=1)
        state, events = play(state, (A, Tax(resource="food")))
        assert state["phase"] == "tactics" and state["pending"]["battle"]["region"] == target
        assert state["pending"]["battle"]["attacker"] == ENEMY
        assert state["pending"]["chosen"] == {"1": True, "0": False} and RULES.to_act(state) == {A}
        assert enemy(state)["score"] == 1  # spec 1.12: +1 VP for starting the battle


def test_attack_goes_for_the_weakest_and_fails_against_stronger_armies():
    state = solo_position(deck=[7, 1, 3, 4, 5, 6, 2])
    move_hero(state, 2, "E_forest")
    put(state, "N_mountain", A, serf=1)
    put(state, "E_mountain", A, warrior=1)
    state, _ = play(state, (A, Tax(resource="food")))
    assert state["pending"]["battle"]["region"] == "N_mountain"  # strength 1 before 2, whatever the arrow

    state = solo_position(deck=[7, 1, 3, 4, 5, 6, 2])
    move_hero(state, 2, "E_forest")
    put(state, "N_mountain", A, warrior=3)
    put(state, "E_mountain", A, warrior=3)
    state, events = play(state, (A, Tax(resource="food")))
    # 6 > 4: nothing qualifies, so the failed move: from E_forest, E_desert lies at 150 and
    # E_meadow at 210 (both 30 off S); clockwise from 180 E_meadow comes first; it yields 1 Food
    assert "cannot attack" in joined(events)
    assert state["solo"]["heroes"][1] == "E_meadow" and enemy(state)["resources"]["food"] == 4
    assert state["phase"] == "action"


def attacked_on_east_mountain(**units_there):
    """Card 7 (Attack, S): Hero 2 on E_forest attacks your ``units_there`` on E_mountain; the
    Enemy's battle card will be card 1 (+1, Charge).  The state in phase ``tactics``."""
    state = solo_position(deck=[7, 1, 3, 4, 5, 6, 2])
    move_hero(state, 2, "E_forest")
    put(state, "E_mountain", A, **units_there)
    state, _ = play(state, (A, Tax(resource="food")))
    return state


def test_a_battle_with_the_enemy_adds_the_drawn_cards_strength_and_scores_its_tactic():
    """Card 7 attacks your Serf on E_mountain; for the battle the Enemy draws card 1: +1 and
    Charge (3 VP).  Hold against it: 4 + 1 = 5 to 1; your Serf dies; the Enemy gains 2 Ore on
    the Mountain after the Attack."""
    state = attacked_on_east_mountain(serf=1)
    state, events = play(state, (A, Tactic(card="hold")))
    assert ("The Enemy draws card 1 (Recruit, arrow N) for the battle: it adds 1 strength and plays Charge for free "
            "(the tactic's own strength does not count, its effects on your card and its VP do)") in texts(events)
    assert "The Enemy wins 5 to 1" in texts(events)
    assert units(state, "E_mountain", A) == {"serf": 0, "warrior": 0, "hero": 0}
    assert enemy(state)["score"] == 1 + 3
    assert enemy(state)["resources"]["ore"] == 3 + 2
    assert 1 in state["solo"]["discard"]
    assert state["phase"] == "action" and state["turn"]["lap"] == 2


def test_your_shield_wall_cancels_the_enemys_charge_and_its_added_strength():
    state = attacked_on_east_mountain(serf=1)
    state["players"][A]["resources"]["food"] = 3
    state, events = play(state, (A, Tactic(card="shield_wall", food=3)))
    assert "The Enemy wins 4 to 2" in texts(events)  # Hero 4 + 0 against Serf 1 + Shield Wall 1
    assert enemy(state)["score"] == 1  # no VP for a cancelled Charge


def test_the_enemys_charge_gains_three_against_your_first_strike():
    state = attacked_on_east_mountain(warrior=1)
    state["players"][A]["resources"]["mana"] = 4
    state, events = play(state, (A, Tactic(card="first_strike", mana=4)))
    assert "The Enemy wins 8 to 4" in texts(events)  # 4 + 1 + 3 against Warrior 2 + First Strike 2


def test_the_enemy_loses_weakest_first_and_its_hero_goes_back_to_the_courtyard():
    assert enemy_losses({"serf": 1, "warrior": 1, "hero": 1}, 3) == {"serf": 1, "warrior": 1, "hero": 0, "mercenary": 0}
    assert enemy_losses({"serf": 1, "warrior": 1, "hero": 1}, 4) == {"serf": 1, "warrior": 1, "hero": 1, "mercenary": 0}
    assert enemy_losses({"serf": 0, "warrior": 2, "hero": 1}, 1) == {"serf": 0, "warrior": 1, "hero": 0, "mercenary": 0}
    # your 3 Warriors (6) march into Hero 2 and a Serf (5): Hold against card 3's Shield Wall (+0)
    state = solo_position(deck=[3, 6, 4, 5, 7, 8, 2])
    move_hero(state, 2, "E_forest")
    put(state, "E_forest", ENEMY, serf=1, hero=1)
    put(state, "N_mountain", A, warrior=3)
    march = March(slot="march_1", origin="N_mountain", destination="E_forest", warrior=3)
    state, events = play(state, (A, march), (A, Tactic(card="hold")))
    assert "{seat0} wins 6 to 5" in texts(events)
    # damage ceil(5 / 2) = 3: the Serf (1), then the Hero (4), who reappears in the Courtyard
    assert enemy(state)["supply"]["serf"] == 12
    assert units(state, "E_forest", ENEMY) == {"serf": 0, "warrior": 0, "hero": 0}
    assert state["solo"]["heroes"][1] == "E_capital"
    assert units(state, "E_forest", A)["warrior"] == 3


def test_take_enemy_losses_destroys_its_tower_first():
    state = solo_position()
    move_hero(state, 1, "E_plains")
    state["regions"]["E_plains"]["tower"] = ENEMY
    enemy(state)["supply"]["tower"] = 2
    events = []
    take_enemy_losses(state, "E_plains", 3, events)
    assert state["regions"]["E_plains"]["tower"] is None and enemy(state)["supply"]["tower"] == 3
    assert units(state, "E_capital", ENEMY)["hero"] == 3  # the Tower took all 3: the Hero only goes home
    assert texts(events) == ["The Enemy takes 3 damage, weakest first: loses its Tower; 1 Hero goes back to its Courtyard"]


# -- the deck (spec 1.12 "When only 1 card is left") ---------------------------------------------

def test_the_last_card_is_shuffled_with_the_discards_but_not_the_slots():
    state = solo_position(lap=2, deck=[4, 5])
    state["solo"]["discard"] = [3, 6, 7, 8]
    assert draw(state) == 4
    assert sorted(state["solo"]["deck"]) == [3, 5, 6, 7, 8] and state["solo"]["discard"] == []
    assert state["solo"]["slots"][:2] == [1, 2]


def test_collection_then_the_enemy_discards_its_cards():
    """Lap 2: you act, card 6 for Hero 3 (track step), then Collection: the Enemy holds E_plains
    with a Serf (Food 1 + worker 1) and its capital; its 3 cards go to the discard."""
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8], nomads="none")
    put(state, "E_plains", ENEMY, serf=1)
    state, events = play(state, (A, Tax(resource="food")))
    assert "The Enemy collects 2 Food" in texts(events)
    assert state["round"] == 2 and sorted(state["solo"]["discard"]) == [1, 2, 6]
    assert state["solo"]["slots"][1:] == [None, None, None]


# -- solo Nomads (NS-1..NS-18) ---------------------------------------------------------------------

def test_ns2_ns3_from_round_2_you_place_the_nomad_and_a_desert_when_none_is_on_the_board():
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8])
    state, _ = play(state, (A, Tax(resource="food")))
    assert state["round"] == 2 and state["phase"] == "nomad"
    assert set(RULES.legal_moves(state, A)) == {PlaceNomad(region=r) for r in ("E_desert", "N_desert", "W_desert")}


def test_ns2_next_to_a_board_nomad_and_holding_no_units():
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8])
    state["regions"]["W_meadow"]["nomad"] = True
    put(state, "W_forest", A, serf=1)
    state, _ = play(state, (A, Tax(resource="food")))
    assert set(RULES.legal_moves(state, A)) == {PlaceNomad(region="W_desert"), PlaceNomad(region="W_mountain")}


def test_ns4_ns13_after_the_first_card_you_move_a_nomad_along_its_arrow_then_it_is_resolved():
    """Round 2: you place on W_desert; card 3 (Tax, arrow E) is drawn; W_meadow lies due east."""
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8])
    state, _ = play(state, (A, Tax(resource="food")), (A, PlaceNomad(region="W_desert")))
    assert state["phase"] == "nomad_move" and state["solo"]["slots"][0] == 3
    assert RULES.legal_moves(state, A) == [MoveNomad(origin="W_desert", destination="W_meadow")]
    assert enemy(state)["resources"]["ore"] == 0  # card 3 is not resolved yet (track step took 3 Ore)
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, MoveNomad(origin="W_desert", destination="W_forest"))
    state, events = play(state, (A, MoveNomad(origin="W_desert", destination="W_meadow")))
    assert state["regions"]["W_meadow"]["nomad"] and not state["regions"]["W_desert"]["nomad"]
    lines = texts(events)
    assert lines[0] == "{seat0} moves the Nomad from West Desert to West Meadow (arrow E)"
    assert "taxes" in lines[1]  # NS-13: then the card is resolved


def test_ns5_scenario_7_no_nomad_has_a_legal_move_along_the_arrow():
    """3.9 #7: arrow NE, Nomads on W_desert and W_meadow.  W_desert's NE neighbour W_mountain
    (30 degrees) holds a Tower, W_meadow has none within 22.5 degrees: each Nomad's first legal
    region clockwise from NE is W_forest (W_desert: 150, 105 on; W_meadow: 210, 165 on)."""
    state = solo_position()
    state["regions"]["W_desert"]["nomad"] = True
    state["regions"]["W_meadow"]["nomad"] = True
    state["regions"]["W_mountain"]["tower"] = A
    state["solo"]["arrow"] = "NE"
    assert set(nomad_moves(state, BOARD)) == {MoveNomad(origin="W_desert", destination="W_forest"),
                                              MoveNomad(origin="W_meadow", destination="W_forest")}


def test_ns6_a_nomad_that_cannot_move_is_skipped():
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8])
    state["nomad_supply"] = 0
    state["regions"]["W_capital"]["nomad"] = True
    for region in ("W_desert", "W_plains", "W_swamp"):
        state["regions"][region]["tower"] = A  # A-S4: no Nomad enters a Tower region
    state, events = play(state, (A, Tax(resource="food")))
    assert "No Nomad can move this round" in texts(events)
    assert state["phase"] == "action" and state["round"] == 2


def nomad_move_position(arrow="E", card=3):
    """The round's first card drawn, the player to move a Nomad from W_desert."""
    state = solo_position()
    state["regions"]["W_desert"]["nomad"] = True
    state["nomad_supply"] = 9
    state["phase"] = "nomad_move"
    state["pending"] = {"seat": A, "arrow": arrow}
    state["solo"].update(arrow=arrow, slots=[card, None, None, None], slot=1, next="resolve",
                         deck=[c for c in range(1, 9) if c != card])
    return state


def test_ns7_ns10_a_nomad_moved_into_your_stronger_army_is_captured_without_a_start_vp():
    state = nomad_move_position()
    state["regions"]["N_desert"]["nomad"] = True  # N = 2
    put(state, "W_meadow", A, warrior=2)
    state, events = play(state, (A, MoveNomad(origin="W_desert", destination="W_meadow")))
    assert state["players"][A]["score"] == 1 and state["players"][A]["nomads"] == 1  # NS-10: 1 VP in all
    assert not state["regions"]["W_meadow"]["nomad"]
    assert "nobody gains VP for starting it; {seat0} has strength 4 against N = 2" in joined(events)


def test_ns8_ns9_a_tie_goes_to_the_nomad_and_you_choose_your_losses():
    state = nomad_move_position()
    state["regions"]["N_desert"]["nomad"] = True
    state["regions"]["E_desert"]["nomad"] = True  # N = 3 after the move
    put(state, "W_meadow", A, serf=1, warrior=1)  # strength 3, not greater than 3
    state, _ = play(state, (A, MoveNomad(origin="W_desert", destination="W_meadow")))
    assert state["phase"] == "casualties" and state["pending"]["damage"] == 2  # ceil(3 / 2)
    options = RULES.legal_moves(state, A)
    assert {(move.serf, move.warrior, move.retreat) for move in options} == {(0, 1, "N_capital"), (1, 1, None)}
    state, events = play(state, (A, options[0] if options[0].warrior and not options[0].serf else options[1]))
    assert state["regions"]["W_meadow"]["nomad"]  # the Nomad stays
    assert units(state, "N_capital", A)["serf"] == 1 and state["players"][A]["score"] == 0
    assert "taxes" in joined(events)  # then card 1 is resolved


def test_ns11_ns12_the_enemy_against_a_nomad():
    state = nomad_move_position()
    move_hero(state, 1, "W_meadow")
    state, events = play(state, (A, MoveNomad(origin="W_desert", destination="W_meadow")))
    assert enemy(state)["nomads"] == 1 and enemy(state)["score"] == 1  # NS-11: 4 > 1

    state = nomad_move_position()
    for region in ("N_desert", "E_desert", "N_plains", "N_swamp"):
        state["regions"][region]["nomad"] = True  # N = 5
    move_hero(state, 1, "W_meadow")
    put(state, "W_meadow", ENEMY, serf=1, hero=1)  # strength 5, not greater than 5
    state, events = play(state, (A, MoveNomad(origin="W_desert", destination="W_meadow")))
    # NS-12: damage 3, the Serf then the Hero; the Hero reappears in the Courtyard
    assert units(state, "W_meadow", ENEMY) == {"serf": 0, "warrior": 0, "hero": 0}
    assert state["solo"]["heroes"][0] == "E_capital" and enemy(state)["score"] == 0
    assert state["regions"]["W_meadow"]["nomad"]


def test_ns14_ns15_a_captured_nomad_gives_the_enemy_one_4th_card_for_hero_3():
    state = solo_position(lap=2, deck=[6, 5, 3, 4, 7, 8], nomads="wandering")
    enemy(state)["nomads"] = 2
    state, events = play(state, (A, Tax(resource="food")))
    lines = texts(events)
    assert sum("a 4th card, for Hero 3" in line for line in lines) == 1  # NS-15: one 4th card
    assert "The Enemy draws card 5 (Build (Tower, else C.C. track), arrow NE) a 4th card, for Hero 3 (it holds a captured Nomad)" in lines
    assert state["solo"]["track"] == 2  # card 6 and then card 5 (no Serf for a Tower) both build the track
    assert enemy(state)["nomads"] == 1 and state["nomad_supply"] == 11
    assert sorted(state["solo"]["discard"]) == [1, 2, 5, 6]

    state = solo_position(lap=2, deck=[6, 5, 3, 4, 7, 8])
    state, events = play(state, (A, Tax(resource="food")))
    assert not any("4th card" in line for line in texts(events))  # NS-15: no captured Nomad


def test_ns16_no_spells_in_solo():
    state = RULES.setup(1, RULES.parse_options({}), 2)
    assert all(state["players"][A]["bar"][slot] == "disabled" for slot in ("research", "cast"))
    view = RULES.view(state, A)
    assert "spells" not in str(sorted(view)) and all(card["action"] != "research" for card in view["enemy_cards"].values())


def test_ns17_the_enemys_move_into_a_nomad_captures_it_when_strong_enough():
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    resources(state, ENEMY, 3, 3, 0)  # card 2 fails: the move goes to E_swamp (first clockwise from SE)
    state["regions"]["E_swamp"]["nomad"] = True
    state, events = play(state, (A, Tax(resource="food")))
    assert state["solo"]["heroes"][1] == "E_swamp" and enemy(state)["nomads"] == 1 and enemy(state)["score"] == 1
    assert "captures it" in joined(events)

    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    resources(state, ENEMY, 3, 3, 0)
    for region in ("E_swamp", "N_desert", "W_desert", "W_capital"):
        state["regions"][region]["nomad"] = True  # N = 4: Hero 4 may not enter (NB-1)
    state, _ = play(state, (A, Tax(resource="food")))
    assert state["solo"]["heroes"][1] == "E_desert" and enemy(state)["nomads"] == 0


def test_ns18_your_march_into_a_nomad_follows_nb1_to_nb6():
    state = solo_position()
    put(state, "N_plains", A, warrior=1)
    state["regions"]["N_desert"]["nomad"] = True
    march = March(slot="march_1", origin="N_plains", destination="N_desert", warrior=1)
    state, _ = play(state, (A, march))
    assert state["players"][A]["nomads"] == 1 and state["players"][A]["score"] == 1


# -- the end (spec 1.12 "Solo end") ----------------------------------------------------------------

def test_a_destroyed_capital_ends_the_solo_game_at_once():
    """Hero 3 on N_swamp attacks your capital (C.C. level 1: strength 2); card 1 for the battle
    (+1, Charge) against your Hold: 5 to 2, the capital falls."""
    state = solo_position(lap=2, deck=[7, 1, 3, 4, 5, 6, 8])
    move_hero(state, 3, "N_swamp")
    state, _ = play(state, (A, Tax(resource="food")))
    state, events = play(state, (A, Tactic(card="hold")))
    assert state["phase"] == "over" and RULES.to_act(state) == set()
    outcome = RULES.result(state)
    # the Enemy: 1 (battle) + 3 (Charge) + 5 (capital) + 2 regions (E_capital, N_capital)
    assert outcome.scores == [0] and outcome.ranks == [2]
    assert outcome.reason == "{seat0} loses to the Enemy, {mine} VP to {theirs}: the Enemy destroyed the capital of {seat0}"
    assert outcome.reason_words(("Ana",)) == "Ana loses to the Enemy, 0 VP to 11: the Enemy destroyed the capital of Ana"


def ended_by_the_track(mine: int, theirs: int):
    """A solo game over because the Enemy reached the end of its C.C. track, with running scores
    ``mine`` and ``theirs`` (each side also holds one region at the end: +1 VP)."""
    state = solo_position(nomads="none")
    state["phase"] = "over"
    state["end"] = {"objective": "track", "by": ENEMY, "round": 6, "last_round": 7, "finished": "track"}
    state["players"][A]["score"] = mine
    enemy(state)["score"] = theirs
    return state


def test_the_result_compares_your_score_with_the_enemys():
    outcome = result(ended_by_the_track(20, 12))
    # yours: 20 + 1 region (N_capital); the Enemy: 12 + 1 region (E_capital), no Hero VP
    assert outcome.scores == [21] and outcome.ranks == [1]
    assert outcome.reason_words(("Ana",)).startswith("Ana beats the Enemy, 21 VP to 13: the Enemy reached the end of its C.C. track")
    assert outcome.reason_args == {"mine": amount(21), "theirs": amount(13)}  # one template whatever the scores
    # the Enemy beside the player in the result's table: no Hero or capital-level VP (spec 1.12)
    assert outcome.rivals == [Rival(name="The Enemy", score=13, breakdown={
        "VP during play": 12, "hall": 0, "towers": 0, "warriors": 0, "hero": 0, "capital": 0, "regions": 1})]


def test_equal_vp_with_the_enemy_is_no_win():
    """The rulebook's solo win is more VP than the Enemy: at 13 to 13 the player is placed behind
    it (so no table, banner or profile calls it a win), and the reason says it was a tie."""
    outcome = result(ended_by_the_track(12, 12))
    # yours: 12 + 1 region (N_capital); the Enemy: 12 + 1 region (E_capital)
    assert outcome.scores == [13] and outcome.ranks == [2]
    assert outcome.reason_words(("Ana",)).startswith("Ana ties with the Enemy, 13 VP to 13")


def test_recruit_can_be_followed():
    state = solo_position(deck=[2, 3, 4, 5, 6, 7, 8])
    put(state, "N_capital", A, serf=2)
    resources(state, A, food=2)
    march = March(slot="march_1", origin="N_capital", destination="N_plains", serf=1)
    state, _ = play(state, (A, march), (A, Skip()))
    assert state["phase"] == "follow"
    assert Recruit(unit="serf", worker="serf") in RULES.legal_moves(state, A)


# -- hidden information and random games -------------------------------------------------------------

def test_the_enemys_deck_order_never_reaches_a_view():
    state = RULES.setup(1, RULES.parse_options({}), 9)
    other = dict(state, solo={**state["solo"], "deck": list(reversed(state["solo"]["deck"]))})
    for viewer in (A, None):
        view = RULES.view(state, viewer)
        assert "deck" not in view["solo"] and view["solo"]["deck_size"] == 7
        assert view == RULES.view(other, viewer)  # nothing in a view depends on the order


def test_a_bot_determinizes_the_deck_from_the_unseen_cards():
    from app.rulesets.base import Rng

    state = RULES.setup(1, RULES.parse_options({}), 9)
    sampled = RULES.determinize(RULES.view(state, A), A, Rng(4))
    assert sorted(sampled["solo"]["deck"]) == sorted(state["solo"]["deck"])
    assert RULES.legal_moves(sampled, A) == RULES.legal_moves(state, A)


@pytest.mark.parametrize("nomads", ["wandering", "none", "mercenary"])
def test_random_solo_games_name_the_enemy_in_words(nomads):
    from app.rulesets.testing import random_games

    games = random_games(RULES, n_players=[1], games=6, options=[{"nomads": nomads}])
    assert all(game.final["phase"] == "over" for game in games)
    lines = [event.text for game in games for event in game.events]
    assert any(line.startswith("The Enemy draws card") for line in lines)
    assert not any("{seat1}" in line for line in lines)  # the Enemy is named in words, never as a seat


def test_solo_legal_moves_are_exactly_the_accepted_ones():
    from app.rulesets.testing import check_legal_moves_complete
    from tests.rulesets.test_heroes_conformance import every_action

    land = sorted(BOARD.land)

    def candidates(state, seat):
        moves = list(every_action(state, seat))
        if state["phase"] == "nomad_move":
            moves += [MoveNomad(origin=a, destination=b) for a in land for b in land]
        return moves

    assert check_legal_moves_complete(RULES, 1, 3, candidates, RULES.parse_options({}), every=4) >= 8


def test_a_move_into_the_south_is_refused_with_a_clear_error():
    state = solo_position()
    put(state, "N_capital", A, serf=1)
    for move in (March(slot="march_1", origin="N_capital", destination="S_desert", serf=1),
                 March(slot="march_1", origin="S_capital", destination="N_desert", serf=1)):
        with pytest.raises(IllegalMove, match="there is no region 'S_"):
            RULES.apply(state, A, move)


def test_an_objective_met_by_the_rounds_last_action_counts_in_that_round():
    """Your action 2 makes your last Warrior (eXpand); the Enemy's card 3, Collection and Round End
    follow in the same move, but the end is noted in round 1: round 1 and round 2 are played."""
    state = solo_position(lap=2, deck=[6, 3, 4, 5, 7, 8], nomads="none")
    state["players"][A]["supply"].update(serf=0, warrior=1)
    resources(state, A, food=2)
    state, events = play(state, (A, Recruit(unit="warrior")))
    assert state["end"] == {"objective": "eXpand", "by": A, "round": 1, "last_round": 2}
    lines = texts(events)
    assert lines.index("{seat0} meets eXpand: this round and one more are played") < lines.index("Round 2 begins")


def test_round_1s_first_enemy_steps_are_logged_with_the_first_move():
    state = RULES.setup(1, RULES.parse_options({}), 5)
    first = state["solo"]["slots"][0]
    state, events = RULES.apply(state, A, RULES.legal_moves(state, A)[0])
    lines = texts(events)
    assert lines[0] == "The first Nomad goes on West Capital, the free continent's Capital City region"
    assert lines[1].startswith(f"The Enemy draws card {first} (") and lines[1].endswith("for Hero 1")
    assert "opening" not in state["solo"]
    _, later = RULES.apply(state, A, RULES.legal_moves(state, A)[0])
    assert not any("NS-1" in line for line in texts(later))


def test_the_nomad_move_says_when_it_falls_back_to_clockwise():
    state = RULES.setup(1, RULES.parse_options({}), 5)
    arrow = state["solo"]["arrow"]
    move = RULES.legal_moves(state, A)[0]
    ahead = compass.in_direction(BOARD, move.origin, [move.destination], arrow) is not None
    assert state["pending"] == {"seat": A, "arrow": arrow, "clockwise": not ahead}


# -- the Enemy as the player's rival (rivals.py: solo.Enemy) -------------------------------------------

def test_destroying_the_enemys_capital_names_it_in_words_and_ends_the_game_at_once():
    """Spec 1.8.8 with 1.12: the Enemy is no seat, so the log names it in words; a destroyed capital
    ends the solo game at once (no eXterminate round), and the result says who destroyed whose."""
    state = solo_position(deck=[3, 4, 5, 6, 7, 8, 2])
    for hero, region in ((1, "E_mountain"), (2, "E_forest"), (3, "E_meadow")):
        move_hero(state, hero, region)
    put(state, "E_plains", A, warrior=4)
    state, events = play(state, (A, March(slot="march_1", origin="E_plains", destination="E_capital", warrior=4)),
                         (A, Tactic(card="hold")))
    lines = texts(events)
    assert "{seat0} attacks the capital of the Enemy at East Capital (+1 VP)" in lines
    assert "{seat0} destroys the capital of the Enemy (+5 VP): the Enemy is eliminated" in lines
    assert not any("{seat1}" in line or "eXterminate" in line for line in lines)
    assert state["phase"] == "over" and state["end"]["objective"] == "last_standing"
    assert RULES.result(state).reason.endswith(": {seat0} destroyed the Enemy's capital")


def test_an_objective_the_enemy_meets_names_it_in_words():
    state = solo_position(nomads="none")
    state["players"][ENEMY]["supply"]["tower"] = 0
    state, events = play(state, (A, Tax(resource="food")))
    assert "The Enemy meets eXploit: this round and one more are played" in texts(events)
    state["end"]["finished"], state["phase"] = "eXploit", "over"
    assert RULES.result(state).reason.endswith(": the Enemy met eXploit (all Towers in play); "
                                               "the round and one more were played")

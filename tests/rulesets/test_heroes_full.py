"""The full edition's rules (spec 1.7 Research/Scribe, Cast, Sail, Fly; 1.8.2 Combat spells; 1.1
faction and Hero abilities; 1.2 exploration; 1.11 eXplore; 1.12 the solo Enemy's Research), each
expected value worked out by hand from the reference and the house data (``data/spells.json``,
``data/factions.json``, ``data/exploration.json``).  Seats in 2-player games: 0 is North
(Humans: +1 defending), 1 is South (Orcs: +1 attacking)."""

from __future__ import annotations

import json

from app.rulesets.heroes import abilities, vessels
from app.rulesets.heroes.collection import round_end
from app.rulesets.heroes.moves import (
    Build, Cast, CombatSpell, DiscardSpell, Fly, Interrupt, March, PlaceNomad, Recruit, Research, Sail, Scribe, Skip,
    Tactic, Tax,
)
from tests.rulesets.heroes_fixtures import A, B, ENEMY, FULL, RULES, full_position, full_solo_position, play, put, resources, texts, units

BOARD = FULL.board


def test_setup_deals_one_spell_opens_every_slot_and_lays_the_tokens():
    state = FULL.setup(2, FULL.parse_options({}), 3)
    assert [len(player["spells"]) for player in state["players"]] == [1, 1]
    assert len(state["spell_deck"]) == 23 + 6 - 2  # the house deck, the 6 Nomad spells (NS0-2), 2 dealt
    assert all(held is None for player in state["players"] for held in player["bar"].values())
    assert len(state["tokens"]) == (28 - 4) + 5  # every land region but the capitals, every sea
    assert [player["faction"] for player in state["players"]] == ["humans", "orcs"]
    assert [player["supply"]["hero"] for player in state["players"]] == [3, 3]
    core = RULES.setup(2, RULES.parse_options({}), 3)
    assert "spell_deck" not in core and core["players"][0]["bar"]["research"] == "disabled"


def test_solo_deals_no_nomad_spell_and_the_enemy_holds_none():
    state = FULL.setup(1, FULL.parse_options({}), 3)
    assert state["players"][ENEMY]["spells"] == []
    cards = state["spell_deck"] + state["spell_discard"] + state["players"][A]["spells"]
    assert len(cards) == 23 and not any(card.startswith(("nomad_guides", "sandstorm", "mirage")) for card in cards)


def test_research_draws_three_then_discards_down_to_the_level_one_limit():
    state = full_position(hands=[["glory-1"], []])
    state["spell_deck"] = ["fireball-1", "harvest-1", "deep_mines-1", "lightning-1"]
    state, events = play(state, (A, Research()))
    assert state["phase"] == "discard" and FULL.to_act(state) == {A}
    assert sorted(state["players"][A]["spells"]) == ["deep_mines-1", "fireball-1", "glory-1", "harvest-1"]
    assert [event.seats for event in events if "You draw" in event.text] == [(A,)]
    state, _ = play(state, (A, DiscardSpell(card="glory-1")), (A, DiscardSpell(card="harvest-1")),
                    (A, DiscardSpell(card="deep_mines-1")))
    assert state["players"][A]["spells"] == ["fireball-1"]
    assert state["spell_discard"] == ["glory-1", "harvest-1", "deep_mines-1"]
    assert state["phase"] == "action" and state["turn"]["seat"] == B  # nobody could follow (no Courtyard Serf)
    assert state["players"][A]["bar"]["research"] == "token"


def test_scribe_then_cast_the_scribed_spell_and_its_round_end_turns():
    state = full_position(hands=[["glory-1"], []])
    resources(state, A, mana=5)
    state, _ = play(state, (A, Scribe(card="glory-1")))
    assert state["players"][A]["scribed"] == [{"card": "glory-1", "status": "ready"}]
    state["turn"] = {"seat": A, "lap": 2, "order": [A, B]}
    state, _ = play(state, (A, Cast(card="glory-1")))
    player = state["players"][A]
    assert player["resources"]["mana"] == 2 and player["score"] == 3  # Song of Glory: 3 Mana (revision 3), 3 VP
    assert player["scribed"] == [{"card": "glory-1", "status": "exhausted"}]
    round_end(state, [])  # spec 1.10: Exhausted -> Preparing -> Ready, one step per Round End
    assert player["scribed"][0]["status"] == "preparing"
    round_end(state, [])
    assert player["scribed"][0]["status"] == "ready"


def fireball_position():
    state = full_position(hands=[["fireball-1"], ["counterspell-1"]])
    put(state, "N_mountain", A, warrior=1)
    put(state, "E_forest", B, serf=1, warrior=1)  # across the ferry from North's Mountain
    resources(state, A, mana=5)
    resources(state, B, mana=2)
    return state


def test_fireball_destroys_the_weakest_enemy_unit_in_reach():
    state = fireball_position()
    assert Cast(card="fireball-1", target="E_forest") in FULL.legal_moves(state, A)
    state, _ = play(state, (A, Cast(card="fireball-1", target="E_forest")))
    assert state["phase"] == "interrupt" and FULL.to_act(state) == {B}
    assert state["last"]["move"]["card"] == "fireball"  # the kind: the copy may come back in a reshuffle
    state, events = play(state, (B, Skip()))
    assert units(state, "E_forest", B) == {"serf": 0, "warrior": 1, "hero": 0}
    assert state["players"][A]["resources"]["mana"] == 3 and state["players"][A]["score"] == 2  # revision 3: 2 Mana, 2 VP
    assert state["spell_discard"] == ["fireball-1"]


def test_counterspell_cancels_the_fireball_but_its_mana_stays_paid():
    state = fireball_position()
    state, _ = play(state, (A, Cast(card="fireball-1", target="E_forest")), (B, Interrupt(card="counterspell-1")))
    assert units(state, "E_forest", B) == {"serf": 1, "warrior": 1, "hero": 0}
    assert state["players"][A]["resources"]["mana"] == 3 and state["players"][A]["score"] == 0  # 5 - 2
    assert state["players"][B]["resources"]["mana"] == 0 and state["players"][B]["score"] == 1
    assert state["spell_discard"] == ["fireball-1", "counterspell-1"]


def test_a_capital_is_out_of_reach_of_enemy_spells():
    state = fireball_position()
    put(state, "S_capital", B, serf=1)
    put(state, "S_plains", A, warrior=1)
    targets = {move.target for move in FULL.legal_moves(state, A) if isinstance(move, Cast)}
    assert targets == {"E_forest"}  # S_capital is next to S_plains but a capital region


def test_a_combat_spell_turns_a_lost_battle_into_a_win():
    """North's Warrior (2) attacks South's Serf and Warrior (3) in North's Desert: 2 against 3 loses
    (the tie rule is not even needed); Battle Fury's +2 makes it 4 against 3 (Hold on both sides;
    Humans have no attacking bonus, Orcs none defending, no terrain bonus in a Desert)."""
    state = full_position(hands=[["battle_fury-1"], []])
    put(state, "N_plains", A, warrior=1)
    put(state, "N_desert", B, serf=1, warrior=1)
    resources(state, A, mana=2)
    state, _ = play(state, (A, March(slot="march_1", origin="N_plains", destination="N_desert", warrior=1)))
    assert state["phase"] == "combat_spell" and FULL.to_act(state) == {A}  # South has no Combat spell
    state, _ = play(state, (A, CombatSpell(card="battle_fury-1")), (A, Tactic(card="hold")), (B, Tactic(card="hold")))
    battle = state["last"]["battle"]
    assert battle["strength"] == {"attacker": 4, "defender": 3} and battle["winner"] == A


def test_sail_reach_from_the_capital_shore():
    state = full_position()
    vessels.place_new(state, A, "sea")
    reach = vessels.sail_reach(state, BOARD, A, "N_capital", 3)
    assert {"sea_NE", "sea_NW", "sea_C", "sea_SE", "E_plains", "E_forest", "S_forest"} <= set(reach)
    assert "S_plains" not in reach  # sea_NE (1), sea_C (2), sea_SE (3), docking would be the 4th step
    assert "N_desert" not in reach  # no shore


def test_sail_carries_two_warriors_and_explores_where_it_docks():
    state = full_position(tokens={"E_forest": "ruins-1"})
    vessels.place_new(state, A, "sea")
    put(state, "N_capital", A, warrior=2)
    move = Sail(destination="E_forest", warrior=2)
    assert move in FULL.legal_moves(state, A)
    state, _ = play(state, (A, move))
    assert units(state, "E_forest", A) == {"serf": 0, "warrior": 2, "hero": 0}
    assert state["players"][A]["vessels"]["sea"] == {"at": "E_forest", "cargo": {}}
    assert state["players"][A]["score"] == 1 and state["revealed"] == {"E_forest": "ruins-1"}


def test_a_sea_vessel_that_stops_at_sea_keeps_its_cargo():
    state = full_position()
    vessels.place_new(state, A, "sea")
    put(state, "N_capital", A, serf=1)
    state, _ = play(state, (A, Sail(destination="sea_C", serf=1)))
    assert state["players"][A]["vessels"]["sea"] == {"at": "sea_C", "cargo": {"serf": 1}}
    assert units(state, "N_capital", A)["serf"] == 0


def test_fly_passes_deserts_and_seas_but_never_ends_at_sea():
    state = full_position()
    vessels.place_new(state, A, "air")
    reach = vessels.fly_reach(state, BOARD, A, "N_capital", 3)
    assert "N_meadow" in reach  # through North's Desert: a march would stop there
    assert reach["E_forest"] == "move"  # over sea_NE
    assert not any(region.startswith("sea_") for region in reach)
    put(state, "N_capital", A, hero=1)
    assert Fly(destination="N_meadow", hero=1) in FULL.legal_moves(state, A)


def test_a_hero_needs_its_building_and_brings_its_ability():
    state = full_position()
    put(state, "N_capital", A, serf=1)
    resources(state, A, ore=5, food=3)
    assert not any(isinstance(m, Recruit) and m.unit == "paladin" for m in FULL.legal_moves(state, A))
    state, _ = play(state, (A, Build(what="cathedral")))
    assert state["players"][A]["buildings"] == ["cathedral"] and units(state, "N_capital", A)["serf"] == 0
    state["turn"] = {"seat": A, "lap": 2, "order": [A, B]}
    recruits = {m.unit for m in FULL.legal_moves(state, A) if isinstance(m, Recruit)}
    assert "paladin" in recruits and "hero" not in recruits and "pharom" not in recruits
    state, _ = play(state, (A, Recruit(unit="paladin")))
    assert state["players"][A]["heroes"] == ["paladin"] and units(state, "N_capital", A)["hero"] == 1
    assert state["players"][A]["resources"] == {"ore": 0, "mana": 0, "food": 0}  # 3 Ore, then 3 Food + 2 Ore
    # Humans +1 defending, the Paladin +1 at C.C. 1 with a Hero in the battle, +2 at C.C. 3
    assert abilities.strength_bonuses(state, A, "N_plains", "defender", True, "plains") == 2
    state["players"][A]["cc_level"] = 3
    assert abilities.strength_bonuses(state, A, "N_plains", "defender", True, "plains") == 3
    assert abilities.strength_bonuses(state, A, "N_plains", "attacker", False, "plains") == 0


def test_the_hero_recruited_last_is_the_one_lost():
    state = full_position()
    state["players"][A]["heroes"] = ["paladin", "marshal"]
    put(state, "N_plains", A, hero=1)
    abilities.sync_heroes(state)
    assert state["players"][A]["heroes"] == ["paladin"]


def test_orcs_bloodlust_counts_against_the_nomads():
    """NB-1 with faction bonuses: N = 2 Nomads on the board; South's Warrior (2) + Bloodlust (1) = 3
    may enter; North's Warrior (2, Humans have no attacking bonus) may not."""
    state = full_position(nomads="wandering")
    state["regions"]["S_meadow"]["nomad"] = True
    state["regions"]["N_meadow"]["nomad"] = True
    put(state, "S_desert", B, warrior=1)
    put(state, "N_desert", A, warrior=1)
    into = {(m.origin, m.destination) for m in FULL.legal_moves(state, A) if isinstance(m, March)}
    assert ("N_desert", "N_meadow") not in into
    state["turn"]["seat"] = B
    into = {(m.origin, m.destination) for m in FULL.legal_moves(state, B) if isinstance(m, March)}
    assert ("S_desert", "S_meadow") in into


def test_a_march_reveals_the_token_where_it_ends_and_the_last_one_meets_explore():
    state = full_position(tokens={"N_plains": "cache-1"})
    put(state, "N_capital", A, warrior=1)
    state, _ = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=1)))
    assert state["players"][A]["resources"]["food"] == 2 + 2  # start 2, the Cache: +2 of the region's Food
    assert state["revealed"] == {"N_plains": "cache-1"} and state["tokens"] == {}
    assert state["end"]["objective"] == "eXplore" and state["end"]["by"] == A


def test_a_nomad_placement_reveals_nothing():
    state = full_position(nomads="wandering", tokens={"N_desert": "ruins-1", "S_desert": "ruins-2"})
    state["phase"] = "nomad"
    state, _ = play(state, (A, PlaceNomad(region="N_desert")))
    assert state["tokens"] == {"N_desert": "ruins-1", "S_desert": "ruins-2"} and state["revealed"] == {}


def test_a_tower_reveals_the_adjacent_land_tokens_of_its_continent():
    state = full_position(tokens={"N_desert": "ruins-1", "N_forest": "ambush-1", "S_desert": "ruins-2"})
    put(state, "N_plains", A, serf=1)
    resources(state, A, ore=1)
    state, _ = play(state, (A, Build(what="tower", region="N_plains")))
    assert state["revealed"] == {"N_desert": "ruins-1", "N_forest": "ambush-1"}
    assert state["players"][A]["score"] == 1  # the Ruins; the Lair costs nothing without an army
    assert units(state, "N_plains", A)["serf"] == 1


def test_spell_hands_are_secret():
    state = FULL.setup(2, FULL.parse_options({}), 3)
    mine = state["players"][A]["spells"]
    assert FULL.view(state, A)["players"][A]["spells"] == mine
    for viewer in (B, None):
        shown = FULL.view(state, viewer)
        assert "spells" not in shown["players"][A] and shown["players"][A]["hand_size"] == 1
        assert "spell_deck" not in shown and shown["spell_deck_size"] == len(state["spell_deck"])
        assert "tokens" in shown and all(isinstance(region, str) for region in shown["tokens"])
        assert not any(token in json.dumps(shown) for token in state["tokens"].values())
    assert FULL.secrets(state, A) == {json.dumps(card) for card in mine}


def test_capital_level_three_costs_six_of_each_and_holds_three_spells():
    state = full_position(hands=[["glory-1"], []])
    state["players"][A]["cc_level"] = 2
    resources(state, A, ore=6, mana=6, food=6)
    state, _ = play(state, (A, Build(what="capital")))
    assert state["players"][A]["cc_level"] == 3 and state["players"][A]["resources"] == {"ore": 0, "mana": 0, "food": 0}
    state["spell_deck"] = ["fireball-1", "harvest-1", "deep_mines-1"]
    state["turn"] = {"seat": A, "lap": 2, "order": [A, B]}
    state, _ = play(state, (A, Research()))
    assert len(state["players"][A]["spells"]) == 4 and state["phase"] == "discard"
    state, _ = play(state, (A, DiscardSpell(card="glory-1")))
    assert len(state["players"][A]["spells"]) == 3 and state["phase"] != "discard"


def rockfall_position(hand):
    """Solo, the player's action 2 of round 1; the Enemy's next card is card 4 (full edition:
    Research) for Hero 3, whose spell is Rockfall (3 Mana, 2 VP: destroy a Tower of the player
    within 2 regions of the Hero, in the Enemy's Courtyard on East's capital)."""
    state = full_solo_position(lap=2, deck=[4, 3, 5, 6, 7, 8])
    state["players"][A]["spells"] = hand
    put(state, "E_plains", A, serf=1)
    state["regions"]["E_plains"]["tower"] = A
    state["players"][A]["supply"]["tower"] -= 1
    return state


def test_solo_the_enemys_research_casts_its_heros_spell():
    state = rockfall_position([])
    state, events = play(state, (A, Tax(resource="ore")))
    assert state["regions"]["E_plains"]["tower"] is None and state["players"][A]["supply"]["tower"] == 3
    assert any("casts Rockfall" in text for text in texts(events))
    assert any("Rockfall scores 2 VP" in text for text in texts(events))


def test_solo_the_player_may_interrupt_the_enemys_spell():
    state = rockfall_position(["counterspell-1"])
    resources(state, A, mana=2)
    state, _ = play(state, (A, Tax(resource="ore")))
    assert state["phase"] == "interrupt" and FULL.to_act(state) == {A}
    state, _ = play(state, (A, Interrupt(card="counterspell-1")))
    assert state["regions"]["E_plains"]["tower"] == A and state["players"][A]["score"] == 1

"""Battles between players (spec 1.8, 1.14, house tactic set of 2.3).

Strengths: Serf 1, Warrior 2, Hero 4, Tower 3 (spec 1.3); capital level 1 = 2 (house value).
Unless a test says otherwise, seat 0 (N) attacks seat 1 (S) on N_plains from N_capital, and both
have no resources.
"""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.heroes.battles import is_void_choice
from app.rulesets.heroes.moves import Casualties, Conscript, March, Skip, Tactic
from tests.rulesets.heroes_fixtures import A, B, C, D, RULES, play, position, put, resources, texts, units

HOLD = Tactic(card="hold")


def attack(attacker=None, defender=None, region="N_plains", origin="N_capital", n_players=2, setup=None):
    """Seat 0 marches ``attacker`` from ``origin`` into ``region`` held by seat 1's ``defender``."""
    attacker = attacker or {"warrior": 2}
    defender = defender if defender is not None else {"serf": 1, "warrior": 1}
    state = position(n_players)
    resources(state, A)
    resources(state, B)
    put(state, origin, A, **attacker)
    put(state, region, B, **defender)
    if setup:
        setup(state)
    return play(state, (A, March(slot="march_1", origin=origin, destination=region, **attacker)))


def test_the_attacker_gains_1_vp_at_once_and_both_choose_in_secret():
    state, events = attack()
    assert state["players"][A]["score"] == 1
    assert state["phase"] == "tactics" and RULES.to_act(state) == {A, B}
    battle = state["pending"]["battle"]
    assert battle["strength"] == {"attacker": 4, "defender": 3}
    assert "{seat0} attacks {seat1} at North Plains (+1 VP)" in texts(events)
    state, events = play(state, (B, HOLD))
    assert RULES.to_act(state) == {A} and state["pending"]["chosen"] == {"0": False, "1": True}
    assert texts(events) == ["{seat1} has chosen a tactic card"]


def test_higher_total_wins_and_the_loser_picks_its_losses():
    state, _ = attack()
    state, events = play(state, (A, HOLD), (B, HOLD))
    assert "{seat0} wins 4 to 3" in texts(events)
    # damage = ceil(3 / 2) = 2: the Warrior alone, or the Serf (1) and then the Warrior
    assert state["phase"] == "casualties" and state["pending"]["damage"] == 2
    assert RULES.legal_moves(state, B) == [Casualties(warrior=1, retreat="S_capital"), Casualties(serf=1, warrior=1)]
    with pytest.raises(IllegalMove):
        RULES.apply(state, B, Casualties(serf=1, retreat="S_capital"))  # 1 damage is not 2
    state, events = play(state, (B, Casualties(warrior=1, retreat="S_capital")))
    assert units(state, "S_capital", B) == {"serf": 1, "warrior": 0, "hero": 0}
    assert units(state, "N_plains", A)["warrior"] == 2 and "1" not in state["regions"]["N_plains"]["units"]
    assert state["players"][B]["supply"]["warrior"] == 5
    assert "{seat1} takes 2 damage: loses 1 Warrior; 1 Serf retreats to South Capital" in texts(events)
    assert state["phase"] == "action" and state["turn"]["seat"] == B


def test_a_tie_goes_to_the_defender_and_a_single_choice_is_made_at_once():
    state, _ = attack(attacker={"warrior": 1}, defender={"serf": 2})
    state, events = play(state, (A, HOLD), (B, HOLD))
    assert "{seat1} wins 2 to 2 (a tie goes to the defender)" in texts(events)
    # damage ceil(2/2) = 1 on the lone Warrior: any damage destroys a piece
    assert units(state, "N_plains", A)["warrior"] == 0 and state["players"][A]["supply"]["warrior"] == 5
    assert units(state, "N_plains", B)["serf"] == 2
    assert state["last"]["battle"]["winner"] == B and state["last"]["battle"]["damage"] == 1


def test_first_strike_costs_4_mana_gives_2_strength_and_2_vp():
    state, _ = attack()
    state["players"][A]["resources"]["mana"] = 5
    state, events = play(state, (A, Tactic(card="first_strike", mana=4)), (B, HOLD))
    assert state["players"][A]["resources"]["mana"] == 1
    assert state["players"][A]["score"] == 1 + 2
    assert "Both reveal: {seat0} First Strike (+2), {seat1} Hold (+0)" in texts(events)
    assert state["last"]["battle"]["strength"] == {"attacker": 6, "defender": 3}
    # the entry shows both seats' hidden choices (a bot's choice for a person is named so: Event.reveals)
    assert next(event for event in events if event.text.startswith("Both reveal")).reveals == (A, B)


def test_sacrificed_units_pay_at_natural_strength_count_in_the_battle_and_die_after():
    state, _ = attack()
    options = [m for m in RULES.legal_moves(state, A) if m.card == "first_strike"]
    # no Mana: the cost of 4 is paid only by the two Warriors (2 each)
    assert options == [Tactic(card="first_strike", warrior=2)]
    state, events = play(state, (A, Tactic(card="first_strike", warrior=2)), (B, HOLD))
    assert "{seat0} wins 6 to 3" in texts(events)  # the sacrificed Warriors still count: 4 + 2
    assert "{seat0} loses the sacrificed 2 Warriors" in texts(events)
    assert units(state, "N_plains", A)["warrior"] == 0 and state["players"][A]["supply"]["warrior"] == 5
    assert state["pending"]["damage"] == 2  # the loser's damage is still ceil(3/2)


def test_a_mixed_payment_and_no_useless_sacrifice():
    state, _ = attack(attacker={"warrior": 1, "hero": 1})
    state["players"][A]["resources"]["mana"] = 4
    ways = {(m.mana, m.warrior, m.hero) for m in RULES.legal_moves(state, A) if m.card == "first_strike"}
    # 4 Mana; 2 Mana + the Warrior; the Hero (4); the Hero and the Warrior would be one too many
    assert ways == {(4, 0, 0), (2, 1, 0), (0, 0, 1)}


def test_you_must_pay_if_you_can_else_the_card_counts_0():
    state, _ = attack(attacker={"serf": 1})
    # 1 Serf + 0 Mana cannot pay 4: not offered (void, like Hold), still accepted unpaid (spec 1.14)
    assert not [m for m in RULES.legal_moves(state, A) if m.card == "first_strike"]
    state["players"][A]["resources"]["mana"] = 4
    assert Tactic(card="first_strike") not in RULES.legal_moves(state, A)
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, Tactic(card="first_strike"))
    state["players"][A]["resources"]["mana"] = 0
    state, events = play(state, (A, Tactic(card="first_strike")), (B, HOLD))
    assert "Both reveal: {seat0} First Strike (void), {seat1} Hold (+0)" in texts(events)
    assert state["players"][A]["score"] == 1  # no VP for a void card


@pytest.mark.parametrize("card, seat, expected", [
    ("stand_firm", A, "void"), ("ambush", B, "void"), ("stand_firm", B, "+2"), ("ambush", A, "+3"),
])
def test_attacker_only_and_defender_only_cards(card, seat, expected):
    state, _ = attack()
    resources(state, A, ore=3, food=2)
    resources(state, B, ore=3, food=2)
    offered = [m for m in RULES.legal_moves(state, seat) if m.card == card]
    if expected == "void":
        assert offered == []  # never offered; chosen unpaid anyway it counts as nothing
        move = Tactic(card=card)
    else:
        move = offered[0]
    other = B if seat == A else A
    state, events = play(state, (seat, move), (other, HOLD))
    name = {"stand_firm": "Stand Firm", "ambush": "Ambush"}[card]
    reveal = next(text for text in texts(events) if text.startswith("Both reveal"))
    assert f"{{seat{seat}}} {name} ({expected})" in reveal


def void_cards(state, seat):
    """The cards of ``seat``'s hand that would reveal as void if chosen unpaid now."""
    battle = state["pending"]["battle"]
    return {card for card in state["players"][seat]["tactics"]
            if is_void_choice(state, battle, seat, Tactic(card=card))}


@pytest.mark.parametrize("setup, attacker_void, defender_void", [
    # rich sides: only the restrictions void a card (Stand Firm for the attacker, Ambush for the defender)
    (dict(rich=True), {"stand_firm"}, {"ambush"}),
    # no resources, 1 Serf a side (pays 1): nothing but Hold can work, for either side
    (dict(attacker={"serf": 1}, defender={"serf": 1}),
     {"stand_firm", "first_strike", "charge", "ambush", "shield_wall", "conscripts"},
     {"ambush", "first_strike", "charge", "shield_wall", "stand_firm", "conscripts"}),
    # the defender in its own capital: Charge with Serfs alone is allowed (a Structure)
    (dict(rich=True, attacker={"serf": 5}, defender={"serf": 1}, region="S_capital", origin="S_plains"),
     {"stand_firm", "charge"}, {"ambush"}),
])
def test_no_void_card_is_ever_offered_to_either_side(setup, attacker_void, defender_void):
    rich = setup.pop("rich", False)
    if setup.get("region") == "S_capital":
        state = position(2)
        resources(state, A, ore=9, mana=9, food=9)
        resources(state, B, ore=9, mana=9, food=9)
        put(state, "S_plains", A, serf=5)
        put(state, "S_capital", B, serf=1)
        state, _ = play(state, (A, March(slot="march_1", origin="S_plains", destination="S_capital", serf=5)))
    else:
        state, _ = attack(**setup)
        if rich:
            resources(state, A, ore=9, mana=9, food=9)
            resources(state, B, ore=9, mana=9, food=9)
    assert state["phase"] == "tactics"
    assert void_cards(state, A) == attacker_void and void_cards(state, B) == defender_void
    for seat, void in ((A, attacker_void), (B, defender_void)):
        offered = {m.card for m in RULES.legal_moves(state, seat)}
        assert offered == set(state["players"][seat]["tactics"]) - void and "hold" in offered


def test_ambush_costs_3_ore_and_scores_1_vp_stand_firm_costs_2_food():
    state, _ = attack()
    resources(state, A, ore=3)
    resources(state, B, food=2)
    state, events = play(state, (A, Tactic(card="ambush", ore=3)), (B, Tactic(card="stand_firm", food=2)))
    assert state["players"][A]["resources"]["ore"] == 0 and state["players"][B]["resources"]["food"] == 0
    assert state["players"][A]["score"] == 1 + 1 and state["players"][B]["score"] == 0
    assert "{seat0} wins 7 to 5" in texts(events)


def test_charge_is_not_for_an_army_of_serfs_alone_without_a_structure():
    state, _ = attack(attacker={"serf": 5}, defender={"serf": 1})
    resources(state, A, mana=6)
    assert [m for m in RULES.legal_moves(state, A) if m.card == "charge"] == []  # void: not offered
    assert is_void_choice(state, state["pending"]["battle"], A, Tactic(card="charge"))
    state, _ = attack(attacker={"warrior": 3}, defender={"serf": 1},
                      setup=lambda s: s["regions"]["N_plains"].update(tower=B))
    resources(state, B, mana=6)
    assert Tactic(card="charge", mana=6) in RULES.legal_moves(state, B)  # Serfs with a Tower may


def test_charge_gets_3_more_against_first_strike_an_army_of_8_reaches_15():
    """Spec 1.8.3 [K~]: "an army of 8 reaches 15" with Charge against First Strike."""
    state, _ = attack(attacker={"warrior": 4}, defender={"warrior": 1, "hero": 1}, origin="N_desert")
    resources(state, A, mana=6)
    resources(state, B, mana=4)
    state, events = play(state, (A, Tactic(card="charge", mana=6)), (B, Tactic(card="first_strike", mana=4)))
    assert "{seat0} wins 15 to 8" in texts(events)
    assert state["players"][A]["score"] == 1 + 3 and state["players"][B]["score"] == 2


def test_shield_wall_cancels_charge_which_then_costs_nothing_and_scores_nothing():
    state, _ = attack()
    resources(state, A, mana=6)
    resources(state, B, food=3)
    state, events = play(state, (A, Tactic(card="charge", mana=6)), (B, Tactic(card="shield_wall", food=3)))
    assert "Both reveal: {seat0} Charge (cancelled), {seat1} Shield Wall (+1)" in texts(events)
    assert state["players"][A]["resources"]["mana"] == 6 and state["players"][A]["score"] == 1
    assert state["players"][B]["resources"]["food"] == 0
    assert "{seat1} wins 4 to 4 (a tie goes to the defender)" in texts(events)


def test_conscripts_defender_first_then_attacker():
    def reinforcements(state):
        put(state, "N_forest", B, warrior=2)
        put(state, "N_desert", A, warrior=1)
        resources(state, A, food=2)
        resources(state, B, food=2)

    state, _ = attack(defender={"serf": 1}, setup=reinforcements)
    state, _ = play(state, (A, Tactic(card="conscripts", food=2)), (B, Tactic(card="conscripts", food=2)))
    assert state["phase"] == "conscripts" and RULES.to_act(state) == {B}
    legal = RULES.legal_moves(state, B)
    assert Conscript(origin="N_forest", warrior=2) in legal and Skip() in legal
    assert all(m.type == "skip" or m.origin == "N_forest" for m in legal)
    state, _ = play(state, (B, Conscript(origin="N_forest", warrior=2)))
    assert RULES.to_act(state) == {A}
    state, events = play(state, (A, Conscript(origin="N_desert", warrior=1)))
    assert "{seat0} wins 6 to 5" in texts(events)  # 4 + 2 against 1 + 4
    assert state["pending"]["damage"] == 3  # ceil(5 / 2), the conscripted units count


def test_a_defending_tower_takes_damage_first():
    state, _ = attack(attacker={"warrior": 3}, defender={"warrior": 1}, origin="N_desert",
                      setup=lambda s: s["regions"]["N_plains"].update(tower=B))
    assert state["pending"]["battle"]["strength"] == {"attacker": 6, "defender": 5}
    state["players"][B]["supply"]["tower"] = 2
    state, events = play(state, (A, HOLD), (B, HOLD))
    # damage ceil(5/2) = 3: all of it on the Tower (strength 3), the Warrior survives and retreats
    assert state["regions"]["N_plains"]["tower"] is None and state["players"][B]["supply"]["tower"] == 3
    assert units(state, "S_capital", B)["warrior"] == 1
    assert "{seat1} takes 3 damage: loses its Tower; 1 Warrior retreats to South Capital" in texts(events)


def test_damage_past_the_tower_goes_on_one_unit_fully_before_the_next():
    state, _ = attack(attacker={"warrior": 4, "hero": 1}, defender={"serf": 1, "warrior": 1}, origin="N_desert",
                      setup=lambda s: s["regions"]["N_plains"].update(tower=B))
    state, _ = play(state, (A, HOLD), (B, HOLD))
    # natural 3 + 1 + 2 = 6, damage 3... the Tower takes all 3
    assert state["regions"]["N_plains"]["tower"] is None
    state, _ = attack(attacker={"warrior": 5}, defender={"serf": 1, "warrior": 2}, origin="N_desert",
                      setup=lambda s: s["regions"]["N_plains"].update(tower=B))
    state, _ = play(state, (A, HOLD), (B, HOLD))
    # natural 3 + 1 + 4 = 8, damage 4: the Tower (3), then 1 more on the Serf or on a Warrior
    assert state["pending"]["damage"] == 4
    assert {(m.serf, m.warrior) for m in RULES.legal_moves(state, B)} == {(1, 0), (0, 1)}


def test_survivors_retreat_to_the_capital_or_an_own_tower_region_within_the_limit():
    def towers(state):
        state["regions"]["N_mountain"]["tower"] = B
        state["regions"]["S_plains"]["tower"] = B
        put(state, "S_plains", B, serf=4)
    state, _ = attack(attacker={"warrior": 3}, defender={"serf": 2, "warrior": 1}, setup=towers)
    state, _ = play(state, (A, HOLD), (B, HOLD))  # 6 to 4, damage 2
    legal = RULES.legal_moves(state, B)
    # losing the Warrior leaves 2 Serfs: S_plains (4 there) would hold 6, over the limit
    assert {m.retreat for m in legal if (m.serf, m.warrior) == (0, 1)} == {"N_mountain", "S_capital"}
    # losing both Serfs (1, then 1) leaves the Warrior: S_plains then holds 5
    assert {m.retreat for m in legal if m.serf == 2} == {"N_mountain", "S_capital", "S_plains"}
    assert "N_plains" not in state["pending"]["retreat"]


def capital_attack(n_players=4, attacker=None, courtyard=None):
    """Seat 0 marches ``attacker`` from S_desert into S_capital, seat 2's (4 players: N, E, S, W)."""
    state = position(n_players)
    resources(state, A)
    resources(state, C)
    player = state["players"][C]
    player["hall"] = True
    player["nomads"] = 2
    player["bar"]["tax"] = "serf"
    player["bar"]["recruit"] = "nomad"
    put(state, "S_capital", C, **(courtyard or {"serf": 1}))
    put(state, "S_plains", C, warrior=1)
    state["regions"]["S_meadow"]["tower"] = C
    state["nomad_supply"] = 5
    attacker = attacker or {"warrior": 4}
    put(state, "S_desert", A, **attacker)
    return play(state, (A, March(slot="march_1", origin="S_desert", destination="S_capital", **attacker)))


def test_capital_battle_strength_counts_level_courtyard_bar_hall_and_nomads():
    state, events = capital_attack()
    battle = state["pending"]["battle"]
    assert battle["capital"] is True and battle["defender"] == C
    # 2 (level 1) + 1 (Courtyard Serf) + 1 (bar Serf) + 1 (bar Nomad) + 1 (Hall Serf) + 2 (Nomads)
    assert battle["strength"] == {"attacker": 8, "defender": 8}
    assert "{seat0} attacks the capital of {seat2} at South Capital (+1 VP)" in texts(events)


def test_destroying_a_capital_eliminates_the_owner_removes_its_pieces_and_gives_5_vp():
    state, _ = capital_attack(attacker={"warrior": 4, "serf": 1})
    state, events = play(state, (A, HOLD), (C, HOLD))
    assert "{seat0} wins 9 to 8" in texts(events)
    player = state["players"][C]
    assert player["eliminated"] is True
    assert not any(str(C) in entry["units"] for entry in state["regions"].values())
    assert state["regions"]["S_meadow"]["tower"] is None
    assert state["nomad_supply"] == 5 + 2 + 1  # A-C2: Courtyard and bar Nomads go to the supply
    assert state["players"][A]["score"] == 1 + 5
    assert units(state, "S_capital", A) == {"serf": 1, "warrior": 4, "hero": 0}
    assert state["end"] == {"objective": "eXterminate", "by": A, "round": 1, "last_round": 2}
    assert RULES.result({**state, "phase": "over"}).breakdown[C] == {
        "VP during play": 0, "hall": 0, "towers": 0, "warriors": 0, "hero": 0, "capital": 0, "regions": 0}


def test_a_failed_capital_attack_is_a_normal_lost_battle():
    state, _ = capital_attack(attacker={"warrior": 4})
    state, events = play(state, (A, HOLD), (C, HOLD))
    assert "{seat2} wins 8 to 8 (a tie goes to the defender)" in texts(events)
    # the attacker's damage: ceil(8 / 2) = 4 = two Warriors; the others retreat to N_capital
    assert units(state, "N_capital", A)["warrior"] == 2
    assert state["players"][C]["eliminated"] is False


def test_eliminated_seats_are_skipped_in_the_turn_order():
    state, _ = capital_attack(attacker={"warrior": 4, "serf": 1})
    state, _ = play(state, (A, HOLD), (C, HOLD))
    seats = []
    while state["round"] == 1:
        seat = state["turn"]["seat"]
        seats.append(seat)
        state, _ = RULES.apply(state, seat, RULES.legal_moves(state, seat)[-1])
    assert C not in seats and seats == [B, D, A, B, D]


def test_in_a_two_player_game_destroying_the_capital_ends_the_game_at_once():
    state = position(2)
    resources(state, A)
    put(state, "S_desert", A, warrior=3)
    state, _ = play(state, (A, March(slot="march_1", origin="S_desert", destination="S_capital", warrior=3)))
    state, _ = play(state, (A, HOLD), (B, HOLD))  # 6 against the bare level-1 capital's 2
    assert state["phase"] == "over" and state["end"]["finished"] == "last_standing"
    result = RULES.result(state)
    assert result.scores[B] == 0 and result.ranks == [1, 2]


@pytest.mark.parametrize("card, seat, cost, totals, vp", [
    ("hold", A, {}, (4, 3), 0),
    ("stand_firm", B, {"food": 2}, (4, 5), 0),
    ("first_strike", A, {"mana": 4}, (6, 3), 2),
    ("charge", A, {"mana": 6}, (8, 3), 3),
    ("ambush", A, {"ore": 3}, (7, 3), 1),
    ("shield_wall", B, {"food": 3}, (4, 4), 0),
    ("conscripts", B, {"food": 2}, (4, 3), 0),
])
def test_each_house_tactic_card_against_hold(card, seat, cost, totals, vp):
    """Spec 2.3 house tactic set: cost, strength bonus and VP of each card (2 Warriors attack a
    Serf and a Warrior: 4 against 3 before cards)."""
    state, _ = attack()
    resources(state, seat, ore=5, mana=6, food=5)
    before = dict(state["players"][seat]["resources"])
    score = state["players"][seat]["score"]
    move = Tactic(card=card, **cost)
    assert move in RULES.legal_moves(state, seat)
    other = B if seat == A else A
    state, _ = play(state, (seat, move), (other, HOLD))
    paid = {r: before[r] - state["players"][seat]["resources"][r] for r in before}
    assert paid == {"ore": 0, "mana": 0, "food": 0, **cost}
    assert state["players"][seat]["score"] - score == vp
    outcome = state["last"]["battle"]
    assert (outcome["strength"]["attacker"], outcome["strength"]["defender"]) == totals
    assert outcome["winner"] == (A if totals[0] > totals[1] else B)

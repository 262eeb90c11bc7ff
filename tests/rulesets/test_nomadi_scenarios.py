"""The spec's event-level scenarios (§6, "Event-level scenarios for the rules engine"), one test each.

The spec's list is damaged in our copy between items 4 and 7 ("mover 5. If the game ends earlier,
nothing is paid."); items 5 and 6 are read from rules 29a/29b: the first crossing pays the mover 5,
the last crossing costs the mover 5, and nothing is paid if the game ends before it.
"""

from __future__ import annotations

from app.rulesets.base import Rng
from app.rulesets.nomadi.moves import Accept, Decline, Offer, Roll, UseDie
from app.rulesets.nomadi.scoring import final_result, seat_breakdown
from tests.rulesets.nomadi_fixtures import A, B, position, public, texts


def test_scenario_1_two_dice_left_unusable_the_mover_pays_two_into_debt():
    # one row: A jumps B with the 2; the 5 and 6 would need 4 and 5 stones in a row
    ruleset, state, _ = position(["AB.."], dice=(2, 5, 6), coins=[1, 5])
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [-1, 5]
    assert after["current"] == B and after["phase"] == "roll"
    assert "{seat0} pays 2 coins: 2 unused dice" in texts(events)


def test_scenario_2_a_fresh_roll_without_a_usable_value_is_rolled_again_for_free():
    # only a 2 can move anything here (A over B); find a generator state whose first roll has no 2
    ruleset, state, _ = position(["AB.."], phase="roll", dice=())
    seed = next(s for s in range(1000) if 2 not in (lambda rng: [rng.randrange(6) + 1 for _ in range(6)])(Rng(s)))
    state["rng"] = seed
    after, events = ruleset.apply(state, A, Roll())
    assert 2 in after["dice"] and after["coins"] == [5, 5]
    assert any("roll again" in text for text in texts(events))


def test_scenario_3_own_stone_on_a_water_source_card_two_coins_and_the_card_without_offer():
    ruleset, state, _ = position(["ABW"], dice=(2,), cards={(0, 2): 3})
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [7, 5]
    assert after["hands"] == [[{"id": "card-01", "value": 3}], []]
    assert after["offer"] is None and not any("offers" in text for text in texts(events))


def offered(claim):
    """Seat 1's stone A lands on a sand card worth -2 moved by seat 0, who offers it with ``claim``.

    One row ``.AB..``: A jumps B to (0, 3) where the card lies; afterwards B can still jump A to
    (0, 4) with the second 2 (A may not jump back: R-18), so the turn goes on after the answer.
    """
    ruleset, state, ids = position([".AB.."], dice=(2, 2), cards={(0, 3): -2}, owners={"A": B})
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 1), to=(0, 3)))
    assert state["coins"] == [6, 5] and ruleset.to_act(state) == {A}
    state, _ = ruleset.apply(state, A, Offer(claim=claim))
    assert ruleset.to_act(state) == {B}
    return ruleset, state


def test_scenario_4_offer_declined_the_mover_keeps_the_card():
    ruleset, state = offered(claim=3)
    after, events = ruleset.apply(state, B, Decline())
    assert after["hands"] == [[{"id": "card-01", "value": -2}], []]
    assert after["coins"] == [6, 5]
    # the turn comes back to the mover, who still has the second 2
    assert ruleset.to_act(after) == {A} and after["phase"] == "move"
    assert [(tuple(m.stone), tuple(m.to)) for m in ruleset.legal_moves(after, A)] == [((0, 2), (0, 4))]


def test_scenario_4_offer_accepted_the_owner_holds_it_whatever_the_claim():
    for claim in (None, -2, 3):
        ruleset, state = offered(claim=claim)
        after, _ = ruleset.apply(state, B, Accept())
        assert after["hands"] == [[], [{"id": "card-01", "value": -2}]]
        assert after["coins"] == [6, 5] and ruleset.to_act(after) == {A}


def test_scenario_5_the_first_crossing_pays_the_mover_five():
    ruleset, state, _ = position(["....", ".A..", ".B..", ".C.."], dice=(3,), chasm=0, owners={"C": B})
    after, _ = ruleset.apply(state, A, UseDie(die=3, stone=(3, 1), to=(0, 1)))
    assert after["coins"] == [10, 5]


def test_scenario_6_the_last_crossing_costs_the_mover_five():
    ruleset, state, _ = position([".A", ".B"], dice=(1,), chasm=0, owners={"B": B})
    after, _ = ruleset.apply(state, A, UseDie(die=1, stone=(1, 1), to=(0, 0)))
    assert after["coins"] == [0, 5]


def test_scenario_6_no_fee_when_the_game_ends_first():
    # the third stone arrives while C still stands on the near side
    ruleset, state, _ = position(["gAB.", ".C.."], dice=(2,), chasm=0, arrivals=2)
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
    assert after["phase"] == "over" and after["all_crossed"] is False
    assert after["coins"] == [9, 5] and not any("R-29b" in text for text in texts(events))


def test_scenario_7_goal_rewards_split_or_whole_and_the_third_ends_the_game():
    shares = []
    for arrivals in range(3):
        ruleset, state, _ = position(["gAB.", ".C.."], dice=(2,), chasm=0, arrivals=arrivals, owners={"B": B})
        after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
        shares.append((after["coins"][A] - 5, after["coins"][B] - 5))
    assert shares == [(4, 4), (3, 3), (2, 2)]
    own = []
    for arrivals in range(3):
        ruleset, state, _ = position(["gAB.", ".C.."], dice=(2,), chasm=0, arrivals=arrivals)
        after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
        own.append(after["coins"][A] - 5)
    assert own == [8, 6, 4]
    # the third arrival ends the game; the two dice left are not charged
    ruleset, state, _ = position(["gAB.", ".C.."], dice=(2, 5, 6), chasm=0, arrivals=2)
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
    assert after["phase"] == "over" and after["coins"] == [9, 5]
    assert public(events)[-1].startswith("Game over: the third stone reached the goal")


def test_scenario_8_scoring_coins_minus_3_cards_3_minus_2_1_is_minus_1():
    assert sum(seat_breakdown(-3, [3, -2, 1]).values()) == -1
    ruleset, state, _ = position(["AB"], dice=(1,))
    cards = [{"id": "card-01", "value": 3}, {"id": "card-02", "value": -2}, {"id": "card-03", "value": 1}]
    state.update(coins=[-3, 0], hands=[cards, []])
    assert final_result(state, "test").scores == [-1, 0]

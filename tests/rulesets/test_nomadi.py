"""Nomadi rules, one test per rule (Spec §2, rules R-6 .. R-42); expected values worked out by hand.

Sketch positions (see ``nomadi_fixtures``) are small boards drawn like the spec's §6; a comment
next to each expectation says how it follows from the rules.
"""

from __future__ import annotations

from collections import Counter

import pytest

from app.rulesets.base import IllegalMove, Rng
from app.rulesets.nomadi.moves import (
    Accept, Decline, EndTurn, Gift, Offer, PlaceCard, PlaceStone, Roll, UseDie,
)
from app.rulesets.nomadi.options import Options
from app.rulesets.nomadi.scoring import final_result
from tests.rulesets.nomadi_fixtures import A, B, C, STANDARD, position, public, texts

BOARD = STANDARD.board


def new_game(n_players: int, seed: int = 3, **options) -> dict:
    return STANDARD.setup(n_players, Options(**options), seed)


def act(state: dict, move, ruleset=STANDARD) -> tuple[dict, list]:
    """The seat to act plays ``move``."""
    (seat,) = ruleset.to_act(state)
    return ruleset.apply(state, seat, move)


def placed_game(n_players: int, seed: int = 3, **options) -> dict:
    """Lay cards and place stones on the first legal cell each time, up to the first roll."""
    state = new_game(n_players, seed, **options)
    while state["phase"] in ("cards", "placement"):
        (seat,) = STANDARD.to_act(state)
        state, _ = STANDARD.apply(state, seat, STANDARD.legal_moves(state, seat)[0])
    return state


def moves_of(ruleset, state, seat=A) -> set[tuple[int, tuple, tuple]]:
    return {(m.die, tuple(m.stone), tuple(m.to)) for m in ruleset.legal_moves(state, seat) if isinstance(m, UseDie)}


# -- setup (R-6 .. R-12) ----------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"trading": True, "hidden_coins": True, "first_player": "host",
                                          "voluntary_pass": True, "card_placement": "players", "turn_limit": 99}])
def test_the_state_keeps_every_table_option_as_chosen(options):
    """state.TableOptions names every option of options.Options, in the order stored games have them."""
    chosen = Options(**options)
    kept = new_game(2, **options)["options"]
    assert list(kept.items()) == list(chosen.model_dump().items())


@pytest.mark.parametrize(
    ("n_players", "each", "colours"),
    [
        (2, 8, ["blue", "yellow"]),
        (3, 5, ["blue", "yellow", "red"]),
        (4, 4, ["blue", "yellow", "red", "green"]),
        (5, 3, ["blue", "yellow", "red", "green", "black"]),
    ],
)
def test_r6_stones_and_colours_per_player_count(n_players, each, colours):
    state = new_game(n_players)
    assert Counter(stone["owner"] for stone in state["stones"]) == {seat: each for seat in range(n_players)}
    assert state["colours"] == colours
    assert [p["stones_to_place"] for p in STANDARD.view(state, None)["players"]] == [each] * n_players


@pytest.mark.parametrize("n_players", [1, 6])
def test_r6_two_to_five_players(n_players):
    with pytest.raises(ValueError):
        new_game(n_players)


def test_r7_five_coins_each():
    assert new_game(4)["coins"] == [5, 5, 5, 5]


@pytest.mark.parametrize("seed", range(4))
def test_r8_eighteen_cards_one_on_each_water_source_the_rest_on_sand(seed):
    state = new_game(3, seed)
    cards = {tuple(map(int, key.split(","))): card for key, card in state["cards"].items()}
    assert Counter(card["value"] for card in cards.values()) == {1: 4, 2: 4, 3: 4, -1: 3, -2: 3}
    assert len({card["id"] for card in cards.values()}) == 18
    assert set(BOARD.water_sources) <= set(cards)
    others = set(cards) - set(BOARD.water_sources)
    assert len(others) == 9 and others <= set(BOARD.sand_cells)  # never start, goal or blocked
    assert state["card_pool"] == [] and state["phase"] == "placement"


@pytest.mark.parametrize("rows", [["SS" + "." * 20] * 3, ["SS" + "W" * 18]])
def test_r8_a_board_needs_one_to_seventeen_water_sources(rows):
    # one card on each water source and "the other cards" on sand: 0 or 18 water sources break R-8
    from app.rulesets.nomadi.board import Board
    from app.rulesets.nomadi.rules import Nomadi

    with pytest.raises(ValueError, match="1 to 17 water sources"):
        Nomadi(Board("odd", rows)).setup(2, Options(), 1)


def test_r8_card_placement_comes_from_the_seed_and_ids_say_nothing():
    assert new_game(2, seed=9)["cards"] == new_game(2, seed=9)["cards"]
    layouts = {tuple(sorted(new_game(2, seed=seed)["cards"])) for seed in range(6)}
    assert len(layouts) > 1
    # card-01 lies on the first water source; its value changes from game to game
    values = {next(c["value"] for c in new_game(2, seed=seed)["cards"].values() if c["id"] == "card-01") for seed in range(12)}
    assert len(values) > 1


def test_r9_starting_player_random_from_the_seed_or_the_host():
    starts = {new_game(5, seed=seed)["start_player"] for seed in range(25)}
    assert len(starts) > 1 and starts <= set(range(5))
    assert {new_game(5, seed=seed, first_player="host")["start_player"] for seed in range(5)} == {0}


def test_r10_placement_round_goes_from_the_starting_player_in_seat_order():
    state = new_game(2, seed=4)
    start = state["start_player"]
    assert state["phase"] == "placement" and STANDARD.to_act(state) == {start}
    assert {tuple(m.cell) for m in STANDARD.legal_moves(state, start)} == set(BOARD.start_cells)
    for number in range(16):
        seat = (start + number) % 2
        assert STANDARD.to_act(state) == {seat}
        state, events = act(state, STANDARD.legal_moves(state, seat)[-1])
    assert Counter(s["owner"] for s in state["stones"] if s["cell"]) == {0: 8, 1: 8}


def test_r10_more_start_cells_than_stones_means_touching_a_placed_stone():
    state = new_game(3, seed=4)
    assert len(STANDARD.legal_moves(state, state["start_player"])) == 16
    state, _ = act(state, PlaceStone(cell=(16, 12)))
    # the corner (16, 12) touches only (16, 13) and (17, 12) inside the start area
    assert {tuple(m.cell) for m in STANDARD.legal_moves(state, state["current"])} == {(16, 13), (17, 12)}
    with pytest.raises(IllegalMove, match="R-10: R20 does not touch"):
        act(state, PlaceStone(cell=(19, 15)))
    with pytest.raises(IllegalMove, match="R-10: a stone already stands"):
        act(state, PlaceStone(cell=(16, 12)))
    with pytest.raises(IllegalMove, match="R-10: N16 is not a start cell"):
        act(state, PlaceStone(cell=(15, 12)))


def test_r11_after_placement_every_stone_on_start_and_not_departed():
    state = placed_game(4)
    assert all(tuple(s["cell"]) in BOARD.start_cells and not s["departed"] and not s["locked"] for s in state["stones"])


def test_r12_starting_player_takes_the_first_dice_turn():
    state = placed_game(3, seed=8)
    assert (state["phase"], state["current"], state["turn"]) == ("roll", state["start_player"], 1)
    assert STANDARD.legal_moves(state, state["start_player"]) == [Roll()]


# -- turns (R-13 .. R-18) ---------------------------------------------------------------------


def test_r13_six_dice_from_the_seeded_generator():
    state = placed_game(2, seed=8)
    rolled, events = act(state, Roll())
    assert len(rolled["dice"]) == 6 and all(1 <= value <= 6 for value in rolled["dice"])
    assert rolled["phase"] == "move" and rolled["used"] == [False] * 6
    assert rolled["rng"] != state["rng"]
    assert act(state, Roll())[0]["dice"] == rolled["dice"]  # the same state rolls the same dice
    assert [d["value"] for d in STANDARD.view(rolled, None)["dice"]] == rolled["dice"]


def first_seed_whose_first_roll_lacks(value: int) -> int:
    for seed in range(1000):
        rng = Rng(seed)
        if value not in [rng.randrange(6) + 1 for _ in range(6)]:
            return seed
    raise AssertionError("no such seed")


def test_r14_roll_again_for_free_while_no_die_can_be_used():
    # one row: only the 2 can be used (A jumps B); a 1 has nowhere to slide, 3+ need more stones
    ruleset, state, _ = position(["AB.."], phase="roll", dice=(), coins=[5, 5])
    seed = first_seed_whose_first_roll_lacks(2)
    rng, rolls = Rng(seed), 0
    while True:
        roll = [rng.randrange(6) + 1 for _ in range(6)]
        rolls += 1
        if 2 in roll:
            break
    state["rng"] = seed
    after, events = ruleset.apply(state, A, Roll())
    assert rolls >= 2 and sorted(after["dice"]) == sorted(roll)
    assert sum("roll again" in text for text in texts(events)) == rolls - 1
    assert after["coins"] == [5, 5] and after["phase"] == "move"


def test_r14_no_die_value_can_move_anything_ends_the_game():
    # a 1x2 board: no slide has a free cell, a 2 would jump off the board
    ruleset, state, _ = position(["AB"], phase="roll", dice=())
    after, events = ruleset.apply(state, A, Roll())
    assert after["phase"] == "over" and ruleset.to_act(after) == set()
    assert "R-14" in ruleset.result(after).reason


def test_r15_one_die_at_a_time_any_colour_and_the_same_stone_again():
    ruleset, state, ids = position(["AB..", "...."], dice=(2, 1), owners={"A": B})
    # the mover (seat 0) moves seat 1's stone A over B with the 2 ...
    state, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert "{seat0} moves a stone owned by {seat1} from {origin} to {landing} with a 2" in texts(events)
    assert state["used"] == [True, False] and state["phase"] == "move"
    # A may slide under B's corner to (1, 1), B to (1, 2) under A; nothing else touches the other stone
    assert moves_of(ruleset, state) == {(1, (0, 2), (1, 1)), (1, (0, 1), (1, 2))}
    # ... then A again with the 1
    state, _ = ruleset.apply(state, A, UseDie(die=1, stone=(0, 2), to=(1, 1)))
    assert state["stones"][ids["A"]]["cell"] == [1, 1]
    assert state["phase"] == "roll" and state["current"] == B and state["coins"] == [5, 5]


def test_r15_a_die_must_be_unused():
    ruleset, state, _ = position(["AB..", "...."], dice=(2, 1))
    with pytest.raises(IllegalMove, match="R-15: no unused die shows a 3"):
        ruleset.apply(state, A, UseDie(die=3, stone=(0, 0), to=(0, 3)))


def test_r16_no_ending_the_turn_while_a_die_can_be_used():
    ruleset, state, _ = position(["AB..", "...."], dice=(2, 1))
    assert EndTurn() not in ruleset.legal_moves(state, A)
    with pytest.raises(IllegalMove, match="R-16"):
        ruleset.apply(state, A, EndTurn())


def test_r17_unused_dice_cost_one_coin_each_when_the_turn_ends():
    # after A jumps B (2), the 5 and the 6 need 4 and 5 stones in a row: two dice unused
    ruleset, state, _ = position(["AB.."], dice=(2, 5, 6), coins=[5, 5])
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [3, 5]
    assert "{seat0} pays 2 coins: 2 unused dice" in texts(events)
    assert texts(events)[-1] == "Turn over for {seat0}: no unused die can be used"
    assert (after["phase"], after["current"], after["turn"], after["dice"]) == ("roll", B, 2, [])


def test_r17_a_turn_that_used_every_die_ends_free_and_the_log_says_all_dice_used():
    # A (seat 0's own stone) jumps B with the only die, a 2: no die is left, so nothing to pay
    ruleset, state, _ = position(["AB.."], dice=(2,), coins=[5, 5])
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert texts(events)[0] == "{seat0} moves a stone from {origin} to {landing} with a 2"
    assert "Turn over for {seat0}: all dice used" in texts(events)
    assert not any("unused" in text or "pays" in text for text in texts(events))
    assert after["coins"] == [5, 5] and (after["phase"], after["current"]) == ("roll", B)


def test_r18_same_number_twice_not_back_and_forth():
    ruleset, state, ids = position(["AB..."], dice=(2, 2))
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    # A may not jump back over B with the second 2; B may jump A
    assert moves_of(ruleset, state) == {(2, (0, 1), (0, 3))}
    with pytest.raises(IllegalMove, match="R-18"):
        ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))


# -- legal moves (R-19 .. R-26) ---------------------------------------------------------------


def test_r19a_a_stone_in_the_goal_is_locked():
    ruleset, state, _ = position(["ga..", ".A.."], dice=(1,))
    # A slides to either side of a (next to a); a itself may not move although it has free sides
    assert moves_of(ruleset, state) == {(1, (1, 1), (0, 0)), (1, (1, 1), (0, 2))}
    with pytest.raises(IllegalMove, match="R-19a"):
        ruleset.apply(state, A, UseDie(die=1, stone=(0, 1), to=(0, 0)))


def test_r19b_a_stone_without_a_free_side_may_not_move():
    ruleset, state, _ = position(["AB..", "DXF.", "GHI."], dice=(1,))  # spec P7
    with pytest.raises(IllegalMove, match="R-19b"):
        ruleset.apply(state, A, UseDie(die=1, stone=(1, 1), to=(0, 2)))


def test_r5_blocked_cells_count_as_free_sides():
    # X has stones on three sides and a blocked cell on the fourth: that side is free, so X may
    # jump A, B or D (the ring around it holds the caravan together); east there is no stone
    grid = [".....", ".EAF.", ".BX#.", ".GDH.", "....."]
    ruleset, state, _ = position(grid, dice=(2,))
    assert {move[2] for move in moves_of(ruleset, state) if move[1] == (2, 2)} == {(0, 2), (2, 0), (4, 2)}
    # with a stone instead of the blocked cell, X has no free side
    ruleset, state, _ = position([".....", ".EAF.", ".BXI.", ".GDH.", "....."], dice=(2,))
    assert not {move for move in moves_of(ruleset, state) if move[1] == (2, 2)}
    with pytest.raises(IllegalMove, match="R-19b"):
        ruleset.apply(state, A, UseDie(die=2, stone=(2, 2), to=(0, 2)))


def test_r20_a_jump_needs_exactly_v_minus_1_stones_without_a_gap():
    ruleset, state, _ = position([".......", ".AB.D..", "..CFE..", "......."], dice=(4,))  # spec P3
    with pytest.raises(IllegalMove, match="R-20"):
        ruleset.apply(state, A, UseDie(die=4, stone=(1, 1), to=(1, 5)))


def test_r20_two_paths_to_one_landing_are_one_move():
    # X->(3, 2) with a 5: east over A, B then south over D, F; or south over C, E, G then east over H
    ruleset, state, _ = position(["XAB", "C.D", "E.F", "GH."], dice=(5,))
    listed = [m for m in ruleset.legal_moves(state, A) if (tuple(m.stone), tuple(m.to)) == ((0, 0), (3, 2))]
    assert len(listed) == 1


def test_r21_landing_must_be_empty_and_playable():
    ruleset, state, _ = position([".......", ".ABC...", "..D....", "......."], dice=(2,))  # spec P2
    with pytest.raises(IllegalMove, match="R-21: a stone already stands on D2"):
        ruleset.apply(state, A, UseDie(die=2, stone=(1, 1), to=(1, 3)))
    ruleset, state, _ = position(["AB#"], dice=(2,))
    assert moves_of(ruleset, state) == set()
    with pytest.raises(IllegalMove, match="R-21: C1 is not a playable cell"):
        ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))


def test_r22_departed_stones_never_end_on_a_start_cell():
    ruleset, state, _ = position([".....", "..A..", "..1ss", "..2ss", "....."], dice=(1,))  # spec P8
    with pytest.raises(IllegalMove, match="R-22"):
        ruleset.apply(state, A, UseDie(die=1, stone=(1, 2), to=(2, 3)))
    after, _ = ruleset.apply(state, A, UseDie(die=1, stone=(3, 2), to=(2, 3)))  # never left: fine
    assert after["stones"][2]["cell"] == [2, 3]


def test_r23_no_way_back_over_the_chasm():
    ruleset, state, _ = position(["....", ".AD.", ".B..", ".C.."], dice=(1,), chasm=1)  # spec P9
    for stone in ((1, 1), (1, 2)):
        with pytest.raises(IllegalMove, match="R-23"):
            ruleset.apply(state, A, UseDie(die=1, stone=stone, to=(2, 2)))


def test_r24_the_caravan_stays_connected_after_each_move():
    ruleset, state, _ = position([".....", ".A...", ".BC..", "....."], dice=(1,))  # spec P1
    with pytest.raises(IllegalMove, match="R-24"):
        ruleset.apply(state, A, UseDie(die=1, stone=(2, 1), to=(2, 0)))


def test_r26_jumped_stones_of_any_colour_and_on_any_cell():
    # A jumps seat 1's stone that is locked in the goal; a itself may not move (R-19a)
    ruleset, state, _ = position([".aA"], dice=(2,), owners={"a": B})
    assert moves_of(ruleset, state) == {(2, (0, 2), (0, 0))}
    # spec P8, die 3: A jumps the two stones on start cells and lands beyond them
    ruleset, state, _ = position([".....", "..A..", "..1ss", "..2ss", "....."], dice=(3,))
    assert (3, (1, 2), (4, 2)) in moves_of(ruleset, state)


# -- events after a move (R-27 .. R-32) -------------------------------------------------------


def test_r27_departure_only_when_ending_off_the_start():
    ruleset, state, ids = position([".....", "..A..", "..1ss", "..2ss", "....."], dice=(1,))
    inside, _ = ruleset.apply(state, A, UseDie(die=1, stone=(3, 2), to=(2, 3)))
    assert inside["stones"][ids["2"]]["departed"] is False
    outside, _ = ruleset.apply(state, A, UseDie(die=1, stone=(3, 2), to=(2, 1)))
    assert outside["stones"][ids["2"]]["departed"] is True


def test_r33_r34_a_departed_stone_may_jump_over_the_start():
    # spec P8, die 3: the departed A jumps the two stones standing in the start area
    ruleset, state, ids = position([".....", "..A..", "..1ss", "..2ss", "....."], dice=(3,))
    after, _ = ruleset.apply(state, A, UseDie(die=3, stone=(1, 2), to=(4, 2)))
    assert after["stones"][ids["A"]]["cell"] == [4, 2]
    # and "leaving the start" means ending a move off it: 1 stays not departed all along
    assert after["stones"][ids["1"]]["departed"] is False


def test_r28_start_emptied_pays_the_owner_of_the_last_stone_not_the_mover():
    ruleset, state, _ = position([".A.", ".1."], dice=(1,), owners={"1": B})
    after, events = ruleset.apply(state, A, UseDie(die=1, stone=(1, 1), to=(0, 0)))
    assert after["coins"] == [5, 10] and after["start_emptied"] is True
    assert "{seat1} receives 5 coins: the last stone left the start" in texts(events)


def test_r29a_first_crossing_pays_the_mover():
    # chasm below row 0; C (seat 1's) jumps B and A and lands beyond it, the first to cross
    grid = ["....", ".A..", ".B..", ".C.."]
    ruleset, state, _ = position(grid, dice=(3,), chasm=0, owners={"C": B})
    assert state["crossed"] is False
    after, events = ruleset.apply(state, A, UseDie(die=3, stone=(3, 1), to=(0, 1)))
    assert after["coins"] == [10, 5] and after["crossed"] is True and after["all_crossed"] is False
    assert "{seat0} receives 5 coins: the first stone over the chasm" in texts(events)
    # spec P9: A and D crossed before; C's crossing pays nothing, and B stays behind: no fee yet
    ruleset, state, _ = position(["....", ".AD.", ".B..", ".C.."], dice=(3,), chasm=1, owners={"C": B})
    after, _ = ruleset.apply(state, A, UseDie(die=3, stone=(3, 1), to=(0, 1)))
    assert after["coins"] == [5, 5]


def test_r29b_last_crossing_costs_the_mover_five():
    ruleset, state, _ = position([".A", ".B"], dice=(1,), chasm=0)
    assert state["crossed"] is True  # A stands beyond the chasm already
    after, events = ruleset.apply(state, A, UseDie(die=1, stone=(1, 1), to=(0, 0)))
    assert after["coins"] == [0, 5] and after["all_crossed"] is True
    # first and last at once: +5 then -5
    # a caravan of one stone: its crossing is the first and the last at once, +5 then -5
    ruleset, state, _ = position(["..", "X."], dice=(1,), chasm=0)
    after, events = ruleset.apply(state, A, UseDie(die=1, stone=(1, 0), to=(0, 0)))
    assert after["coins"] == [5, 5] and after["crossed"] and after["all_crossed"]
    lines = texts(events)
    assert lines.index("{seat0} receives 5 coins: the first stone over the chasm") < lines.index(
        "{seat0} pays 5 coins: the last stone over the chasm"
    )


def test_r30_water_source_pays_only_while_its_card_lies_there():
    ruleset, state, _ = position(["ABW"], dice=(2,))
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [5, 5]


def test_r30a_own_stone_takes_the_card_without_an_offer():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): -1})
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [6, 5] and after["hands"][A] == [{"id": "card-01", "value": -1}]
    assert after["offer"] is None and after["cards"] == {}


def test_r30b_another_players_stone_makes_an_offer_and_the_turn_waits():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 3}, owners={"A": B})
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [6, 5] and after["phase"] == "claim" and ruleset.to_act(after) == {A}
    assert len(ruleset.legal_moves(after, A)) == 6  # no claim, or claim -2, -1, +1, +2, +3
    after, _ = ruleset.apply(after, A, Offer(claim=-2))
    assert after["phase"] == "answer" and ruleset.to_act(after) == {B}
    assert ruleset.legal_moves(after, B) == [Accept(), Decline()]
    assert ruleset.legal_moves(after, A) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        ruleset.check_and_apply(after, A, Decline())


def test_r31_goal_rewards_by_arrival_own_stone_gets_all_else_split():
    for arrivals, reward in enumerate((8, 6, 4)):
        own, state, ids = position(["gAB."], dice=(2,), arrivals=arrivals)
        after, _ = own.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
        assert after["coins"] == [5 + reward, 5]
        assert after["stones"][ids["B"]]["locked"] is True and after["arrivals"] == arrivals + 1
        other, state, _ = position(["gAB."], dice=(2,), arrivals=arrivals, owners={"B": B})
        after, _ = other.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
        assert after["coins"] == [5 + reward // 2, 5 + reward // 2]


def test_r31_odd_reward_split_gives_the_mover_the_larger_half():
    from app.rulesets.nomadi.effects import goal_shares

    assert goal_shares(7, mover=A, owner=B) == [(A, 4), (B, 3)]
    assert goal_shares(7, mover=A, owner=A) == [(A, 7)]


def test_r32_third_goal_stone_ends_the_game_remaining_dice_free():
    ruleset, state, _ = position(["gAB.", ".C.."], dice=(2, 5, 6), chasm=0, arrivals=2)
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
    assert after["phase"] == "over" and ruleset.to_act(after) == set()
    assert after["coins"] == [9, 5]  # +4 for the third arrival; no fee for 5 and 6, none for the chasm
    result = ruleset.result(after)
    assert result.scores == [9, 5] and result.ranks == [1, 2] and "R-32" in result.reason


# -- economy and scoring (R-35, R-36) ---------------------------------------------------------


def test_r35_balances_may_go_negative():
    ruleset, state, _ = position(["AB.."], dice=(2, 5, 6), coins=[1, 5])
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["coins"] == [-1, 5]


def test_r36_score_is_coins_plus_cards_and_ties_share_the_win():
    state = new_game(3)
    state.update(
        coins=[-3, 4, 2],
        hands=[
            [{"id": "card-01", "value": 3}, {"id": "card-02", "value": -2}, {"id": "card-03", "value": 1}],
            [{"id": "card-04", "value": -1}],
            [{"id": "card-05", "value": 1}],
        ],
    )
    result = final_result(state, "test")
    assert result.scores == [-1, 3, 3] and result.ranks == [3, 1, 1]
    assert result.breakdown[0] == {"coins": -3, "cards": 2}


# -- variants (R-40 .. R-42) and the turn limit -----------------------------------------------


def test_r40_short_game_draws_an_oasis_spot_and_keeps_cards_off_it():
    spots = set()
    for seed in range(12):
        state = new_game(2, seed, short_game=True)
        spots.add(state["oasis"])
        goal = BOARD.goal_cells(state["oasis"])
        cells = {tuple(map(int, key.split(","))) for key in state["cards"]}
        assert not cells & goal and not cells & set(BOARD.printed_goal) and len(cells) == 18
        rows = STANDARD.view(state, None)["board"]["rows"]
        assert all(rows[r][c] == "G" for r, c in goal) and rows[0][0] == "."
    assert spots == {"A", "B", "C"}


def short_game_with_stones(stones: list[tuple[int, int]]) -> dict:
    state = next(s for s in (new_game(2, seed, short_game=True) for seed in range(40)) if s["oasis"] == "C")
    state.update(
        phase="move", current=A, turn=1, dice=[2], used=[False], history=[], cards={}, start_emptied=True, crossed=True,
        stones=[{"owner": A, "cell": list(cell), "departed": True, "locked": False} for cell in stones],
    )
    return state


def test_r40_short_game_oasis_is_the_goal_and_the_printed_goal_is_sand():
    # spot C covers rows 4-6, cols 5-7: (8, 5) jumps (7, 5) and lands on (6, 5)
    after, _ = STANDARD.apply(short_game_with_stones([(8, 5), (7, 5)]), A, UseDie(die=2, stone=(8, 5), to=(6, 5)))
    assert after["arrivals"] == 1 and after["stones"][0]["locked"] and after["coins"] == [13, 5]
    # (3, 3) is printed goal, plain sand in the short game
    after, _ = STANDARD.apply(short_game_with_stones([(3, 5), (3, 4)]), A, UseDie(die=2, stone=(3, 5), to=(3, 3)))
    assert after["arrivals"] == 0 and not after["stones"][0]["locked"] and after["coins"] == [5, 5]


def test_r41a_trading_gifts_from_a_non_negative_balance():
    ruleset, state, _ = position(["AB.."], dice=(2,), coins=[3, -2], options={"trading": True})
    gifts = {(m.to, m.coins) for m in ruleset.legal_moves(state, A) if isinstance(m, Gift)}
    assert gifts == {(B, 1), (B, 2), (B, 3)}
    after, events = ruleset.apply(state, A, Gift(to=B, coins=3))
    assert after["coins"] == [0, 1] and after["phase"] == "move" and after["current"] == A
    assert "{seat0} gives 3 coins to {seat1}: a gift" in texts(events)
    assert not [m for m in ruleset.legal_moves(after, A) if isinstance(m, Gift)]  # balance 0
    with pytest.raises(IllegalMove, match="R-41a: a gift of 1 coin would put you in debt"):
        ruleset.apply(after, A, Gift(to=B, coins=1))
    with pytest.raises(IllegalMove, match="R-41a: seat 1 is not another player"):
        ruleset.apply(state, A, Gift(to=A, coins=1))


def test_r41a_no_gifts_without_the_trading_variant():
    ruleset, state, _ = position(["AB.."], dice=(2,))
    assert not [m for m in ruleset.legal_moves(state, A) if isinstance(m, Gift)]
    with pytest.raises(IllegalMove, match="R-41a: coin gifts need the trading variant"):
        ruleset.apply(state, A, Gift(to=B, coins=1))


def test_r41b_asking_price_paid_on_accepting_never_into_debt():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 1}, owners={"A": B}, coins=[5, 3], options={"trading": True})
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert len([m for m in ruleset.legal_moves(state, A) if isinstance(m, Offer)]) == 6 * 10
    asking_4, _ = ruleset.apply(state, A, Offer(claim=3, price=4))
    assert Accept() not in ruleset.legal_moves(asking_4, B)  # 3 coins cannot pay 4
    with pytest.raises(IllegalMove, match="R-41b"):
        ruleset.apply(asking_4, B, Accept())
    asking_3, _ = ruleset.apply(state, A, Offer(claim=3, price=3))
    after, _ = ruleset.apply(asking_3, B, Accept())
    assert after["coins"] == [6 + 3, 0] and after["hands"][B] == [{"id": "card-01", "value": 1}]


def test_r41b_no_asking_price_without_trading():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 1}, owners={"A": B})
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    with pytest.raises(IllegalMove, match="R-41b"):
        ruleset.apply(state, A, Offer(claim=None, price=2))


def test_r42_voluntary_pass_pays_for_the_unused_dice():
    ruleset, state, _ = position(["AB..", "...."], dice=(2, 1, 6), options={"voluntary_pass": True})
    assert EndTurn() in ruleset.legal_moves(state, A)
    after, events = ruleset.apply(state, A, EndTurn())
    assert after["coins"] == [2, 5] and after["current"] == B and after["phase"] == "roll"


def test_r42_players_lay_the_other_cards_face_down_in_turn():
    state = new_game(3, seed=5, card_placement="players")
    start = state["start_player"]
    assert state["phase"] == "cards" and len(state["cards"]) == 9 and len(state["card_pool"]) == 9
    legal = {tuple(m.cell) for m in STANDARD.legal_moves(state, start)}
    assert legal == set(BOARD.sand_cells)  # every sand cell; never water, start, goal or blocked
    for number in range(9):
        seat = (start + number) % 3
        assert STANDARD.to_act(state) == {seat}
        state, events = act(state, PlaceCard(cell=BOARD.sand_cells[number]))
        assert all(event.seats is None and "worth" not in event.text for event in events)
    assert state["phase"] == "placement" and state["current"] == start and len(state["cards"]) == 18
    with pytest.raises(IllegalMove, match="R-42"):
        act(state, PlaceCard(cell=BOARD.sand_cells[20]))


def test_turn_limit_ends_and_scores_the_game():
    ruleset, state, _ = position(["AB.."], dice=(2,), turn=150, cards={(0, 2): 2})
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert after["phase"] == "over" and ruleset.result(after).reason == "the turn limit was reached (A-30)"
    assert any(text.startswith("Game over: the turn limit of 150 turns was reached.") for text in texts(events))
    assert ruleset.result(after).scores == [6 + 2, 5]
    ruleset, state, _ = position(["AB.."], dice=(2,), turn=149)
    assert ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))[0]["phase"] == "roll"


def test_moves_read_well_in_a_log():
    assert str(UseDie(die=3, stone=(17, 12), to=(14, 12))) == "3: N18 -> N15"
    assert str(Offer(claim=2, price=3)) == "offer the card (claim +2, asking 3)"
    assert str(Gift(to=C, coins=1)) == "give 1 coin to seat 3"


def test_a_finished_game_takes_no_moves():
    ruleset, state, _ = position(["AB"], phase="roll", dice=())
    over, _ = ruleset.apply(state, A, Roll())
    assert ruleset.legal_moves(over, A) == []
    with pytest.raises(IllegalMove, match="R-32: the game is over"):
        ruleset.apply(over, A, Roll())
    assert public(ruleset.apply(state, A, Roll())[1])[-1].startswith("Game over")

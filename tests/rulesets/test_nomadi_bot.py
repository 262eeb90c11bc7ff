"""Nomadi's bot hooks: ``determinize`` (a state behind one seat's view, ``information.py``) and
``evaluate`` (``evaluation.py``).  What every ruleset's ``determinize`` must do (the seat's view
kept, legal moves accepted, one world per ``rng`` seed) is checked by
``tests/rulesets/test_conformance.py``; here, what is Nomadi's."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from app.bots.players import IsmctsBot, RandomBot, SearchBot
from app.rulesets.base import Rng
from app.rulesets.nomadi import evaluation
from app.rulesets.nomadi.components import CARD_VALUES
from app.rulesets.nomadi.evaluation import WEIGHTS, card_worth, position_value
from app.rulesets.nomadi.movement import caravan
from app.rulesets.nomadi.moves import Accept, Decline, Gift, Offer, PlaceStone, UseDie
from app.rulesets.nomadi.options import Options
from tests.rulesets.nomadi_fixtures import STANDARD, A, B, position

GAMES = [  # (players, options, seed): between them every phase and every option that changes the state
    (2, {"turn_limit": 40}, 21),
    (3, {"turn_limit": 24, "hidden_coins": True, "trading": True, "card_placement": "players"}, 22),
    (5, {"turn_limit": 20, "short_game": True, "voluntary_pass": True}, 23),
    (4, {"turn_limit": 20, "first_player": "host", "trading": True}, 24),
]


def random_game(n_players: int, options: dict, seed: int) -> list[dict]:
    """Every state of one game of uniformly random moves (gifts left out), the final one included."""
    chooser = random.Random(seed)
    state = STANDARD.setup(n_players, Options(**options), seed)
    states = [state]
    while STANDARD.to_act(state):
        seat = min(STANDARD.to_act(state))
        legal = [move for move in STANDARD.legal_moves(state, seat) if move.type != "gift"] or STANDARD.legal_moves(state, seat)
        state, _ = STANDARD.apply(state, seat, chooser.choice(legal))
        states.append(state)
    return states


@pytest.fixture(scope="module")
def games() -> list[list[dict]]:
    return [random_game(*game) for game in GAMES]


def sample_points(states: list[dict]) -> list[dict]:
    """Every 4th position, every offer (claim and answer), the first of each phase and the last three."""
    picked = set(range(0, len(states), 4)) | set(range(max(len(states) - 3, 0), len(states)))
    picked |= {i for i, state in enumerate(states) if state["offer"] is not None}
    picked |= {i for i in range(1, len(states)) if states[i]["phase"] != states[i - 1]["phase"]}
    return [states[i] for i in sorted(picked)]


def values(cards) -> list[int]:
    return sorted(card["value"] for card in cards)


def all_cards(state: dict) -> list[dict]:
    cards = [*state["cards"].values(), *state["card_pool"], *(card for hand in state["hands"] for card in hand)]
    if state["offer"] is not None:
        cards.append(state["offer"]["card"])
    return cards


def all_values(state: dict) -> list[int]:
    return values(all_cards(state))


# -- determinize ------------------------------------------------------------------------------


def test_determinize_deals_exactly_the_eighteen_cards_and_keeps_what_the_seat_knows(games):
    phases = set()
    for states in games:
        for state in sample_points(states):
            phases.add(state["phase"])
            for seat in range(state["players"]):
                world = STANDARD.determinize(STANDARD.view(state, seat), seat, Rng(seat + 1))
                assert all_values(world) == sorted(CARD_VALUES)
                assert world["hands"][seat] == state["hands"][seat]
                assert [len(hand) for hand in world["hands"]] == [len(hand) for hand in state["hands"]]
                ids = [card["id"] for card in all_cards(world)]
                assert len(ids) == len(set(ids))
                if state["offer"] is not None and seat == state["current"]:  # the mover inspected it
                    assert world["offer"]["card"] == state["offer"]["card"]
                if state["phase"] == "over":
                    assert [values(hand) for hand in world["hands"]] == [values(hand) for hand in state["hands"]]
                for key in ("stones", "dice", "used", "history", "arrivals", "crossed", "all_crossed", "turn"):
                    assert world[key] == state[key]
                if not state["options"]["hidden_coins"] or state["phase"] == "over":
                    assert world["coins"] == state["coins"]
    assert phases == {"cards", "placement", "roll", "move", "claim", "answer", "over"}


def mid_game(seed: int = 5, **options) -> dict:
    """A 2-player game of random moves until seat 1 holds three cards and a few lie on the board."""
    chooser = random.Random(seed)
    state = STANDARD.setup(2, Options(**options), seed)
    while len(state["hands"][1]) < 3 or state["phase"] != "roll":
        seat = min(STANDARD.to_act(state))
        state, _ = STANDARD.apply(state, seat, chooser.choice(STANDARD.legal_moves(state, seat)))
    return state


def test_determinize_samples_hidden_values_instead_of_copying_them():
    state = mid_game()
    view = STANDARD.view(state, A)
    worlds = [STANDARD.determinize(view, A, Rng(seed)) for seed in range(60)]
    assert len({tuple(values(world["hands"][B])) for world in worlds}) > 1, "other rng, other hidden hands"
    assert len({tuple(card["value"] for card in world["cards"].values()) for world in worlds}) > 1
    assert all(world["rng"] != state["rng"] for world in worlds)
    assert all(card.get("sampled") for world in worlds for card in [*world["cards"].values(), *world["hands"][B]])
    assert not any(card.get("sampled") for world in worlds for card in world["hands"][A])
    # the draws follow the cards seat A has not seen: the 18 minus A's own
    unseen = Counter(CARD_VALUES)
    unseen.subtract(card["value"] for card in state["hands"][A])
    expected = sum(value * count for value, count in unseen.items()) / sum(unseen.values())
    drawn = [card["value"] for world in worlds for card in world["hands"][B]]
    assert statistics.mean(drawn) == pytest.approx(expected, abs=0.35)
    assert all(card_worth(world) == pytest.approx(expected) for world in worlds)


def test_determinize_samples_hidden_coins_and_keeps_the_seats_own():
    state = mid_game(hidden_coins=True)
    view = STANDARD.view(state, A)
    assert view["players"][B]["coins"] is None
    worlds = [STANDARD.determinize(view, A, Rng(seed)) for seed in range(20)]
    assert all(world["coins"][A] == state["coins"][A] for world in worlds)
    assert len({world["coins"][B] for world in worlds}) > 1


def test_determinize_samples_the_offered_card_for_the_owner_only():
    ruleset, state, _ = position([".AB.."], dice=(2, 2), cards={(0, 3): -2}, owners={"A": B})
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 1), to=(0, 3)))
    state, _ = ruleset.apply(state, A, Offer(claim=3))
    mover = [ruleset.determinize(ruleset.view(state, A), A, Rng(seed)) for seed in range(20)]
    owner = [ruleset.determinize(ruleset.view(state, B), B, Rng(seed)) for seed in range(20)]
    assert {world["offer"]["card"]["value"] for world in mover} == {-2}
    assert len({world["offer"]["card"]["value"] for world in owner}) > 1
    assert all(world["offer"]["claim"] == 3 and world["offer"]["stone"] == state["offer"]["stone"] for world in owner)


# -- evaluate ---------------------------------------------------------------------------------

SMALL = ["gg...",
         "gg...",
         "..AB.",
         "...ss",
         "...ss"]
"""Goal 2x2 top left, start 2x2 bottom right.  Steps to the goal (N4): A (2,2) 2, B (2,3) 3; the
start cells 4, 5, 5, 6, so progress counts from 5."""


def small_position(**flags):
    ruleset, state, _ = position(SMALL, owners={"B": B}, **flags)
    state["hands"] = [[{"id": "card-01", "value": 3}], [{"id": "card-02", "value": -1}]]
    return ruleset, state


def test_evaluate_hand_worked_position():
    ruleset, state = small_position(phase="roll", dice=())  # seat 0 (A) is about to roll
    w = WEIGHTS
    assert (w.goal_decay, w.tempo, w.own_progress, w.caravan_progress, w.next_turn_risk) == (0.85, 2.0, 0.15, 0.1, 0.7)
    # A: 5 coins + 3 (card) + progress 0.15 * (5 - 2).  A's stone is the nearest, counted 2 steps
    # nearer for the seat to roll (at least 1): 8 * 0.85 ** 1; no die value puts it into the goal
    # now (a 1 to (1, 1) would cut the caravan).  Of the values 1-6 only 1 and 2 can move a
    # stone: four idle values, 0.7 each.
    a_value = 5 + 3 + 0.15 * 3 + 8 * 0.85 - 0.7 * 4
    # B: 5 coins - 1 (card) + 0.15 * (5 - 3); the second reward: 6 * 0.85 ** 3.
    b_value = 5 - 1 + 0.15 * 2 + 6 * 0.85 ** 3
    caravan = 0.1 * ((5 - 2) + (5 - 3))  # every stone's progress, for the evaluating seat
    assert a_value == pytest.approx(12.45) and b_value == pytest.approx(7.98475)
    assert ruleset.evaluate(state, A) == pytest.approx(a_value + caravan - b_value)
    assert ruleset.evaluate(state, B) == pytest.approx(b_value + caravan - a_value)


def test_evaluate_counts_a_goal_entry_in_hand_idle_dice_and_the_best_next_die():
    # a 2 takes A (seat 0) over B (seat 1) into the goal cell (1, 0); the 6 cannot move anything
    ruleset, state, _ = position(["gg...", "gBA..", "....."], dice=(2, 6), owners={"B": B})
    # no start cells on this board: progress counts from 0; A is 2 steps out, B 1.  A's stone
    # can go in with the 2 in hand: it counts as WEIGHTS.entry (0.5) steps away; the 6 is idle.
    a_value = 5 + 0.15 * (0 - 2) + 8 * 0.85 ** 0.5 - 0.6 * 1
    b_value = 5 + 0.15 * (0 - 1) + 6 * 0.85 ** 1
    caravan = 0.1 * (-2 - 1)
    assert position_value(ruleset.board, state, A) == pytest.approx(a_value + caravan - b_value)
    assert ruleset.evaluate(state, B) == pytest.approx(b_value + caravan - a_value)  # not B's dice: no look ahead
    # A's evaluation looks one die further: the best of its next moves, which is the entry.  After
    # it A has 5 + 8 - 1 (the idle 6) coins and B is to roll: B's stone can slide into (0, 0) with a
    # 1 (roll_entry: 1 step), and B can use no other value (2-6 idle: 5 * 0.7).
    entered, _ = ruleset.apply(state, A, UseDie(die=2, stone=(1, 2), to=(1, 0)))
    assert entered["phase"] == "roll" and entered["coins"] == [12, 5]
    a_after = 12 + 0.15 * 0 + 0.1 * (0 - 1)
    b_after = 5 + 0.15 * (0 - 1) + 6 * 0.85 ** 1 - 0.7 * 5
    assert ruleset.evaluate(entered, A) == pytest.approx(a_after - b_after) == pytest.approx(5.45)
    assert ruleset.evaluate(state, A) == pytest.approx(5.45)


def test_evaluate_finished_game_is_the_final_margin_plus_a_win_bonus():
    ruleset, state = small_position()
    state.update(phase="over", current=None, end_reason="test")
    assert ruleset.result(state).scores == [8, 4]
    assert ruleset.evaluate(state, A) == 4 + WEIGHTS.win_bonus
    assert ruleset.evaluate(state, B) == -4 - WEIGHTS.win_bonus


def test_evaluate_values_a_sampled_card_at_the_mean_of_the_unseen_cards():
    ruleset, state = small_position()
    state["hands"][B] = [{"id": "card-02", "value": -2, "sampled": True}]
    state["cards"] = {"4,0": {"id": "card-03", "value": 3, "sampled": True}}
    plain = dict(state, hands=[state["hands"][A], []])
    assert card_worth(state) == 0.5
    assert ruleset.evaluate(plain, A) - ruleset.evaluate(state, A) == pytest.approx(0.5)


def test_evaluate_reads_no_drawn_value_so_sampled_states_share_it(games):
    """The caches of a search (evaluation.Search) rest on this: swapping two drawn values changes
    no evaluation."""
    checked = 0
    for states in games:
        for state in sample_points(states)[::5]:
            for seat in STANDARD.to_act(state):
                world = STANDARD.determinize(STANDARD.view(state, seat), seat, Rng(3))
                drawn = [card for card in all_cards(world) if card.get("sampled")]
                if len({card["value"] for card in drawn}) < 2:
                    continue
                before = evaluation.Search(STANDARD).evaluate(world, seat)  # a search with nothing cached
                low, high = min(drawn, key=lambda card: card["value"]), max(drawn, key=lambda card: card["value"])
                low["value"], high["value"] = high["value"], low["value"]
                assert evaluation.Search(STANDARD).evaluate(world, seat) == pytest.approx(before)
                checked += 1
    assert checked > 20


def test_jumps_agree_with_the_move_generator(games):
    for states in games:
        for state in sample_points(states)[::3]:
            position = caravan(state, STANDARD.board)
            jumps = evaluation.Jumps(position)
            for value in range(1, 7):
                assert jumps.can_use(value) == position.can_use(value)
                for cell in position.stones:
                    assert jumps.reachable(cell, value) == position.reachable(cell, value)


# -- the default bot --------------------------------------------------------------------------


def choose(ruleset, state: dict, seat: int, seed: int = 0):
    return SearchBot().choose(ruleset, ruleset.view(state, seat), ruleset.legal_moves(state, seat), seat, Rng(seed))


def test_default_bot_puts_its_own_stone_into_the_goal():
    # a 2 takes C (seat 0) over A (seat 1) into the goal; D, the other seat-1 stone next to the
    # goal, could go in with the 1 for half the reward
    ruleset, state, _ = position(["gg....", "ggAC..", "..DEF.", "......"], dice=(2, 1, 3), owners={"A": B, "D": B, "F": B})
    assert UseDie(die=1, stone=(2, 2), to=(1, 1)) in ruleset.legal_moves(state, A)
    for seed in range(3):
        assert choose(ruleset, state, A, seed) == UseDie(die=2, stone=(1, 3), to=(1, 1))


def test_default_bot_gives_no_coins_away_in_the_trading_variant():
    ruleset, state, _ = position(["gg....", "ggAC..", "..DEF.", "......"], dice=(2, 1, 3), owners={"A": B, "D": B, "F": B},
                                 options={"trading": True}, coins=[9, 5])
    assert Gift(to=B, coins=9) in ruleset.legal_moves(state, A)
    for seed in range(3):
        assert choose(ruleset, state, A, seed) == UseDie(die=2, stone=(1, 3), to=(1, 1))
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(1, 3), to=(1, 1)))
    for seed in range(3):  # the next die too: a gift would only put off the end of the turn
        assert choose(ruleset, after, A, seed).type == "move"


def test_default_bot_places_its_stones_nearest_the_goal_first():
    state = STANDARD.setup(2, Options(first_player="host"), 1)
    move = choose(STANDARD, state, A)
    assert move == PlaceStone(cell=(16, 12))  # the start cell nearest the goal


def test_default_bot_answers_offers_by_the_worth_of_an_unseen_card():
    positive = [{"id": f"card-{n:02d}", "value": v} for n, v in enumerate([1, 2, 3] * 4, start=2)]
    rest = [{"id": f"card-{n:02d}", "value": v} for n, v in enumerate([-1, -1, -1, -2, -2], start=14)]
    # as in a game, all 18 cards are somewhere: the offered one, and A holds the other 17
    ruleset, state, _ = position([".AB.."], dice=(2, 2), cards={(0, 3): -2}, owners={"A": B}, hands=[positive + rest, []])
    state, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 1), to=(0, 3)))
    assert choose(ruleset, state, A) == Offer(claim=None)  # claims bind nobody: the bot makes none
    offered, _ = ruleset.apply(state, A, Offer(claim=-2))
    # B has seen no card: an unseen card is worth 15/18 on average, so B takes it (it is a -2)
    assert all(choose(ruleset, offered, B, seed) == Accept() for seed in range(3))
    # B holding all twelve positive cards: only the six negative ones are unseen
    holding = dict(offered, hands=[rest, positive])
    assert all(choose(ruleset, holding, B, seed) == Decline() for seed in range(3))


def test_default_bot_beats_random_in_a_short_match():
    """Two short games on the standard board, one from each seat (the full match is bench/bot_strength.py)."""
    for game in range(2):
        state = STANDARD.setup(2, Options(turn_limit=16), 300 + game)
        bots = [SearchBot(), RandomBot()] if game == 0 else [RandomBot(), SearchBot()]
        ply = 0
        while STANDARD.to_act(state):
            seat = min(STANDARD.to_act(state))
            view, legal = STANDARD.view(state, seat), STANDARD.legal_moves(state, seat)
            state, _ = STANDARD.apply(state, seat, bots[seat].choose(STANDARD, view, legal, seat, Rng(ply)))
            ply += 1
        scores = STANDARD.result(state).scores
        assert scores[game] > scores[1 - game]


def mid_turn(seed: int, dice_left: tuple[int, ...] = (3, 4, 5)) -> tuple[dict, int]:
    """A 2-player game of random moves until the mover holds ``dice_left`` unused dice (a count
    among them) and has two legal moves or more; with the mover."""
    chooser = random.Random(seed)
    state = STANDARD.setup(2, Options(), seed)
    while True:
        seat = min(STANDARD.to_act(state))
        legal = STANDARD.legal_moves(state, seat)
        if state["phase"] == "move" and len(state["used"]) - sum(state["used"]) in dice_left and len(legal) > 1:
            return state, seat
        state, _ = STANDARD.apply(state, seat, chooser.choice(legal))


def test_the_strong_bot_plans_the_rest_of_its_turn_instead_of_searching():
    # bot_turn_width: in the middle of a turn the strong bot plays the first move of its plan for
    # the dice still in hand, from the seat's view only; the same move from a state that differs
    # in what the seat cannot see (the cards' values, the other seat's hand)
    assert STANDARD.bot_turn_width == 4
    for seed in (3, 8):
        real, seat = mid_turn(seed)
        view = STANDARD.view(real, seat)
        other = STANDARD.determinize(view, seat, Rng(99))
        assert other is not None and other != real and STANDARD.view(other, seat) == view
        chosen = []
        for state in (real, other):
            bot = IsmctsBot(seconds=None, simulations=6)
            legal = STANDARD.legal_moves(state, seat)
            move = bot.choose(STANDARD, STANDARD.view(state, seat), legal, seat, Rng(5))
            assert move in legal and bot.stats.simulations == 0  # planned, not searched
            chosen.append(move)
        assert chosen[0] == chosen[1]


def test_the_strong_bot_searches_the_last_die_of_its_turn():
    # with one die left nothing of the turn is left to plan: the tree search decides
    real, seat = mid_turn(3, dice_left=(1,))
    bot = IsmctsBot(seconds=None, simulations=6)
    legal = STANDARD.legal_moves(real, seat)
    assert len(legal) > 1
    bot.choose(STANDARD, STANDARD.view(real, seat), legal, seat, Rng(5))
    assert bot.stats.simulations == 6


def test_the_strong_bot_gives_no_coins_away_when_gifts_could_go_on_all_turn():
    # the trading variant: a gift leaves the mover to act with the same dice, so a plan could go on
    # without end; it stops at the bot's depth, and a gift is never the plan's first move
    ruleset, state, _ = position(["gg....", "ggAC..", "..DEF.", "......"], dice=(2, 1, 3), owners={"A": B, "D": B, "F": B},
                                 options={"trading": True}, coins=[9, 5])
    for seed in range(3):
        bot = IsmctsBot(seconds=None, simulations=6)
        move = bot.choose(ruleset, ruleset.view(state, A), ruleset.legal_moves(state, A), A, Rng(seed))
        assert move == UseDie(die=2, stone=(1, 3), to=(1, 1))

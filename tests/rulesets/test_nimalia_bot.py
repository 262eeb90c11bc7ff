"""Nimalia's bot hooks: ``determinize`` (a state behind one seat's view) and ``evaluate``.  What
every ruleset's ``determinize`` must do (the seat's view kept, legal moves accepted, one world per
``rng`` seed) is checked by ``tests/rulesets/test_conformance.py``; here, what is Nimalia's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.bots.players import RandomBot, SearchBot
from app.rulesets.base import Rng
from app.rulesets.nimalia import evaluation
from app.rulesets.nimalia.evaluation import TIE_BREAK, WIN_BONUS
from app.rulesets.nimalia.cards import card_token
from app.rulesets.nimalia.moves import Place
from app.rulesets.nimalia.objectives import OBJECTIVES, components
from app.rulesets.nimalia.options import Options
from app.rulesets.nimalia.placement import reserve_grid
from tests.rulesets.nimalia_fixtures import RULES, new_state

GAMES = [  # (players, options, seed)
    (2, {}, 21),
    (3, {"first_game": True}, 22),
    (4, {"goal_level": "difficult"}, 23),
]


def random_game(n_players: int, options: dict, seed: int) -> list[dict]:
    """Every state of one game of uniformly random moves, seats of a step in random order."""
    chooser = random.Random(seed)
    state = RULES.setup(n_players, Options(**options), seed)
    states = [state]
    while RULES.to_act(state):
        seat = chooser.choice(sorted(RULES.to_act(state)))
        state, _ = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
        states.append(state)
    return states


@pytest.fixture(scope="module")
def games() -> list[list[dict]]:
    return [random_game(*game) for game in GAMES]


def sample_points(states: list[dict]) -> list[dict]:
    """Every 4th position plus the last three (the final reveal and the game over)."""
    picked = set(range(0, len(states), 4)) | set(range(max(len(states) - 3, 0), len(states)))
    return [states[i] for i in sorted(picked)]


def all_cards(state: dict) -> list[int]:
    """Every card of the game: undealt, in hand, chosen and waiting, placed."""
    cards = list(state["deck"])
    cards += [card for hand in state["hands"] for card in hand]
    cards += [pick["card"] for pick in state["picks"] if pick]
    cards += [p["card"] for reserve in state["placements"] for p in reserve]
    return cards


# -- determinize ------------------------------------------------------------------------------


def test_a_determinized_world_plays_on_to_the_end(games):
    """The sampled hands, waiting choices and deck are a game that goes on: every seat can play
    random moves in it until round 5 is scored."""
    chooser = random.Random(3)
    for states in games:
        for state in states[1::7]:
            seat = chooser.randrange(state["players"])
            world = RULES.determinize(RULES.view(state, seat), seat, Rng(chooser.randrange(1000)))
            while RULES.to_act(world):
                acting = chooser.choice(sorted(RULES.to_act(world)))
                world, _ = RULES.apply(world, acting, chooser.choice(RULES.legal_moves(world, acting)))
            assert RULES.result(world) is not None
            assert len(world["history"]) == 5


def test_determinize_keeps_what_the_seat_sees_exactly(games):
    for states in games:
        for state in sample_points(states):
            for seat in range(state["players"]):
                world = RULES.determinize(RULES.view(state, seat), seat, Rng(seat + 5))
                assert world["hands"][seat] == sorted(state["hands"][seat])
                assert world["picks"][seat] == state["picks"][seat]
                assert world["placements"] == state["placements"]
                assert world["history"] == state["history"]
                assert world["scores"] == state["scores"]
                assert world["objectives"] == state["objectives"]
                assert [len(h) for h in world["hands"]] == [len(h) for h in state["hands"]]
                assert [p is None for p in world["picks"]] == [p is None for p in state["picks"]]
                assert len(world["deck"]) == len(state["deck"])
                cards = all_cards(world)
                assert len(cards) == len(set(cards)) == 15 * state["players"]
                assert set(cards) <= set(range(1, 61))


def chosen_position() -> dict:
    """Two players, round 1 step 1: seat 0 has chosen (hidden), seat 1 has not."""
    state = new_state(2, seed=31)
    state, _ = RULES.apply(state, 0, RULES.legal_moves(state, 0)[5])
    return state


def test_determinize_samples_hidden_cards_instead_of_copying_them():
    state = chosen_position()
    view = RULES.view(state, 1)
    worlds = [RULES.determinize(view, 1, Rng(seed)) for seed in range(40)]
    hands = {tuple(world["hands"][0]) for world in worlds}
    decks = {tuple(world["deck"]) for world in worlds}
    picks = {world["picks"][0]["card"] for world in worlds}
    assert len(hands) > 30 and len(decks) == 40 and len(picks) > 15
    assert sum(hand == tuple(sorted(state["hands"][0])) for hand in hands) <= 1
    assert {world["rng"] for world in worlds} != {state["rng"]}
    # never a card the seat can see (its own hand), always one of the 60
    own = set(state["hands"][1])
    for world in worlds:
        hidden = set(world["hands"][0]) | set(world["deck"]) | {world["picks"][0]["card"]}
        assert not hidden & own
    # the other seat's waiting choice is a legal placement on its (empty) reserve
    assert all(world["picks"][0]["at"] == [0, 0] for world in worlds)
    # the unseen cards are drawn uniformly: each of the 57 shows up in someone's sampled hand
    seen = Counter(card for world in worlds for card in world["hands"][0])
    assert len(seen) > 40


def test_determinize_samples_a_legal_position_for_a_hidden_choice_on_a_reserve():
    state = new_state(2, seed=32)
    chooser = random.Random(1)
    while len(state["placements"][0]) < 4:  # a few cards down, then seat 0 chooses again
        for seat in (0, 1):
            state, _ = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
    state, _ = RULES.apply(state, 0, chooser.choice(RULES.legal_moves(state, 0)))
    spots = set()
    for seed in range(30):
        world = RULES.determinize(RULES.view(state, 1), 1, Rng(seed))
        pick = world["picks"][0]
        spots.add((pick["rotation"], tuple(pick["at"])))
        # what seat 0 would have had to choose from: a legal move in the rebuilt position
        legal = {(m.rotation, tuple(m.at)) for m in RULES.legal_moves(dict(world, picks=[None, None]), 0)}
        assert (pick["rotation"], tuple(pick["at"])) in legal
    assert len(spots) > 5


def test_determinize_infers_the_first_game_option_from_the_objectives():
    for first_game in (False, True):
        state = new_state(2, seed=33, first_game=first_game)
        world = RULES.determinize(RULES.view(state, 0), 0, Rng(1))
        assert world["options"]["first_game"] is first_game
        Options.model_validate(world["options"])


# -- evaluate ---------------------------------------------------------------------------------

A, B = 0, 1
FIRST_SET = {"blue": 5, "green": 19, "yellow": 4, "red": 16}


def evaluation_position(objectives: dict[str, int] = FIRST_SET, scores: tuple[int, int] = (3, 1)) -> dict:
    """Two players in round 2, step 1 (round 1 scored), objectives O5 / O19 / O4 / O16 by default.

    A: card 4 at (0,0), card 22 at (1,1)     B: card 1 at (0,0)
        Be Gi .                                 Cr Li
        Go Cr Fl                                Pa Oj\\
        .  Pa Li
    A holds cards 14, 50, 51; B holds 40, 41, 42.
    """
    state = new_state(2, seed=40)
    state["hands"] = [[14, 50, 51], [40, 41, 42]]
    used = {4, 22, 1, 14, 50, 51, 40, 41, 42}
    state["deck"] = [c for c in range(1, 61) if c not in used][:18]
    state["objectives"] = dict(objectives)
    state["round"], state["step"] = 2, 1
    state["placements"] = [
        [{"card": 4, "rotation": 0, "at": [0, 0]}, {"card": 22, "rotation": 0, "at": [1, 1]}],
        [{"card": 1, "rotation": 0, "at": [0, 0]}],
    ]
    state["scores"] = list(scores)
    state["history"] = [{"round": 1, "steps": [], "before": [0, 0], "after": list(scores)}]
    return state


def test_evaluate_hand_worked_position():
    state = evaluation_position()
    grids = [reserve_grid(state, seat) for seat in (A, B)]
    # A: largest savannah 1 (Gi and Li apart) -> O5 2; no penguin -> O19 0; the gorilla at (1,0)
    # touches the crocodile -> O4 2; no river -> O16 0 (not ranked).
    # B: largest savannah 1 -> O5 2; O19 0; no gorilla -> O4 0; river of 1 -> O16 5 (first).
    assert [OBJECTIVES[o].score(grids) for o in (5, 19, 4, 16)] == [[2, 2], [0, 0], [2, 0], [0, 5]]
    # rounds 2-5 are still to score: blue (O5) twice (3, 5), green (O19) twice (2, 4),
    # yellow (O4) three times (2, 4, 5), red (O16) three times (3, 4, 5).
    a_value = 3 + 2 * 2 + 2 * 0 + 3 * 2 + 3 * 0  # 13
    b_value = 1 + 2 * 2 + 2 * 0 + 3 * 0 + 3 * 5  # 20
    # tie-break share: both largest populations are 1
    assert RULES.evaluate(state, A) == pytest.approx((a_value + TIE_BREAK) - (b_value + TIE_BREAK)) == -7
    assert RULES.evaluate(state, B) == pytest.approx(7)


def test_evaluate_applies_the_zero_floor_round_by_round():
    # green O8 instead of O19: A's polar bear at (0,0) is alone -> -1 each time green scores.
    state = evaluation_position({"blue": 5, "green": 8, "yellow": 4, "red": 16}, scores=(0, 0))
    # A from 0: R2 green -1 -> 0 (floor), yellow +2 -> 2; R3 blue +2 -> 4, red 0 -> 4;
    # R4 green -1 -> 3, yellow +2 -> 5, red 0 -> 5; R5 blue +2 -> 7, red 0 -> 7, yellow +2 -> 9.
    # B from 0: R2 0, 0; R3 +2, +5 -> 7; R4 0, 0, +5 -> 12; R5 +2, +5, 0 -> 19.
    assert RULES.evaluate(state, A) == pytest.approx(9 - 19)


def test_evaluate_only_counts_the_rounds_left():
    state = evaluation_position()
    state["round"] = 5
    state["history"] = [{"round": r, "steps": [], "before": [3, 1], "after": [3, 1]} for r in range(1, 5)]
    # round 5 scores blue, red and yellow once: A 3 + 2 + 0 + 2 = 7; B 1 + 2 + 5 + 0 = 8
    assert RULES.evaluate(state, A) == pytest.approx(7 - 8)


def test_evaluate_counts_a_waiting_choice_as_placed():
    state = evaluation_position()
    before = RULES.evaluate(state, A)
    assert before == pytest.approx(-7)
    # card 14 (Li Gi / Be Pa) turned 270 is Gi Pa / Li Be; at (1,2) it covers A's Fl and Li:
    #     Be Gi .  .
    #     Go Cr Gi Pa
    #     .  Pa Li Be
    # the new Gi above the Li makes a savannah area of 2: O5 4 instead of 2, in rounds 3 and 5
    # (+4); the gorilla still touches the crocodile; bear, giraffe and panda now number 2 each.
    after, _ = RULES.apply(state, A, Place(card=card_token(14), rotation=270, at=(1, 2)))
    assert after["picks"][A] is not None and after["placements"][A] == state["placements"][A]
    assert RULES.evaluate(after, A) == pytest.approx(before + 4 + TIE_BREAK * (2 - 1))


def test_evaluate_finished_game_is_the_final_margin_plus_a_win_bonus():
    state = evaluation_position()
    state["history"] = [{"round": r, "steps": [], "before": [0, 0], "after": [12, 20]} for r in range(1, 6)]
    state["scores"] = [12, 20]
    state["over"], state["round"], state["step"] = True, 5, 3
    state["hands"], state["deck"] = [[], []], []
    assert RULES.result(state).scores == [12, 20]
    assert RULES.evaluate(state, A) == -8 - WIN_BONUS
    assert RULES.evaluate(state, B) == 8 + WIN_BONUS


def test_a_reserve_being_laid_is_never_handed_to_another_search_half_laid(monkeypatch):
    """Bots search in worker threads (``asyncio.to_thread``) and share the cache of revealed
    reserves: a search that asks for a reserve while another is still laying its cards (here
    interleaved at the first card, deterministically) gets the whole reserve, never a part."""
    state = evaluation_position()
    placements = state["placements"][A]
    asked_meanwhile: list[dict] = []
    lay_card = evaluation.lay_card

    def lay_card_while_another_search_asks(grid, *card):
        if not asked_meanwhile:
            asked_meanwhile.append({})
            asked_meanwhile.append(dict(evaluation.reserve(placements)))
        lay_card(grid, *card)

    evaluation._laid_grid.cache_clear()
    monkeypatch.setattr(evaluation, "lay_card", lay_card_while_another_search_asks)
    whole = evaluation.reserve(placements)
    assert whole == reserve_grid(state, A) and len(whole) == 7
    assert asked_meanwhile[1] == whole
    evaluation._laid_grid.cache_clear()


# -- the default bot --------------------------------------------------------------------------


def savannah_position() -> dict:
    """Round 1, step 3, two players, objectives O5 / O19 / O4 / O16.

    A's reserve (card 21 at (0,0), card 35 at (1,1))      A holds card 14: Li Gi / Be Pa
        Li Gi .
        Fl Cr Be
        .  Pa Cr
    No gorilla, penguin or otter is in play for A, so only O5 (largest savannah, scoring three
    times) depends on where card 14 goes: its Li Gi pair next to or on top of the Li Gi row
    makes an area of 4.
    """
    state = new_state(2, seed=41)
    state["objectives"] = dict(FIRST_SET)
    state["round"], state["step"] = 1, 3
    state["placements"] = [
        [{"card": 21, "rotation": 0, "at": [0, 0]}, {"card": 35, "rotation": 0, "at": [1, 1]}],
        [{"card": 3, "rotation": 0, "at": [0, 0]}, {"card": 9, "rotation": 0, "at": [0, 1]}],
    ]
    used = {21, 35, 3, 9, 14, 30}
    state["hands"] = [[14], [30]]
    state["deck"] = [c for c in range(1, 61) if c not in used][:24]
    return state


def largest_savannah_after(state: dict, move: Place) -> int:
    placed = dict(state, placements=[state["placements"][A] + [{"card": move.number, "rotation": move.rotation, "at": list(move.at)}], []])
    grid = reserve_grid(placed, A)
    return max((len(area) for area in components(grid, lambda space: space.terrain == "savannah")), default=0)


def test_default_bot_builds_the_largest_savannah():
    state = savannah_position()
    legal = RULES.legal_moves(state, A)
    sizes = [largest_savannah_after(state, move) for move in legal]
    best = max(sizes)
    assert best == 4 and sizes.count(best) < len(legal) / 4
    for seed in range(3):
        move = SearchBot().choose(RULES, RULES.view(state, A), legal, A, Rng(seed))
        assert largest_savannah_after(state, move) == best
    # and from the other side of the table, with seat 1's choice waiting
    state, _ = RULES.apply(state, B, RULES.legal_moves(state, B)[0])
    move = SearchBot().choose(RULES, RULES.view(state, A), RULES.legal_moves(state, A), A, Rng(7))
    assert largest_savannah_after(state, move) == best


def test_default_bot_beats_random_in_a_short_match():
    """Two games, one from each seat (the full match is bench/bot_strength.py)."""
    for game in range(2):
        state = RULES.setup(2, Options(), 200 + game)
        bots = [SearchBot(), RandomBot()] if game == 0 else [RandomBot(), SearchBot()]
        ply = 0
        while RULES.to_act(state):
            seat = min(RULES.to_act(state))
            view, legal = RULES.view(state, seat), RULES.legal_moves(state, seat)
            state, _ = RULES.apply(state, seat, bots[seat].choose(RULES, view, legal, seat, Rng(ply)))
            ply += 1
        scores = RULES.result(state).scores
        assert scores[game] > scores[1 - game]

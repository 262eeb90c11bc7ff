"""``rules.copy_game`` (and a die move's ``_copy_for_die``): the copy ``apply`` changes shares only what
no move changes in place."""

from __future__ import annotations

import orjson

from app.rulesets.base import copy_state
from app.rulesets.nomadi.bitboard import _POSITIONS, moved, position
from app.rulesets.nomadi.moves import UseDie
from app.rulesets.nomadi.rules import Nomadi, copy_game
from app.rulesets.testing import _text, play_random_game


def a_state_with_everything():
    """A trading game some way in, with a card offered (an ``offer``) if one comes up."""
    rules = Nomadi()
    options = rules.parse_options({"trading": True})
    game = play_random_game(rules, 3, 4, options, check=False, cap=300)
    return rules, game.final


def test_the_copy_equals_the_state_and_changing_it_leaves_the_state_alone():
    rules, state = a_state_with_everything()
    state = copy_state(state)
    state["offer"] = {"stone": 0, "cell": [1, 1], "card": {"id": "card-01", "value": 2}, "owner": 1,
                      "claim": None, "price": 0}
    before = _text(state)
    copied = copy_game(state)
    assert copied == state and _text(copied) == before
    # every change a move makes in place (rules.py, effects.py, bank.py), made to the copy
    copied["stones"][0]["cell"] = [9, 9]
    copied["stones"][1]["departed"] = not copied["stones"][1]["departed"]
    copied["cards"].pop(next(iter(copied["cards"])))
    copied["card_pool"].append({"id": "card-99", "value": 1})
    copied["hands"][0].append({"id": "card-98", "value": 1})
    copied["coins"][0] += 7
    copied["dice"].append(6)
    copied["used"].append(True)
    copied["history"].append([0, 1, [1, 1], [1, 2]])
    copied["offer"]["claim"] = 3
    copied["phase"] = "over"
    assert _text(state) == before


def test_a_move_returns_a_state_that_survives_json_and_leaves_its_input_alone():
    """The conformance kit checks this on every move; here once more for the moves of a long game."""
    rules = Nomadi()
    state = rules.setup(2, rules.parse_options({}), 5)
    game = play_random_game(rules, 2, 5, check=False, cap=400)
    for seat, move in game.moves:
        text = _text(state)
        new, _ = rules.apply(state, seat, move)
        assert _text(state) == text
        assert orjson.loads(orjson.dumps(new)) == new
        state = new


def test_one_shared_position_per_arrangement_of_stones():
    rules, state = a_state_with_everything()
    assert position(state, rules.board) is position(copy_state(state), rules.board)
    moved = copy_state(state)
    stone = next(s for s in moved["stones"] if s["cell"])
    stone["cell"] = [stone["cell"][0] - 1, stone["cell"][1]]
    assert position(moved, rules.board) is not position(state, rules.board)


def test_a_die_move_shares_only_the_stones_it_does_not_move():
    """``rules._copy_for_die``: the moved stone is a new dict, the other stones are the input's."""
    rules = Nomadi()
    game = play_random_game(rules, 2, 7, check=False, cap=120)
    state = rules.setup(2, rules.parse_options({}), 7)
    die_moves = 0
    for seat, move in game.moves:
        new, _ = rules.apply(state, seat, move)
        if isinstance(move, UseDie):
            die_moves += 1
            moved_id = next(i for i, s in enumerate(state["stones"]) if s["cell"] == list(move.stone))
            assert new["stones"][moved_id] is not state["stones"][moved_id]
            assert new["stones"][moved_id]["cell"] == list(move.to)
            assert all(new["stones"][i] is stone for i, stone in enumerate(state["stones"]) if i != moved_id)
        state = new
    assert die_moves > 50


def test_the_position_after_a_die_move_is_the_position_of_its_stones():
    """``bitboard.moved`` (made from the position before, one stone changed) has the masks that
    ``bitboard.position`` reads from every stone of the new state."""
    rules = Nomadi()
    game = play_random_game(rules, 3, 8, check=False, cap=150)
    state = rules.setup(3, rules.parse_options({}), 8)
    for seat, move in game.moves:
        new, _ = rules.apply(state, seat, move)
        if isinstance(move, UseDie) and new["phase"] == "move":
            stone = next(s for s in new["stones"] if s["cell"] == list(move.to))
            made = moved(position(state, rules.board), new["stones"], move.stone, move.to, stone)
            _POSITIONS.clear()
            fresh = position(new, rules.board)
            assert made is not fresh
            assert (made.S, made.departed, made.locked, made.bits) == (fresh.S, fresh.departed, fresh.locked, fresh.bits)
            assert all(made.landings(value) == fresh.landings(value) for value in range(1, 7))
        state = new

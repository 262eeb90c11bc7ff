"""The grouped form of ``legal`` (``app/services/games/legal_forms.py``, docs/api.md "The grouped form of
legal"): written out by hand for small cases, and a round trip over real positions of
every installed ruleset."""

from __future__ import annotations

import random

import orjson
import pytest

from app.rulesets.base import Ruleset
from app.rulesets.wire import dump_moves, sole_move_model
from app.rulesets.nimalia.moves import Place as NimaliaPlace
from app.rulesets.registry import Registry
from app.rulesets.testing import cases
from app.services.games.legal_forms import expand_groups, group_legal, group_moves, legal_in_form
from tests.support.toy_rulesets import Add, ToyRace, ToySealedBids

RULESETS = Registry.discover().all() + [ToyRace(), ToySealedBids()]
PLIES = 12


def as_multiset(moves: list) -> list[bytes]:
    """The moves as sorted JSON texts (keys sorted): equal lists hold the same moves, as many times."""
    return sorted(orjson.dumps(move, option=orjson.OPT_SORT_KEYS) for move in moves)


def test_one_constant_and_one_varying_field_make_same_and_a_column():
    moves = [{"type": "place", "tile": "camel", "cell": 4},
             {"type": "place", "tile": "camel", "cell": 9},
             {"type": "place", "tile": "camel", "cell": 2}]
    assert group_moves(moves) == [
        {"type": "place", "count": 3, "keys": ["tile", "cell"], "same": {"tile": "camel"}, "columns": {"cell": [4, 9, 2]}},
    ]
    assert orjson.dumps(expand_groups(group_moves(moves))) == orjson.dumps(moves)  # the keys in their order too


def test_groups_follow_type_and_keys_in_order_of_first_appearance():
    moves = [{"type": "pass"},
             {"type": "take", "card": [1, "a"]},
             {"type": "take", "card": None, "extra": {"x": 1}},
             {"type": "take", "card": [1, "a"]},
             {"type": "pass"},
             {"type": "take", "extra": {"x": 1}, "card": 7}]  # the keys of the third move, in another order
    assert group_moves(moves) == [
        {"type": "pass", "count": 2, "keys": [], "same": {}, "columns": {}},
        {"type": "take", "count": 2, "keys": ["card"], "same": {"card": [1, "a"]}, "columns": {}},
        {"type": "take", "count": 2, "keys": ["card", "extra"], "same": {"extra": {"x": 1}}, "columns": {"card": [None, 7]}},
    ]
    assert as_multiset(expand_groups(group_moves(moves))) == as_multiset(moves)


def test_values_are_the_same_only_as_json():
    """``1 == 1.0 == True`` in Python, but they are three different JSON values."""
    moves = [{"type": "bid", "amount": 1}, {"type": "bid", "amount": True}, {"type": "bid", "amount": 1.0}]
    assert group_moves(moves) == [{"type": "bid", "count": 3, "keys": ["amount"], "same": {},
                                   "columns": {"amount": [1, True, 1.0]}}]
    nested = [{"type": "bid", "at": [0, 1]}, {"type": "bid", "at": [0, True]}]
    assert group_moves(nested)[0]["columns"] == {"at": [[0, 1], [0, True]]}


def test_no_moves_no_groups_and_a_bad_column_is_refused():
    assert group_moves([]) == [] and expand_groups([]) == []
    with pytest.raises(ValueError):
        expand_groups([{"type": "place", "count": 2, "keys": ["cell"], "same": {}, "columns": {"cell": [1]}}])
    with pytest.raises(ValueError):
        legal_in_form(ToyRace(), [], "bogus")


def test_the_toy_race_moves_from_their_models():
    ruleset = ToyRace()
    assert sole_move_model(ruleset) is Add  # one move class: group_legal reads no move's class
    # Nimalia's only move is a placement; the other games' moves are unions of several classes
    sole = {game.name: sole_move_model(game) for game in Registry.discover().all()}
    assert sole == {"heroes": None, "nimalia": NimaliaPlace, "nomadi": None, "through-the-desert": None}
    state = ruleset.setup(2, None, 1)
    models = ruleset.legal_moves(state, 0)
    assert group_legal(ruleset, models) == [{"type": "add", "count": 3, "keys": ["amount"], "same": {},
                                             "columns": {"amount": [1, 2, 3]}}]
    assert legal_in_form(ruleset, models, "moves") == [{"type": "add", "amount": k} for k in (1, 2, 3)]


def positions(ruleset: Ruleset, seed: int):
    """``(state, seat)`` for each seat to act at the start of each case's game and after up to
    ``PLIES`` random moves."""
    rng = random.Random(seed)
    for case in cases(ruleset)[:2]:
        state = ruleset.setup(case.n_players, ruleset.parse_options(case.options), seed)
        for _ in range(PLIES):
            acting = sorted(ruleset.to_act(state))
            if not acting:
                break
            for seat in acting:
                yield state, seat
            seat = rng.choice(acting)
            state, _ = ruleset.apply(state, seat, rng.choice(ruleset.legal_moves(state, seat)))


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.name)
def test_grouping_round_trips_on_real_positions(ruleset: Ruleset):
    seen = 0
    for state, seat in positions(ruleset, seed=7):
        models = ruleset.legal_moves(state, seat)
        moves = dump_moves(ruleset, models)
        grouped = group_moves(moves)
        assert as_multiset(expand_groups(grouped)) == as_multiset(moves)
        # each move written with its keys in the same order (pages compare moves as JSON text)
        assert sorted(map(orjson.dumps, expand_groups(grouped))) == sorted(map(orjson.dumps, moves))
        assert sum(group["count"] for group in grouped) == len(moves)
        assert all(len(column) == group["count"] for group in grouped for column in group["columns"].values())
        # The server's road from the models gives the same JSON.
        assert orjson.dumps(group_legal(ruleset, models)) == orjson.dumps(grouped)
        assert orjson.dumps(legal_in_form(ruleset, models, "grouped")) == orjson.dumps(grouped)
        seen += len(moves)
    assert seen > 0


def test_the_example_of_docs_api_md_is_what_group_moves_writes():
    import json
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("### The grouped form of `legal`"):]
    moves, grouped = (json.loads(block.split("```")[0]) for block in section.split("```json\n")[1:3])
    assert group_moves(moves) == grouped
    assert as_multiset(expand_groups(grouped)) == as_multiset(moves)  # group by group: the pass comes last

"""``Ruleset.dump_moves`` (the ``legal`` list of every frame): its fast field-by-field copy gives
exactly pydantic's JSON form, and a move model with a non-plain field still goes through pydantic."""

from __future__ import annotations

import enum
import json
import random
from typing import Annotated, Literal

import orjson
import pytest
from pydantic import Field

from app.rulesets.base import MoveModel, _plain_moves, move_json_default
from app.rulesets.registry import Registry
from tests.support.toy_rulesets import ToyRace


def test_every_ruleset_dumps_legal_moves_exactly_as_pydantic_does():
    registry = Registry.discover([])
    checked = 0
    for name in ("through-the-desert", "nimalia", "nomadi"):
        ruleset = registry.get(name)
        assert _plain_moves(type(ruleset)), name
        rng = random.Random(1)
        state = ruleset.setup(ruleset.min_players, ruleset.parse_options({}), 8)
        for _ in range(60):  # positions along a random game
            if ruleset.result(state) is not None:
                break
            seat = min(ruleset.to_act(state))
            moves = ruleset.legal_moves(state, seat)
            wire = json.loads(json.dumps(ruleset.dump_moves(moves)))
            assert wire == [move.model_dump(mode="json") for move in moves]
            assert orjson.loads(orjson.dumps(moves, default=move_json_default)) == wire  # state frames
            checked += len(moves)
            state, _ = ruleset.apply(state, seat, rng.choice(moves))
    assert checked > 500


class Shade(enum.Enum):
    LIGHT = "light"


class Paint(MoveModel):
    type: Literal["paint"] = "paint"
    shade: Shade


class EnumMoves(ToyRace):
    """A toy whose move carries an Enum: its JSON form is the value, not the Enum object."""

    name = "toy-enum"
    Move = Annotated[Paint, Field(discriminator="type")]


def test_a_move_with_an_enum_field_goes_through_pydantic():
    assert not _plain_moves(EnumMoves)
    assert EnumMoves().dump_moves([Paint(shade=Shade.LIGHT)]) == [{"type": "paint", "shade": "light"}]
    assert orjson.loads(orjson.dumps([Paint(shade=Shade.LIGHT)], default=move_json_default)) == [
        {"type": "paint", "shade": "light"}]
    with pytest.raises(TypeError):
        orjson.dumps([object()], default=move_json_default)

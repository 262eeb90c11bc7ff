"""``Event.trusted`` and ``MoveModel.trusted``: the rules' hot paths build events and listed moves
without pydantic's validation, and must get exactly what validation would have given; and
``MoveModel.shared``, which validates a move once and hands it out again."""

from __future__ import annotations

import orjson
import pytest
from pydantic import ValidationError

from app.rulesets.base import Event
from app.rulesets.heroes.moves import Build, Tax
from app.rulesets.nimalia.moves import Place
from app.rulesets.nimalia.rules import Nimalia
from app.rulesets.nomadi.moves import UseDie
from app.rulesets.through_the_desert.moves import Camel


@pytest.mark.parametrize("fields", [
    {"text": "{seat0} rolls 1, 2, 3"},
    {"text": "{seat1} pays 2 coins: 2 unused dice (R-17)"},  # the code moves to ``rule``
    {"text": "{seat1} takes the card (R-30a)", "rule": "R-30b"},  # a rule given wins over the text's
    {"text": "{seat0} inspects the card on {cell}", "args": {"cell": {"kind": "place", "text": "B3", "at": [2, 1]}},
     "rule": "R-30b"},
    {"text": "{seat2}: the card is worth +3", "seats": (2,)},
    {"text": "{seat1} placed card {card}", "args": {"card": {"kind": "amount", "value": 4, "text": "4"}}, "reveals": (1,)},
])
def test_a_trusted_event_is_the_validated_event(fields):
    validated, trusted = Event(**fields), Event.trusted(**fields)
    assert trusted == validated
    assert trusted.model_dump() == validated.model_dump()
    assert trusted.model_fields_set == validated.model_fields_set
    assert list(trusted.__dict__) == list(validated.__dict__) == ["text", "args", "rule", "seats", "reveals"]


def test_the_rule_code_leaves_the_text_of_a_trusted_event():
    event = Event.trusted("{seat0} pays 1 coin: 1 unused die (R-17)")
    assert (event.text, event.rule) == ("{seat0} pays 1 coin: 1 unused die", "R-17")


def test_a_trusted_event_is_frozen_like_any_other():
    with pytest.raises(ValueError):
        Event.trusted("{seat0} rolls 6").text = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("model, fields", [
    (UseDie, {"type": "move", "die": 3, "stone": (4, 5), "to": (4, 8)}),
    (Place, {"type": "place", "card": "nimalia-card-07", "rotation": 90, "at": (-1, 2)}),
    (Camel, {"type": "camel", "colour": "pink", "hex": (3, -2)}),
])
def test_a_trusted_move_is_the_validated_move(model, fields):
    validated, trusted = model.model_validate(fields), model.trusted(**fields)
    assert trusted == validated and hash(trusted) == hash(validated)
    assert str(trusted) == str(validated) and repr(trusted) == repr(validated)
    assert trusted.model_dump_json() == validated.model_dump_json()
    # the frames write a plain move's own ``__dict__`` (app/rulesets/wire.py): the same keys in the same order
    assert orjson.dumps(trusted.__dict__) == orjson.dumps(validated.__dict__)


def test_nimalia_lists_each_move_once_made():
    rules = Nimalia()
    state = rules.setup(3, rules.parse_options({}), 5)
    first, again = rules.legal_moves(state, 0), rules.legal_moves(state, 0)
    assert first == again and first is not again
    assert all(a is b for a, b in zip(first, again))
    assert all(move == Place.model_validate(move.model_dump()) for move in first)


def test_a_shared_move_is_the_validated_move_made_once():
    """``MoveModel.shared``: validated like ``cls(**values)`` the first time, then the same value."""
    first = Build.shared(what="tower", region="N1", worker="serf")
    assert first == Build(what="tower", region="N1", worker="serf")
    assert first.model_fields_set == {"what", "region", "worker"}
    assert Build.shared(what="tower", region="N1", worker="serf") is first
    assert Build.shared(what="hall", worker="token").model_fields_set == {"what", "worker"}
    assert Tax.shared(resource="ore") is not Tax.shared(resource="food")
    with pytest.raises(ValidationError):
        Tax.shared(resource="gold")

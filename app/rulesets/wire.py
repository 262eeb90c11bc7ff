"""Moves on the wire, fast: how the platform writes a ruleset's move models into frames.

Not part of the contract (``base.py``): a ruleset never calls these.  They exist because every
state frame carries the seat's ``legal`` list (up to about a thousand moves), and writing it
through pydantic's serializer model by model cost the server more than the rules did.

A move model's fields may be anything pydantic writes as JSON, nested models included (the
contract allows it, and the kit checks that what is written here equals pydantic's JSON form).
Models whose fields are all *plain* (str, int, bool, None, literals and tuples of them) are
written from their own ``__dict__``, which orjson handles about five times faster than a call
back per model; every ruleset shipped here keeps its moves plain for that reason.
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any

from pydantic import BaseModel, TypeAdapter

from app.rulesets.base import MoveModel, Ruleset

PLAIN_TYPES = (str, int, bool, type(None))


def dump_moves(ruleset: Ruleset, moves: list[MoveModel]) -> list[dict[str, Any]]:
    """The JSON forms of many moves of ``ruleset`` (the ``legal`` list of a state frame).

    Plain moves are given as the frozen models' own field dicts (0.04 ms against 0.2 ms for the
    benchmark's 1000 moves): read them, never change them.  Tuples stay tuples (JSON arrays).
    Other moves go through pydantic's serializer.
    """
    if plain_moves(ruleset):
        return [move.__dict__ for move in moves]
    return _moves_adapter(type(ruleset)).dump_python(moves, mode="json")


def move_json_default(value: Any) -> Any:
    """``orjson.dumps(..., default=move_json_default)``: writes move models in their wire form
    without building a dict per move (a plain model's own ``__dict__``; others through pydantic).

    Building the 1000 dicts of a ``legal`` list cost the benchmark server about 2 ms a frame;
    serializing the models in place does not.  Raises ``TypeError`` for anything else, as orjson
    expects of a default.
    """
    if isinstance(value, BaseModel):
        return value.__dict__ if _plain_model(type(value)) else value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def sole_move_model(ruleset: Ruleset) -> type[MoveModel] | None:
    """The move model of a ruleset whose ``Move`` is one model class with plain fields (every legal
    move is then an instance of exactly it, by the contract of ``Ruleset.Move``), else ``None``."""
    return _sole_move_model(type(ruleset))


def plain_moves(ruleset: Ruleset) -> bool:
    """Whether :func:`dump_moves` gives every move of ``ruleset`` as the model's own ``__dict__``
    (all its move models have only plain fields), so a reader may take a move's fields as its
    attributes."""
    return _plain_moves(type(ruleset))


@functools.cache
def _moves_adapter(ruleset_class: type[Ruleset[Any]]) -> TypeAdapter:
    return TypeAdapter(list[ruleset_class.Move])  # type: ignore[name-defined]  # a union known at run time


def _plain_annotation(annotation: Any) -> bool:
    """Whether a field's values are JSON values as they are (``model_dump(mode="json")`` keeps them)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return all(isinstance(value, PLAIN_TYPES) for value in typing.get_args(annotation))
    if origin is typing.Annotated:
        return _plain_annotation(typing.get_args(annotation)[0])
    if origin in (tuple, typing.Union, types.UnionType):
        return all(arg is Ellipsis or _plain_annotation(arg) for arg in typing.get_args(annotation))
    return annotation in PLAIN_TYPES


@functools.cache
def _plain_model(model: type[BaseModel]) -> bool:
    return all(_plain_annotation(field.annotation) for field in model.model_fields.values())


@functools.cache
def _sole_move_model(ruleset_class: type[Ruleset]) -> type[MoveModel] | None:
    model = ruleset_class.Move
    while typing.get_origin(model) is typing.Annotated:
        model = typing.get_args(model)[0]
    if isinstance(model, type) and issubclass(model, MoveModel) and _plain_moves(ruleset_class):
        return model
    return None


@functools.cache
def _plain_moves(ruleset_class: type[Ruleset]) -> bool:
    union = ruleset_class.Move
    while typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    models = typing.get_args(union) if typing.get_origin(union) in (typing.Union, types.UnionType) else (union,)
    return all(isinstance(model, type) and issubclass(model, BaseModel) and _plain_model(model) for model in models)

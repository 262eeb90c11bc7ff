"""The two wire forms of a ``legal`` list (docs/api.md and docs/decisions.md, "The grouped form of ``legal``").

``"moves"`` (the default) is the list of move objects, each sendable back as it is.  ``"grouped"``,
asked for in a socket's ``hello``, writes moves of one shape once: the moves with the same ``type``
and the same keys form a group, and each key is either the same in every move of the group
(``same``) or a column of values, one per move (``columns``)::

    [{"type": "place", "cell": 0}, {"type": "place", "cell": 1}]
    -> [{"type": "place", "count": 2, "keys": ["cell"], "same": {}, "columns": {"cell": [0, 1]}}]

The benchmark's 1000 moves shrink from about 28 KB of JSON to about 4 KB.  :func:`group_moves` and
its inverse :func:`expand_groups` are pure and take moves as JSON values (dicts, lists, tuples, str,
int, float, bool, None), as ``wire.dump_moves`` gives them; :func:`group_legal` is the server's
faster road to the same value from the move models.
"""

from __future__ import annotations

import functools
import typing
from operator import attrgetter, itemgetter
from typing import Any, Literal

from app.rulesets.base import MoveModel, Ruleset
from app.rulesets.wire import dump_moves, plain_moves, sole_move_model

LegalForm = Literal["moves", "grouped"]

_ARRAYS = (list, tuple)
_SCALARS = (str, int, float, bool, type(None))


def group_moves(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``moves`` in the grouped form: ``[{"type", "count", "keys", "same", "columns"}, ...]``.

    Moves with the same ``type`` and the same set of keys form one group; groups come in the order
    of their first move, and a group's moves in their order in ``moves``.  ``same`` holds the keys
    (``type`` aside) whose value is equal in every move of the group, ``columns`` the others, each
    a list of ``count`` values; ``keys`` lists them all (``type`` aside) in the order of the group's
    first move; a value is "equal" only as JSON (``1``, ``1.0`` and ``true`` differ).
    :func:`expand_groups` gives the moves back.  The values are the moves' own objects, not copies.

    Raises ``KeyError`` for a move without ``type`` (every ruleset's moves have one).
    """
    if not moves:
        return []
    # C-level map/zip/fromkeys rather than a Python loop over the moves: a loop cost more CPU than
    # writing the moves out in full, and the server groups them for every frame of the seat to act.
    types = list(map(itemgetter("type"), moves))
    if len(dict.fromkeys(types)) == 1 and len(dict.fromkeys(map(tuple, moves))) == 1:  # one shape: the usual case
        return [_group(types[0], moves)]
    layouts: list[tuple[Any, typing.Collection[str]]] = list(zip(types, map(tuple, moves)))  # (type, keys in order)
    distinct = dict.fromkeys(layouts)
    shapes = {layout: (layout[0], frozenset(layout[1])) for layout in distinct}
    if len(set(shapes.values())) < len(shapes):  # the same keys in another order: one group all the same
        layouts = [shapes[layout] for layout in layouts]
        distinct = dict.fromkeys(layouts)
    if len(distinct) == 1:
        return [_group(layouts[0][0], moves)]
    members: dict[tuple, list[dict[str, Any]]] = {layout: [] for layout in distinct}
    for layout, move in zip(layouts, moves):
        members[layout].append(move)
    return [_group(layout[0], group) for layout, group in members.items()]


def group_legal(ruleset: Ruleset, moves: list[MoveModel]) -> list[dict[str, Any]]:
    """``group_moves(dump_moves(ruleset, moves))``, read from the move models themselves when they
    are all of one class with plain fields and one ``type``: for the benchmark's 1000 moves that
    takes about what dumping and writing them as moves takes (~75 us), grouping their dicts 2-3 times
    as long (tests/services/test_legal_forms.py checks both roads give the same JSON)."""
    model = sole_move_model(ruleset)  # one move class: no need to read every move's class (~1/3 of the time)
    if model is None and plain_moves(ruleset):
        classes = dict.fromkeys(map(type, moves))
        if len(classes) == 1:
            (model,) = classes
    if model is not None and moves:
        types = _fixed_type(model) or dict.fromkeys(map(attrgetter("type"), moves))
        if len(types) == 1:
            return [_group(next(iter(types)), moves, list(moves[0].__dict__), attrgetter)]
    return group_moves(dump_moves(ruleset, moves))


@functools.cache
def _fixed_type(model: type[MoveModel]) -> tuple[Any, ...]:
    """``(T,)`` when ``model``'s ``type`` field is ``Literal[T]`` (reading every move's ``type`` is then
    not needed), else ``()``."""
    field = model.model_fields.get("type")
    annotation = field.annotation if field is not None else None
    if typing.get_origin(annotation) is Literal and len(typing.get_args(annotation)) == 1:
        return typing.get_args(annotation)
    return ()


def _group(move_type: Any, members: list[Any], keys: Any = None, getter: Any = itemgetter) -> dict[str, Any]:
    """The group of ``members`` (dicts, or move models read with ``getter=attrgetter``), all of
    ``move_type`` and with the keys ``keys`` (default: the first member's)."""
    same: dict[str, Any] = {}
    columns: dict[str, list[Any]] = {}
    order = [key for key in (members[0] if keys is None else keys) if key != "type"]
    for key in order:
        values = list(map(getter(key), members))
        if _all_same(values):
            same[key] = values[0]
        else:
            columns[key] = values
    return {"type": move_type, "count": len(members), "keys": order, "same": same, "columns": columns}


def _all_same(values: list[Any]) -> bool:
    """Whether every value of ``values`` (not empty) is written as the same JSON as the first."""
    first = values[0]
    if len(values) > 1 and not _same_json(values[-1], first):  # a column, mostly: known at once
        return False
    if type(first) in _SCALARS:
        return set(map(type, values)) == {type(first)} and values.count(first) == len(values)
    return all(_same_json(value, first) for value in values)


def _same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are written as the same JSON (Python's ``==`` says ``1 == 1.0 == True``)."""
    if a is b:
        return True
    if isinstance(a, _ARRAYS) and isinstance(b, _ARRAYS):
        return len(a) == len(b) and all(map(_same_json, a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(value, b[key]) for key, value in a.items())
    return a == b


def expand_groups(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of a grouped ``legal`` list (the inverse of :func:`group_moves`), group by group.

    Move ``i`` of a group is ``{"type": T, key: same[key] or columns[key][i] for each key of keys}``,
    its keys in the order of ``keys`` (the order the moves write them: a client that compares moves
    as JSON text sees the same text as in the default form).  Raises ``ValueError`` when a column's
    length is not the group's ``count``.
    """
    moves = []
    for group in groups:
        count, same, columns = group["count"], group["same"], group["columns"]
        if any(len(column) != count for column in columns.values()):
            raise ValueError(f"a column of the {group['type']!r} group does not hold {count} values")
        keys = group["keys"]
        for index in range(count):
            move = {"type": group["type"]}
            for key in keys:
                move[key] = same[key] if key in same else columns[key][index]
            moves.append(move)
    return moves


def legal_in_form(ruleset: Ruleset, moves: list[MoveModel], form: LegalForm) -> list[Any]:
    """``moves`` (of ``ruleset``) on the wire as ``form`` writes them: ``dump_moves(ruleset, moves)``
    for ``"moves"``, :func:`group_legal` for ``"grouped"``.  Raises ``ValueError`` for another form."""
    if form == "moves":
        return dump_moves(ruleset, moves)
    if form == "grouped":
        return group_legal(ruleset, moves)
    raise ValueError(f"unknown legal form {form!r}")

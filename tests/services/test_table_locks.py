"""Seats and a game's status change only under the table's lock (app/services/table_locks.py).

The writers take a ``TableHold`` that only ``TableLocks.hold`` makes; a hold kept past its lock
is refused. A scan of ``app/services`` finds every statement that writes who sits where or whether
a game runs, and each is in a function that takes or makes a hold, or on the short list below
with the reason it needs none.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from app.services.table_locks import TableHold, TableLocks
from tests.conftest import run_coroutine

SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"
SEATING_COLUMNS = {"account_id", "bot_level", "takeover", "seat", "status", "creator_id", "seat_count"}
"""Columns of ``seats`` and ``tables`` that decide who may move, or whether the game runs."""
NEEDS_NO_HOLD = {
    # inside a move's own transaction, which the pipeline and undo make under the table's lock
    ("games/pipeline.py", "_apply_in_transaction"),
    ("games/undo.py", "_take_back"),
    # one compare-and-set statement between two statuses that accept the same moves (an abandoned
    # game takes moves and runs again): nothing a move checks changes
    ("attendance/presence.py", "arrived"),
    ("leader/absence.py", "abandon_deserted"),
    # open tables nobody started for days leave the lobby in one compare-and-set statement; a join
    # that races it finds the table closed and is refused
    ("leader/housekeeping.py", "expire_open_tables"),
    # helpers of writers that take a hold (join_table, start_table) or of a rematch's new table,
    # which nobody else can reach before its commit
    ("tables/changes.py", "begin"),
    ("tables/changes.py", "_drop_seats"),
}


def seating_writes() -> dict[tuple[str, str], bool]:
    """{(module, function): whether it takes or makes a hold} for every function in app/services
    that sets a column of ``SEATING_COLUMNS``: in an ``update(Seat | Table)`` statement, or by
    assigning to a loaded table's attribute."""
    found = {}
    for path in sorted(SERVICES.rglob("*.py")):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.AsyncFunctionDef | ast.FunctionDef):
                continue
            statements = [node for node in ast.walk(function)
                          if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                          and node.func.attr == "values" and SEATING_COLUMNS & {kw.arg for kw in node.keywords}
                          and any(table in ast.unparse(node.func.value)
                                  for table in ("update(Seat)", "update(Table)", "Seat.__table__.update", "Table.__table__.update"))]
            assignments = [node for node in ast.walk(function) if isinstance(node, ast.Assign)
                           and any(isinstance(target, ast.Attribute) and target.attr in SEATING_COLUMNS
                                   and ast.unparse(target.value).endswith("table") for target in node.targets)]
            if statements or assignments:
                source = ast.unparse(function)
                holds = "TableHold" in source or "hold_table(" in source or "hold(" in source
                found[(path.relative_to(SERVICES).as_posix(), function.name)] = holds
    return found


def test_every_seating_write_is_made_under_the_tables_lock():
    unheld = {where for where, holds in seating_writes().items() if not holds} - NEEDS_NO_HOLD
    assert not unheld, f"these change seats or a game's status without the table's lock: {sorted(unheld)}"


def test_the_exceptions_name_only_functions_that_write_without_a_hold():
    """An entry left on the list after its function changed would hide the next write there."""
    unheld = {where for where, holds in seating_writes().items() if not holds}
    assert NEEDS_NO_HOLD <= unheld, sorted(NEEDS_NO_HOLD - unheld)


def test_a_hold_is_good_only_inside_its_lock():
    async def scenario() -> None:
        locks = TableLocks()
        async with locks.hold(7) as held:
            assert held.check() == 7
            assert locks.lock(7).locked()
        with pytest.raises(RuntimeError, match="table 7 is changed outside its lock"):
            held.check()

    run_coroutine(scenario)


def test_holders_of_one_table_queue_and_other_tables_do_not_wait():
    async def scenario() -> list[str]:
        locks, order = TableLocks(), []
        inside = asyncio.Event()

        async def first() -> None:
            async with locks.hold(1):
                order.append("first in")
                inside.set()
                await asyncio.sleep(0)
                async with asyncio.timeout(5):
                    async with locks.hold(2):  # another table: free at once
                        order.append("other table")
                order.append("first out")

        async def second() -> None:
            await inside.wait()
            async with locks.hold(1):
                order.append("second in")

        await asyncio.gather(first(), second())
        return order

    assert run_coroutine(scenario) == ["first in", "other table", "first out", "second in"]


@pytest.mark.parametrize("writer", [
    "app.services.tables.changes:join_table", "app.services.tables.changes:leave_table",
    "app.services.tables.changes:start_table", "app.services.tables.changes:set_bot",
    "app.services.tables.rematch:rematch", "app.services.attendance.takeover:hand_to_bot",
    "app.services.attendance.takeover:reclaim", "app.services.attendance.takeover:hand_away_seat",
    "app.services.accounts.admin:close_table", "app.services.accounts.admin:delete_table",
])
def test_each_writer_takes_a_hold(writer):
    import importlib
    import inspect
    import typing

    module, name = writer.split(":")
    function = getattr(importlib.import_module(module), name)
    hints = typing.get_type_hints(function)
    assert TableHold in hints.values(), f"{writer} can be called without the table's lock"
    assert "table_id" not in inspect.signature(function).parameters, f"{writer} names its table apart from its hold"

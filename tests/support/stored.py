"""A game as its rows store it, read by the tests without the server's own reader."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Move, Table
from app.rulesets.registry import Registry


async def stored_state(session: AsyncSession, registry: Registry, game_id: int) -> tuple[dict[str, Any], Table]:
    """``(state at the row's version, row)``: the row's state, or, when the row holds a checkpoint
    (PostgreSQL's usual move writes the state only every few moves), that state with the
    stored moves after ``state_version`` applied here, independently of ``app/services/games/state.py``."""
    table = await session.scalar(select(Table).where(Table.id == game_id))
    state = table.state
    if table.state_version is not None:
        ruleset = registry.get(table.ruleset)
        after = await session.execute(select(Move.seat, Move.move).where(
            Move.table_id == game_id, Move.seq > table.state_version, Move.seq <= table.version).order_by(Move.seq))
        for seat, move in after.all():
            state, _ = ruleset.apply(state, seat, ruleset.parse_move(move))
    return state, table

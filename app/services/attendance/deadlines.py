"""Move deadlines of a table with a time control, kept in ``seats.deadline``.

Written inside the transaction of the change that moves the turn (a start, a move), so a
deadline is never out of step with the game; ``clock.DeadlineWatcher`` enforces them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Seat, Table, utcnow


async def update_deadlines(session: AsyncSession, table: Table, before: set[int], after: set[int],
                           mover: int | None, due: datetime | None = None) -> None:
    """Set the deadlines for the seats to act after a change, inside the caller's transaction.

    Seats that start acting (and the mover, if it acts again) get ``due`` (default ``now +
    move_seconds``; an undo gives back an earlier one); seats that stop acting lose theirs; seats
    that keep acting keep theirs.  No-op without a time control.
    """
    if not table.move_seconds:
        return
    due = due or utcnow() + timedelta(seconds=table.move_seconds)
    starting = {seat for seat in after if seat not in before or seat == mover}
    stopping = before - after
    if starting:
        await session.execute(update(Seat).where(Seat.table_id == table.id, Seat.seat.in_(starting))
                              .values(deadline=due))
    if stopping:
        await session.execute(update(Seat).where(Seat.table_id == table.id, Seat.seat.in_(stopping))
                              .values(deadline=None))

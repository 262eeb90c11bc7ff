"""A bot playing a person's seat: after a time-out, when they leave or resign; and their return.

Issue 6 (Board Game Arena's zombie mode): the default bot plays the seat until the person comes
back (a WebSocket ``hello`` from them reclaims it), unless they resigned.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from app.db.models import Seat, Table, utcnow
from app.services.context import Context
from app.services.errors import AppError

SEATING_CHANGED = -1
"""Fan-out version meaning "the seats changed, not the game": listeners refresh and resend."""

RECLAIMABLE = ("timeout", "left")


async def hand_to_bot(ctx: Context, game_id: int, account_id: int, reason: str) -> None:
    """Let the default bot play ``account_id``'s seat in a running game (``left`` or ``resigned``).

    Raises ``AppError``: ``not_seated``; ``conflict`` when the game is not running or the
    seat was already resigned.
    """
    async with ctx.sessions() as session:
        status = await session.scalar(select(Table.status).where(Table.id == game_id))
        if status != "running":
            raise AppError("conflict", "this game is not running")
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.account_id == account_id,
                               Seat.takeover.is_distinct_from("resigned"))
            .values(takeover=reason, deadline=None)
        )
        if result.rowcount != 1:
            raise AppError("not_seated", "you have no seat in this game (or you resigned)")
        await session.commit()
    await ctx.fanout.publish(game_id, SEATING_CHANGED)


async def reclaim(ctx: Context, game_id: int, account_id: int, move_seconds: int | None, acting: bool) -> bool:
    """Give a returning person their seat back from the bot (not after resigning); True if it changed.

    If the seat is to act, a fresh deadline starts.
    """
    deadline = utcnow() + timedelta(seconds=move_seconds) if move_seconds and acting else None
    async with ctx.sessions() as session:
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.account_id == account_id,
                               Seat.takeover.in_(RECLAIMABLE))
            .values(takeover=None, deadline=deadline)
        )
        await session.commit()
    if result.rowcount == 1:
        await ctx.fanout.publish(game_id, SEATING_CHANGED)
        return True
    return False

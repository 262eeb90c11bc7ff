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

    Leaving twice changes nothing.  Raises ``AppError``: ``not_found`` (no such table, or a
    private one the account has no seat at), ``not_seated`` (also once resigned), ``conflict`` when
    the game is not running.
    """
    async with ctx.sessions() as session:
        table = (await session.execute(select(Table.status, Table.private).where(Table.id == game_id))).first()
        seated = table is not None and await session.scalar(
            select(Seat.seat).where(Seat.table_id == game_id, Seat.account_id == account_id)) is not None
        if table is None or (table.private and not seated):  # a private table is nobody else's business
            raise AppError("not_found", f"no table {game_id}")
        if not seated:
            raise AppError("not_seated", "you have no seat in this game")
        if table.status != "running":
            raise AppError("conflict", "this game is not running")
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.account_id == account_id,
                               Seat.takeover.is_distinct_from("resigned"), Seat.takeover.is_distinct_from(reason))
            .values(takeover=reason, deadline=None)
        )
        if result.rowcount != 1:
            held = await session.scalar(select(Seat.takeover).where(Seat.table_id == game_id,
                                                                   Seat.account_id == account_id))
            if held == reason != "resigned":
                return  # left twice: nothing changes, nobody is told again
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

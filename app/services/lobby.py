"""The lobby's actions on one table, each whole: take the table's lock, change it, commit, then tell
the other processes (the fan-out), as :func:`app.services.games.submit_move` does for a move.

The REST handlers (``app/api/tables.py``) only parse, call one of these and answer.  Every function
takes the request's ``session`` (which reads the table back for the answer) and raises
``AppError`` with nothing changed when it refuses.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account
from app.fanout import Marker
from app.services import rematch as rematches
from app.services import tables, takeover
from app.services.context import Context
from app.services.rematch import Rematch
from app.services.tables import TableInfo


async def join(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int | None,
               invite_code: str | None) -> TableInfo:
    """Seat ``account`` at ``seat`` (or the first empty one); raises as ``tables.join_table``."""
    async with ctx.game_lock(table_id):
        return await tables.join_table(session, account, table_id, seat, invite_code)


async def leave(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> TableInfo:
    """Give up one's seat at an open table (``tables.leave_table``); in a running game, let the default
    bot play it until its person returns (``takeover.hand_to_bot``, reason ``"left"``)."""
    async with ctx.game_lock(table_id):
        if (await tables.load_table(session, table_id)).table.status == "running":
            await takeover.hand_to_bot(ctx, table_id, account.id, "left")
            return await tables.load_table(session, table_id)
        return await tables.leave_table(session, account, table_id)


async def resign(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> TableInfo:
    """Resign a running game: the default bot plays the seat to the end (``takeover.hand_to_bot``)."""
    await takeover.hand_to_bot(ctx, table_id, account.id, "resigned")
    return await tables.load_table(session, table_id)


async def start(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> TableInfo:
    """Start the game (``tables.start_table``), then announce its version 0 (its bots start playing)."""
    async with ctx.game_lock(table_id):
        info = await tables.start_table(session, ctx.registry, account, table_id)
    await ctx.fanout.publish(table_id, 0)
    return info


async def rematch(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> Rematch:
    """The rematch of a finished game (``rematch.rematch``); when this call created it, announce the
    new game's version 0 and :attr:`Marker.REMATCH_STARTED` to the old game's sockets."""
    async with ctx.game_lock(table_id):
        outcome = await rematches.rematch(session, ctx.registry, account, table_id)
    if outcome.created:
        await ctx.fanout.publish(outcome.info.table.id, 0)  # its bots (if any) start playing
        await ctx.fanout.publish(table_id, Marker.REMATCH_STARTED)
    return outcome


async def seat_bot(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int,
                   level: str) -> TableInfo:
    """Seat a bot of ``level`` at an open table (``tables.set_bot``); in a running game, let the default
    bot play the seat of a person who is away (``takeover.hand_away_seat``)."""
    async with ctx.game_lock(table_id):
        if (await tables.load_table(session, table_id)).table.status == "open":
            return await tables.set_bot(session, account, table_id, seat, level)
        await takeover.hand_away_seat(ctx, table_id, account.id, seat)
        return await tables.load_table(session, table_id)


async def remove_bot(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int) -> TableInfo:
    """Take the bot off ``seat`` of an open table (``tables.set_bot`` with no level)."""
    async with ctx.game_lock(table_id):
        return await tables.set_bot(session, account, table_id, seat, None)

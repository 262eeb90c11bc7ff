"""The lobby's actions on one table, each whole: take the table's lock, change it, commit, then tell
the other processes (the fan-out), as :func:`app.services.games.pipeline.submit_move` does for a move.

The REST handlers (``app/api/tables.py``) only parse, call one of these and answer.  Every function
takes the request's ``session`` (which reads the table back for the answer) and raises
``AppError`` with nothing changed when it refuses.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account
from app.fanout import Marker
from app.services.tables import rematch as rematches
from app.services.tables import changes as tables
from app.services.attendance import takeover, waiting
from app.services.context import Context
from app.services.errors import AppError
from app.services.tables.rematch import Rematch
from app.services.tables.changes import TableInfo


async def join(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int | None,
               invite_code: str | None) -> TableInfo:
    """Seat ``account`` at ``seat`` (or the first empty one); raises as ``tables.join_table``.  The
    last person a rematch offer waited for starts the game, and its version 0 is announced, unless
    it is timed and someone seated is not at the table (``waiting``): then its host starts it."""
    async with ctx.hold_table(table_id) as held:
        info = await tables.join_table(session, ctx.registry, account, held, seat, invite_code)
        if (info.table.rematch_of is not None and not info.held and not any(s.empty for s in info.seats)
                and not await waiting.gone_from_timed_table(ctx, session, info.table)):
            info = await tables.begin(session, ctx.registry, await tables.load_table(session, table_id, for_update=True))
    if info.table.status == "running":
        await ctx.fanout.publish(table_id, 0)
    return info


async def leave(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> TableInfo:
    """Give up one's seat at an open table (``tables.leave_table``); in a running game, let the default
    bot play it until its person returns (``takeover.hand_to_bot``, reason ``"left"``)."""
    async with ctx.hold_table(table_id) as held:
        if (await tables.load_table(session, table_id)).table.status == "running":
            await takeover.hand_to_bot(ctx, held, account.id, "left")
            return await tables.load_table(session, table_id)
        return await tables.leave_table(session, account, held)


async def resign(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> TableInfo:
    """Resign a running game: the default bot plays the seat to the end (``takeover.hand_to_bot``)."""
    async with ctx.hold_table(table_id) as held:
        await takeover.hand_to_bot(ctx, held, account.id, "resigned")
    return await tables.load_table(session, table_id)


async def start(ctx: Context, session: AsyncSession, account: Account, table_id: int,
                empty_seats: str | None = None) -> TableInfo:
    """Start the game (``tables.start_table``), then announce its version 0 (its bots start playing).
    A timed game starts only with every seated person at the table (``waiting``): else
    ``AppError(conflict)``, or with ``empty_seats`` those not there lose their seat, which becomes
    an empty one (they agreed to the table, not to a game begun without them)."""
    async with ctx.hold_table(table_id) as held:
        # only for the host: anyone else hears what start_table says (forbidden, or not_found at a private table)
        table = (await tables.load_table(session, table_id)).table
        gone = await waiting.gone_from_timed_table(ctx, session, table, account.id) if table.creator_id == account.id else {}
        if gone and empty_seats not in tables.EMPTY_SEATS_CHOICES:
            raise waiting.not_here(gone)
        if gone:
            await tables.unseat(session, held, sorted(gone))
        info = await tables.start_table(session, ctx.registry, account, held, empty_seats)
    await ctx.fanout.publish(table_id, 0)
    return info


async def rematch(ctx: Context, session: AsyncSession, account: Account, table_id: int) -> Rematch:
    """Offer the rematch of a finished game (``rematch.rematch``), or accept it when it was offered
    to the caller (their *Rematch* takes the seat held for them, as *Join* does).

    When this call created the offer, the old game's sockets hear of it
    (:attr:`Marker.REMATCH_STARTED`); when a game started, its version 0 is announced (its bots
    start playing)."""
    async with ctx.hold_table(table_id) as held:
        outcome = await rematches.rematch(session, ctx.registry, account, held)
    new = outcome.info.table
    if outcome.created:
        if new.status == "running":
            await ctx.fanout.publish(new.id, 0)
        await ctx.fanout.publish(table_id, Marker.REMATCH_STARTED)
    elif any(kept.account_id == account.id for kept in outcome.info.held.values()):
        try:
            outcome = replace(outcome, info=await join(ctx, session, account, new.id, None, new.invite_code))
        except AppError as exc:
            if exc.code != "conflict":  # conflict: their other request took the seat (or started it) first
                raise
            outcome = replace(outcome, info=await tables.load_table(session, new.id))
    return outcome


async def seat_bot(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int,
                   level: str) -> TableInfo:
    """Seat a bot of ``level`` at an open table (``tables.set_bot``); in a running game, let the default
    bot play the seat of a person who is away (``takeover.hand_away_seat``)."""
    async with ctx.hold_table(table_id) as held:
        if (await tables.load_table(session, table_id)).table.status == "open":
            return await tables.set_bot(session, account, held, seat, level)
        await takeover.hand_away_seat(ctx, held, account.id, seat)
        return await tables.load_table(session, table_id)


async def remove_bot(ctx: Context, session: AsyncSession, account: Account, table_id: int, seat: int) -> TableInfo:
    """Take the bot off ``seat`` of an open table (``tables.set_bot`` with no level)."""
    async with ctx.hold_table(table_id) as held:
        return await tables.set_bot(session, account, held, seat, None)

"""Clocks stop while no server runs (docs/decisions.md, *Clocks stop while no server runs*): a crash,
a restart or an upgrade costs nobody their move time.

A move deadline (``seats.deadline``) is a moment, so the time a server is down would count against
the seat to act, and a long enough stop would hand its seat to a bot the moment the server is back,
by no rule the table agreed to.  So the leader writes when it was last alive
(``leader_heartbeat.at``) every :data:`HEARTBEAT_SECONDS` and when it stops; a process that becomes
the leader first reads it, and where more than :data:`GAP_SECONDS` have passed, moves every running
game's move deadlines on by the whole gap before its clock enforces any.  The leader looks each time it beats too, so a
process or machine that was frozen (a paused VPS) gives the time back the same way.  The seat to act gets back
the time it had when the server went, and up to one beat more (the moment of a crash between two
beats is not known, and the doubt goes to the player).

A gap under :data:`GAP_SECONDS` (a quick restart, the lock passing between processes on PostgreSQL,
where the others kept serving moves) moves nothing.  The first start on a database that has no
heartbeat yet (just created, or upgraded from a release without one) knows of no gap.  Only move
deadlines move: a seat found away after the restart is only marked so (the others may then hand it
to a bot, by their own action), and abandoning a game takes days and is undone when a player returns.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import select, update

from app.db.models import LeaderHeartbeat, Seat, Table, utcnow
from app.db.results import rowcount
from app.fanout import Marker
from app.services.attendance.presence import aware
from app.services.context import Context

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
"""How often the leader writes that it is alive (one small row update)."""
GAP_SECONDS = 3 * HEARTBEAT_SECONDS
"""A heartbeat older than this when a process becomes the leader means no leader ran meanwhile."""
_ROW = 1


async def beat(ctx: Context, now: datetime | None = None) -> None:
    """Write ``now`` (default: the current time, UTC) as the moment the leader was last alive: one
    update, and an insert the first time."""
    now = now or utcnow()
    async with ctx.sessions() as session:
        written = await session.execute(update(LeaderHeartbeat).where(LeaderHeartbeat.id == _ROW).values(at=now))
        if rowcount(written) == 0:
            session.add(LeaderHeartbeat(id=_ROW, at=now))
        await session.commit()


async def resume_clocks(ctx: Context, now: datetime | None = None) -> timedelta | None:
    """On becoming the leader, before any deadline is enforced: move every running game's move
    deadlines on by the time since the last heartbeat, if more than :data:`GAP_SECONDS`; then beat.

    Returns the gap the deadlines moved by, or None when none did.  Each game's seats are written
    under its table's hold (SQLite's one-writer rule) and each changed game is published as a
    seating change, so every process forgets its cached snapshot and resends the clocks.
    """
    now = now or utcnow()
    async with ctx.sessions() as session:
        last = aware(await session.scalar(select(LeaderHeartbeat.at).where(LeaderHeartbeat.id == _ROW)))
    gap = now - last if last is not None else None
    moved: list[int] = []
    if gap is not None and gap.total_seconds() > GAP_SECONDS:
        async with ctx.sessions() as session:
            rows = (await session.execute(
                select(Seat.table_id, Seat.seat, Seat.deadline).join(Table, Table.id == Seat.table_id)
                .where(Table.status == "running", Seat.deadline.is_not(None))
            )).all()
        deadlines: dict[int, list[tuple[int, datetime]]] = defaultdict(list)
        for game_id, seat, deadline in rows:
            if deadline is not None:  # always, by the query; said for the type checker
                deadlines[game_id].append((seat, deadline))
        for game_id, seats in sorted(deadlines.items()):
            async with ctx.hold_table(game_id) as held, ctx.sessions() as session:
                for seat, deadline in seats:
                    # guarded: a deadline written since the read (a move made meanwhile) is left alone
                    await session.execute(update(Seat).where(Seat.table_id == held.check(), Seat.seat == seat,
                                                             Seat.deadline == deadline)
                                          .values(deadline=deadline + gap))
                await session.commit()
            moved.append(game_id)
        # An ordinary restart with no timed game running is not worth a warning.
        log.log(logging.WARNING if moved else logging.INFO,
                "no leader ran for %.0f s (last heartbeat %s): the move deadlines of %d running game(s) "
                "moved on by that much", gap.total_seconds(), last, len(moved))
    await beat(ctx, now)
    for game_id in moved:
        await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)
    return gap if moved else None

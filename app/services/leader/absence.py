"""Absent players never stall a game (docs/decisions.md, *A bot for an absent player*): the leader's part, run by the clock.

From ``seats.seen_at`` (``app/services/attendance/presence.py``) the leader decides, once a tick:

* **away**: a person who plays their own seat and has had no open socket for
  ``absent_after_seconds`` (live tables) or ``turn_based_absent_after_hours`` (turn-based tables;
  closing the tab between moves is normal there) gets ``away_since``.  The others see "Ana is away"
  and may hand the seat to the bot (``takeover.hand_away_seat``).  Who comes back (a socket again)
  loses the mark.
* **the bot by itself only where a clock was agreed**: on a timed table the clock does it after the
  time-out (``clock.DeadlineWatcher``, takeover ``timeout``), at a live or a turn-based table alike.
  An untimed table never hands a seat to a bot by itself, whatever the pace: its players agreed
  to no limit.  The others see "Ana is away" and may hand the seat over
  (``takeover.hand_away_seat``), or the game is in time abandoned.  (``seats.away_deadline`` is
  no longer set; it stays in the schema and on the wire, always null.)
* **abandoned**: a running game with a person still playing their own seat, whose every person
  has been gone for ``abandon_after_days``, is marked ``abandoned`` (listed as such, never
  deleted; ``Presence.arrived`` makes it run again when one of them returns).

Every change is published as a seating change, so every process resends the state to its sockets.
Each function takes ``now`` so tests can move the clock instead of waiting.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.orm import aliased

from app.db.models import LIVE, TURN_BASED, Seat, Table, utcnow
from app.db.results import rowcount
from app.services.context import Context
from app.services.attendance.presence import present_window
from app.services.attendance.waiting import away_time
from app.fanout import Marker


async def watch(ctx: Context, now: datetime | None = None) -> set[int]:
    """One tick of the leader: mark who went away, unmark who came back; tell every process.
    Returns the games that changed."""
    now = now or utcnow()
    changed = await _mark_away(ctx, now) | await _unmark_returned(ctx, now)
    for game_id in sorted(changed):
        await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)
    return changed


async def abandon_deserted(ctx: Context, now: datetime | None = None) -> list[int]:
    """Mark ``abandoned`` every running game that waits for people none of whom has been seen for
    ``abandon_after_days``; returns their ids.  Their last activity is left as it was."""
    cutoff = (now or utcnow()) - timedelta(days=ctx.settings.abandon_after_days)
    person = aliased(Seat)
    waiting = exists().where(Seat.table_id == Table.id, Seat.account_id.is_not(None), Seat.takeover.is_(None))
    recently_seen = exists().where(person.table_id == Table.id, person.account_id.is_not(None),
                                   person.seen_at >= cutoff)
    async with ctx.sessions() as session:
        ids = list(await session.scalars(select(Table.id).where(Table.status == "running", waiting, ~recently_seen)))
        abandoned = []
        for game_id in ids:
            result = await session.execute(update(Table).where(Table.id == game_id, Table.status == "running")
                                           .values(status="abandoned", updated_at=Table.updated_at))
            if rowcount(result) == 1:
                abandoned.append(game_id)
        await session.commit()
    for game_id in abandoned:
        await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)
    return abandoned


def _gone_since(ctx: Context, now: datetime):
    """The condition "the seat's person has not been seen for their table's away time"."""
    live, turn_based = now - away_time(ctx, LIVE), now - away_time(ctx, TURN_BASED)
    return or_(and_(Table.pace == TURN_BASED, Seat.seen_at < turn_based),
               and_(Table.pace != TURN_BASED, Seat.seen_at < live))


async def _mark_away(ctx: Context, now: datetime) -> set[int]:
    async with ctx.sessions() as session:
        # SKIP LOCKED: a seat a move's transaction holds is looked at again next tick, never waited for.
        rows = (await session.execute(
            select(Seat.table_id, Seat.seat).join(Table, Table.id == Seat.table_id)
            .where(Table.status == "running", Seat.account_id.is_not(None), Seat.takeover.is_(None),
                   Seat.away_since.is_(None), _gone_since(ctx, now), ~_connected(ctx, now))
            .with_for_update(of=Seat, skip_locked=True))).all()
        for game_id, seat in rows:
            await session.execute(update(Seat).where(Seat.table_id == game_id, Seat.seat == seat)
                                  .values(away_since=now, away_deadline=None))
        await session.commit()
    return {game_id for game_id, _ in rows}


def _connected(ctx: Context, now: datetime):
    """The condition "a socket of the seat's person is open on some process" (``connected_at`` is
    within the present window, ``presence.present_window``): such a seat is never away, whatever
    the settings."""
    return and_(Seat.connected_at.is_not(None), Seat.connected_at >= now - present_window(ctx))


async def _unmark_returned(ctx: Context, now: datetime) -> set[int]:
    async with ctx.sessions() as session:
        rows = (await session.execute(
            select(Seat.table_id, Seat.seat).join(Table, Table.id == Seat.table_id)
            .where(Seat.away_since.is_not(None), Seat.seen_at.is_not(None),
                   or_(~_gone_since(ctx, now), _connected(ctx, now)))
            .with_for_update(of=Seat, skip_locked=True))).all()
        for game_id, seat in rows:
            await session.execute(update(Seat).where(Seat.table_id == game_id, Seat.seat == seat)
                                  .values(away_since=None, away_deadline=None))
        await session.commit()
    return {game_id for game_id, _ in rows}

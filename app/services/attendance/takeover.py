"""A bot playing a person's seat: after a time-out, when they leave or resign, when they are away;
and their return.

As in Board Game Arena's zombie mode, the default bot plays the seat until the person comes
back (a WebSocket ``hello`` from them reclaims it), unless they resigned.  The others at
the table may hand the seat of a person who is away to the bot (:func:`hand_away_seat`).
Why: docs/decisions.md, *A bot for an absent player*.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import or_, select, update

from app.db.models import Seat, Table, utcnow
from app.db.results import rowcount
from app.fanout import Marker
from app.services.context import Context
from app.services.errors import AppError
from app.services.attendance.presence import aware, present_window

RECLAIMABLE = ("timeout", "left", "away")


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
            raise AppError("not_found", "no table {game_id}", game_id=game_id)
        if not seated:
            raise AppError("not_seated", "you have no seat in this game")
        if table.status != "running":
            raise AppError("conflict", "this game is not running")
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.account_id == account_id, _running(game_id),
                               Seat.takeover.is_distinct_from("resigned"), Seat.takeover.is_distinct_from(reason))
            .values(takeover=reason, deadline=None)
        )
        if rowcount(result) != 1:
            held = await session.scalar(select(Seat.takeover).where(Seat.table_id == game_id,
                                                                   Seat.account_id == account_id))
            if held == reason != "resigned":
                return  # left twice: nothing changes, nobody is told again
            raise AppError("not_seated", "you have no seat in this game (or you resigned)")
        await session.commit()
    await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)


async def reclaim(ctx: Context, game_id: int, account_id: int, move_seconds: int | None, acting: bool) -> bool:
    """Give a returning person their seat back from the bot (not after resigning); True if it changed.

    If the seat is to act, a fresh deadline starts.
    """
    deadline = utcnow() + timedelta(seconds=move_seconds) if move_seconds and acting else None
    async with ctx.sessions() as session:
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.account_id == account_id, _running(game_id),
                               Seat.takeover.in_(RECLAIMABLE))
            .values(takeover=None, deadline=deadline, away_since=None, away_deadline=None)
        )
        await session.commit()
    if rowcount(result) == 1:
        await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)
        return True
    return False


async def hand_away_seat(ctx: Context, game_id: int, account_id: int, seat: int) -> None:
    """Let the default bot play ``seat`` of a running game because its person is away:
    takeover ``"away"``, until the person returns (a ``hello``).

    ``account_id`` asks: the host, or any other seated player when the host is the one away (or
    no longer plays their own seat).  Raises ``AppError``: ``not_found`` (no such table, or a
    private one the account has no seat at), ``not_seated`` (a spectator), ``bad_request`` (no
    such seat), ``forbidden`` (not the host while the host is around), ``conflict`` (the game is
    not running; a bot already plays the seat; its person is not away; one's own seat, which
    *Leave* hands over).  Nothing changes then.  A person with a socket open on the game is never
    away (``presence.present_window``), whatever the settings.
    """
    now = utcnow()
    async with ctx.sessions() as session:
        table = (await session.execute(select(Table.status, Table.private, Table.creator_id, Table.seat_count)
                                       .where(Table.id == game_id))).first()
        seats = {row.seat: row for row in (await session.execute(
            select(Seat.seat, Seat.account_id, Seat.bot_level, Seat.takeover, Seat.away_since, Seat.connected_at)
            .where(Seat.table_id == game_id))).all()} if table is not None else {}
        mine = next((row for row in seats.values() if row.account_id == account_id), None)
        if table is None or (table.private and mine is None):
            raise AppError("not_found", "no table {game_id}", game_id=game_id)
        if mine is None:
            raise AppError("not_seated", "only the players of this game can hand a seat to a bot")
        if table.status != "running":
            raise AppError("conflict", "this game is not running")
        if not 0 <= seat < table.seat_count:
            raise AppError("bad_request", "this table has seats 0 to {seat_count}", seat_count=table.seat_count - 1)
        target = seats[seat]
        if target.account_id is None or target.takeover is not None:
            raise AppError("conflict", "a bot already plays this seat")
        if target.account_id == account_id:
            raise AppError("conflict", "this is your own seat: use Leave table to let a bot play it")
        if target.away_since is None or _connected(ctx, target.connected_at, now):
            raise AppError("conflict", "this player is not away")
        host = next((row for row in seats.values() if row.account_id == table.creator_id), None)
        host_around = host is not None and host.takeover is None and host.away_since is None
        if account_id != table.creator_id and host_around:
            raise AppError("forbidden", "only the host can hand a seat to a bot while the host is here")
        result = await session.execute(
            update(Seat).where(Seat.table_id == game_id, Seat.seat == seat, Seat.account_id == target.account_id,
                               Seat.takeover.is_(None), Seat.away_since.is_not(None), _running(game_id),
                               or_(Seat.connected_at.is_(None), Seat.connected_at < now - present_window(ctx)))
            .values(takeover="away", deadline=None, away_deadline=None)
        )
        if rowcount(result) != 1:  # they came back (or another player was quicker) meanwhile
            raise AppError("conflict", "this player is not away any more")
        await session.commit()
    await ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)


def _running(game_id: int):
    """The condition "game ``game_id`` still runs": once it has ended, who played which seat at its
    end (its abandonments, ``services/games/abandonment.py``) stays as it was."""
    return Seat.table_id.in_(select(Table.id).where(Table.id == game_id, Table.status == "running"))


def _connected(ctx: Context, connected_at, now) -> bool:
    """Whether a socket of the seat's person was written down as open within the present window."""
    connected_at = aware(connected_at)
    return connected_at is not None and connected_at >= now - present_window(ctx)

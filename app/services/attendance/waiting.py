"""Who is at an open table's waiting room, and the start of a timed game only with everyone there.

Taking a seat is agreeing to the table's terms, its move clock included, but not to a game that
starts while one is gone: a clock that runs for someone who does not know the game began hands
their seat to a bot and costs them rating by no rule they could follow.  So a person seated at an
open table is *seen* (``seats.seen_at``) when they take the seat and each time their waiting room
asks for the table (its page polls it, also from a background tab), and the host may start a
timed game only while every other seated person has been seen within the table's away time
(``absent_after_seconds`` for live tables, ``turn_based_absent_after_hours`` for turn-based ones,
as in play: ``app/services/leader/absence.py``).  Otherwise the start is refused, naming who is
gone; opening the table brings them back.  An untimed game may start with anyone gone: nothing
happens to their seat until they come (no bot takes it over by itself).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import TURN_BASED, Account, Seat, Table, utcnow
from app.services.context import Context
from app.services.errors import AppError
from app.services.attendance.presence import aware


class Away(NamedTuple):
    """A seated person not at an open table: who, and since when (UTC) they count as away."""

    account_id: int
    name: str
    since: datetime


async def saw(ctx: Context, session: AsyncSession, table_id: int, account_id: int) -> None:
    """Note that ``account_id`` is at the open table ``table_id``'s waiting room now; commits.
    Nothing when they have no seat there, or were noted in the last ``presence_refresh_seconds``
    (its page asks every 2 s; the away time is at least four of those, ``app/config.py``)."""
    now = utcnow()
    every = timedelta(seconds=ctx.settings.presence_refresh_seconds)
    await session.execute(update(Seat).where(
        Seat.table_id == table_id, Seat.account_id == account_id,
        or_(Seat.seen_at.is_(None), Seat.seen_at < now - every)).values(seen_at=now))
    await session.commit()


def away_time(ctx: Context, pace: str) -> timedelta:
    """How long a person may be gone before they count as away at a table of ``pace`` (in play too:
    ``app/services/leader/absence.py``)."""
    if pace == TURN_BASED:
        return timedelta(hours=ctx.settings.turn_based_absent_after_hours)
    return timedelta(seconds=ctx.settings.absent_after_seconds)


async def away_seats(ctx: Context, session: AsyncSession, table: Table,
                     now: datetime | None = None) -> dict[int, Away]:
    """The seats of the open ``table`` whose person has not been seen there within its away time,
    in seat order (a person never seen there, as at a table stored before this rule, counts as
    seen at its creation)."""
    wait = away_time(ctx, table.pace)
    since = (now or utcnow()) - wait
    rows = (await session.execute(
        select(Seat.seat, Seat.account_id, Account.name, Seat.seen_at).join(Account, Account.id == Seat.account_id)
        .where(Seat.table_id == table.id).order_by(Seat.seat))).all()
    away = {}
    for seat, account_id, name, seen_at in rows:
        assert account_id is not None  # the join keeps the seats people sit at
        last = aware(seen_at) or aware(table.created_at) or since
        if last <= since:
            away[seat] = Away(account_id, name, last + wait)
    return away


async def gone_from_timed_table(ctx: Context, session: AsyncSession, table: Table, host_id: int | None = None,
                                now: datetime | None = None) -> dict[int, str]:
    """The seated people other than ``host_id`` who have not been seen at ``table`` within its away
    time, ``{seat: name}``, when it is an open, timed table (see the module's docstring); ``{}`` for
    any other table."""
    if table.status != "open" or not table.move_seconds:
        return {}
    return {seat: away.name for seat, away in (await away_seats(ctx, session, table, now)).items()
            if away.account_id != host_id}


def not_here(gone: dict[int, str]) -> AppError:
    """The refusal to start a timed game without the people ``gone`` (``gone_from_timed_table``)."""
    if len(gone) == 1:
        return AppError("conflict", "{name} is not at the table, and with a move clock the game would run without them: "
                        "wait until they open the table, or start with a bot or fewer seats in their place",
                        name=next(iter(gone.values())))
    return AppError("conflict", "{names} are not at the table, and with a move clock the game would run without them: "
                    "wait until they open the table, or start with bots or fewer seats in their place",
                    names=", ".join(gone.values()))

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

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Seat, Table, utcnow
from app.services.context import Context
from app.services.errors import AppError
from app.services.attendance.presence import aware

TURN_BASED = "turn_based"
"""``tables.pace`` of a turn-based table (``tables.changes.TURN_BASED``, a layer above this one)."""
SEEN_EVERY = timedelta(seconds=5)
"""A waiting room's poll writes ``seen_at`` at most this often (its page asks every 2 s)."""


async def saw(session: AsyncSession, table_id: int, account_id: int) -> None:
    """Note that ``account_id`` is at the open table ``table_id``'s waiting room now (nothing when they
    have no seat there, or were noted in the last ``SEEN_EVERY``); commits."""
    now = utcnow()
    await session.execute(update(Seat).where(
        Seat.table_id == table_id, Seat.account_id == account_id,
        or_(Seat.seen_at.is_(None), Seat.seen_at < now - SEEN_EVERY)).values(seen_at=now))
    await session.commit()


def away_time(ctx: Context, pace: str) -> timedelta:
    """How long a person may be gone before they count as away at a table of ``pace``."""
    if pace == TURN_BASED:
        return timedelta(hours=ctx.settings.turn_based_absent_after_hours)
    return timedelta(seconds=ctx.settings.absent_after_seconds)


async def check_everyone_here(ctx: Context, session: AsyncSession, table_id: int, host_id: int,
                              now: datetime | None = None) -> None:
    """Raise ``AppError(conflict)`` naming the seated people other than ``host_id`` who have not been
    seen at the open, timed table ``table_id`` within its away time (see the module's docstring);
    nothing for an untimed table."""
    table = (await session.execute(select(Table.move_seconds, Table.pace).where(Table.id == table_id))).one()
    if not table.move_seconds:
        return
    since = (now or utcnow()) - away_time(ctx, table.pace)
    rows = (await session.execute(
        select(Account.name, Seat.seen_at).join(Account, Account.id == Seat.account_id)
        .where(Seat.table_id == table_id, Seat.account_id.is_not(None), Seat.account_id != host_id)
        .order_by(Seat.seat))).all()
    gone = [name for name, seen_at in rows if (aware(seen_at) or since) <= since]
    if len(gone) == 1:
        raise AppError("conflict", "{name} is not at the table, and with a move clock the game would run without "
                       "them: start when they are back (opening the table brings them back)", name=gone[0])
    if gone:
        raise AppError("conflict", "{names} are not at the table, and with a move clock the game would run without "
                       "them: start when they are back (opening the table brings them back)", names=", ".join(gone))

"""Presence across processes (docs/decisions.md, *Presence in the seats*): who has a game open, wherever their socket is.

A seat is *present* while any socket of its person is open on any process.  Each process writes
that down in the database: every ``presence_refresh_seconds`` it sets ``seats.connected_at`` and
``seats.seen_at`` to now, in one statement, for the seats its greeted sockets hold.  ``seen_at``
alone also moves for a sign of life without a socket: a move over REST (as scripts make) and the
start of the game (nobody is away before the game could reach them); it says who is *away*, while
``connected_at`` alone says who is *present* (a turn notice is not needed while a tab is open, but
starting a game from a script opens no tab).  A process that dies, even by kill -9, simply stops
writing, so its seats fall behind by themselves; nothing has to notice the death.

From ``seen_at`` the leader (``app/services/leader/absence.py``) decides who is *away*: a person not
seen for ``absent_after_seconds`` (live tables) or ``turn_based_absent_after_hours`` (turn-based
tables) gets ``seats.away_since``, and everyone at the table is told.  A ``hello`` from the person
(:meth:`Presence.arrived`) clears it at once.

Other services ask through :func:`is_present` ("is a socket of this seat open anywhere?", e.g. a
"your turn" notice is not needed then) and :func:`is_away` ("has the person been gone long
enough that others may hand the seat to a bot?").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import select, tuple_, update

from app.db.models import Seat, Table, utcnow
from app.db.results import rowcount
from app.services.context import Context
from app.services.errors import AppError
from app.fanout import Marker
from app.tasks import wind_down

log = logging.getLogger(__name__)

PRESENT_REFRESHES = 3
"""A seat last refreshed more than this many refresh periods ago has no socket open on any process."""
CHUNK = 1000
"""Seats per statement (PostgreSQL takes at most 32767 parameters)."""


@dataclass(frozen=True)
class SeatPresence:
    """What the database says of one seat's person: ``present`` (a socket of theirs is open on some
    process: ``connected_at`` is recent), ``away`` (not seen for long enough to count as away), and
    the two moments behind ``away``."""

    present: bool
    away: bool
    seen_at: datetime | None
    away_since: datetime | None


def present_window(ctx: Context) -> timedelta:
    """How recent ``connected_at`` must be for the seat to count as present."""
    return timedelta(seconds=PRESENT_REFRESHES * ctx.settings.presence_refresh_seconds)


async def seat_presence(ctx: Context, game_id: int, seat: int) -> SeatPresence:
    """The presence of ``seat``'s person at ``game_id``.

    Raises ``AppError(not_found)`` when there is no such seat or nobody sits there (a bot, an empty seat).
    """
    async with ctx.sessions() as session:
        row = (await session.execute(select(Seat.account_id, Seat.seen_at, Seat.connected_at, Seat.away_since)
                                     .where(Seat.table_id == game_id, Seat.seat == seat))).first()
    if row is None or row.account_id is None:
        raise AppError("not_found", "no person at seat {seat} of table {game_id}", seat=seat, game_id=game_id)
    seen_at, connected_at = aware(row.seen_at), aware(row.connected_at)
    present = connected_at is not None and connected_at >= utcnow() - present_window(ctx)
    return SeatPresence(present=present, away=row.away_since is not None, seen_at=seen_at,
                        away_since=aware(row.away_since))


async def is_present(ctx: Context, game_id: int, seat: int) -> bool:
    """Whether a socket of ``seat``'s person is open on any process now (to within a few seconds)."""
    return (await seat_presence(ctx, game_id, seat)).present


async def is_away(ctx: Context, game_id: int, seat: int) -> bool:
    """Whether ``seat``'s person is away (what the other players are shown)."""
    return (await seat_presence(ctx, game_id, seat)).away


class Presence:
    """This process's part of presence: refreshes ``seen_at`` for its sockets, and greets returns.

    ``greeted`` lists the ``(game, seat)`` pairs that have a greeted socket on this process (the
    hub's); it is read at each refresh.
    """

    def __init__(self, ctx: Context, greeted: Callable[[], Iterable[tuple[int, int]]]) -> None:
        self._ctx = ctx
        self._greeted = greeted
        self._movers: set[tuple[int, int]] = set()  # (game, account) that moved over REST since the last refresh
        self._task: asyncio.Task | None = None
        self._stopping = asyncio.Event()

    def saw(self, game_id: int, account_id: int) -> None:
        """Note that ``account_id`` just acted at ``game_id`` (a REST move); written at the next refresh."""
        self._movers.add((game_id, account_id))

    async def start(self) -> None:
        """Refresh in the background every ``presence_refresh_seconds``."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop refreshing (a refresh under way finishes)."""
        self._stopping.set()
        if self._task is not None:
            await wind_down([self._task])

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence refresh failed")
            try:
                await asyncio.wait_for(self._stopping.wait(), self._ctx.settings.presence_refresh_seconds)
            except TimeoutError:
                pass

    async def refresh(self) -> int:
        """Set ``seen_at`` (and, for the seats with a socket here, ``connected_at``) to now for every
        seat this process sees; returns how many seats were written.

        Rows a move's transaction holds locked right now are skipped (PostgreSQL ``SKIP LOCKED``):
        the refresh never waits for a move nor deadlocks with one, and those seats are written at
        the next refresh, long before anyone could count as away.
        """
        seats = sorted(set(self._greeted()))
        movers, self._movers = sorted(self._movers), set()
        if not seats and not movers:
            return 0
        now = utcnow()
        written = 0
        async with self._ctx.sessions() as session:
            for columns, pairs, values in (((Seat.table_id, Seat.seat), seats, {"seen_at": now, "connected_at": now}),
                                           ((Seat.table_id, Seat.account_id), movers, {"seen_at": now})):
                for start in range(0, len(pairs), CHUNK):
                    chosen = (select(Seat.table_id, Seat.seat).where(tuple_(*columns).in_(pairs[start:start + CHUNK]))
                              .with_for_update(skip_locked=True))
                    result = await session.execute(update(Seat).where(tuple_(Seat.table_id, Seat.seat).in_(chosen))
                                                   .values(**values))
                    written += rowcount(result)
            await session.commit()
        return written

    async def arrived(self, game_id: int, seat: int, socket: bool = True) -> None:
        """``seat``'s person said hello (``socket``) or read the game over REST: seen now, no longer
        away; an abandoned game runs again.

        Everyone at the table is told (a seating change) when that changed what they see.
        """
        async with self._ctx.sessions() as session:
            row = (await session.execute(
                select(Seat.account_id, Seat.away_since, Table.status).join(Table, Table.id == Seat.table_id)
                .where(Seat.table_id == game_id, Seat.seat == seat))).first()
            if row is None or row.account_id is None:
                return
            now = utcnow()
            seen = {"seen_at": now, "connected_at": now} if socket else {"seen_at": now}
            await session.execute(update(Seat).where(Seat.table_id == game_id, Seat.seat == seat)
                                  .values(**seen, away_since=None, away_deadline=None))
            revived = False
            if row.status == "abandoned":
                # The last activity stays that of the game (updated_at is the lobby's "last move").
                result = await session.execute(update(Table).where(Table.id == game_id, Table.status == "abandoned")
                                               .values(status="running", updated_at=Table.updated_at))
                revived = rowcount(result) == 1
            await session.commit()
        if row.away_since is not None or revived:
            await self._ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes, which are UTC here."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment

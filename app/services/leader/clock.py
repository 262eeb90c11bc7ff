"""Time control: the watcher that enforces the stored move deadlines (set in ``deadlines.py``).

A table may have a per-move limit (``tables.move_seconds``: 60 for real-time play,
86400 x days for turn-based play).  Whenever a seat comes to act its deadline is set; when it
passes, the default bot takes the seat over (``takeover = "timeout"``) and everyone is told.
Where the rules themselves settle a time-out (``Ruleset.timeout_move``: Nomadi declines an
unanswered offer), that move is made instead and the seat stays its person's.
Deadlines live in ``seats.deadline``, so a restart does not forget them: the watcher of the
next process finds the overdue ones.

Only the leader (``app/services/leader/leadership.py``) watches; each tick it also deals with
absent players (``app/services/leader/absence.py``), and once a minute marks deserted games abandoned.
Clocks stop while no server runs: on becoming the leader, the watcher first moves the deadlines on by
the time no leader was alive, and then keeps writing that it is (``app/services/leader/downtime.py``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from sqlalchemy import select, update

from app.db.models import Seat, Table, utcnow
from app.db.results import rowcount
from app.services.leader import absence, downtime
from app.services.accounts import audit
from app.services.context import Context
from app.services.errors import AppError
from app.services.games.pipeline import load_snapshot, submit_timeout_move
from app.services.leader.housekeeping import expire_open_tables
from app.services.leader.leadership import Leadership
from app.fanout import Marker
from app.tasks import wind_down

log = logging.getLogger(__name__)


class DeadlineWatcher:
    """Every ``tick_seconds``, on the leader only, hands each overdue seat of a running game to the
    default bot, deals with absent players (``absence.watch``) and writes the command line's admin
    actions to this server's log (``audit.relay_cli_actions``, every ``audit.RELAY_SECONDS``); once a
    minute it closes open tables older than ``open_table_hours`` and marks deserted games abandoned.

    The hand-over is a guarded update (only a seat still overdue and still played by its person
    changes), so even two processes that both believe they lead take a seat over once.
    ``leadership``: None watches unconditionally (a process of its own, as in some tests).
    """

    def __init__(self, ctx: Context, tick_seconds: float = 1.0, leadership: Leadership | None = None) -> None:
        self._ctx = ctx
        self._tick = tick_seconds
        self._leadership = leadership
        self._task: asyncio.Task | None = None
        self._stopping = asyncio.Event()
        self._last_beat: float | None = None  # monotonic time of our last heartbeat; None: not leading

    async def start(self) -> None:
        """Begin watching in the background."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop watching; a check under way finishes first (``app.tasks.wind_down``)."""
        self._stopping.set()
        if self._task:
            await wind_down([self._task])
        if self._last_beat is not None:  # a planned stop: the clocks stop from now, not from the last beat
            try:
                await downtime.beat(self._ctx)
            except Exception:
                log.exception("writing the last heartbeat failed")

    async def _run(self) -> None:
        last_sweep = last_relay = 0.0
        while not self._stopping.is_set():
            try:
                if self._leadership is not None and not self._leadership.is_leader:
                    self._last_beat = None  # when it leads again, it first gives back the time nobody led
                else:
                    await self._keep_time()
                    await self.check()
                    await absence.watch(self._ctx)
                    if time.monotonic() - last_sweep > 60:
                        last_sweep = time.monotonic()
                        await expire_open_tables(self._ctx, timedelta(hours=self._ctx.settings.open_table_hours))
                        await absence.abandon_deserted(self._ctx)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline check failed")
            try:
                leading = self._leadership is None or self._leadership.is_leader
                if leading and time.monotonic() - last_relay >= audit.RELAY_SECONDS:
                    last_relay = time.monotonic()
                    async with self._ctx.sessions() as session:  # command-line admin actions into our log
                        await audit.relay_cli_actions(session)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("relaying the command line's admin actions to the log failed")
            try:
                await asyncio.wait_for(self._stopping.wait(), self._tick)
            except TimeoutError:
                pass

    async def _keep_time(self) -> None:
        """On becoming the leader, give back the time no leader ran (before any deadline is
        enforced); then every ``downtime.HEARTBEAT_SECONDS`` write a heartbeat, giving back the time
        first should the last one be too old (the process or its machine was frozen meanwhile)."""
        if self._last_beat is None or time.monotonic() - self._last_beat >= downtime.HEARTBEAT_SECONDS:
            await downtime.resume_clocks(self._ctx)
            self._last_beat = time.monotonic()

    async def check(self) -> list[tuple[int, int]]:
        """Deal with every overdue seat now: make the ruleset's time-out move where the rules fix one
        (``Ruleset.timeout_move``), else let the default bot take the seat over; returns the
        ``(game, seat)`` pairs taken over."""
        now = utcnow()
        async with self._ctx.sessions() as session:
            found = (await session.execute(
                select(Seat.table_id, Seat.seat).join(Table, Table.id == Seat.table_id)
                .where(Table.status == "running", Seat.deadline <= now, Seat.takeover.is_(None),
                       Seat.account_id.is_not(None))
            )).all()
        overdue = [(game_id, seat) for game_id, seat in found if not await self._timeout_move(game_id, seat)]
        taken = []
        for game_id, seat in overdue:
            async with self._ctx.hold_table(game_id) as held, self._ctx.sessions() as session:
                result = await session.execute(
                    update(Seat).where(Seat.table_id == held.check(), Seat.seat == seat, Seat.deadline <= now,
                                       Seat.takeover.is_(None))
                    .values(takeover="timeout", deadline=None)
                )
                await session.commit()
            if rowcount(result) == 1:
                taken.append((game_id, seat))
        for game_id, _ in taken:
            await self._ctx.fanout.publish(game_id, Marker.SEATING_CHANGED)
        return taken

    async def _timeout_move(self, game_id: int, seat: int) -> bool:
        """Make the move the rules fix for ``seat``'s time-out, if any; True if the seat is dealt with."""
        snapshot = await load_snapshot(self._ctx, game_id)
        ruleset = self._ctx.registry.get(snapshot.ruleset)
        move = ruleset.timeout_move(snapshot.state, seat) if seat in ruleset.to_act(snapshot.state) else None
        if move is None:
            return False
        try:
            await submit_timeout_move(self._ctx, game_id, seat, snapshot.version, ruleset.dump_move(move))
        except AppError as exc:  # the person moved meanwhile (or another process was first): look again next tick
            log.info("time-out move of seat %s in game %s not made: %s", seat, game_id, exc.message)
        return True

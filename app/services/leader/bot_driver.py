"""Server-side bots: after each commit, the bot seats that are to act make their moves.

Subscribed to the fan-out like the WebSocket hub.  A bot's move is an ordinary move of its
seat through the same pipeline (stored, broadcast); the bot sees ``view(state, seat)`` and its
legal moves only.  Only the leader drives bots (``app/services/leader/leadership.py``), so
each bot move is computed once however many processes serve the database; a process that becomes
the leader (at start, or when the previous one died) resumes every game where a bot is owed a
move, whatever put the bot there.  The client move id ``bot:<version>:<seat>`` still makes a move
committed twice impossible, should two processes both believe they lead for a moment.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import or_, select

from app.bots import DEFAULT_MOVE_SECONDS, make_bot
from app.bots.workers import BotPool
from app.db.models import Seat, Table
from app.rulesets.base import MoveModel, Rng, Ruleset
from app.rulesets.registry import Registry
from app.services.games import pipeline as games
from app.services.context import Context
from app.services.errors import AppError
from app.services.leader.leadership import Leadership
from app.fanout import Marker, game_changed
from app.tasks import wind_down

log = logging.getLogger(__name__)


class BotDriver:
    """Plays every bot seat of the games this process hears about, one game at a time per task.

    ``delay_seconds`` is a pause before each bot move, so people can follow what bots do.
    ``leadership``: bots move only while it says this process leads (None: always, as in a
    process of its own).  ``move_seconds``: the strong bot's time a move.  ``processes``: how many
    worker processes compute bot moves (:class:`app.bots.workers.BotPool`, started on the first
    bot move, so on the leader only); 0 computes them in a thread of this process instead, which
    holds its event loop back while a search runs (tests, tiny hosts).  ``extra_rulesets``: the
    ``module:Class`` paths the workers load besides the entry points, as the server does.
    """

    def __init__(self, ctx: Context, delay_seconds: float = 0.0, leadership: Leadership | None = None,
                 move_seconds: float = DEFAULT_MOVE_SECONDS, processes: int = 0,
                 extra_rulesets: list[str] | None = None) -> None:
        self._ctx = ctx
        self._delay = delay_seconds
        self._leadership = leadership
        self._move_seconds = move_seconds
        self._pool = BotPool(processes, extra_rulesets) if processes > 0 else None
        self._extra_rulesets = list(extra_rulesets or [])
        self._registry_of_workers: Registry | None = None
        self._worker_classes: dict[str, type | None] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self._dirty: set[int] = set()
        self._stopping = False
        self._stopped = asyncio.Event()  # wakes bots waiting out their delay at shutdown
        ctx.fanout.subscribe(self.on_version)

    def on_version(self, game_id: int, version: int) -> None:
        """Fan-out listener: make sure a task looks at ``game_id``'s bots (after a move, a start or a
        change of seats; a chat message or a rematch notice changes nothing for them)."""
        if not game_changed(version) or not self._leading():
            return
        cached = self._ctx.cache.get(game_id)
        if cached is not None and cached.version >= version and not any(cached.bots):
            return  # a game of people only: nothing to do, and no database work on the hot path
        if self._stopping:
            return
        if game_id in self._tasks:
            self._dirty.add(game_id)  # the running task looks again before it ends
            return
        self._tasks[game_id] = asyncio.create_task(self._drive(game_id))

    async def resume(self) -> None:
        """On becoming the leader (at start-up, or when the last leader died): look at every running
        game where a bot plays a seat, a bot seat or one taken over from its person for any reason
        (moves they owe survive restarts)."""
        for game_id in await self._games_with_bots():
            self.on_version(game_id, Marker.SEATING_CHANGED)

    async def sweep(self) -> None:
        """Look at every running game with a bot seat that no task of this process is looking at, as
        :meth:`resume` does.  A bot move it then makes was owed with nobody about to make it (a
        notice lost or late, a task that ended early): logged as a warning and counted
        (``bot_failures{reason="stalled"}``), since every commit should have set a look going."""
        if not self._leading() or self._stopping:
            return
        for game_id in await self._games_with_bots():
            if game_id not in self._tasks and not self._stopping:
                # Its seats are read again: a cached snapshot may hold seats older than the database's
                # when the news of their change never came (the very case this is for).
                self._ctx.cache.forget(game_id)
                self._tasks[game_id] = asyncio.create_task(self._drive(game_id, swept=True))

    async def sweep_forever(self, interval_seconds: float) -> None:
        """:meth:`sweep` every ``interval_seconds`` (until cancelled): the safety net under the
        fan-out's notices, so a game never waits for good on a bot's move."""
        while True:
            await asyncio.sleep(interval_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("looking for bot moves owed failed")

    async def _games_with_bots(self) -> list[int]:
        async with self._ctx.sessions() as session:
            return list(await session.scalars(
                select(Table.id).join(Seat, Seat.table_id == Table.id)
                .where(Table.status == "running", or_(Seat.bot_level.is_not(None), Seat.takeover.is_not(None)))
                .distinct()
            ))

    async def settled(self) -> None:
        """Wait until no game has a bot task running or owed (a barrier for tests: once it returns,
        every bot move the commits so far called for has been made or found unowed)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def _leading(self) -> bool:
        return self._leadership is None or self._leadership.is_leader

    def release_workers(self) -> None:
        """On losing the leadership: stop the worker processes (another process drives the bots
        now; their memory and any search under way are this process's no more).  They start
        again with this process's next bot move, should it lead again."""
        if self._pool is not None:
            self._pool.shutdown()

    async def stop(self) -> None:
        """Shutdown: no new bot moves; a move under way finishes (``app.tasks.wind_down``)."""
        self._stopping = True
        self._stopped.set()
        await wind_down(list(self._tasks.values()))
        if self._pool is not None:
            await asyncio.to_thread(self._pool.shutdown, True)

    async def _drive(self, game_id: int, swept: bool = False) -> None:
        try:
            while not self._stopping:
                self._dirty.discard(game_id)
                moved = await self._play_one(game_id)
                if moved and swept:
                    self._ctx.metrics.bot_failures.labels("stalled").inc()
                    log.warning("a bot of game %s was owed a move that nothing had set going; made by the sweep",
                                game_id)
                swept = False
                if not moved and game_id not in self._dirty:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            self._ctx.metrics.bot_failures.labels("crashed").inc()
            log.exception("bot driver failed in game %s", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def _play_one(self, game_id: int) -> bool:
        """One bot move if a bot is to act; returns whether it tried one."""
        try:
            snapshot = await games.load_snapshot(self._ctx, game_id)
        except AppError:  # a table whose game has not started (or is gone): nothing to play
            return False
        if snapshot.status != "running" or not any(snapshot.bots):
            return False
        ruleset = self._ctx.registry.get(snapshot.ruleset)
        acting = [(seat, level) for seat in sorted(ruleset.to_act(snapshot.state)) if (level := snapshot.bots[seat])]
        if not acting:
            return False
        seat, level = acting[0]
        if self._delay:
            try:
                await asyncio.wait_for(self._stopped.wait(), self._delay)
                return False  # shutting down: the move is made after the restart (resume)
            except TimeoutError:
                pass
        if not self._leading():
            return False  # another process leads now: it resumed this game when it took over
        view = ruleset.view(snapshot.state, seat)
        legal = ruleset.legal_moves(snapshot.state, seat)
        self._ctx.metrics.bot_moves_computed.inc()
        seed = game_id * 1_000_003 + snapshot.version * 31 + seat
        move = await self._choose(ruleset, level, view, legal, seat, seed)
        try:
            move_id = games.bot_move_id(snapshot.version, seat)
            await games.submit_bot_move(self._ctx, game_id, seat, move_id, snapshot.version, move)
        except AppError as exc:
            if exc.code == "not_seated":  # its person took the seat back while the bot was thinking: no fault
                log.info("bot at seat %s of game %s no longer plays it (its person is back): move dropped",
                         seat, game_id)
                return False
            if exc.code not in ("stale_version", "not_your_turn"):  # those: another process moved first
                self._ctx.metrics.bot_failures.labels("refused").inc()
                log.error("bot at seat %s of game %s was refused: %s", seat, game_id, exc.message)
                return False
        return True

    async def _choose(self, ruleset: Ruleset, level: str, view: dict[str, Any], legal: list[MoveModel], seat: int,
                      seed: int) -> dict[str, Any]:
        """The bot's move in JSON form: in a worker process when there is a pool and it knows the
        ruleset's class as this process does, else in a thread (a pool that broke: this move)."""
        if self._pool is not None and self._same_ruleset_in_workers(ruleset):
            try:
                return await self._pool.choose(ruleset.name, level, view, [ruleset.dump_move(m) for m in legal], seat,
                                               seed, self._move_seconds)
            except BrokenProcessPool:
                log.error("a bot worker process died; this move is computed in the server process")
        bot = make_bot(level, seconds=self._move_seconds)
        move = await asyncio.to_thread(bot.choose, ruleset, view, legal, seat, Rng(seed))
        return ruleset.dump_move(move)

    def _same_ruleset_in_workers(self, ruleset: Ruleset) -> bool:
        """Whether a worker's registry (entry points and ``extra_rulesets``) has this ruleset's class
        under its name; a ruleset registered some other way (a test's) is played in a thread."""
        if ruleset.name not in self._worker_classes:
            try:
                self._worker_classes[ruleset.name] = type(self._worker_registry().get(ruleset.name))
            except KeyError:
                self._worker_classes[ruleset.name] = None
        return self._worker_classes[ruleset.name] is type(ruleset)

    def _worker_registry(self) -> Registry:
        if self._registry_of_workers is None:
            self._registry_of_workers = Registry.discover(self._extra_rulesets)
        return self._registry_of_workers

""""Your turn" notices: after commit, off the move's path, from one process.

Subscribed to the fan-out like ``BotDriver``: a new version (or a change of seats) only marks the
game for a look; one background task looks at the marked games, notes in the database whose turn
is owed a notice (``notify/turns.py``), and hands each notice to the channels (Web Push, e-mail),
which send it in tasks of their own with a time limit.  A move's acknowledgement never waits for
any of this.

Who is told what (docs/playing.md, "Turn notices"):

* only people who chose a channel (opt-in), for seats they play themselves (not while a bot
  plays it), once per turn;
* not while they have the table open (``is_present``); the turn is told once they leave it
  (looked at again every ``notify_check_seconds``);
* when only that game waits for them: a notice of that turn, at once; when several games wait:
  a digest naming them all, at most every ``notify_digest_minutes`` (a digest held back leaves
  when the time comes, if a turn it would tell still waits).

Two seams, wired in ``app/main.py``: ``is_leader()``
(only the process holding the leadership looks and sends; the others drop the news, since the
leader hears the same fan-out) and ``is_present(game_id, seat)`` (the seat's person has the game
open on any process).  The defaults fit one process: always the leader, and this process's hub.
Notices are claimed in the database before they leave, so even two leaders never tell one turn twice.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from datetime import datetime

from sqlalchemy import select

from app.db.models import Account, utcnow
from app.services.games import pipeline as games
from app.services.games.cache import GameSnapshot
from app.services.context import Context
from app.services.errors import AppError
from app.services.notify import preferences, turns
from app.services.notify.channels import Channel
from app.services.notify.messages import Notice, WaitingGame, digest_notice, turn_notice
from app.fanout import Marker, game_changed
from app.tasks import wind_down

log = logging.getLogger(__name__)

Presence = Callable[[int, int], Awaitable[bool]]
LEADER_POLL_SECONDS = 2.0


class Notifier:
    """Tells people their turn through ``channels``.

    ``is_leader``: whether this process sends notices now (checked at every look, and at least
    every ``LEADER_POLL_SECONDS`` while it is not: a new leader catches up at once).
    ``is_present``: async, whether ``seat``'s person has ``game_id`` open.
    ``clock``: the current time (UTC, aware); tests move it to cross digest intervals.
    All three are public attributes, to be wired after construction too.
    """

    def __init__(self, ctx: Context, channels: list[Channel], is_present: Presence,
                 is_leader: Callable[[], bool] = lambda: True, clock: Callable[[], datetime] = utcnow) -> None:
        self._ctx = ctx
        self._channels = channels
        self.is_present = is_present
        self.is_leader = is_leader
        self.clock = clock
        self._marked: dict[int, int] = {}  # game -> newest version heard (Marker.SEATING_CHANGED: the seats changed)
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._sends: set[asyncio.Task] = set()
        self._busy = False
        self._account_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        ctx.fanout.subscribe(self.on_version)

    def on_version(self, game_id: int, version: int) -> None:
        """Fan-out listener: mark the game for a look (a move, a start, a change of seats); returns at once."""
        if not game_changed(version) or self._stopping.is_set():
            return
        self._marked[game_id] = max(version, self._marked.get(game_id, version))
        self._wake.set()

    async def start(self) -> None:
        """Begin in the background; the first look (as leader) catches up with every running game
        of people who want notices (moves made while no process was told)."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop looking; a look under way and notices being sent finish first (``app.tasks.wind_down``)."""
        self._stopping.set()
        self._wake.set()
        if self._task:
            await wind_down([self._task])
        await wind_down(list(self._sends))

    def nudge(self) -> None:
        """Look now (e.g. right after this process became the leader) instead of at the next tick."""
        self._wake.set()

    async def settle(self) -> None:
        """Wait until every marked game has been looked at and every notice sent (tests)."""
        while self._marked or self._busy or self._sends:
            if self._sends:
                await asyncio.gather(*list(self._sends), return_exceptions=True)
            else:
                await asyncio.sleep(0.01)

    async def check(self) -> None:
        """Look again at every turn not yet told: the person left the table, a digest came due."""
        if not self.is_leader():
            return
        async with self._ctx.sessions() as session:
            accounts = await turns.accounts_owed(session)
        for account_id in accounts:
            await self._tell(account_id)

    async def catch_up(self) -> None:
        """Look at every running game where someone who wants notices sits (after a start, or on
        becoming the leader)."""
        async with self._ctx.sessions() as session:
            game_ids = await preferences.running_games_of_wanting(session, self._ctx.settings.smtp_configured)
        for game_id in game_ids:
            self._marked.setdefault(game_id, Marker.SEATING_CHANGED)
        self._wake.set()

    async def _run(self) -> None:
        leading = False
        interval = self._ctx.settings.notify_check_seconds
        next_check = asyncio.get_running_loop().time() + interval
        while not self._stopping.is_set():
            try:
                self._busy = True
                if self.is_leader():
                    if not leading:
                        await self.catch_up()
                        leading = True  # (a catch-up that failed is tried again)
                    await self._look_at_marked()
                    if asyncio.get_running_loop().time() >= next_check:
                        next_check = asyncio.get_running_loop().time() + interval
                        await self.check()
                else:
                    leading = False
                    self._marked.clear()  # the leader hears the same news
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("turn notices: a look failed")
            finally:
                self._busy = bool(self._marked)
            if self._marked:
                continue
            self._wake.clear()
            if self._stopping.is_set():  # stop() woke us during the look: that wake-up was just cleared
                return
            # A follower waits a poll's time: its next check is not due while it follows (a pause computed
            # from a check time that only the leader moves on was 0 for good, and the loop spun).
            pause = max(0.0, next_check - asyncio.get_running_loop().time()) if leading else LEADER_POLL_SECONDS
            try:
                await asyncio.wait_for(self._wake.wait(), pause)
            except TimeoutError:
                pass

    async def _look_at_marked(self) -> None:
        while self._marked and not self._stopping.is_set():
            marked, self._marked = self._marked, {}
            try:
                owed = await self._look(marked)
            except Exception:
                log.exception("turn notices: could not look at games %s", sorted(marked)[:20])
                continue
            for account_id in sorted(owed):
                await self._tell(account_id)

    async def _look(self, marked: dict[int, int]) -> set[int]:
        """Note the turns of every game in ``marked`` (``{game_id: version}``) at that version or later;
        the accounts newly owed a notice.

        Who wants notices is read once for all the games: every move marks its game, and a query per
        move cost the busy server a fifth of its CPU; the games marked while
        one look runs are looked at together in the next.
        """
        snapshots = []
        for game_id, version in marked.items():
            snapshot = self._ctx.cache.get(game_id)  # the usual case on the process that made the move
            if snapshot is None or version < 0 or snapshot.version < version:
                try:
                    snapshot = await games.load_snapshot(self._ctx, game_id)
                except AppError:  # not started, or gone
                    continue
            snapshots.append(snapshot)
        owed: set[int] = set()
        async with self._ctx.sessions() as session:
            acting_in: dict[int, tuple[GameSnapshot, dict[int, int]]] = {}
            for snapshot in snapshots:
                if snapshot.status != "running":
                    await turns.forget_game(session, snapshot.game_id)
                    continue
                to_act = self._ctx.registry.get(snapshot.ruleset).to_act(snapshot.state)
                acting_in[snapshot.game_id] = (snapshot, {
                    info.seat: info.account_id for info in snapshot.seats
                    if info.seat in to_act and info.account_id is not None and info.played_by_bot is None})
            people = {account_id for _, acting in acting_in.values() for account_id in acting.values()}
            wanting = await preferences.accounts_wanting(session, people, self._ctx.settings.smtp_configured)
            for game_id, (snapshot, acting) in acting_in.items():
                if wanting.isdisjoint(acting.values()):  # nobody here asked for notices (rows of ended
                    continue                            # turns go when next looked at)
                try:
                    owed |= await turns.note(session, game_id, snapshot.version, acting, wanting, self.clock())
                except Exception:
                    log.exception("turn notices: could not look at game %s", game_id)
                    await session.rollback()
        return owed

    async def _tell(self, account_id: int) -> None:
        """Send the account what it is owed now, if anything (one turn, or a digest)."""
        lock = self._account_locks.get(account_id)
        if lock is None:
            lock = self._account_locks[account_id] = asyncio.Lock()
        async with lock:
            notice = await self._claim_notice(account_id)
        if notice is not None:
            task = asyncio.create_task(self._send(account_id, notice))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)

    async def _claim_notice(self, account_id: int) -> Notice | None:
        now = self.clock()
        digest_minutes = self._ctx.settings.notify_digest_minutes
        async with self._ctx.sessions() as session:
            known = await turns.of_account(session, account_id)
            waiting: list[tuple[turns.Turn, WaitingGame]] = []
            for turn in known:
                game = await self._still_waiting(turn)
                if game is None:
                    await turns.drop(session, turn)
                else:
                    waiting.append((turn, game))
            await session.commit()
            owed = [(turn, game) for turn, game in waiting
                    if turn.notified_at is None and not await self.is_present(turn.table_id, turn.seat)]
            if not owed:
                return None
            language = await session.scalar(select(Account.language).where(Account.id == account_id))
            if len(waiting) == 1:
                [(turn, game)] = owed
                notice = turn_notice(game, now, language)
            else:
                due = await preferences.next_digest_at(session, account_id, digest_minutes)
                if due is not None and now < due:
                    return None  # the check after ``due`` sends it
                await preferences.ensure_row(session, account_id)
                if not await preferences.claim_digest(session, account_id, now, digest_minutes):
                    await session.rollback()
                    return None
                new = {turn.table_id for turn, _ in owed}
                notice = digest_notice([WaitingGame(game.table_id, game.title, game.deadline, game.table_id in new)
                                        for _, game in waiting], f"/players/{account_id}", now, language)
            claimed = [await turns.claim(session, turn, now) for turn, _ in owed]
            if not any(claimed):  # told by another process meanwhile
                await session.rollback()
                return None
            await session.commit()
        return notice

    async def _still_waiting(self, turn: turns.Turn) -> WaitingGame | None:
        """The game of ``turn`` if it still waits for that person at that seat, else None."""
        try:
            snapshot = await games.load_snapshot(self._ctx, turn.table_id)
        except AppError:
            return None
        info = snapshot.seats[turn.seat] if turn.seat < len(snapshot.seats) else None
        if snapshot.status != "running" or info is None or info.account_id != turn.account_id or info.played_by_bot:
            return None
        ruleset = self._ctx.registry.get(snapshot.ruleset)
        if turn.seat not in ruleset.to_act(snapshot.state):
            return None
        return WaitingGame(turn.table_id, ruleset.title, info.deadline)

    async def _send(self, account_id: int, notice: Notice) -> None:
        await asyncio.gather(*(channel.deliver(account_id, notice) for channel in self._channels),
                             return_exceptions=True)

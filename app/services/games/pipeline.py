"""The move pipeline and game reads (docs/architecture.md, "The platform").

Applying a move is one transaction: lock the game row, check the seat is to act and the
version is current, ``apply``, append to ``moves``, update snapshot and version, commit.  Only
then is anyone told (``fanout.committed``).  A client move id makes a retry idempotent.  On
PostgreSQL the usual move takes a shortcut with the same outcome: one statement that writes
only if the game is still at the version the move was made for (``_apply_in_one_statement``;
the move writer commits the moves of many games in one such statement, group commit), and
writes the state itself only at a checkpoint (``app/services/games/state.py``: every read of a
started game's state from its row goes through ``game_state.state_now``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import UNDO_KIND, Move, Table, utcnow
from app.db.move_writer import DuplicateMoveId
from app.rulesets.base import IllegalMove, MalformedMove
from app.services.games.cache import GameSnapshot
from app.services.games import abandonment
from app.services.accounts import identity as accounts
from app.services.games import bot_log
from app.services.games import state as game_state
from app.services.games import move_log
from app.services.accounts import ratings
from app.services.games import replays
from app.services.accounts.identity import Login
from app.services.attendance.deadlines import update_deadlines
from app.services.context import Context
from app.services.errors import AppError
from app.services.games.move_log import BOT_MOVE_ID_PREFIX, SERVER_MOVE_ID_PREFIXES  # the pipeline's names for them
from app.services.tables.seating import SeatInfo
from app.services.tables.changes import check_access, load_table, seats_of
from app.services.games.views import log_entries


def bot_move_id(version: int, seat: int) -> str:
    """The client move id of the bot's move at ``seat`` answering ``version``."""
    return f"{BOT_MOVE_ID_PREFIX}{version}:{seat}"


def timeout_move_id(game_id: int, version: int, seat: int) -> str:
    """The client move id of the rules' time-out move at ``seat`` answering ``version`` (fixed, so
    processes watching the same database make it once)."""
    return f"timeout:{game_id}:{version}:{seat}"


def snapshot_of(table: Table, seats: tuple[SeatInfo, ...], state: dict[str, Any]) -> GameSnapshot:
    """The snapshot of a loaded table row, its seats and its ``state`` at ``table.version``
    (``game_state.state_now``: the row's own may be an older checkpoint)."""
    return GameSnapshot(table.id, table.ruleset, table.status, table.version, state, seats,
                        table.private, table.invite_code, table.move_seconds, creator_id=table.creator_id)


async def submit_move(ctx: Context, login: Login | None, game_id: int, client_move_id: str,
                      version: int, raw_move: Any) -> int:
    """Run one move of the person ``login`` speaks for through the pipeline; returns the game's
    version after it.

    Raises ``AppError`` with ``unauthorized`` (no login, or its session ended before the move was
    committed), ``not_found``, ``not_seated``, ``bad_request``
    (malformed move, a move id already used for another move, or one of the server's
    (``SERVER_MOVE_ID_PREFIXES``)), ``not_your_turn``,
    ``stale_version``, ``illegal_move``; nothing changes then.  A move whose
    ``client_move_id`` was already committed returns that move's version.  Stale versions are
    accepted in a simultaneous step while the seat is still to act.
    """
    if login is None:
        raise AppError("unauthorized", "log in to make moves")
    if client_move_id.startswith(SERVER_MOVE_ID_PREFIXES):
        raise AppError("bad_request", "move ids starting with {prefixes} are the server's", prefixes=", ".join(SERVER_MOVE_ID_PREFIXES))
    return await _submit(ctx, game_id, lambda info: info.account_id == login.account_id, client_move_id, version,
                         raw_move, by_bot=False, login=login)


async def submit_bot_move(ctx: Context, game_id: int, seat: int, client_move_id: str, version: int,
                          raw_move: Any) -> int:
    """The move of the bot at ``seat``, through the same pipeline as a person's (``submit_move``).

    The bot either sits there or has taken the seat over from its person.  Raises
    ``AppError(not_seated)`` when no bot plays ``seat``.
    """
    return await _submit(ctx, game_id, lambda info: info.seat == seat and info.played_by_bot is not None,
                         client_move_id, version, raw_move, by_bot=True)


async def submit_timeout_move(ctx: Context, game_id: int, seat: int, version: int, raw_move: Any) -> int:
    """The move the rules make for ``seat`` when its time ran out (``Ruleset.timeout_move``), through
    the same pipeline; its move id is fixed by game, version and seat, so processes that watch the
    same database make it once.  Raises ``AppError`` as ``submit_move`` (``stale_version`` when the
    person moved meanwhile)."""
    return await _submit(ctx, game_id, lambda info: info.seat == seat, timeout_move_id(game_id, version, seat),
                         version, raw_move, by_bot=True)


async def _submit(ctx: Context, game_id: int, is_mover: Callable[[SeatInfo], bool], client_move_id: str,
                  version: int, raw_move: Any, by_bot: bool, login: Login | None = None) -> int:
    received = time.perf_counter()
    epoch = ctx.cache.epoch()
    outcome: GameSnapshot | int | None
    try:
        async with ctx.game_lock(game_id):
            outcome = await _apply_in_one_statement(ctx, is_mover, game_id, client_move_id, version, raw_move, by_bot,
                                                    login)
            if outcome is None:
                async with ctx.sessions() as session:
                    outcome = await _apply_in_transaction(ctx, session, is_mover, game_id, client_move_id, version,
                                                          raw_move, by_bot, login, epoch)
    except AppError as exc:
        ctx.metrics.moves_refused.labels(exc.code).inc()
        raise
    if isinstance(outcome, int):  # a retry of a committed move
        return outcome
    ctx.metrics.move_seconds.observe(time.perf_counter() - received)
    ctx.metrics.moves_committed.inc()
    if client_move_id.startswith(BOT_MOVE_ID_PREFIX):
        ctx.metrics.bot_moves.inc()  # here, not in the bot driver: a move two processes both sent counts once
    ctx.cache.put(outcome, epoch)
    ctx.fanout.committed(game_id, outcome.version)
    return outcome.version


async def _apply_in_one_statement(ctx: Context, is_mover: Callable[[SeatInfo], bool], game_id: int,
                                  client_move_id: str, version: int, raw_move: Any,
                                  by_bot: bool, login: Login | None) -> GameSnapshot | None:
    """The usual move, committed in one statement (PostgreSQL, ``app/db/move_writer.py``): the new
    snapshot, or ``None`` when anything is unusual, and then :func:`_apply_in_transaction` decides.

    Usual means: this process's cached snapshot is at ``version`` and running without a time
    control, the mover sits at a seat that is to act and plays it themself, the move parses and
    is legal and does not end the game (a game's end is rated in the same transaction, and a
    finished game's row holds its whole final state), and the database is still at ``version``
    (the statement's ``WHERE version``, which replaces the row lock) with the move id unused, the seat still played by the mover (a person in
    person, or a bot) and the person's login session not ended; the cache's seats only choose
    the path, the statement decides (docs/decisions.md, *Checks at commit*).  Every refusal and retry is left to
    the locking path, so both paths give the same answers; a refused move is checked twice.
    """
    cached = ctx.cache.get(game_id)
    if (ctx.move_writer is None or cached is None or cached.version != version or cached.status != "running"
            or not cached.seats or cached.move_seconds):
        return None
    mover = next((info for info in cached.seats if is_mover(info)), None)
    if mover is None or (mover.takeover is not None and not by_bot):
        return None
    ruleset = ctx.registry.get(cached.ruleset)
    try:
        move = ruleset.parse_move(raw_move)
        if mover.seat not in ruleset.to_act(cached.state):
            return None
        new_state, events = ruleset.apply(cached.state, mover.seat, move)
    except (MalformedMove, IllegalMove):
        return None
    if ruleset.result(new_state) is not None:
        return None  # a game's last move rates it (services/accounts/ratings.py): the locking path does both at once
    new_version = version + 1
    status = "running"
    if any(set(event.reveals) - {mover.seat} for event in events):
        return None  # whether a bot made the revealed choices is read under the lock (_revealed_by_bot)
    event_rows = _event_rows(events, mover, client_move_id)
    # A move the server played (a bot's, a time-out's) is never its seat's person's to take back.
    reversible = status == "running" and not by_bot and ruleset.is_reversible(cached.state, mover.seat, move, new_state)
    checkpoint = game_state.is_checkpoint(new_version)
    try:
        committed = await ctx.move_writer.append(
            game_id, new_version, mover.seat, new_state if checkpoint else None, status, ruleset.dump_move(move),
            event_rows, client_move_id, account_id=None if login is None else login.account_id,  # None: a bot's
            session=None if login is None else login.session, key=None if login is None else login.key,
            reversible=reversible,
            to_act=None if checkpoint else sorted(ruleset.to_act(new_state)))
    except DuplicateMoveId:
        return None
    if not committed:
        return None
    return replace(cached, status=status, version=new_version, state=new_state, recent=((new_version, event_rows),),
                   undo_seat=mover.seat if reversible else None)


def _mover(seats: tuple[SeatInfo, ...], is_mover: Callable[[SeatInfo], bool], private: bool, game_id: int) -> SeatInfo:
    """The seat ``is_mover`` picks.  Raises ``AppError``: ``not_found`` at a private table (an
    outsider is not told it exists), else ``not_seated``."""
    mover = next((info for info in seats if is_mover(info)), None)
    if mover is None:
        if private:
            raise AppError("not_found", "no game {game_id}", game_id=game_id)
        raise AppError("not_seated", "you have no seat in this game")
    return mover


async def _apply_in_transaction(ctx: Context, session: AsyncSession, is_mover: Callable[[SeatInfo], bool],
                                game_id: int, client_move_id: str, version: int,
                                raw_move: Any, by_bot: bool, login: Login | None, epoch: int) -> GameSnapshot | int:
    """The new snapshot once committed, or the version of the already committed move with this id.

    A person whose seat a bot has taken over cannot move until they take it back (``hello``), nor
    anyone whose login session has ended (``unauthorized``).

    The row lock reads only the small columns; the state comes from the process's cache when it
    holds this very version (the usual case), else from the database (``game_state.state_now``).
    The whole new state is written (``state_version`` null), whatever the version.  The seats and
    the session are always read under the lock: the cache may not have heard yet of a leave, a return or a
    logout committed by another process (docs/decisions.md, *Checks at commit*); ``epoch`` (``GameCache.epoch``,
    taken before) lets the seats read here correct the cache.
    """
    row = (await session.execute(
        select(Table.version, Table.status, Table.private, Table.move_seconds, Table.rated).where(Table.id == game_id)
        .with_for_update())).first()
    if row is None:
        raise AppError("not_found", "no game {game_id}", game_id=game_id)
    if login is not None and not await accounts.current_logins(session, [login]):
        raise AppError("unauthorized", "your session has ended (logged out); log in again to move")
    cached = ctx.cache.get(game_id)
    if cached is not None and cached.version == row.version and cached.status == row.status and cached.seats:
        seats = tuple((await seats_of(session, [game_id]))[game_id])
        snapshot = cached if seats == cached.seats else replace(cached, seats=seats)
        if snapshot is not cached:
            ctx.cache.put(snapshot, epoch)  # committed seats this process had not heard of yet
    else:
        info = await load_table(session, game_id)
        state = await game_state.state_now(ctx, session, info.table)
        if state is None:  # not started: one without a seat hears so first, as at a started game
            _mover(tuple(info.seats), is_mover, row.private, game_id)
            raise AppError("illegal_move", "this game has not started")
        snapshot = snapshot_of(info.table, tuple(info.seats), state)
    mover = _mover(snapshot.seats, is_mover, row.private, game_id)
    seat = mover.seat
    if mover.takeover is not None and not by_bot:
        if mover.takeover == "resigned":
            raise AppError("not_seated", "you resigned this game; a bot plays your seat")
        raise AppError("not_seated", "a bot is playing your seat; reload the page to take it back")
    status_now = row.status
    if status_now == "abandoned" and not by_bot:
        # A seated person's move brings an abandoned game back to life, as their hello would
        # (its last activity becomes this move).
        await session.execute(update(Table).where(Table.id == game_id, Table.status == "abandoned")
                              .values(status="running"))
        status_now = "running"
    ruleset = ctx.registry.get(snapshot.ruleset)
    try:
        move = ruleset.parse_move(raw_move)
    except MalformedMove as exc:
        raise AppError.from_game(exc, type(ruleset)) from None
    wire_move = ruleset.dump_move(move)
    acting = ruleset.to_act(snapshot.state)
    if status_now != "running" or version != row.version or seat not in acting:
        # Perhaps a retry of a move that was committed: then it is acknowledged again.
        committed = await _committed(session, game_id, client_move_id, seat, wire_move)
        if committed is not None:
            return committed
        if version > row.version:
            raise AppError("stale_version", "the game is at version {current}; your move was for version {version}, "
                                            "which it has not reached", current=row.version, version=version)
        if version != row.version and not await _same_simultaneous_step(ctx, session, ruleset, game_id, seat, version,
                                                                        row.version):
            raise await _stale_error(session, game_id, seat, version, row.version)
        if status_now != "running":
            raise AppError("illegal_move", "this game is over" if status_now == "finished" else "this game is not running")
        if seat not in acting:
            raise AppError("not_your_turn", "it is not your turn")
    try:
        new_state, events = ruleset.apply(snapshot.state, seat, move)
    except IllegalMove as exc:
        committed = await _committed(session, game_id, client_move_id, seat, wire_move)  # bad_request if reused
        if committed is None:
            raise AppError.from_game(exc, type(ruleset)) from None
        return committed  # this very move, sent again with a newer version: as on the IntegrityError path
    new_version = row.version + 1
    result = ruleset.result(new_state)
    status = "finished" if result is not None else "running"
    event_rows = _event_rows(events, mover, client_move_id,
                             await _revealed_by_bot(session, game_id, snapshot.seats, events, mover.seat))
    reversible = status == "running" and not by_bot and ruleset.is_reversible(snapshot.state, seat, move, new_state)
    try:
        await session.execute(insert(Move).values(table_id=game_id, seq=new_version, seat=seat, move=wire_move,
                                                  events=event_rows, client_move_id=client_move_id,
                                                  created_at=utcnow(), reversible=reversible))
    except IntegrityError:  # this move id is taken: a concurrent retry, or reuse for another move
        await session.rollback()
        committed = await _committed(session, game_id, client_move_id, seat, wire_move)
        if committed is None:
            raise
        return committed
    await session.execute(update(Table).where(Table.id == game_id)
                          .values(state=new_state, state_version=None, to_act=None, version=new_version, status=status,
                                  updated_at=utcnow()))
    seats = snapshot.seats
    if result is not None:  # with the finish, atomically: who abandoned it, and its rating
        seats = await abandonment.record(session, game_id, seats, new_version)
        if row.rated:
            await ratings.rate_finished_game(session, game_id, snapshot.ruleset, seats, result, untimed=not row.move_seconds)
    if row.move_seconds:
        table = await session.get_one(Table, game_id)
        await update_deadlines(session, table, acting, ruleset.to_act(new_state), seat)
    await session.commit()
    if row.move_seconds or result is not None:  # the deadlines moved, or abandonments were marked
        seats = tuple((await load_table(session, game_id)).seats)
    return replace(snapshot, status=status, version=new_version, state=new_state, seats=seats,
                   recent=((new_version, event_rows),), undo_seat=seat if reversible else None)


def _event_rows(events, mover: SeatInfo, client_move_id: str, bot_chosen: set[int] | None = None) -> list[dict[str, Any]]:
    """The log rows a move stores; a bot's move for a person is marked as the bot's, and so is a
    revealed choice a bot made for a person (``bot_chosen``: their seats; ``bot_log``)."""
    rows = [event.model_dump(mode="json") for event in events]
    if bot_chosen:
        rows = bot_log.mark_revealed(rows, [event.reveals for event in events], bot_chosen)
    if mover.account_id is not None and client_move_id.startswith(BOT_MOVE_ID_PREFIX):
        return bot_log.mark_bot_events(rows, mover.seat)
    return rows


async def _revealed_by_bot(session: AsyncSession, game_id: int, seats: tuple[SeatInfo, ...], events,
                           mover: int) -> set[int]:
    """The seats other than ``mover`` whose choice an event reveals (``Event.reveals``) and whose
    person had that choice made by a bot: their last move is a bot's (``BOT_MOVE_ID_PREFIX``)."""
    revealed = {seat for event in events for seat in event.reveals} - {mover}
    people = revealed & {info.seat for info in seats if info.account_id is not None}
    if not people:
        return set()
    last = (select(func.max(Move.seq)).where(Move.table_id == game_id, Move.seat.in_(people), Move.kind != UNDO_KIND)
            .group_by(Move.seat))
    rows = await session.execute(select(Move.seat, Move.client_move_id)
                                 .where(Move.table_id == game_id, Move.seq.in_(last)))
    return {seat for seat, move_id in rows if move_id.startswith(BOT_MOVE_ID_PREFIX)}


async def _committed(session: AsyncSession, game_id: int, client_move_id: str, seat: int,
                     wire_move: dict[str, Any]) -> int | None:
    """The version of the committed move with this id, if it is this very move; ``None`` if the id is
    unused.  Raises ``AppError(bad_request)`` when the id was used for another move."""
    committed = (await session.execute(select(Move.seq, Move.seat, Move.move).where(
        Move.table_id == game_id, Move.client_move_id == client_move_id))).first()
    if committed is None:
        return None
    if committed.seat != seat or committed.move != wire_move:
        raise AppError("bad_request", "move id {client_move_id} was already used for another move", client_move_id=repr(client_move_id))
    return committed.seq


async def _stale_error(session: AsyncSession, game_id: int, seat: int, version: int, current: int) -> AppError:
    """The ``stale_version`` error for a move made at ``version`` when the game is at ``current``:
    it also says when ``seat`` itself has moved since (from another tab or device, most often)."""
    own = await session.scalar(select(Move.seq).where(Move.table_id == game_id, Move.seq > version, Move.seat == seat)
                               .order_by(Move.seq).limit(1))
    if own is not None:
        return AppError("stale_version", "the game moved on to version {current}: you already moved at version {own} "
                        "(in another tab or device?); this move was for version {version}",
                        current=current, own=own, version=version)
    return AppError("stale_version", "the game moved on to version {current}; your move was for version {version}",
                    current=current, version=version)


async def _same_simultaneous_step(ctx: Context, session: AsyncSession, ruleset, game_id: int, seat: int,
                                  version: int, current: int) -> bool:
    """Whether a move made at ``version`` (older than ``current``) answers the simultaneous step the
    game is still in, so that the other seats' moves since are no reason to refuse it.

    docs/architecture.md, "The platform": in a simultaneous step (several seats in ``to_act``),
    another seat's move is not a reason to reject yours.  True only when the ruleset has such steps,
    ``seat`` was one of several seats to act at ``version``, stayed to act at every version after it
    up to ``current - 1``, and every move since ``version`` is another seat's own move (no undo): then
    ``seat`` is still answering the step it saw, and ``apply`` judges the move.  A move made while
    ``seat`` had nothing to do, or in an earlier step or turn, is stale (found by a fresh user: Heroes
    took moves sent for an older version in its turn-by-turn phases).

    Folds the stored moves from ``replays.state_at(version)``: this runs only for a stale version.
    """
    if not ruleset.simultaneous or not 0 <= version < current:
        return False
    since = (await session.execute(select(Move.seat, Move.kind, Move.move)
                                   .where(Move.table_id == game_id, Move.seq > version, Move.seq <= current)
                                   .order_by(Move.seq))).all()
    if len(since) != current - version or any(mover == seat or kind == UNDO_KIND for mover, kind, _ in since):
        return False
    state = await replays.state_at(ctx, ctx.replays, game_id, version, session)
    acting = ruleset.to_act(state)
    if seat not in acting or len(acting) < 2:
        return False
    for mover, _, raw in since[:-1]:
        state, _ = ruleset.apply(state, mover, ruleset.parse_move(raw))
        if seat not in ruleset.to_act(state):
            return False
    return True


async def load_snapshot(ctx: Context, game_id: int) -> GameSnapshot:
    """The game's latest committed snapshot, from the cache when it is current, else from the
    database (its state at its version through ``game_state.state_now``).

    Raises ``AppError(not_found)`` for an unknown game or a table whose game has not started.
    """
    epoch = ctx.cache.epoch()
    async with ctx.sessions() as session:
        row = (await session.execute(select(Table.version, Table.status).where(Table.id == game_id))).first()
        if row is None:
            raise AppError("not_found", "no game {game_id}", game_id=game_id)
        cached = ctx.cache.get(game_id)
        if cached is not None and cached.version == row.version and cached.status == row.status:
            return cached
        # The table and seats once: a second read of the row would refresh this very ``table``
        # (one session's identity map) to a version another process committed meanwhile, under
        # the state already folded for the version read first.
        info = await load_table(session, game_id)
        state = await game_state.state_now(ctx, session, info.table)
        if state is None:
            raise AppError("not_found", "game {game_id} has not started yet", game_id=game_id)
        snapshot = snapshot_of(info.table, tuple(info.seats), state)
        if snapshot.status == "running":
            snapshot = replace(snapshot, undo_seat=await move_log.undo_seat(session, game_id))
    ctx.cache.put(snapshot, epoch)
    return snapshot


async def current_versions(ctx: Context, game_ids: list[int]) -> dict[int, int]:
    """``{game_id: version}`` in the database for the running or finished games among ``game_ids``."""
    async with ctx.sessions() as session:
        rows = await session.execute(select(Table.id, Table.version)
                                     .where(Table.id.in_(game_ids), Table.status.in_(("running", "finished"))))
        return {game_id: version for game_id, version in rows.all()}


async def viewer_seat(ctx: Context, game_id: int, account_id: int | None, invite_code: str | None) -> int | None:
    """The viewer's seat (None: spectator) after checking access to a private table.

    Raises ``AppError(not_found)`` for an unknown table or a private one without the invite.
    """
    async with ctx.sessions() as session:
        info = await load_table(session, game_id)
    check_access(info, account_id, invite_code)
    return info.seat_of(account_id)


def seat_in_snapshot(snapshot: GameSnapshot, account_id: int | None, invite_code: str | None) -> int | None:
    """:func:`viewer_seat` of a started game, from its snapshot (no database read).

    The same rule as ``tables.check_access``: a private table shows itself only to its creator,
    its seated players and holders of the invite code.  Raises ``AppError(not_found)``.
    """
    seat = next((info.seat for info in snapshot.seats if account_id is not None and info.account_id == account_id),
                None)
    if snapshot.private and seat is None and (account_id is None or account_id != snapshot.creator_id):
        if not (invite_code and secrets.compare_digest(invite_code.encode(), (snapshot.invite_code or "").encode())):
            raise AppError("not_found", "no table {game_id}", game_id=snapshot.game_id)
    return seat


async def read_log_rows(ctx: Context, game_id: int, since: int,
                        until: int | None = None) -> list[tuple[int, list[dict[str, Any]]]]:
    """Raw ``(version, events)`` rows of versions ``since+1 .. until``, unredacted: filter with ``log_entries``."""
    async with ctx.sessions() as session:
        query = select(Move.seq, Move.events).where(Move.table_id == game_id, Move.seq > since)
        if until is not None:
            query = query.where(Move.seq <= until)
        rows: Result[int, list[dict[str, Any]]] = await session.execute(query.order_by(Move.seq))
        return [(seq, events) for seq, events in rows.all()]


async def read_log(ctx: Context, game_id: int, since: int, seat: int | None,
                   names: tuple[str, ...], until: int | None = None) -> list[dict[str, Any]]:
    """Log entries of versions ``since+1 .. until`` that ``seat`` may read."""
    return log_entries(await read_log_rows(ctx, game_id, since, until), seat, names)


async def replay_state(ctx: Context, game_id: int, version: int) -> tuple[GameSnapshot, dict[str, Any]]:
    """The game rebuilt at ``version`` by folding the stored moves over ``setup`` (``app/services/games/replays.py``).

    Returns ``(latest snapshot, state at version)``; the state is shared, read-only.  Raises
    ``AppError``: ``not_found``, ``bad_request`` (version outside ``0..latest``).
    """
    latest = await load_snapshot(ctx, game_id)
    if not 0 <= version <= latest.version:
        raise AppError("bad_request", "version must be between 0 and {version}", version=latest.version)
    return latest, await replays.state_at(ctx, ctx.replays, game_id, version)

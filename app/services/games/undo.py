"""Taking back one's last move (docs/decisions.md, *Taking a move back*), through the same lock and commit as a move.

A player may take back their own last move (one they made themselves: never a move a bot or the
clock made for their seat) while the game runs, no other seat has acted since
(a move or an undo: the log rows after it are all theirs), and the ruleset found the move
reversible when it was committed (``Ruleset.is_reversible``: it revealed nothing).  The log stays
append-only: the undo is a row of its own (``move_log.py``), whose state is the one before the
move, folded again by ``replays.state_at``; several moves can be taken back one after the other.

The clock (tables with a time control): the seats that stop acting lose their deadline, as after
a move; the undoing seat's deadline is the one it had before the move, counted from the move in
force before it (or from now, for the first move of a game), so taking back and playing again
never wins time.  It may already have passed: then the clock acts at once, as for any late move.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import UNDO_KIND, Move, Table, utcnow
from app.i18n import N_
from app.rulesets.base import Event
from app.services.accounts import identity as accounts
from app.services.games import state as game_state
from app.services.games import move_log
from app.services.games import replays
from app.services.accounts.identity import Login
from app.services.games.cache import GameSnapshot
from app.services.context import Context
from app.services.attendance.deadlines import update_deadlines
from app.services.errors import AppError
from app.services.games.pipeline import SERVER_MOVE_ID_PREFIXES, snapshot_of
from app.services.tables.changes import load_table

UNDO_SENTENCE = N_("{player} takes back their last move")
"""The log's words for an undo, said in the reader's language from the server catalog; the entry's
template names the seat (:func:`undo_template`), as every stored undo entry does."""


def undo_template(seat: int) -> str:
    """The log template of an undo by ``seat``: ``"{seat2} takes back their last move"``."""
    return UNDO_SENTENCE.format(player=f"{{seat{seat}}}")


async def take_back(ctx: Context, login: Login | None, game_id: int, client_move_id: str, version: int) -> int:
    """Take back the last move of the person ``login`` speaks for, if the game is at ``version``;
    returns the game's version after it (the undo is a new version).

    Raises ``AppError`` with ``unauthorized``, ``not_found``, ``not_seated`` (a spectator, or a bot
    plays the seat), ``bad_request`` (a move id used for something else, or the server's),
    ``stale_version`` and ``not_reversible`` (the game is not running, there is no move of theirs
    in force, another seat acted since, or the move revealed something); nothing changes then.
    An undo whose ``client_move_id`` was already committed returns that undo's version.
    """
    if login is None:
        raise AppError("unauthorized", "log in to take a move back")
    if client_move_id.startswith(SERVER_MOVE_ID_PREFIXES):
        raise AppError("bad_request", "move ids starting with {prefixes} are the server's", prefixes=", ".join(SERVER_MOVE_ID_PREFIXES))
    epoch = ctx.cache.epoch()
    try:
        async with ctx.game_lock(game_id):
            async with ctx.sessions() as session:
                outcome = await _take_back(ctx, session, login, game_id, client_move_id, version)
    except AppError as exc:
        ctx.metrics.moves_refused.labels(exc.code).inc()
        raise
    if isinstance(outcome, int):  # a retry of a committed undo
        return outcome
    ctx.cache.put(outcome, epoch)
    ctx.fanout.committed(game_id, outcome.version)
    return outcome.version


async def _take_back(ctx: Context, session: AsyncSession, login: Login, game_id: int, client_move_id: str,
                     version: int) -> GameSnapshot | int:
    row = (await session.execute(
        select(Table.version, Table.status, Table.private, Table.move_seconds).where(Table.id == game_id)
        .with_for_update())).first()
    if row is None:
        raise AppError("not_found", "no game {game_id}", game_id=game_id)
    if not await accounts.current_logins(session, [login]):
        raise AppError("unauthorized", "your session has ended (logged out); log in again to move")
    info = await load_table(session, game_id)
    mover = next((seat for seat in info.seats if seat.account_id == login.account_id), None)
    if mover is None:
        if row.private:
            raise AppError("not_found", "no game {game_id}", game_id=game_id)
        raise AppError("not_seated", "you have no seat in this game")
    if mover.takeover is not None:
        raise AppError("not_seated", "a bot is playing your seat")
    committed = await _committed_undo(session, game_id, client_move_id, mover.seat)
    if committed is not None:
        return committed
    state = await game_state.state_now(ctx, session, info.table)
    if row.status != "running" or state is None:
        raise AppError("not_reversible", "this game is not running")
    if version != row.version:
        raise AppError("stale_version", "the game moved on to version {version}; your undo was for version {version2}", version=row.version, version2=version)
    last = await move_log.last_move(session, game_id)
    if last is None or last.seat != mover.seat or last.others_since:
        # a seat that has not moved yet is told so, not that others moved since its move
        moved = last is not None and (last.seat == mover.seat or await move_log.has_moved(session, game_id, mover.seat))
        raise AppError("not_reversible", "another player has acted since your last move" if moved
                       else "there is no move to take back")
    if last.by_server:
        raise AppError("not_reversible", "your seat's last move was made for you (by a bot, or when your time ran "
                                         "out); only a move you made yourself can be taken back")
    if not last.reversible:
        raise AppError("not_reversible", "your last move cannot be taken back: it showed something new "
                                         "(dice, a card, a secret choice) or the rules allow no take-back")
    ruleset = ctx.registry.get(info.table.ruleset)
    acting = ruleset.to_act(state)
    before = await replays.state_at(ctx, ctx.replays, game_id, last.seq - 1, session)
    new_version = row.version + 1
    event_rows = [Event(text=undo_template(mover.seat)).model_dump(mode="json")]
    try:
        await session.execute(insert(Move).values(
            table_id=game_id, seq=new_version, seat=mover.seat, kind=UNDO_KIND, move=move_log.undo_entry(last.seq),
            events=event_rows, client_move_id=client_move_id, created_at=utcnow(), reversible=False))
    except IntegrityError:  # this id is taken: a concurrent retry, or reuse for a move
        await session.rollback()
        committed = await _committed_undo(session, game_id, client_move_id, mover.seat)
        if committed is None:
            raise
        return committed
    await session.execute(update(Table).where(Table.id == game_id)
                          .values(state=before, state_version=None, to_act=None, version=new_version, status="running",
                                  updated_at=utcnow()))
    seats = tuple(info.seats)
    if row.move_seconds:
        due = (last.previous_at or utcnow()) + timedelta(seconds=row.move_seconds)
        await update_deadlines(session, info.table, acting, ruleset.to_act(before), None, due=due)
    undo_seat = await move_log.undo_seat(session, game_id)
    await session.commit()
    if row.move_seconds:  # the deadlines moved
        seats = tuple((await load_table(session, game_id)).seats)
    return replace(snapshot_of(info.table, seats, before), status="running", version=new_version,
                   recent=((new_version, event_rows),), undo_seat=undo_seat)


async def _committed_undo(session: AsyncSession, game_id: int, client_move_id: str, seat: int) -> int | None:
    """The version of the committed undo with this id by ``seat``; None if the id is unused.
    Raises ``AppError(bad_request)`` when the id was used for something else."""
    committed = (await session.execute(select(Move.seq, Move.seat, Move.kind).where(
        Move.table_id == game_id, Move.client_move_id == client_move_id))).first()
    if committed is None:
        return None
    if committed.seat != seat or committed.kind != UNDO_KIND:
        raise AppError("bad_request", "move id {client_move_id} was already used for another move", client_move_id=repr(client_move_id))
    return committed.seq

"""Which turns are owed a notice, kept in ``notify_turns`` so a restart neither forgets nor repeats one.

A turn of a person begins when their seat comes to act and ends when it stops acting.  Within
one turn the game may move on without them (another seat's move in a simultaneous step), so a
turn is new only if the person has moved since the turn we know of began (``moves``), or we knew
of none; a person who moved and acts again (several moves in one turn) goes on with the same
turn.  Each turn is told at most once: the row's ``notified_at`` is claimed with a guarded
update before anything is sent, which also keeps two processes from telling it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Move, NotifyTurn
from app.db.results import rowcount


@dataclass(frozen=True)
class Turn:
    """One row: ``account_id`` acts at ``seat`` of ``table_id`` since ``turn_version``; told at ``notified_at``."""

    account_id: int
    table_id: int
    seat: int
    turn_version: int
    notified_at: datetime | None


async def note(session: AsyncSession, game_id: int, version: int, acting: dict[int, int], wanting: set[int],
               now: datetime) -> set[int]:
    """Bring the game's rows up to ``version``, where ``acting`` maps the seats people play that are
    to act to their accounts; returns the accounts (among ``wanting``) whose turn is newly owed a notice.

    Rows of accounts no longer acting go (their turn ended).  Commits.
    """
    ended = delete(NotifyTurn).where(NotifyTurn.table_id == game_id)
    if acting:
        ended = ended.where(NotifyTurn.account_id.not_in(sorted(set(acting.values()))))
    await session.execute(ended)
    owed = set()
    for seat, account_id in acting.items():
        if account_id not in wanting:
            continue
        row = await session.get(NotifyTurn, (account_id, game_id))
        # the moves up to ``version`` only: a later move already stored (the notifier may look at
        # this version after the game went on) would make the turn look new and tell it twice
        last_own = await session.scalar(select(func.max(Move.seq)).where(
            Move.table_id == game_id, Move.seat == seat, Move.seq <= version))
        if row is not None and row.seat == seat and (last_own is None or last_own <= row.turn_version):
            continue  # the same turn: told already, or still owed
        # Their own move made this version and they act again (two camels in one turn): the same
        # turn, and they were just here, so nothing is owed.
        here = last_own == version
        values = {"seat": seat, "turn_version": version, "started_at": now, "notified_at": now if here else None}
        if row is None:
            await session.execute(insert(NotifyTurn).values(account_id=account_id, table_id=game_id, **values))
        else:
            await session.execute(update(NotifyTurn).where(NotifyTurn.account_id == account_id,
                                                           NotifyTurn.table_id == game_id).values(**values))
        if not here:
            owed.add(account_id)
    try:
        await session.commit()
    except IntegrityError:  # another process noted the same turn at the same moment: it tells it
        await session.rollback()
        return set()
    return owed


async def forget_game(session: AsyncSession, game_id: int) -> None:
    """The game ended: no turn of it is owed anything.  Commits."""
    await session.execute(delete(NotifyTurn).where(NotifyTurn.table_id == game_id))
    await session.commit()


async def of_account(session: AsyncSession, account_id: int) -> list[Turn]:
    """Every known turn of ``account_id`` (told or owed), by table."""
    rows = await session.execute(select(NotifyTurn.account_id, NotifyTurn.table_id, NotifyTurn.seat,
                                        NotifyTurn.turn_version, NotifyTurn.notified_at)
                                 .where(NotifyTurn.account_id == account_id).order_by(NotifyTurn.table_id))
    return [Turn(*row) for row in rows.all()]


async def drop(session: AsyncSession, turn: Turn) -> None:
    """Forget one turn found over (the game moved on, a bot took the seat).  Does not commit."""
    await session.execute(delete(NotifyTurn).where(NotifyTurn.account_id == turn.account_id,
                                                   NotifyTurn.table_id == turn.table_id,
                                                   NotifyTurn.turn_version == turn.turn_version))


async def claim(session: AsyncSession, turn: Turn, now: datetime) -> bool:
    """Mark ``turn`` told at ``now`` if nobody did yet; whether this call did.  Does not commit."""
    result = await session.execute(update(NotifyTurn).where(
        NotifyTurn.account_id == turn.account_id, NotifyTurn.table_id == turn.table_id,
        NotifyTurn.turn_version == turn.turn_version, NotifyTurn.notified_at.is_(None)).values(notified_at=now))
    return rowcount(result) == 1


async def accounts_owed(session: AsyncSession) -> list[int]:
    """Accounts with a turn not yet told (held back for a digest or an open tab)."""
    return list(await session.scalars(select(NotifyTurn.account_id).where(NotifyTurn.notified_at.is_(None))
                                      .distinct().order_by(NotifyTurn.account_id)))

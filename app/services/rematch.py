"""Rematch: the same table again, one click after a game ends.

Any player seated at a finished game may ask; the first request creates a new table with the
same ruleset, options, time control and pace, privacy (and invite code), chat rule, rated or
friendly, and seat count, with the same people and bots in the same seats, and starts it at
once.  Every later request for the same game answers that same new table: ``tables.rematch_of``
is unique, so even two requests at the same moment on two processes make one rematch.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Seat, Table, utcnow
from app.rulesets.registry import Registry
from app.services.deadlines import update_deadlines
from app.services.errors import AppError
from app.services.tables import TableInfo, check_access, load_table

@dataclass(frozen=True)
class Rematch:
    """The rematch table and whether this request created it (False: it already existed)."""

    info: TableInfo
    created: bool


async def rematch(session: AsyncSession, registry: Registry, account: Account, table_id: int) -> Rematch:
    """The rematch of finished game ``table_id``, created and started on the first request.

    Raises ``AppError``: ``not_found`` (no such table; a private one to a non-member),
    ``not_seated`` (the caller has no seat at it), ``conflict`` (the game is not finished).
    """
    old = await load_table(session, table_id, for_update=True)
    check_access(old, account.id, None)
    if old.seat_of(account.id) is None:
        raise AppError("not_seated", "only the players of this game can ask for a rematch")
    if old.table.rematch_id is not None:
        return Rematch(await load_table(session, old.table.rematch_id), created=False)
    if old.table.status != "finished":
        raise AppError("conflict", "a rematch can be asked for once the game is over")
    try:
        new_id = await _create_started_copy(session, registry, old)
    except IntegrityError:  # another request made the rematch first (tables.rematch_of is unique)
        await session.rollback()
        existing = await session.scalar(select(Table.id).where(Table.rematch_of == table_id))
        if existing is None:
            raise
        return Rematch(await load_table(session, existing), created=False)
    return Rematch(await load_table(session, new_id), created=True)


async def _create_started_copy(session: AsyncSession, registry: Registry, old: TableInfo) -> int:
    """Insert the running copy of ``old`` with its occupants, link both ways, commit; the new id."""
    source = old.table
    ruleset = registry.get(source.ruleset)
    seed = secrets.randbits(63)
    state = ruleset.setup(source.seat_count, ruleset.parse_options(source.options), seed)
    table = Table(
        ruleset=source.ruleset, options=source.options, seat_count=source.seat_count, private=source.private,
        invite_code=source.invite_code, creator_id=source.creator_id, status="running", seed=seed, state=state,
        version=0, move_seconds=source.move_seconds, pace=source.pace, chat_spectators=source.chat_spectators,
        rematch_of=source.id, rated=source.rated,
    )
    session.add(table)
    await session.flush()
    # Same people and bots in the same seats; a bot that had taken a person's seat over does not
    # carry over: the person plays the rematch themselves.
    now = utcnow()
    session.add_all(Seat(table_id=table.id, seat=info.seat, account_id=info.account_id, bot_level=info.bot_level,
                         seen_at=now if info.account_id is not None else None)
                    for info in old.seats)
    await session.flush()
    await session.execute(update(Table).where(Table.id == source.id).values(rematch_id=table.id))
    await update_deadlines(session, table, set(), ruleset.to_act(state), None)
    await session.commit()
    return table.id

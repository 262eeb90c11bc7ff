"""Rematch: the same table again, offered to the same people, after a game ends.

Any player seated at a finished game may offer it.  The first request creates a new *open* table
with the same ruleset, options, time control and pace, privacy (and invite code), chat rule,
rated or friendly, and seat count; the proposer hosts it and sits in their old seat, and the bots
of the old game come along in theirs.  Every other person of the old game is *invited*: an
invitation holds their old seat for them (``invitations.seat``), and they accept by taking it
(``tables.join_table``, the one-click *Join*) or decline (``friends.drop_invitation``).  Nobody is
seated at a game they did not accept: the table starts by itself once every invited person took
their seat, or earlier when the proposer starts it with those who did (bots in the other seats,
or fewer seats where the game allows: ``tables.start_table``).

A deleted or banned account is never invited: a default bot takes its seat, as in its running
games.  With nobody to invite the rematch starts at once (the proposer asked for it).

Every later request for the same game answers that same new table (a player invited to it
accepts by asking: ``lobby.rematch``): ``tables.rematch_of`` is unique, so even two requests at
the same moment on two processes make one rematch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.bots import DEFAULT_LEVEL
from app.db.models import Account, Invitation, Seat, Table, utcnow
from app.rulesets.registry import Registry
from app.services.errors import AppError
from app.services.table_locks import TableHold
from app.services.tables.changes import TableInfo, begin, check_access, load_table


@dataclass(frozen=True)
class Rematch:
    """The rematch table, whether this request created it (False: it already existed), and the
    invitations it made (ids, to tell their invitees)."""

    info: TableInfo
    created: bool
    invitations: list[int] = field(default_factory=list)


async def rematch(session: AsyncSession, registry: Registry, account: Account, held: TableHold) -> Rematch:
    """The rematch of finished game ``held.table_id`` (its lock held), offered on the first request.

    Raises ``AppError``: ``not_found`` (no such table; a private one to a non-member),
    ``not_seated`` (the caller has no seat at it), ``conflict`` (the game is not finished).
    """
    table_id = held.check()
    old = await load_table(session, table_id, for_update=True)
    check_access(old, account.id, None)
    if old.seat_of(account.id) is None:
        raise AppError("not_seated", "only the players of this game can ask for a rematch")
    if old.table.rematch_id is not None:
        return Rematch(await load_table(session, old.table.rematch_id), created=False)
    if old.table.status != "finished":
        raise AppError("conflict", "a rematch can be asked for once the game is over")
    try:
        new_id, invitations = await _create_offer(session, registry, old, account.id)
    except IntegrityError:  # another request made the rematch first (tables.rematch_of is unique)
        await session.rollback()
        existing = await session.scalar(select(Table.id).where(Table.rematch_of == table_id))
        if existing is None:
            raise
        return Rematch(await load_table(session, existing), created=False)
    return Rematch(await load_table(session, new_id), created=True, invitations=invitations)


async def _create_offer(session: AsyncSession, registry: Registry, old: TableInfo,
                        proposer_id: int) -> tuple[int, list[int]]:
    """Insert the open copy of ``old`` with the proposer and the bots seated and an invitation
    holding each other person's seat, link both ways, commit (starting it when nobody is invited);
    the new id and the invitations' ids."""
    source = old.table
    table = Table(
        ruleset=source.ruleset, options=source.options, seat_count=source.seat_count, private=source.private,
        invite_code=source.invite_code, creator_id=proposer_id, status="open", version=0,
        move_seconds=source.move_seconds, pace=source.pace, chat_spectators=source.chat_spectators,
        rematch_of=source.id, rated=source.rated,
    )
    session.add(table)
    await session.flush()
    people = [info.account_id for info in old.seats if info.account_id not in (None, proposer_id)]
    gone = set(await session.scalars(select(Account.id).where(
        Account.id.in_(people), Account.deleted_at.is_not(None) | Account.banned_at.is_not(None))))
    now = utcnow()
    invitations = []
    for info in old.seats:
        # A bot that had taken a person's seat over does not carry over: the person is asked.
        seated = info.account_id if info.account_id == proposer_id else None
        bot = info.bot_level or (DEFAULT_LEVEL if info.account_id in gone else None)
        session.add(Seat(table_id=table.id, seat=info.seat, account_id=seated, bot_level=bot))
        if info.account_id is not None and seated is None and bot is None:
            invitations.append(Invitation(table_id=table.id, inviter_id=proposer_id, invitee_id=info.account_id,
                                          seat=info.seat, created_at=now))
    session.add_all(invitations)
    await session.flush()
    await session.execute(update(Table).where(Table.id == source.id).values(rematch_id=table.id))
    ids = [invitation.id for invitation in invitations]
    if not invitations:
        await begin(session, registry, await load_table(session, table.id, for_update=True))
    else:
        await session.commit()
    return table.id, ids

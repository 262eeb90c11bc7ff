"""Friends: following players, blocking them, and inviting friends to a table.

* A person's *friends* are the players they follow (one way, like a bookmark; no consent needed).
  The Friends list shows each one's name, whether they are *online* (a tab of theirs has a game
  open now: ``seats.connected_at``, written by ``services/attendance/presence.py``) and their running games
  (public ones, and private ones the viewer plays in too).
* Blocking a player hides their chat lines from the blocker and refuses their invitations; it also
  ends the blocker's following of them and drops their pending invitations to the blocker.
* An invitation asks a friend to an open table with a free seat, from one of its players (or its
  host); the invitee sees it in the lobby and joins from it, a private table's invite code included.

Every refusal is an ``AppError`` and changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Result, Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Block, Follow, Invitation, Seat, Table, iso_utc, utcnow
from app.db.results import rowcount
from app.rulesets.registry import Registry, UnknownRuleset
from app.i18n import N_, translate
from app.services.errors import AppError
from app.services.tables import terms as table_terms
from app.services.tables.changes import TableInfo, held_seats, load_table, seats_of


async def _other(session: AsyncSession, account: Account, target_id: int, to_self: str) -> Account:
    """The account ``target_id`` that ``account`` wants to follow/block/invite; raises ``bad_request``
    (themself) or ``not_found``."""
    if target_id == account.id:
        raise AppError("bad_request", to_self)
    target = await session.get(Account, target_id)
    if target is None:
        raise AppError("not_found", "no player {target_id}", target_id=target_id)
    return target


async def _exists(session: AsyncSession, model: type, **keys: int) -> bool:
    query = select(func.count()).select_from(model).where(*(getattr(model, key) == value for key, value in keys.items()))
    return bool(await session.scalar(query))


async def follow(session: AsyncSession, account: Account, target_id: int) -> None:
    """``account`` follows ``target_id``.  Raises ``AppError``: ``bad_request`` (themself),
    ``not_found``, ``conflict`` (already following, or the target is blocked: unblock first)."""
    target = await _other(session, account, target_id, N_("you cannot follow yourself"))
    if await _exists(session, Block, blocker_id=account.id, blocked_id=target.id):
        raise AppError("conflict", "you blocked {name}; unblock them before following", name=target.name)
    name = target.name  # a rollback expires the row
    session.add(Follow(follower_id=account.id, followed_id=target.id, created_at=utcnow()))
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "you already follow {name}", name=name) from None


async def unfollow(session: AsyncSession, account: Account, target_id: int) -> None:
    """Stop following.  Raises ``AppError(not_found)`` when ``account`` does not follow ``target_id``."""
    result = await session.execute(delete(Follow).where(Follow.follower_id == account.id,
                                                        Follow.followed_id == target_id))
    if rowcount(result) != 1:
        await session.rollback()
        raise AppError("not_found", "you do not follow this player")
    await session.commit()


async def block(session: AsyncSession, account: Account, target_id: int) -> None:
    """``account`` blocks ``target_id``: no more of their chat or invitations; following them ends,
    and their pending invitations to ``account`` go.  Raises ``AppError``: ``bad_request``
    (themself), ``not_found``, ``conflict`` (already blocked)."""
    target = await _other(session, account, target_id, N_("you cannot block yourself"))
    name = target.name  # a rollback expires the row
    session.add(Block(blocker_id=account.id, blocked_id=target.id, created_at=utcnow()))
    try:
        await session.flush()
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "you already blocked {name}", name=name) from None
    await session.execute(delete(Follow).where(Follow.follower_id == account.id, Follow.followed_id == target.id))
    await session.execute(delete(Invitation).where(Invitation.inviter_id == target.id,
                                                   Invitation.invitee_id == account.id))
    await session.commit()


async def unblock(session: AsyncSession, account: Account, target_id: int) -> None:
    """Lift a block.  Raises ``AppError(not_found)`` when ``account`` has not blocked ``target_id``."""
    result = await session.execute(delete(Block).where(Block.blocker_id == account.id, Block.blocked_id == target_id))
    if rowcount(result) != 1:
        await session.rollback()
        raise AppError("not_found", "you have not blocked this player")
    await session.commit()


async def relation(session: AsyncSession, viewer_id: int | None, target_id: int) -> dict[str, bool]:
    """``{following, blocked}``: whether ``viewer_id`` follows and has blocked ``target_id`` (both false
    for nobody signed in)."""
    if viewer_id is None:
        return {"following": False, "blocked": False}
    return {"following": await _exists(session, Follow, follower_id=viewer_id, followed_id=target_id),
            "blocked": await _exists(session, Block, blocker_id=viewer_id, blocked_id=target_id)}


async def blocked_by(session: AsyncSession, account_ids: set[int]) -> dict[int, set[int]]:
    """``{account: {accounts it blocked}}`` for each of ``account_ids`` that blocked anyone."""
    found: dict[int, set[int]] = defaultdict(set)
    if account_ids:
        rows = await session.execute(select(Block.blocker_id, Block.blocked_id).where(Block.blocker_id.in_(account_ids)))
        for blocker, blocked in rows:
            found[blocker].add(blocked)
    return found


async def invite(session: AsyncSession, registry: Registry, account: Account, table_id: int,
                 invitee_id: int) -> dict[str, Any]:
    """``account`` invites ``invitee_id`` to the open table ``table_id``; the invitation as
    :func:`friends_list` shows it to the invitee.

    Raises ``AppError``: ``not_found`` (no such table, a private one ``account`` does not belong to,
    no such invitee), ``not_seated`` (a public table ``account`` neither hosts nor sits at),
    ``conflict`` (not open any more, the invitee already sits there or is invited already),
    ``table_full`` (no free seat), ``bad_request`` (oneself), ``forbidden`` (the invitee is no friend
    of ``account``'s, or does not take their invitations).
    """
    info = await load_table(session, table_id)
    table = info.table
    member = account.id == table.creator_id or info.seat_of(account.id) is not None
    if not member:
        if table.private:
            raise AppError("not_found", "no table {table_id}", table_id=table_id)
        raise AppError("not_seated", "only the players of a table can invite to it")
    if table.status != "open":
        raise AppError("conflict", "this table is no longer open for players")
    if not any(seat.empty for seat in info.seats):
        raise AppError("table_full", "every seat at this table is taken")
    invitee = await _other(session, account, invitee_id, N_("you cannot invite yourself"))
    if info.seat_of(invitee.id) is not None:
        raise AppError("conflict", "{name} already has a seat at this table", name=invitee.name)
    if not await _exists(session, Follow, follower_id=account.id, followed_id=invitee.id):
        raise AppError("forbidden", "follow {name} first: invitations go to friends", name=invitee.name)
    if await _exists(session, Block, blocker_id=invitee.id, blocked_id=account.id):
        raise AppError("forbidden", "{name} does not take invitations from you", name=invitee.name)
    invitee_id, name = invitee.id, invitee.name  # a rollback or commit expires the rows
    invitation = Invitation(table_id=table_id, inviter_id=account.id, invitee_id=invitee_id, created_at=utcnow())
    session.add(invitation)
    try:
        await session.flush()
        invitation_id = invitation.id
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "{name} is already invited to this table", name=name) from None
    return {"id": invitation_id, "table_id": table_id, "invitee": {"id": invitee_id, "name": name}}


@dataclass(frozen=True)
class PendingInvitation:
    """An invitation still worth telling its invitee of: who invited whom to which open table, and
    what its players agree to (``table_terms.terms``: players, pace, clock, rated, options)."""

    table_id: int
    title: str
    inviter_name: str
    invitee_id: int
    terms: str = ""
    rematch: bool = False


async def pending_invitation(session: AsyncSession, registry: Registry, invitation_id: int) -> PendingInvitation | None:
    """The invitation ``invitation_id`` if its invitee should hear of it now, else None: it was not
    declined or withdrawn, its table is still open, the invitee has not blocked the inviter (a block
    also drops the invitation; this guards a block made while the notice was on its way) and has
    not deleted their account."""
    row = (await session.execute(
        select(Invitation.table_id, Invitation.invitee_id, Invitation.inviter_id, Table.ruleset, Account.name)
        .join(Table, Table.id == Invitation.table_id).join(Account, Account.id == Invitation.inviter_id)
        .where(Invitation.id == invitation_id, Table.status == "open"))).first()
    if row is None or await _exists(session, Block, blocker_id=row.invitee_id, blocked_id=row.inviter_id):
        return None
    invitee = await session.get(Account, row.invitee_id)
    if invitee is None or invitee.deleted_at is not None:
        return None
    info = await load_table(session, row.table_id)
    return PendingInvitation(row.table_id, _title(registry, row.ruleset), row.name, row.invitee_id,
                             _terms(registry, info, invitee.language), info.table.rematch_of is not None)


async def drop_invitation(session: AsyncSession, account: Account, invitation_id: int) -> None:
    """Decline an invitation (its invitee) or withdraw it (its inviter).  Raises ``AppError(not_found)``
    for an invitation that is neither's."""
    result = await session.execute(delete(Invitation).where(
        Invitation.id == invitation_id,
        (Invitation.invitee_id == account.id) | (Invitation.inviter_id == account.id)))
    if rowcount(result) != 1:
        await session.rollback()
        raise AppError("not_found", "no invitation {invitation_id}", invitation_id=invitation_id)
    await session.commit()


async def friends_list(session: AsyncSession, registry: Registry, account: Account,
                       online_window: timedelta) -> dict[str, Any]:
    """``{friends, invitations, blocked}`` of ``account``.

    ``friends``: ``[{id, name, online, games: [{id, ruleset, title, private}]}]`` the players
    ``account`` follows, online ones first, then by name; ``online``: a socket of theirs is open on
    a game (its ``connected_at`` within ``online_window``); ``games``: their running games that ``account`` may see.
    ``invitations``: see :func:`invitations`.
    ``blocked``: ``[{id, name}]``.
    """
    friends = (await session.execute(select(Account.id, Account.name).join(Follow, Follow.followed_id == Account.id)
                                     .where(Follow.follower_id == account.id))).all()
    ids = [friend.id for friend in friends]
    connected = dict((await session.execute(
        select(Seat.account_id, func.max(Seat.connected_at)).where(Seat.account_id.in_(ids))
        .group_by(Seat.account_id))).all()) if ids else {}
    mine = set(await session.scalars(select(Seat.table_id).where(Seat.account_id == account.id)))
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if ids:
        rows: Result[int, int, str, bool] = await session.execute(  # account_id: one of ``ids``, never null
            select(Seat.account_id, Table.id, Table.ruleset, Table.private)
            .join(Table, Table.id == Seat.table_id)
            .where(Seat.account_id.in_(ids), Table.status == "running").order_by(Table.id.desc()))
        for account_id, table_id, ruleset, private in rows:
            if not private or table_id in mine:
                games[account_id].append({"id": table_id, "ruleset": ruleset, "title": _title(registry, ruleset),
                                          "private": private})
    online_since = utcnow() - online_window
    listed = [{"id": friend.id, "name": friend.name, "online": _since(connected.get(friend.id), online_since),
               "games": games[friend.id]} for friend in friends]
    listed.sort(key=lambda friend: (not friend["online"], friend["name"].casefold(), friend["id"]))
    blocked = (await session.execute(select(Account.id, Account.name).join(Block, Block.blocked_id == Account.id)
                                     .where(Block.blocker_id == account.id).order_by(Account.name))).all()
    return {"friends": listed, "invitations": await invitations(session, registry, account.id, mine, account.language),
            "blocked": [{"id": row.id, "name": row.name} for row in blocked]}


async def invitations(session: AsyncSession, registry: Registry, account_id: int,
                      seated: set[int] | None = None, language: str | None = None) -> list[dict[str, Any]]:
    """``[{id, table_id, ruleset, title, private, invite_code, from: {id, name}, free_seats, at, seat,
    rematch, terms, table}]``: the invitations of ``account_id`` to open tables with a free seat
    where they have no seat yet (``seated``: the tables they sit at, read when not given), newest
    first.  ``invite_code``: the private table's, which the invitation hands over; ``seat``: the
    seat it holds for them (a rematch offer), or null; ``rematch``: the table is a rematch offer;
    ``terms``: one line of what its players agree to (``table_terms.terms``, in ``language``); ``table``: the table
    as ``GET /api/tables/{id}`` shows it to them."""
    if seated is None:
        seated = set(await session.scalars(select(Seat.table_id).where(Seat.account_id == account_id)))
    free = (select(Seat.table_id, func.count().label("free")).where(Seat.account_id.is_(None), Seat.bot_level.is_(None))
            .group_by(Seat.table_id).subquery())
    rows: list[Row[Invitation, Table, str, int]] = [row for row in (await session.execute(
        select(Invitation, Table, Account.name, free.c.free).join(Table, Table.id == Invitation.table_id)
        .join(Account, Account.id == Invitation.inviter_id).join(free, free.c.table_id == Table.id)
        .where(Invitation.invitee_id == account_id, Table.status == "open").order_by(Invitation.id.desc()))).all()
            if row.Table.id not in seated]
    ids = [row.Table.id for row in rows]
    seats, held = await seats_of(session, ids), await held_seats(session, ids)
    found = []
    for invitation, table, inviter, free_seats in rows:
        info = TableInfo(table, seats[table.id], held[table.id])
        found.append({"id": invitation.id, "table_id": table.id, "ruleset": table.ruleset,
                      "title": _title(registry, table.ruleset), "private": table.private,
                      "invite_code": table.invite_code, "from": {"id": invitation.inviter_id, "name": inviter},
                      "free_seats": free_seats, "at": iso_utc(invitation.created_at), "seat": invitation.seat,
                      "rematch": table.rematch_of is not None, "terms": _terms(registry, info, language),
                      "table": info.to_dict(registry, account_id)})
    return found


def _terms(registry: Registry, info: TableInfo, language: str | None = None) -> str:
    try:
        ruleset = registry.get(info.table.ruleset)
    except UnknownRuleset:
        ruleset = None
    names = []
    for seat in info.seats:
        if not seat.empty and seat.name:
            names.append(seat.name)
        elif seat.seat in info.held:
            names.append(translate(language, "{name} (asked)", name=info.held[seat.seat].name))
    return table_terms.terms(ruleset, info.table, names, language)


def _title(registry: Registry, ruleset: str) -> str:
    try:
        return registry.get(ruleset).title
    except UnknownRuleset:
        return ruleset


def _since(moment: datetime | None, since: datetime) -> bool:
    if moment is None:
        return False
    if moment.tzinfo is None:  # SQLite hands back naive datetimes, which are UTC here
        moment = moment.replace(tzinfo=since.tzinfo)
    return moment >= since

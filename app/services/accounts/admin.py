"""What an admin may do: list accounts, ban and unban them, make a one-time
password-reset link, read any table's chat and delete a message of it, close or delete a table;
and grant or revoke the admin role (the command line only).

Every action is recorded in the admin audit (``app/services/accounts/audit.py``: a row of ``admin_audit``,
committed with the action, then a log line), and a refused one changes nothing and records none.
Reading (the accounts, a table's chat, the audit) is no action.  A ban ends the account's sessions
on every process (``accounts.end_sessions`` + ``Marker.LOGGED_OUT``, as a logout does) and its login
is refused until an unban.  Used by ``/api/admin`` and by ``caravanserai admin``; ``fanout`` is how the change reaches
the server processes' sockets.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, ChatMessage, NotifyTurn, Seat, Table, iso_utc, utcnow
from app.db.results import rowcount
from app.fanout import LocalFanout, Marker
from app.services.accounts import identity as accounts
from app.services.accounts import password_reset
from app.services.accounts.audit import Actor, admin_action
from app.services.errors import AppError

CLOSABLE = ("open", "running", "abandoned")
USERS_PAGE = 100


def user_summary(account: Account) -> dict[str, Any]:
    """``{id, name, guest, admin, banned_at, deleted, created_at}`` (times ISO 8601 UTC or null)."""
    return {"id": account.id, "name": account.name, "guest": account.login_name is None and account.deleted_at is None,
            "admin": account.admin, "banned_at": iso_utc(account.banned_at), "deleted": account.deleted_at is not None,
            "created_at": iso_utc(account.created_at)}


def _target(account: Account) -> dict[str, Any]:
    return {"account_id": account.id, "name": account.name}


async def find_account(session: AsyncSession, who: str | int) -> Account:
    """The account named by ``who``: an id (``int``, or ``"#7"``), else a registered name (any case
    or look-alike form).  Raises ``AppError(not_found)``."""
    if isinstance(who, str) and who.startswith("#") and who[1:].isdigit():
        who = int(who[1:])
    if isinstance(who, int):
        account = await session.get(Account, who) if 1 <= who <= 2**31 - 1 else None
    else:
        account = await session.scalar(select(Account).where(Account.login_name == accounts.login_key(who)))
    if account is None:
        raise AppError("not_found", "no account {who} (a registered name, or #id for any account)", who=repr(who))
    return account


async def list_users(session: AsyncSession, search: str | None = None, limit: int = USERS_PAGE,
                     offset: int = 0) -> list[dict[str, Any]]:
    """Accounts in the order they were made (``user_summary`` each), those whose name holds
    ``search`` (any case) only when given; at most ``limit`` from ``offset``."""
    query = select(Account).order_by(Account.id).limit(limit).offset(offset)
    if search:
        pattern = "%" + search.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        query = query.where(or_(func.lower(Account.name).like(pattern, escape="\\"),
                                Account.login_name.like(pattern, escape="\\")))
    return [user_summary(account) for account in await session.scalars(query)]


async def set_admin(session: AsyncSession, actor: Actor, account: Account, admin: bool) -> dict[str, Any]:
    """Grant (``admin`` True) or revoke the admin role.  Raises ``AppError(conflict)``: a guest or a
    deleted account cannot be an admin; granting an admin, or revoking a non-admin, changes nothing;
    the last admin keeps the role (a site without one could not get one back from the API)."""
    if admin and (account.login_name is None or account.banned_at is not None):
        raise AppError("conflict", "{name} is a guest, banned or deleted: only registered accounts can be admins", name=account.name)
    if account.admin == admin:
        raise AppError("conflict", "{name} is already an admin" if admin else "{name} is not an admin", name=account.name)
    if not admin:
        # Every admin's row locked, in id order: of two revokes at once the second waits for the
        # first, then reads the admins again (PostgreSQL re-checks a locked row), and refuses.
        admins = list(await session.scalars(select(Account.id).where(Account.admin.is_(True))
                                            .order_by(Account.id).with_for_update()))
        if not set(admins) - {account.id}:
            raise AppError("conflict", "{name} is the last admin: grant the role to someone else first", name=account.name)
    account.admin = admin
    await admin_action(session, actor, "grant_admin" if admin else "revoke_admin", _target(account))
    return user_summary(account)


async def ban(session: AsyncSession, fanout: LocalFanout, actor: Actor, account_id: int | str) -> dict[str, Any]:
    """Ban an account: it is logged out everywhere (its sockets close) and cannot log in.

    Raises ``AppError``: ``not_found``, ``conflict`` (already banned, deleted, or an admin: revoke
    the role first; so nobody bans themself).
    """
    account = await find_account(session, account_id)
    if account.deleted_at is not None:
        raise AppError("conflict", "account {id} was deleted", id=account.id)
    if account.admin:
        raise AppError("conflict", "{name} is an admin; revoke the role first", name=account.name)
    if account.banned_at is not None:
        raise AppError("conflict", "{name} is banned already", name=account.name)
    account.banned_at = utcnow()
    account.password_reset_hash = account.password_reset_expires_at = None
    await admin_action(session, actor, "ban", _target(account))
    await accounts.end_sessions(session, account.id)
    await fanout.publish(account.id, Marker.LOGGED_OUT)
    return user_summary(account)


async def unban(session: AsyncSession, actor: Actor, account_id: int | str) -> dict[str, Any]:
    """Lift a ban (the person logs in again).  Raises ``AppError``: ``not_found``, ``conflict`` (not banned)."""
    account = await find_account(session, account_id)
    if account.banned_at is None:
        raise AppError("conflict", "{name} is not banned", name=account.name)
    account.banned_at = None
    await admin_action(session, actor, "unban", _target(account))
    return user_summary(account)


async def reset_password(session: AsyncSession, actor: Actor, account_id: int | str, site_url: str,
                         hours: float) -> dict[str, Any]:
    """``{link, expires_at}``: a one-time link with which the account's owner sets a new password
    (``app/services/accounts/password_reset.py``).  Raises ``AppError``: ``not_found``, ``conflict`` (a guest,
    a banned account)."""
    account = await find_account(session, account_id)
    token, expires_at = await password_reset.issue(session, account, hours)
    await admin_action(session, actor, "reset_password", {**_target(account), "expires_at": iso_utc(expires_at)})
    return {"link": password_reset.reset_link(site_url, token), "expires_at": iso_utc(expires_at)}


async def delete_chat_message(session: AsyncSession, fanout: LocalFanout, actor: Actor, message_id: int) -> None:
    """Delete one chat message for good; the table's open pages are told to read the chat again
    (a ``chat_removed`` frame).  Raises ``AppError(not_found)``."""
    message = await session.get(ChatMessage, message_id)
    if message is None:
        raise AppError("not_found", "no chat message {message_id}", message_id=message_id)
    target = {"message_id": message.id, "table_id": message.table_id, "account_id": message.account_id,
              "name": message.name, "text": message.text}
    await session.delete(message)
    await admin_action(session, actor, "delete_chat_message", target)
    await fanout.publish(message.table_id, Marker.CHAT_REMOVED)  # open pages read the chat again


async def close_table(session: AsyncSession, fanout: LocalFanout, actor: Actor, table_id: int) -> dict[str, Any]:
    """Close a table: an open one leaves the lobby, a running or abandoned game stops where it is
    (status ``closed``: no more moves, no bot, no clock, no turn notices; it stays readable).

    Raises ``AppError``: ``not_found``, ``conflict`` (finished or closed already).
    """
    table = await session.get(Table, table_id, with_for_update=True)
    if table is None:
        raise AppError("not_found", "no table {table_id}", table_id=table_id)
    if table.status not in CLOSABLE:
        raise AppError("conflict", "table {table_id} is {status}; only open, running or abandoned ones close", table_id=table_id, status=table.status)
    before = table.status
    closed = await session.execute(update(Table).where(Table.id == table_id, Table.status.in_(CLOSABLE))
                                   .values(status="closed", updated_at=utcnow()))
    if rowcount(closed) != 1:
        await session.rollback()
        raise AppError("conflict", "table {table_id} just changed; look again", table_id=table_id)
    await session.execute(update(Seat).where(Seat.table_id == table_id).values(deadline=None, away_deadline=None))
    await session.execute(delete(NotifyTurn).where(NotifyTurn.table_id == table_id))
    await admin_action(session, actor, "close_table",
                       {"table_id": table_id, "ruleset": table.ruleset, "was": before})
    await fanout.publish(table_id, Marker.SEATING_CHANGED)  # every socket is sent the closed game
    return {"id": table_id, "status": "closed"}


async def delete_table(session: AsyncSession, fanout: LocalFanout, actor: Actor, table_id: int) -> None:
    """Delete a table and everything of it (seats, moves, chat, turn notices); its open sockets are
    closed.  A rematch that points at it loses that link.  Raises ``AppError(not_found)``."""
    table = await session.get(Table, table_id, with_for_update=True)
    if table is None:
        raise AppError("not_found", "no table {table_id}", table_id=table_id)
    target = {"table_id": table_id, "ruleset": table.ruleset, "status": table.status,
              "created_at": iso_utc(table.created_at)}
    await session.execute(update(Table).where(Table.rematch_of == table_id).values(rematch_of=None))
    await session.execute(update(Table).where(Table.rematch_id == table_id).values(rematch_id=None))
    for model in (NotifyTurn, ChatMessage, Seat):
        await session.execute(delete(model).where(model.table_id == table_id))
    await session.execute(delete(Table).where(Table.id == table_id))  # moves go with it (ON DELETE CASCADE)
    await admin_action(session, actor, "delete_table", target)
    await fanout.publish(table_id, Marker.TABLE_DELETED)


CHAT_PAGE = 200


async def table_chat(session: AsyncSession, table_id: int, limit: int = CHAT_PAGE,
                     before: int | None = None) -> list[dict[str, Any]]:
    """Any table's chat as an admin sees it, to find the line to delete: ``[{id, table_id,
    account_id, seat, name, text, at}]`` oldest first, the newest ``limit`` (below the message id
    ``before`` when given), whoever blocked whom.  Raises ``AppError(not_found)``: no such table."""
    if await session.get(Table, table_id) is None:
        raise AppError("not_found", "no table {table_id}", table_id=table_id)
    query = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if before is not None:
        query = query.where(ChatMessage.id < before)
    latest = list(await session.scalars(query.order_by(ChatMessage.id.desc()).limit(limit)))
    return [{"id": message.id, "table_id": message.table_id, "account_id": message.account_id, "seat": message.seat,
             "name": message.name, "text": message.text, "at": iso_utc(message.created_at)}
            for message in reversed(latest)]

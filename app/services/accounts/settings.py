"""Accounts people keep: a guest becomes registered, a registered person changes
their password or name, anyone deletes their own account; and the settings that follow a person to
every device ("Confirm my moves").

Names stay unique as registered names always were: compared case-insensitively after Unicode NFKC
folding (``accounts.login_key``), so "ＡＤＡ" and "ada" are the same name.  Each refusal changes
nothing.  A password change or a deletion ends the account's sessions everywhere (the caller logs
its own request in again after a password change).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, ChatMessage, NotifyAccount, NotifyTurn, PushSubscription, Seat, Table, utcnow
from app.db.results import rowcount
from app.fanout import LocalFanout, Marker
from app.i18n import N_, SUPPORTED
from app.services.accounts import identity as accounts
from app.services.tables import changes as tables
from app.services.errors import AppError


async def keep_guest(session: AsyncSession, account: Account, name: str, password: str) -> Account:
    """Turn the guest ``account`` into a registered one under ``name``: the same account, so its
    games and seats stay its own; the site's first registered account becomes its admin.

    Raises ``AppError``: ``conflict`` (not a guest; the name or a look-alike is registered),
    ``bad_request`` (a bad name or password).
    """
    if account.password_hash is not None:
        raise AppError("conflict", "this account is registered already")
    name, key = accounts.registered_name(name)
    await accounts.refuse_look_alike(session, name, key, account.id)
    password_hash = await accounts.hash_password(password)
    first = await accounts.first_registered(session)
    await _update(session, account, {"name": name, "login_name": key, "password_hash": password_hash, "admin": first},
                  Account.password_hash.is_(None))
    await accounts.commit_name(session, name)
    return await _reload(session, account)


async def change_password(session: AsyncSession, fanout: LocalFanout, account: Account, current: str,
                          new: str) -> Account:
    """Set a new password after checking the current one; every session of the account ends (the
    caller logs the asking browser in again) and a pending reset link is spent.

    Raises ``AppError``: ``conflict`` (a guest has no password), ``forbidden`` (the current password
    is wrong), ``bad_request`` (the new one has not 8 to 128 characters).
    """
    await _check_password(account, current, N_("a guest account has no password; keep the account (name and password) to change the password"))
    new_hash = await accounts.hash_password(new)
    await _update(session, account, {"password_hash": new_hash, "password_reset_hash": None,
                                     "password_reset_expires_at": None})
    await session.commit()
    await end_everywhere(session, fanout, account.id)
    return await _reload(session, account)


async def rename(session: AsyncSession, account: Account, name: str) -> Account:
    """Change the account's name (a registered one's login name with it).  Games show the new name;
    chat lines keep the name they were written under.

    Raises ``AppError``: ``bad_request`` (a bad name), ``conflict`` (another account registered it
    or a look-alike of it).
    """
    if account.password_hash is None:
        await _update(session, account, {"name": accounts.clean_name(name)})
        await session.commit()
    else:
        name, key = accounts.registered_name(name)
        await accounts.refuse_look_alike(session, name, key, account.id)
        await _update(session, account, {"name": name, "login_name": key})
        await accounts.commit_name(session, name)
    return await _reload(session, account)


SETTINGS = frozenset({"confirm_moves", "language"})
"""The account's settings, each a column of ``accounts``; null: each device decides.
``confirm_moves`` is true or false (null: on for touch screens); ``language`` one of
``app.i18n.SUPPORTED`` (null: each browser's own choice, e-mails and notices in English)."""


async def change_settings(session: AsyncSession, account: Account, values: Mapping[str, bool | str | None]) -> Account:
    """Set the named settings (``{"confirm_moves": True | False | None, "language": "fr" | None}``);
    the others stay as they are.  Guests have settings too.

    Raises ``AppError``: ``bad_request`` (a name not in :data:`SETTINGS`, or a value of the wrong
    kind: ``confirm_moves`` not a boolean or null, ``language`` not a supported language or null),
    ``conflict`` (the account was deleted meanwhile).
    """
    for name, value in values.items():
        if name not in SETTINGS:
            raise AppError("bad_request", "no setting is called {name}", name=repr(name))
        if name == "language":
            if value is not None and value not in SUPPORTED:
                raise AppError("bad_request", "language is one of {languages}, or null", languages=', '.join(SUPPORTED))
        elif value is not None and not isinstance(value, bool):
            raise AppError("bad_request", "{name} is true, false or null", name=name)
    if values:
        await _update(session, account, dict(values))
        await session.commit()
    return await _reload(session, account)


async def delete_account(session: AsyncSession, fanout: LocalFanout, account: Account, password: str | None) -> None:
    """Delete the account, confirmed with its password (a guest has none to give).

    Its games stay, its seats in them shown as "deleted player": a bot plays its running games to
    the end (as after resigning); it leaves the open tables it sits at (a table it hosts passes to
    the next person seated, or closes).  Its chat lines read "deleted player"; its login name (free
    again), password, e-mail address and push subscriptions go; every session ends.

    Raises ``AppError``: ``forbidden`` (a wrong or missing password).
    """
    if account.password_hash is not None:
        await _check_password(account, password or "", N_("a guest account has no password; keep the account (name and password) to delete it"))
    await _leave_open_tables(session, account)
    playing = list(await session.scalars(
        select(Seat.table_id).join(Table, Table.id == Seat.table_id)
        .where(Seat.account_id == account.id, Table.status.in_(("running", "abandoned")))))
    await session.execute(update(Seat).where(Seat.account_id == account.id, Seat.table_id.in_(playing))
                          .values(takeover="resigned", deadline=None, away_deadline=None))
    await session.execute(update(ChatMessage).where(ChatMessage.account_id == account.id)
                          .values(name=accounts.DELETED_NAME))
    for model in (NotifyTurn, PushSubscription, NotifyAccount):
        await session.execute(delete(model).where(model.account_id == account.id))
    await _update(session, account, {"name": accounts.DELETED_NAME, "login_name": None, "password_hash": None,
                                     "admin": False, "deleted_at": utcnow(), "password_reset_hash": None,
                                     "password_reset_expires_at": None})
    await session.commit()
    await end_everywhere(session, fanout, account.id)
    for table_id in playing:
        await fanout.publish(table_id, Marker.SEATING_CHANGED)


async def end_everywhere(session: AsyncSession, fanout: LocalFanout, account_id: int) -> None:
    """End every session of the account and close its sockets on every process (as a logout does)."""
    await accounts.end_sessions(session, account_id)
    await fanout.publish(account_id, Marker.LOGGED_OUT)


async def _leave_open_tables(session: AsyncSession, account: Account) -> None:
    seated = await session.scalars(select(Seat.table_id).join(Table, Table.id == Seat.table_id)
                                   .where(Seat.account_id == account.id, Table.status == "open"))
    for table_id in list(seated):
        await tables.leave_table(session, account, table_id)  # hands the table on, or closes it
    # Tables it hosts without sitting at them (it gave its seat to a bot): the first person seated hosts.
    for table in list(await session.scalars(select(Table).where(Table.creator_id == account.id,
                                                                  Table.status == "open"))):
        heir = await session.scalar(select(Seat.account_id).where(Seat.table_id == table.id,
                                                                  Seat.account_id.is_not(None)).order_by(Seat.seat))
        if heir is None:
            table.status = "closed"
        else:
            table.creator_id = heir
    await session.commit()


async def _check_password(account: Account, password: str, guest_refusal: str) -> None:
    if account.password_hash is None:
        raise AppError("conflict", guest_refusal)
    if not await accounts.password_matches(account, password):
        raise AppError("forbidden", "the current password is wrong")


async def _update(session: AsyncSession, account: Account, values: dict, *guard) -> None:
    """One UPDATE of the account's row (guarded by ``guard``); raises ``AppError(conflict)`` (rolled
    back) when the guard no longer holds (a second request changed it meanwhile) or the new login
    name is another account's."""
    try:
        done = await session.execute(update(Account).where(Account.id == account.id, Account.deleted_at.is_(None),
                                                           *guard).values(**values))
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "the name {name} is already registered", name=repr(values.get('name'))) from None
    if rowcount(done) != 1:
        await session.rollback()
        raise AppError("conflict", "the account just changed; look again")


async def _reload(session: AsyncSession, account: Account) -> Account:
    return (await session.scalars(select(Account).where(Account.id == account.id)
                                  .execution_options(populate_existing=True))).one()

"""A person's notice choices: the e-mail address and its switch, and the
browsers subscribed to push.  Opt-in: nothing is sent to an account that chose nothing.

Rules: guests may subscribe browsers but not add an address (they have no way back into their
account to change it); an address gets turn mails only once its owner confirmed it from the
mail sent to it; one browser's subscription belongs to one account; an account keeps at most
``MAX_SUBSCRIPTIONS`` browsers (a new one replaces the oldest).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import CompoundSelect, Select, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, NotifyAccount, PushSubscription, Seat, Table, iso_utc, utcnow
from app.db.results import rowcount
from app.services.errors import AppError
from app.services.notify.push import Subscription

MAX_SUBSCRIPTIONS = 10
CONFIRM_RESEND_MINUTES = 10
"""An account asks for a confirmation mail at most this often (the address is anyone's mailbox)."""


async def choices(session: AsyncSession, account: Account) -> dict[str, Any]:
    """``{email: {address, confirmed, enabled}, push: [{id, endpoint, created_at}]}`` of ``account``."""
    row = await session.get(NotifyAccount, account.id)
    subscriptions = await session.scalars(select(PushSubscription).where(PushSubscription.account_id == account.id)
                                          .order_by(PushSubscription.id))
    return {
        "email": {"address": row.email if row else None, "confirmed": bool(row and row.email_confirmed),
                  "enabled": bool(row and row.email and row.email_enabled)},
        "push": [{"id": sub.id, "endpoint": sub.endpoint, "created_at": iso_utc(sub.created_at)} for sub in subscriptions],
    }


async def add_subscription(session: AsyncSession, account_id: int, subscription: Subscription) -> tuple[int, bool]:
    """Keep a browser's (checked) subscription for ``account_id``; ``(id, created)``.

    The same endpoint again updates its keys.  Raises ``AppError(conflict)`` when the endpoint is
    another account's (that browser tells someone else's turns until that account, or the browser,
    drops it).
    """
    held = await session.scalar(select(PushSubscription).where(PushSubscription.endpoint == subscription.endpoint))
    if held is not None:
        if held.account_id != account_id:
            raise AppError("conflict", "this browser already tells another account's turns")
        held.p256dh, held.auth = subscription.p256dh, subscription.auth
        await session.commit()
        return held.id, False
    row = PushSubscription(account_id=account_id, endpoint=subscription.endpoint, p256dh=subscription.p256dh,
                           auth=subscription.auth, created_at=utcnow())
    session.add(row)
    try:
        await session.flush()
    except IntegrityError:  # the same browser subscribed twice at once: the first one stands
        await session.rollback()
        return await add_subscription(session, account_id, subscription)
    count = await session.scalar(select(func.count()).select_from(PushSubscription)
                                 .where(PushSubscription.account_id == account_id)) or 0
    if count > MAX_SUBSCRIPTIONS:  # the oldest browsers make room
        oldest = list(await session.scalars(select(PushSubscription.id).where(PushSubscription.account_id == account_id)
                                            .order_by(PushSubscription.id).limit(count - MAX_SUBSCRIPTIONS)))
        await session.execute(delete(PushSubscription).where(PushSubscription.id.in_(oldest)))
    await session.commit()
    return row.id, True


async def remove_subscription(session: AsyncSession, account_id: int, subscription_id: int) -> None:
    """Forget one of the account's browsers; raises ``AppError(not_found)`` for another account's or an unknown id."""
    result = await session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id,
                                                                  PushSubscription.account_id == account_id))
    if rowcount(result) != 1:
        raise AppError("not_found", "you have no push subscription {subscription_id}", subscription_id=subscription_id)
    await session.commit()


async def remove_all_subscriptions(session: AsyncSession, account_id: int) -> int:
    """Forget every browser of the account; how many there were."""
    result = await session.execute(delete(PushSubscription).where(PushSubscription.account_id == account_id))
    await session.commit()
    return rowcount(result)


async def drop_endpoint(session: AsyncSession, endpoint: str) -> None:
    """Forget a subscription its push service says is gone (404/410)."""
    await session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
    await session.commit()


def check_may_mail(account: Account) -> None:
    """Raises ``AppError(forbidden)`` for a guest: only registered accounts may add an address."""
    if account.guest:
        raise AppError("forbidden", "guests cannot add an e-mail address; create an account (with a password) first")


async def may_send_confirmation(session: AsyncSession, account_id: int, now: datetime) -> None:
    """Raises ``AppError(rate_limited)`` if a confirmation mail left for this account in the last
    ``CONFIRM_RESEND_MINUTES``."""
    row = await session.get(NotifyAccount, account_id)
    sent = row.email_confirm_sent_at if row else None
    if sent is not None:
        sent = sent if sent.tzinfo else sent.replace(tzinfo=timezone.utc)
        wait = sent + timedelta(minutes=CONFIRM_RESEND_MINUTES) - now
        if wait > timedelta(0):
            minutes = int(wait.total_seconds() // 60) + 1
            raise AppError("rate_limited", "a confirmation mail was sent a moment ago; ask again in {minutes} min", minutes=minutes)


AddressState = tuple[str | None, bool, bool, datetime | None]
"""An account's address as stored: ``(email, email_confirmed, email_enabled, email_confirm_sent_at)``."""


async def set_address(session: AsyncSession, account_id: int, address: str, now: datetime) -> AddressState:
    """Keep ``address`` (checked) as the account's, not yet confirmed, mails on; the confirmation
    mail leaves at ``now``.  The same confirmed address again stays confirmed.  Committed before
    the mail leaves (its link may be followed at once); returns what was stored before, for
    :func:`restore_address` if the mail cannot be sent."""
    row = await _row(session, account_id)
    before = (row.email, bool(row.email_confirmed), bool(row.email_enabled), row.email_confirm_sent_at)
    if row.email != address:
        row.email, row.email_confirmed = address, False
    row.email_enabled = True
    row.email_confirm_sent_at = now
    await session.commit()
    return before


async def restore_address(session: AsyncSession, account_id: int, before: AddressState) -> None:
    """Put back the address ``before`` (as :func:`set_address` returned it): the mail did not leave."""
    row = await _row(session, account_id)
    row.email, row.email_confirmed, row.email_enabled, row.email_confirm_sent_at = before
    await session.commit()


async def confirm_address(session: AsyncSession, account_id: int, address: str) -> bool:
    """Mark ``address`` confirmed if it is still the account's; whether it is."""
    result = await session.execute(update(NotifyAccount).where(NotifyAccount.account_id == account_id,
                                                               NotifyAccount.email == address)
                                   .values(email_confirmed=True))
    await session.commit()
    return rowcount(result) == 1


async def set_mail_enabled(session: AsyncSession, account_id: int, enabled: bool,
                           address: str | None = None) -> bool:
    """Turn the account's turn mails on or off (only if its address is still ``address``, when given);
    whether the account has an address (that address)."""
    query = update(NotifyAccount).where(NotifyAccount.account_id == account_id, NotifyAccount.email.is_not(None))
    if address is not None:
        query = query.where(NotifyAccount.email == address)
    result = await session.execute(query.values(email_enabled=enabled))
    await session.commit()
    return rowcount(result) == 1


async def remove_address(session: AsyncSession, account_id: int) -> None:
    """Forget the account's address."""
    await session.execute(update(NotifyAccount).where(NotifyAccount.account_id == account_id)
                          .values(email=None, email_confirmed=False, email_enabled=True))
    await session.commit()


async def accounts_wanting(session: AsyncSession, account_ids: set[int], mail_configured: bool) -> set[int]:
    """The accounts among ``account_ids`` that chose a channel: a browser, or (when this server
    mails) a confirmed address with mails on."""
    if not account_ids:
        return set()
    wanting = set(await session.scalars(select(PushSubscription.account_id)
                                        .where(PushSubscription.account_id.in_(account_ids)).distinct()))
    if mail_configured:
        wanting |= set(await session.scalars(select(NotifyAccount.account_id).where(
            NotifyAccount.account_id.in_(account_ids), NotifyAccount.email.is_not(None),
            NotifyAccount.email_confirmed.is_(True), NotifyAccount.email_enabled.is_(True))))
    return wanting


async def _row(session: AsyncSession, account_id: int) -> NotifyAccount:
    row = await session.get(NotifyAccount, account_id)
    if row is None:
        row = NotifyAccount(account_id=account_id, email_confirmed=False, email_enabled=True)
        session.add(row)
    return row


async def next_digest_at(session: AsyncSession, account_id: int, minutes: float) -> datetime | None:
    """When the account may next get a digest (None: now)."""
    last = await session.scalar(select(NotifyAccount.last_digest_at).where(NotifyAccount.account_id == account_id))
    if last is None:
        return None
    return (last if last.tzinfo else last.replace(tzinfo=timezone.utc)) + timedelta(minutes=minutes)


async def ensure_row(session: AsyncSession, account_id: int) -> None:
    """Make the account's ``notify_accounts`` row if it has none.  Commits."""
    if await session.get(NotifyAccount, account_id) is not None:
        return
    session.add(NotifyAccount(account_id=account_id, email_confirmed=False, email_enabled=True))
    try:
        await session.commit()
    except IntegrityError:  # made meanwhile by another process
        await session.rollback()


async def claim_digest(session: AsyncSession, account_id: int, now: datetime, minutes: float) -> bool:
    """Take the account's digest slot at ``now`` if the last digest is ``minutes`` old (or there was
    none); whether this call took it.  Needs the row (:func:`ensure_row`); does not commit (the
    caller's transaction also claims the turns)."""
    result = await session.execute(update(NotifyAccount).where(
        NotifyAccount.account_id == account_id,
        (NotifyAccount.last_digest_at.is_(None)) | (NotifyAccount.last_digest_at <= now - timedelta(minutes=minutes)))
        .values(last_digest_at=now))
    return rowcount(result) == 1


async def running_games_of_wanting(session: AsyncSession, mail_configured: bool) -> set[int]:
    """The running games where someone sits who chose a channel (see :func:`accounts_wanting`)."""
    pushing = select(PushSubscription.account_id)
    wanting: Select[int] | CompoundSelect[int] = pushing
    if mail_configured:
        wanting = pushing.union(select(NotifyAccount.account_id).where(
            NotifyAccount.email.is_not(None), NotifyAccount.email_confirmed.is_(True),
            NotifyAccount.email_enabled.is_(True)))
    return set(await session.scalars(select(Seat.table_id).join(Table, Table.id == Seat.table_id)
                                     .where(Table.status == "running", Seat.account_id.in_(wanting)).distinct()))

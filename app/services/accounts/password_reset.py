"""One-time password-reset links: an admin makes one, its owner sets a new password once.

The link carries a random token (32 bytes, base64url) in its fragment (``/reset-password#token=...``),
so it never reaches a proxy's access log or another site's ``Referer``.  Only its SHA-256 is stored
(``accounts.password_reset_hash``): a leaked backup cannot be used to take accounts over.  A new
link replaces the account's earlier one; using it, a ban, a password change or the account's
deletion spends it; it expires after ``password_reset_hours``.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, utcnow
from app.db.results import rowcount
from app.services.accounts import identity as accounts
from app.services.errors import AppError

RESET_PATH = "/reset-password"


def token_hash(token: str) -> str:
    """The stored form of a reset token: SHA-256, hex (64 characters)."""
    return hashlib.sha256(token.encode()).hexdigest()


def reset_link(site_url: str, token: str) -> str:
    """The page where the token's owner chooses a new password."""
    return f"{site_url.rstrip('/')}{RESET_PATH}#token={token}"


async def issue(session: AsyncSession, account: Account, hours: float) -> tuple[str, datetime]:
    """A new reset token for ``account`` (replacing any earlier one) and when it expires; committed.

    Raises ``AppError``: ``not_found`` (a deleted account), ``conflict`` (a guest: no password to
    reset; a banned account: unban it first).
    """
    if account.deleted_at is not None:
        raise AppError("not_found", "no account {id}", id=account.id)
    if account.password_hash is None:
        raise AppError("conflict", "{name} is a guest: there is no password to reset", name=account.name)
    if account.banned_at is not None:
        raise AppError("conflict", "{name} is banned; unban the account first", name=account.name)
    token = secrets.token_urlsafe(32)
    expires_at = utcnow() + timedelta(hours=hours)
    account.password_reset_hash = token_hash(token)
    account.password_reset_expires_at = expires_at
    await session.commit()
    return token, expires_at


async def use(session: AsyncSession, token: str, password: str) -> Account:
    """Set the password of the account the token was made for, and spend the token; the caller
    ends the account's other sessions.

    Raises ``AppError``: ``bad_request`` (a password not of 8 to 128 characters: the token stays
    good), ``not_found`` (an unknown, used or expired token, or the account was banned since).
    """
    stored = token_hash(token)
    account = await session.scalar(select(Account).where(Account.password_reset_hash == stored))
    if account is None or not _still_valid(account.password_reset_expires_at) or account.banned_at is not None:
        raise AppError("not_found", "this password-reset link is unknown, used or expired; ask the host for a new one")
    new_hash = await accounts.hash_password(password)
    # Guarded on the token: two uses at once, one wins.
    spent = await session.execute(
        update(Account).where(Account.id == account.id, Account.password_reset_hash == stored)
        .values(password_hash=new_hash, password_reset_hash=None, password_reset_expires_at=None))
    if rowcount(spent) != 1:
        await session.rollback()
        raise AppError("not_found", "this password-reset link was just used")
    await session.commit()
    await session.refresh(account)
    return account


def _still_valid(expires_at: datetime | None) -> bool:
    if expires_at is None:
        return False
    if expires_at.tzinfo is None:  # SQLite hands back naive datetimes, which are UTC here
        expires_at = expires_at.replace(tzinfo=timezone.utc)
    return expires_at > utcnow()

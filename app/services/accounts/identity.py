"""Accounts: guests and registered players (argon2-cffi hashes), looked up by session."""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import bindparam, exists, or_, select, text, update
from sqlalchemy.engine import Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.login_sessions import current_login_sql
from app.db.models import Account
from app.fanout import Marker
from app.services.context import Context
from app.services.errors import AppError

_hasher = PasswordHasher()


def _confusables() -> Any:
    """``confusable_homoglyphs.confusables``, imported on the first registered name: its Unicode
    data holds about 7 MiB for good, and guests, who are most players, never need it.
    The first such import takes about 50 ms."""
    from confusable_homoglyphs import confusables

    return confusables

DELETED_NAME = "deleted player"
"""What a deleted account is called wherever its games are shown; nobody may take it."""

_LOOKS_LIKE_A_LABEL = re.compile(r"\((bot|seat \d+)\)\s*$", re.IGNORECASE)
"""What the platform adds to names ("Ada (bot)", "Carol (seat 3)"): nobody may pass for a bot or another seat."""


def clean_name(name: str) -> str:
    """Trim a display name; raises ``AppError(bad_request)`` if empty, over 32 characters, holding
    control or formatting characters (NUL, bidirectional overrides, zero-width marks) or braces, or
    ending like the labels the platform adds ("(bot)", "(seat 2)")."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= 32:
        raise AppError("bad_request", "a name has 1 to 32 characters")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") or char in "{}" for char in name):
        raise AppError("bad_request", "a name may not contain invisible or control characters (such as a zero-width space) or braces")
    if _LOOKS_LIKE_A_LABEL.search(unicodedata.normalize("NFKC", name)):
        raise AppError("bad_request", "a name may not end in \"(bot)\" or \"(seat n)\"")
    if login_key(name) == DELETED_NAME:
        raise AppError("bad_request", "{DELETED_NAME} is what deleted accounts are called; choose another name", DELETED_NAME=repr(DELETED_NAME))
    return name


def login_key(name: str) -> str:
    """The form registered names are unique in and looked up by: compatibility-normalised (NFKC:
    "Ｒｅｇ" is "Reg") and case-folded, so no one registers a look-alike of a taken name."""
    return unicodedata.normalize("NFKC", name).casefold()


async def create_guest(session: AsyncSession, name: str) -> Account:
    """A new guest account (name only).

    Raises ``AppError(bad_request)`` for a name :func:`clean_name` refuses, and ``AppError(conflict)``
    for a registered account's name or one that reads as it (its login key; :func:`refuse_look_alike`):
    a guest may share a name with another guest (a table tells them apart by seat), but never pass
    for a registered player.
    """
    name = clean_name(name)
    key = login_key(name)
    if await session.scalar(select(Account.id).where(Account.login_name == key)) is not None:
        raise AppError("conflict", "the name {name} is a registered player's: log in, or choose another name",
                       name=repr(name))
    if not name.isascii():  # an ASCII name reads as itself; the look-alike data stays unloaded for it (_confusables)
        await refuse_look_alike(session, name, key)
    account = Account(name=name)
    session.add(account)
    await session.commit()
    return account


def registered_name(name: str) -> tuple[str, str]:
    """``(display name, login key)`` of a name to register; raises ``AppError(bad_request)`` (see
    :func:`clean_name`; also a key over 32 characters once normalised, and a name mixing alphabets
    with a letter that looks like another alphabet's, such as a Cyrillic "А" in "Аna": Unicode's
    confusables data, through ``confusable_homoglyphs``)."""
    name = clean_name(name)
    key = login_key(name)
    if len(key) > 32:
        raise AppError("bad_request", "a registered name has 1 to 32 characters once normalised")
    if _confusables().is_dangerous(name):
        raise AppError("bad_request", "a registered name may not mix alphabets with letters that look alike "
                                      "(such as a Cyrillic \"а\" among Latin letters)")
    return name, key


def latin_reading(name: str) -> str | None:
    """How ``name`` reads to someone who sees Latin letters, when it is written wholly in letters of
    another alphabet that look like Latin ones ("Аnnа" in Cyrillic reads "Anna"); ``None`` when some
    letter looks like no Latin letter or the name is Latin already."""
    found = _confusables().is_confusable(name, greedy=True, preferred_aliases=["latin"])
    if not found:
        return None
    latin = {}
    for entry in found:
        lookalikes = [glyph["c"] for glyph in entry["homoglyphs"] if glyph["n"].startswith("LATIN ")]
        if not lookalikes:
            return None
        latin[entry["character"]] = lookalikes[0]
    return "".join(latin.get(char, char) for char in name)


async def refuse_look_alike(session: AsyncSession, name: str, key: str, account_id: int | None = None) -> None:
    """Raise ``AppError(conflict)`` when ``name`` (login key ``key``) reads as a name another account
    registered in Latin letters (see :func:`latin_reading`); ``account_id`` is the account taking it."""
    reading = latin_reading(name)
    if reading is None or login_key(reading) == key:
        return
    holder = select(Account.id).where(Account.login_name == login_key(reading))
    if account_id is not None:
        holder = holder.where(Account.id != account_id)
    if await session.scalar(holder) is not None:
        raise AppError("conflict", "the name {name} looks like the registered name {reading}", name=repr(name), reading=repr(reading))


PASSWORD_MIN, PASSWORD_MAX = 8, 128
"""Characters in a password: at least PASSWORD_MIN besides white space at its ends, at most PASSWORD_MAX in all."""


async def hash_password(password: str) -> str:
    """The argon2 hash of a new password, exactly as typed; raises ``AppError(bad_request)`` unless it
    has 8 to 128 characters, or when fewer than 8 are left once the white space at its start and end
    is taken off (``str.strip``).

    White space at the ends does not count because a password field shows it as dots like any other
    character: eight spaces, or "  abc   " pasted with its margins, pass the length rule yet are no
    secret and hard to type again. White space inside (a passphrase such as "camel caravan") counts,
    and nothing is taken off the password itself: it is hashed, and later checked, as typed."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AppError("bad_request", "a password has 8 to 128 characters")
    if len(password.strip()) < PASSWORD_MIN:
        raise AppError("bad_request", "a password needs 8 characters besides any spaces at its start and end")
    return await asyncio.to_thread(_hasher.hash, password)  # ~50 ms of CPU: off the loop


async def password_matches(account: Account, password: str) -> bool:
    """Whether ``password`` is the account's (False for an account without one)."""
    if account.password_hash is None:
        return False
    try:
        return await asyncio.to_thread(_hasher.verify, account.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


async def first_registered(session: AsyncSession) -> bool:
    """Whether an account registered now is the site's first (it becomes the
    admin): no account is an admin and none other is registered."""
    taken = exists().where(or_(Account.admin.is_(True), Account.login_name.is_not(None)))
    return not await session.scalar(select(taken))


async def commit_name(session: AsyncSession, name: str) -> None:
    """Commit a change that sets a login name; raises ``AppError(conflict)`` (rolled back) when
    another account holds it or a look-alike of it."""
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "the name {name} is already registered", name=repr(name)) from None


async def register(session: AsyncSession, name: str, password: str) -> Account:
    """A new registered account (the site's admin when it is the first); raises ``AppError``:
    ``conflict`` if the name is taken, ``bad_request`` for a bad name or password."""
    name, key = registered_name(name)
    await refuse_look_alike(session, name, key)
    account = Account(name=name, login_name=key, password_hash=await hash_password(password),
                      admin=await first_registered(session))
    session.add(account)
    await commit_name(session, name)
    return account


async def login(session: AsyncSession, name: str, password: str) -> Account:
    """The registered account with that name and password; raises ``AppError``: ``unauthorized``,
    ``forbidden`` (the right password of a banned account)."""
    try:
        login_name = login_key(clean_name(name))
    except AppError:  # no account can have such a name (and Postgres text cannot hold a NUL)
        raise AppError("unauthorized", "unknown name or wrong password") from None
    account = await session.scalar(select(Account).where(Account.login_name == login_name))
    if account is None or not await password_matches(account, password):
        raise AppError("unauthorized", "unknown name or wrong password")
    if account.banned_at is not None:
        raise AppError("forbidden", "this account is banned; ask the site's host")
    return account


@dataclass(frozen=True)
class Login:
    """Who a request or socket speaks for: an account and the login session its cookie carries
    (the account's ``session_epoch`` when it logged in, and its ``session_key``)."""

    account_id: int
    session: int = 0
    key: str = ""


def login_of(cookie: Mapping[str, Any]) -> Login | None:
    """The login a signed session cookie claims (not yet checked against the database), or None.

    A cookie made before accounts had keys carries none: it reads as the empty key, which only the
    accounts made before then have (migration 0010)."""
    account_id = cookie.get("account_id")
    if not isinstance(account_id, int):
        return None
    session, key = cookie.get("epoch"), cookie.get("key")
    return Login(account_id, session if isinstance(session, int) else 0, key if isinstance(key, str) else "")


def cookie_of(account: Account) -> dict[str, Any]:
    """What a session cookie of ``account`` holds (read back by :func:`login_of`)."""
    return {"account_id": account.id, "epoch": account.session_epoch or 0, "key": account.session_key}


async def get_account(session: AsyncSession, login: Login | None) -> Account | None:
    """The account of ``login`` while that login session holds, or ``None``."""
    if login is None:
        return None
    return await session.scalar(select(Account).where(
        Account.id == login.account_id,
        text(current_login_sql(":account", ":session", ":key")).bindparams(
            account=login.account_id, session=login.session, key=login.key)))


_ENDED_LOGINS_POSTGRES = text(
    "SELECT login.account, login.session, login.login_key "
    "FROM unnest(CAST(:accounts AS bigint[]), CAST(:sessions AS bigint[]), CAST(:keys AS text[])) "
    "AS login(account, session, login_key) "
    f"WHERE NOT {current_login_sql('login.account', 'login.session', 'login.login_key')}")
"""PostgreSQL: the ended logins among three parallel arrays, in one statement whatever their number
(its text never changes, so asyncpg prepares it once per connection)."""

_LOGINS_PER_SQLITE_QUERY = 100
"""SQLite has no arrays: one statement per 100 logins, three bound parameters each (300, far below
the 999 of old SQLite builds)."""


async def ended_logins(session: AsyncSession, logins: Iterable[Login]) -> set[Login]:
    """Those of ``logins`` whose session has ended (logged out, or an account that no longer
    exists or holds another key): the negation of ``app/db/login_sessions.py``'s one predicate.

    PostgreSQL: one statement for any number of logins (arrays, ``unnest``); SQLite: one per 100
    logins.  The hub's resync asks this for every open socket's login every
    ``resync_seconds``; the statement per 300 logins it replaced, with 900 bound parameters, cost
    about 16 ms of the server's CPU per 1,000 logins, this about 1.2 ms (``bench/login_check.py``).
    """
    wanted = list(set(logins))
    if not wanted:
        return set()
    if session.get_bind().dialect.name == "postgresql":
        rows: Result[int, int, str] = await session.execute(_ENDED_LOGINS_POSTGRES, {
            "accounts": [login.account_id for login in wanted], "sessions": [login.session for login in wanted],
            "keys": [login.key for login in wanted]})
        return {Login(account, login_session, key) for account, login_session, key in rows}
    ended: set[Login] = set()
    for start in range(0, len(wanted), _LOGINS_PER_SQLITE_QUERY):
        chunk = wanted[start:start + _LOGINS_PER_SQLITE_QUERY]
        values = ", ".join(f"(CAST(:a{index} AS INTEGER), CAST(:s{index} AS INTEGER), CAST(:k{index} AS VARCHAR))"
                           for index in range(len(chunk)))
        statement = text(f"WITH logins(account, session, login_key) AS (VALUES {values}) "
                         "SELECT account, session, login_key FROM logins "
                         f"WHERE NOT {current_login_sql('logins.account', 'logins.session', 'logins.login_key')}"
                         ).bindparams(
            *(bindparam(f"a{index}", login.account_id) for index, login in enumerate(chunk)),
            *(bindparam(f"s{index}", login.session) for index, login in enumerate(chunk)),
            *(bindparam(f"k{index}", login.key) for index, login in enumerate(chunk)))
        chunk_rows: Result[int, int, str] = await session.execute(statement)
        ended.update(Login(account, login_session, key) for account, login_session, key in chunk_rows)
    return ended


async def current_logins(session: AsyncSession, logins: Iterable[Login]) -> set[Login]:
    """Those of ``logins`` whose session has not ended: all but the :func:`ended_logins`."""
    wanted = set(logins)
    return wanted - await ended_logins(session, wanted)


async def end_sessions(session: AsyncSession, account_id: int) -> None:
    """Log the account out everywhere: cookies of the current epoch stop working."""
    await session.execute(update(Account).where(Account.id == account_id)
                          .values(session_epoch=Account.session_epoch + 1))
    await session.commit()


async def log_out(ctx: Context, session: AsyncSession, account_id: int) -> None:
    """End every session of ``account_id`` (:func:`end_sessions`), then tell every process
    (``Marker.LOGGED_OUT``), which closes the account's open sockets."""
    await end_sessions(session, account_id)
    await ctx.fanout.publish(account_id, Marker.LOGGED_OUT)

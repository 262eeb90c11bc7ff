"""Waiting at start for a database that is not up yet.

A host's database often starts with the server (``docker compose up``, a reboot): PostgreSQL may
refuse connections, still be starting, or not have its database yet for some seconds.  ``serve``
then tries again every few seconds, with a log line each time, instead of exiting; a database that
answers but refuses the server for good (a wrong password, an unknown user) is not waited for.
"""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

log = logging.getLogger(__name__)

NOT_UP_YET_SQLSTATES = {"57P03": "the database system is starting up", "3D000": "the database does not exist yet",
                        "53300": "too many connections"}
"""PostgreSQL's answers (SQLSTATE) that a database gives while it is coming up."""


class DatabaseNotUp(RuntimeError):
    """The database did not accept a connection within the time given; the message says why (no password)."""


def not_up_yet(error: BaseException) -> str | None:
    """Why ``error``, raised by a first connection, means the database is not up yet (to be tried
    again), or None when it is a refusal that waiting does not cure."""
    if isinstance(error, (OSError, TimeoutError)):  # refused, unreachable, a name not resolvable yet
        return str(error) or type(error).__name__
    if isinstance(error, DBAPIError):
        state = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
        if state in NOT_UP_YET_SQLSTATES:
            return NOT_UP_YET_SQLSTATES[state]
    return None


async def wait_for_database(url: str, wait_seconds: float, retry_seconds: float = 2.0,
                            connect_timeout: float = 5.0) -> int:
    """Return once the PostgreSQL database at ``url`` (an SQLAlchemy async URL) answers ``SELECT 1``;
    returns how many attempts failed first.  SQLite (a file) is not waited for: returns 0.

    Each failed attempt that :func:`not_up_yet` calls temporary logs one WARNING (with the URL, its
    password hidden) and is tried again after ``retry_seconds``; after ``wait_seconds`` raises
    :class:`DatabaseNotUp`.  Any other error (a wrong password, an unknown user) is raised at once.
    """
    if url.startswith("sqlite"):
        return 0
    shown = make_url(url).render_as_string(hide_password=True)
    deadline = time.monotonic() + wait_seconds
    failed = 0
    while True:
        engine = create_async_engine(url, poolclass=NullPool, connect_args={"timeout": connect_timeout})
        try:
            async with engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
            if failed:
                log.info("the database at %s answers now (after %s failed attempts)", shown, failed)
            return failed
        except Exception as error:
            reason = not_up_yet(error)
            if reason is None:
                raise
            failed += 1
            left = deadline - time.monotonic()
            if left <= 0:
                raise DatabaseNotUp(f"the database at {shown} did not answer within {wait_seconds:g} s "
                                    f"({failed} attempts; last: {reason})") from None
            log.warning("the database at %s is not up yet (%s): trying again in %g s, for %.0f s more",
                        shown, reason, retry_seconds, left)
            await asyncio.sleep(min(retry_seconds, left))
        finally:
            await engine.dispose()

"""The async engine and session factory, built from the settings."""

from __future__ import annotations

import asyncpg
import orjson
import sqlalchemy.exc
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine


def make_engine(url: str, pool_size: int = 5, max_overflow: int = 5) -> AsyncEngine:
    """An async engine for ``url``; SQLite gets foreign keys on and a busy timeout (WAL for files);
    PostgreSQL a pool of ``pool_size`` connections plus up to ``max_overflow`` more under load."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, json_serializer=_json_text,
                                     json_deserializer=orjson.loads)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_async_engine(url, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=True,
                               pool_timeout=10, json_serializer=_json_text,
                               json_deserializer=orjson.loads)


def _json_text(value) -> str:
    """JSON columns are written with orjson: the state snapshot is written on every move."""
    return orjson.dumps(value).decode()


def make_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def database_busy(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or its cause) says the database has no connection to spare: Postgres's
    ``too many clients``, or this process's pool waiting too long for a free connection.  The API
    answers these 503 ``unavailable`` and the sockets an ``unavailable`` error frame."""
    while exc is not None:
        if isinstance(exc, (asyncpg.TooManyConnectionsError, sqlalchemy.exc.TimeoutError)):
            return True
        exc = exc.__cause__ or getattr(exc, "orig", None)
    return False


# The errors of the database or of the way to it that :func:`database_failure` names (what a request
# handler may raise when the database is busy or broken; ``app.main`` answers them 503 or 500).
DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlalchemy.exc.SQLAlchemyError, asyncpg.PostgresError,
                                                asyncpg.InterfaceError)


def database_failure(exc: BaseException | None) -> str | None:
    """``busy`` (see :func:`database_busy`), ``failed`` for any other error of the database or of
    the way to it (anywhere in ``exc``'s causes), else None (the ``database_errors`` metric's kinds)."""
    if database_busy(exc):
        return "busy"
    while exc is not None:
        if isinstance(exc, (*DATABASE_ERRORS, ConnectionError)):
            return "failed"
        exc = exc.__cause__ or getattr(exc, "orig", None)
    return None

"""Postgres databases of a test's own, for servers that outlive one test (the per-test ``TRUNCATE``
of the shared test database must not pull rows from under them)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
import pytest

from alembic import command

from app.db.migrate import alembic_config, upgrade_to_head
from tests.conftest import ADMIN_URL, REQUIRE_POSTGRES, _asyncpg_dsn, _database_url, call_in_thread, run_coroutine


async def _execute(sql: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@contextmanager
def scratch_postgres(name: str, revision: str | None = None) -> Iterator[str]:
    """A new Postgres database ``name`` migrated to head (or to ``revision``, as an older release left
    it), dropped afterwards; its async URL.  Skips the test when Postgres is unreachable (fails it
    with ``CARAVANSERAI_REQUIRE_POSTGRES=1``)."""
    try:
        run_coroutine(_execute, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        run_coroutine(_execute, f'CREATE DATABASE "{name}"')
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        if REQUIRE_POSTGRES:
            pytest.fail(f"Postgres at {ADMIN_URL} is not reachable: {exc}")
        pytest.skip(f"Postgres at {ADMIN_URL} is not reachable: {exc}")
    url = _database_url(name)
    try:
        if revision is None:
            upgrade_to_head(url)
        else:
            call_in_thread(command.upgrade, alembic_config(url), revision)  # Alembic runs a loop of its own
        yield url
    finally:
        run_coroutine(_execute, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

"""Leadership: one process at a time holds the advisory lock; another takes over when
the holder stops or its connection dies; SQLite's single process always leads."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from app.db.backup import libpq_url
from app.services.leader.leadership import Leadership
from tests.conftest import run_coroutine


async def until(condition, seconds: float = 15.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


def test_the_single_sqlite_process_leads_from_the_start():
    async def scenario():
        leadership, gained = Leadership(None), []
        leadership.on_gain(lambda: gained.append(1))
        await leadership.start()
        leading = leadership.is_leader
        await leadership.stop()
        return leading, gained, leadership.is_leader

    assert run_coroutine(scenario) == (True, [1], False)


async def end_lock_connections(database_url: str) -> None:
    """End the connection that holds the leadership lock (what PostgreSQL sees when its process dies)."""
    admin = await asyncpg.connect(libpq_url(database_url))
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
    finally:
        await admin.close()


@pytest.mark.postgres
def test_one_leader_at_a_time_and_another_takes_over_when_it_stops_or_dies(postgres_database):
    async def scenario():
        first, second = Leadership(postgres_database, 0.05), Leadership(postgres_database, 0.05)
        told: list[str] = []

        async def second_gains():
            told.append("second gains")

        first.on_gain(lambda: told.append("first gains"))
        first.on_loss(lambda: told.append("first loses"))
        second.on_gain(second_gains)
        second.on_loss(lambda: told.append("second loses"))
        await first.start()
        await second.start()
        try:
            # (A process an earlier test killed may hold the lock until PostgreSQL notices its end.)
            assert await until(lambda: first.is_leader)
            assert not second.is_leader
            await asyncio.sleep(0.3)  # several retries: the lock is still taken
            assert (first.is_leader, second.is_leader) == (True, False)

            await first.stop()  # a graceful stop frees the lock
            assert await until(lambda: second.is_leader)
            await first.start()
            assert not first.is_leader

            # The leader's lock connection ends (a network cut, a restarted database): it gives the
            # leadership up, and never carries on over a new connection that holds no lock.
            await end_lock_connections(postgres_database)
            for _ in range(40):
                assert not (first.is_leader and second.is_leader)
                await asyncio.sleep(0.05)
            assert await until(lambda: first.is_leader != second.is_leader)
            assert "second loses" in told

            # kill -9 of the leader, as PostgreSQL sees it: its lock connection ends, and a dead
            # process does not come back to race the others for the lock.
            holder, other = (first, second) if first.is_leader else (second, first)
            holder._dsn = "postgresql://nobody@127.0.0.1:1/gone"
            await end_lock_connections(postgres_database)
            assert await until(lambda: other.is_leader)
            assert await until(lambda: not holder.is_leader)
            return list(told)  # before the stops below, which hand the lock on once more
        finally:
            await first.stop()
            await second.stop()

    told = run_coroutine(scenario)
    assert told[:2] == ["first gains", "second gains"]

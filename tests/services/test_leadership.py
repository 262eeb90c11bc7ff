"""Leadership (issue 16): one process at a time holds the advisory lock; another takes over when
the holder stops or its connection dies; SQLite's single process always leads."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from app.db.backup import libpq_url
from app.services.leadership import Leadership
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
        await first.start()
        await second.start()
        try:
            assert (first.is_leader, second.is_leader) == (True, False)
            await asyncio.sleep(0.3)  # several retries: the lock is still taken
            assert (first.is_leader, second.is_leader) == (True, False)

            await first.stop()  # a graceful stop frees the lock
            assert await until(lambda: second.is_leader)
            await first.start()
            assert not first.is_leader

            # kill -9 of the leader, as PostgreSQL sees it: its lock connection ends.
            admin = await asyncpg.connect(libpq_url(postgres_database))
            try:
                await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                                    "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
            finally:
                await admin.close()
            assert await until(lambda: first.is_leader)
            assert await until(lambda: not second.is_leader)
            return list(told)  # before the stops below, which hand the lock on once more
        finally:
            await first.stop()
            await second.stop()

    told = run_coroutine(scenario)
    assert told == ["first gains", "second gains", "first gains"]

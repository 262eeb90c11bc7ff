"""Leadership: one process at a time holds the advisory lock; another takes over when
the holder stops or its connection dies; SQLite's single process always leads."""

from __future__ import annotations

import asyncio
import time

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


@pytest.mark.postgres
def test_a_leader_whose_lock_connection_ends_stops_leading_before_its_next_check(postgres_database):
    """The lock goes with its connection, and another process may take it at its own next try:
    the leader must not wait for its next check (an hour here) to learn it no longer leads, or two
    would lead at once.  asyncpg tells it the moment the connection closes."""
    async def scenario():
        leadership, told = Leadership(postgres_database, 3600), []
        leadership.on_loss(lambda: told.append("lost"))
        await leadership.start()
        try:
            assert await until(lambda: leadership.is_leader)
            await end_lock_connections(postgres_database)
            stopped = await until(lambda: not leadership.is_leader and told == ["lost"])
            return stopped, leadership.is_leader, told
        finally:
            await leadership.stop()

    assert run_coroutine(scenario) == (True, False, ["lost"])


@pytest.mark.postgres
@pytest.mark.slow
def test_a_process_that_stops_leading_stops_its_bot_workers(postgres_database):
    """Only the leader drives bots, so only it needs the worker processes that compute their
    moves: a process that loses the leadership stops its own (their memory is freed, and a search
    under way is no more its business)."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings
    from tests.support.players import Player

    settings = make_settings(postgres_database, bot_processes=1, leader_retry_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        app_leadership = client.app.state.leadership
        assert run_coroutine_in(client, until(lambda: app_leadership.is_leader))
        ana = Player(client, "Ana")
        table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
        assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "medium"}).status_code == 200
        assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        for _ in range(750):  # the bot's answer (up to 15 s: a worker process starts first)
            if ana.get(f"/api/games/{table_id}").json()["version"] >= 2:
                break
            time.sleep(0.02)
        assert ana.get(f"/api/games/{table_id}").json()["version"] >= 2
        pool = client.app.state.bots._pool
        assert pool is not None and pool.running  # the bot's move was computed in a worker

        rival = Leadership(postgres_database, 0.05)
        client.portal.call(rival.start)
        try:
            async def hand_over() -> bool:
                for _ in range(50):  # the app may win the lock back: end its connection again
                    await end_lock_connections(postgres_database)
                    if await until(lambda: rival.is_leader, 1.0):
                        return True
                return False

            assert client.portal.call(hand_over)
            assert run_coroutine_in(client, until(lambda: not app_leadership.is_leader))
            assert not pool.running
        finally:
            client.portal.call(rival.stop)


def run_coroutine_in(client, coroutine):
    """Await ``coroutine`` on the test app's event loop (where the app's tasks run)."""
    async def run():
        return await coroutine

    return client.portal.call(run)

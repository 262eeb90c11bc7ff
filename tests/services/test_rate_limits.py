"""Rate limits counted in a shared store: the database storage on both backends
(exact under concurrency, windows that end, expired rows deleted), two apps on one store sharing
each count, the Redis store, and WebSocket moves that never touch the store."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
import uuid

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import select

from app.db.engine import make_engine
from app.db.models import RateLimitCounter
from app.db.rate_limits import DatabaseStorage, rate_limit_storage
from app.main import create_app
from tests.conftest import make_settings, run_coroutine
from tests.support.players import Player, receive_until, started_table
from tests.support.server import free_port


class Clock:
    """Seconds since the epoch, moved on by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _with_storage(database_url, body):
    engine = make_engine(database_url)
    clock = Clock()
    try:
        return await body(DatabaseStorage(engine, clock), clock, engine)
    finally:
        await engine.dispose()


async def _stored_keys(engine) -> list[str]:
    async with engine.connect() as connection:
        return sorted(await connection.scalars(select(RateLimitCounter.key)))


def test_a_window_counts_every_hit_until_it_ends(database_url):
    async def body(storage, clock, _engine):
        assert [await storage.incr("auth/ip", 60) for _ in range(3)] == [1, 2, 3]
        assert await storage.get("auth/ip") == 3
        assert await storage.get_expiry("auth/ip") == clock.now + 60
        clock.now += 59.9
        assert await storage.incr("auth/ip", 60) == 4  # still the same window
        clock.now += 0.1
        assert await storage.get("auth/ip") == 0
        assert await storage.incr("auth/ip", 60) == 1  # a new window from here
        assert await storage.get_expiry("auth/ip") == clock.now + 60
        assert await storage.incr("auth/other", 60) == 1  # keys are counted apart

    run_coroutine(_with_storage, database_url, body)


def test_simultaneous_hits_are_each_counted_once(database_url):
    async def body(storage, _clock, _engine):
        counts = await asyncio.gather(*(storage.incr("moves/ip", 1) for _ in range(40)))
        assert sorted(counts) == list(range(1, 41))

    run_coroutine(_with_storage, database_url, body)


def test_expired_counters_are_deleted_and_live_ones_kept(database_url):
    async def body(storage, clock, engine):
        await storage.incr("replays/old", 60)
        clock.now += 30
        await storage.incr("replays/new", 60)
        clock.now += 30
        assert await storage.delete_expired() == 1
        assert await _stored_keys(engine) == ["replays/new"]
        assert await storage.get("replays/new") == 1

    run_coroutine(_with_storage, database_url, body)


def test_the_sweep_deletes_expired_counters_by_itself(database_url):
    async def body(storage, clock, engine):
        await storage.incr("tables/gone", 60)
        clock.now += 61
        storage.start_sweeping(interval_seconds=0.01)
        try:
            deadline = time.monotonic() + 20
            while await _stored_keys(engine) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert await _stored_keys(engine) == []
        finally:
            await storage.stop_sweeping()

    run_coroutine(_with_storage, database_url, body)


def test_the_store_follows_the_setting_and_the_database(sqlite_database, postgres_database):
    async def store_name(url, setting):
        engine = make_engine(url)
        try:
            return type(rate_limit_storage(setting, engine)).__name__
        finally:
            await engine.dispose()

    for url, setting, expected in [(sqlite_database, "", "MemoryStorage"), (postgres_database, "", "DatabaseStorage"),
                                   (sqlite_database, "database", "DatabaseStorage"),
                                   (postgres_database, "memory", "MemoryStorage")]:
        assert run_coroutine(store_name, url, setting) == expected, (url, setting)


def test_an_unknown_store_is_refused_clearly(sqlite_database):
    with pytest.raises(ValidationError, match="none of: database, memory, a redis:// URL"):
        make_settings(sqlite_database, rate_limit_storage="postgres")


def _login_statuses(client, count: int) -> list[int]:
    return [client.post("/api/auth/login", json={"name": "Uma", "password": "wrong-guess"}).status_code
            for _ in range(count)]


def test_two_apps_on_one_database_share_each_count(database_url):
    """Two instances (or workers) of the site: 2 + 1 wrong logins against 3/hour, the 4th anywhere is refused."""
    settings = make_settings(database_url, rate_limit_auth="3/hour", rate_limit_storage="database")
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        assert _login_statuses(first, 2) == [401, 401]
        assert _login_statuses(second, 1) == [401]
        refused = second.post("/api/auth/login", json={"name": "Uma", "password": "wrong-guess"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert _login_statuses(first, 1) == [429]


@pytest.mark.postgres
def test_websocket_moves_never_wait_for_the_store(postgres_database):
    """Moves over a socket are held by its frame budget; only REST moves are counted in the database."""
    with TestClient(create_app(make_settings(postgres_database))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        table_id = started_table(ana, [bo])
        with ana.websocket(table_id) as ws_ana, bo.websocket(table_id) as ws_bo:
            for version, ws in enumerate([ws_ana, ws_bo, ws_ana, ws_bo]):
                ws.send_json({"type": "move", "id": str(uuid.uuid4()), "version": version,
                              "move": {"type": "add", "amount": 1}})
                ack, others = receive_until(ws, "ack")
                assert ack["version"] == version + 1 and not [f for f in others if f["type"] == "error"]
        assert not [key for key in _keys(client) if "/moves/" in key]
        assert ana.move(table_id, 4, {"type": "add", "amount": 1}).status_code == 200
        assert [key for key in _keys(client) if "/moves/" in key]  # the REST move was counted


def _keys(client) -> list[str]:
    return client.portal.call(_stored_keys, client.app.state.ctx.engine)


@pytest.fixture
def redis_url(tmp_path):
    """A Redis server of this test's own on a loopback port (skipped without ``redis-server``)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def test_two_apps_on_one_redis_share_each_count(sqlite_database, redis_url):
    settings = make_settings(sqlite_database, rate_limit_auth="3/hour", rate_limit_storage=redis_url)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        assert _login_statuses(first, 2) == [401, 401]
        assert _login_statuses(second, 2) == [401, 429]
        assert _login_statuses(first, 1) == [429]

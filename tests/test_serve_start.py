"""``serve`` when the database comes up after the server (compose, a reboot): it waits and tries
again, with a line per attempt, instead of exiting."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlalchemy.engine import make_url

from app.db.waiting import DatabaseNotUp, wait_for_database
from tests.conftest import run_coroutine
from tests.support.server import ServerProcess, free_port


class LateProxy:
    """A TCP proxy on ``port`` that starts listening only ``delay`` seconds after :meth:`start`,
    then forwards every connection to ``target`` (a database that "comes up late")."""

    def __init__(self, port: int, target: tuple[str, int], delay: float) -> None:
        self.port, self.target, self.delay = port, target, delay
        self.loop = asyncio.new_event_loop()
        self.listening = threading.Event()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> "LateProxy":
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve_later(), self.loop)
        return self

    async def _serve_later(self) -> None:
        await asyncio.sleep(self.delay)
        self._server = await asyncio.start_server(self._forward, "127.0.0.1", self.port)
        self.listening.set()

    async def _forward(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)

        async def pipe(source, sink):
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except OSError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def stop(self) -> None:
        async def close():
            if self.listening.is_set():
                self._server.close()
        asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)


def _through(url: str, port: int) -> str:
    return make_url(url).set(host="127.0.0.1", port=port).render_as_string(hide_password=False)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_serve_waits_for_a_database_that_comes_up_10_seconds_late(postgres_database, tmp_path):
    """The server exited at once when PostgreSQL was not up yet (compose starts both together)."""
    target = make_url(postgres_database)
    port = free_port()
    proxy = LateProxy(port, (target.host, target.port or 5432), delay=10).start()
    server = ServerProcess(_through(postgres_database, port), log_path=tmp_path / "server.log", workdir=tmp_path)
    began = time.monotonic()
    try:
        server.start(timeout=60)
        waited = time.monotonic() - began
        log = server.log_text()
    finally:
        server.stop()
        proxy.stop()
    assert proxy.listening.is_set() and waited >= 10
    retries = [line for line in log.splitlines() if "is not up yet" in line]
    # A line per attempt, about every 2 s; how many depends on how long the server took to start
    # (the proxy's 10 s count from before it), so only that there was one is certain.
    assert retries, log
    assert all("Connect call failed" in line or "refused" in line.lower() for line in retries), retries


@pytest.mark.postgres
def test_a_database_that_never_comes_up_stops_the_wait_with_a_reason_and_no_password(postgres_database):
    url = make_url(_through(postgres_database, free_port())).set(password="Sekrit42").render_as_string(hide_password=False)
    began = time.monotonic()
    with pytest.raises(DatabaseNotUp) as stopped:
        run_coroutine(wait_for_database, url, 1.5, 0.5)
    assert 1.5 <= time.monotonic() - began < 10
    assert "did not answer within 1.5 s" in str(stopped.value) and "Sekrit42" not in str(stopped.value)


@pytest.mark.postgres
def test_a_refusal_that_waiting_does_not_cure_is_raised_at_once(postgres_database):
    """A wrong user is not a database still starting: no 30 s of retries before saying so."""
    url = make_url(postgres_database).set(username="nobody_at_all").render_as_string(hide_password=False)
    began = time.monotonic()
    with pytest.raises(Exception, match="nobody_at_all"):
        run_coroutine(wait_for_database, url, 30, 0.5)
    assert time.monotonic() - began < 10


def test_sqlite_is_never_waited_for():
    assert run_coroutine(wait_for_database, "sqlite+aiosqlite:///nowhere/at/all.db", 30) == 0

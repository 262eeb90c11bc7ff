"""Server processes shared by the reliability tests (the crash test starts and kills its own).

* ``sqlite_server``: one server process on a SQLite file of its own.
* ``postgres_servers``: two server processes on one Postgres database of their own, created for
  this session (so the per-test ``TRUNCATE`` of the shared test database never pulls the rows
  from under a running server and its cache).
"""

from __future__ import annotations

import os
import threading

import pytest

from app.db.migrate import upgrade_to_head
from tests.conftest import TOY_RULESETS
from tests.support.databases import scratch_postgres
from tests.support.server import ServerProcess

DATABASE = f"caravanserai_reliability_{os.getpid()}"


def start_all(*servers: ServerProcess) -> None:
    """Start the servers in parallel (each start waits ~1 s for imports and migrations)."""
    errors: list[BaseException] = []

    def start(server):
        try:
            server.start()
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        for server in servers:
            server.stop()
        raise errors[0]


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sqlite-server")
    url = f"sqlite+aiosqlite:///{folder}/reliability.db"
    upgrade_to_head(url)
    server = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=folder / "server.log")
    start_all(server)
    try:
        yield url, server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_servers(tmp_path_factory):
    """``(database_url, first, second)``: two processes serving one Postgres database."""
    with scratch_postgres(DATABASE) as url:
        folder = tmp_path_factory.mktemp("postgres-servers")
        first = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=folder / "first.log")
        second = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=folder / "second.log")
        start_all(first, second)
        try:
            yield url, first, second
        finally:
            first.stop()
            second.stop()

"""Which login sessions have ended (``accounts.ended_logins``) and the hub's resync built on it:
the resync asks about every open socket's login every ``resync_seconds``, so on
PostgreSQL it is one statement whatever the number of logins, and it closes exactly the sockets
whose session ended, with 4401."""

from __future__ import annotations

import math

import pytest
from sqlalchemy import event, select

from app.db.models import Account
from app.realtime.hub import Subscriber
from app.services.accounts import identity as accounts
from app.services.accounts.identity import Login

LOGINS = 1_000


def make_accounts(client, count: int) -> list[Login]:
    """``count`` new guest accounts, as the logins their cookies carry."""
    ctx = client.app.state.ctx

    async def create() -> list[Login]:
        async with ctx.sessions() as session:
            session.add_all(Account(name=f"guest {index}") for index in range(count))
            await session.commit()
            rows = await session.execute(select(Account.id, Account.session_epoch, Account.session_key))
            return [Login(account, epoch, key) for account, epoch, key in rows]

    return client.portal.call(create)


def log_out(client, account_id: int) -> None:
    ctx = client.app.state.ctx

    async def end() -> None:
        async with ctx.sessions() as session:
            await accounts.end_sessions(session, account_id)

    client.portal.call(end)


class LoginStatements:
    """Counts the statements that test login sessions (``app/db/login_sessions.py``'s predicate) on ``engine``."""

    def __init__(self, engine) -> None:
        self.count = 0
        self._engine = engine.sync_engine

    def _seen(self, _connection, _cursor, statement, *_args) -> None:
        self.count += "login_account" in statement

    def __enter__(self) -> LoginStatements:
        event.listen(self._engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *_exc) -> None:
        event.remove(self._engine, "before_cursor_execute", self._seen)


class FakeSocket:
    """Stands in for an open WebSocket: records how the hub closed it."""

    def __init__(self) -> None:
        self.closed: tuple[int, str] | None = None

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_ended_logins_names_the_logged_out_the_stale_key_and_the_unknown_account(client):
    ctx = client.app.state.ctx
    ana, bo, cy = make_accounts(client, 3)
    log_out(client, bo.account_id)
    stale_key = Login(cy.account_id, cy.session, "not-its-key")
    unknown = Login(10**6, 0, "")
    asked = {ana, bo, stale_key, unknown, cy}

    async def ask() -> tuple[set[Login], set[Login]]:
        async with ctx.sessions() as session:
            return await accounts.ended_logins(session, asked), await accounts.current_logins(session, asked)

    ended, current = client.portal.call(ask)
    assert ended == {bo, stale_key, unknown}
    assert current == {ana, cy}


def test_ended_logins_of_no_login_reads_nothing(client):
    ctx = client.app.state.ctx

    async def ask() -> set[Login]:
        async with ctx.sessions() as session:
            return await accounts.ended_logins(session, [])

    with LoginStatements(ctx.engine) as statements:
        assert client.portal.call(ask) == set()
    assert statements.count == 0


@pytest.fixture
def client_without_background_resync(database_url):
    """An app whose hub never resyncs by itself during the test (its period is an hour), so the
    statements counted are only those of the resync the test runs (on a loaded machine the 2 s
    background resync once ran inside the counted window)."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(database_url, resync_seconds=3600))) as test_client:
        yield test_client


def test_a_resync_of_a_thousand_logins_is_one_statement_on_postgres_and_closes_the_ended_ones(
        client_without_background_resync, database_url):
    """Before the one-statement check: one statement per 300 logins (4 for 1,000) on either backend."""
    client = client_without_background_resync
    ctx, hub = client.app.state.ctx, client.app.state.hub
    logins = make_accounts(client, LOGINS)
    ended = logins[::97]
    for login in ended:
        log_out(client, login.account_id)
    sockets = {login: FakeSocket() for login in logins}
    for login, socket in sockets.items():
        hub.connected(Subscriber(socket, 1, None, login=login))
    with LoginStatements(ctx.engine) as statements:
        client.portal.call(hub.resync)
    expected = 1 if database_url.startswith("postgresql") else math.ceil(LOGINS / 100)
    assert statements.count == expected
    assert {login for login, socket in sockets.items() if socket.closed == (4401, "logged out")} == set(ended)
    assert all(socket.closed is None for login, socket in sockets.items() if login not in ended)


@pytest.mark.postgres
def test_logins_beyond_32_bit_ids_are_answered_not_refused(postgres_database):
    """Ids in a signed cookie are whatever the server wrote; the arrays are bigint, so a number no
    account has is simply ended rather than an error in the resync."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(postgres_database))) as client:
        ctx = client.app.state.ctx
        huge = Login(2**40, 2**33, "x")

        async def ask() -> set[Login]:
            async with ctx.sessions() as session:
                return await accounts.ended_logins(session, [huge])

        assert client.portal.call(ask) == {huge}

"""/api/auth: guests, registration with argon2, login, logout, me, bad names."""

import base64
import json

import itsdangerous
import pytest
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from app.main import SESSION_COOKIE
from tests.support.players import Player, hello, started_table


def test_guest_gets_session_cookie_and_me(client):
    response = client.post("/api/auth/guest", json={"name": "  Ana  "})
    assert response.status_code == 200
    assert response.json()["name"] == "Ana" and response.json()["guest"] is True
    cookie_header = response.headers["set-cookie"].lower()
    assert "httponly" in cookie_header and "samesite=lax" in cookie_header
    assert client.get("/api/auth/me").json()["name"] == "Ana"


def test_me_without_session_is_unauthorized(client):
    response = client.get("/api/auth/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"


def test_session_answers_200_with_the_account_or_null(client):
    """What the browser client asks on every page: no 401 (a console error) for a visitor; ``/me``
    keeps its 401."""
    signed_out = client.get("/api/auth/session")
    assert signed_out.status_code == 200 and signed_out.json() == {"account": None}
    ana = client.post("/api/auth/guest", json={"name": "Ana"}).json()
    assert client.get("/api/auth/session").json() == {"account": ana}
    assert client.get("/api/auth/me").json() == ana
    client.post("/api/auth/logout")
    assert client.get("/api/auth/session").json() == {"account": None}
    assert client.get("/api/auth/me").status_code == 401


def test_register_login_logout(client):
    assert client.post("/api/auth/register", json={"name": "Bo", "password": "camel-caravan"}).status_code == 200
    client.post("/api/auth/logout")
    assert client.get("/api/auth/me").status_code == 401
    assert client.post("/api/auth/login", json={"name": "bo", "password": "wrong-password"}).status_code == 401
    logged = client.post("/api/auth/login", json={"name": "bo", "password": "camel-caravan"})
    assert logged.status_code == 200
    assert logged.json() == {"id": logged.json()["id"], "name": "Bo", "guest": False, "admin": True,
                             "confirm_moves": None, "language": None}  # the first one


def test_register_same_name_twice_conflicts(client):
    client.post("/api/auth/register", json={"name": "Cy", "password": "12345678"})
    again = client.post("/api/auth/register", json={"name": "CY", "password": "87654321"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"


def test_a_guest_may_not_take_a_registered_players_name_or_a_look_alike(client):
    """A guest may share a name with another guest, never pass for a registered player."""
    assert client.post("/api/auth/register", json={"name": "Alice", "password": "camel-caravan"}).status_code == 200
    client.post("/api/auth/logout")
    for name in ("Alice", "alice", "ＡＬＩＣＥ", "Аlice"):  # the last with a Cyrillic "А"
        refused = client.post("/api/auth/guest", json={"name": name})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "conflict", name
        assert client.get("/api/auth/session").json() == {"account": None}
    assert "registered player" in client.post("/api/auth/guest", json={"name": "alice"}).json()["error"]["message"]
    first = client.post("/api/auth/guest", json={"name": "Bob"}).json()
    client.post("/api/auth/logout")
    second = client.post("/api/auth/guest", json={"name": "Bob"}).json()
    assert first["name"] == second["name"] == "Bob" and first["id"] != second["id"]


def test_password_is_stored_as_argon2_hash(client):

    from sqlalchemy import select

    from app.db.models import Account

    client.post("/api/auth/register", json={"name": "Dee", "password": "open-sesame"})
    ctx = client.app.state.ctx

    async def stored_hash():
        async with ctx.sessions() as session:
            return await session.scalar(select(Account.password_hash).where(Account.login_name == "dee"))

    stored = client.portal.call(stored_hash)
    assert stored.startswith("$argon2") and "open-sesame" not in stored


def test_overlong_or_empty_names_are_bad_requests(client):
    for name in ("", "x" * 33, "   "):
        response = client.post("/api/auth/guest", json={"name": name})
        assert response.status_code == 400, name
        assert response.json()["error"]["code"] == "bad_request"


def test_tampered_cookie_is_anonymous(client):
    player = Player(client, "Eve")
    forged = {"cookie": f"{SESSION_COOKIE}={player.cookie[:-4]}AAAA"}
    assert client.get("/api/auth/me", headers=forged).status_code == 401


def signed_cookie(session: dict) -> str:
    """A session cookie as the app signs it (Starlette's SessionMiddleware, the tests' key)."""
    payload = base64.b64encode(json.dumps(session).encode())
    return f"{SESSION_COOKIE}={itsdangerous.TimestampSigner('test-secret').sign(payload).decode()}"


def run_sql(client, *statements):
    async def execute():
        async with client.app.state.ctx.engine.begin() as connection:
            for statement in statements:
                await connection.execute(text(statement))

    client.portal.call(execute)


def test_a_cookie_never_logs_in_as_another_account_that_got_its_id(client, database_url):
    """Ids come back (a restore brings back the backup's accounts and sequence);
    the account key in the cookie does not."""
    ana = Player(client, "Ana")
    # What a restore of a backup taken before Ana registered does to her row and to the ids.
    run_sql(client, f"DELETE FROM accounts WHERE id = {ana.id}",
            *([f"SELECT setval(pg_get_serial_sequence('accounts', 'id'), {ana.id}, false)"]
              if database_url.startswith("postgresql") else []))
    bo = Player(client, "Bo")
    assert bo.id == ana.id
    assert ana.get("/api/auth/me").status_code == 401
    assert bo.get("/api/auth/me").json() == {"id": bo.id, "name": "Bo", "guest": True, "admin": False,
                                             "confirm_moves": None, "language": None}
    table_id = started_table(bo, [Player(client, "Carol")])
    refused = ana.move(table_id, 0, {"type": "add", "amount": 1})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
    with ana.websocket(table_id) as socket:  # refused as an ended session, not Bo at seat 0
        socket.send_json({"type": "hello", "since": 0})
        assert socket.receive_json()["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
    with bo.websocket(table_id) as socket:
        assert hello(socket)["seat"] == 0


def test_a_cookie_from_before_account_keys_still_logs_in_its_own_account(client):
    """Migration 0010 gives the accounts it finds the empty key their cookies (which carry none)
    read as: the upgrade logs nobody out.  New accounts have a random key, which such a cookie lacks."""
    ana = Player(client, "Ana")
    run_sql(client, f"UPDATE accounts SET session_key = '' WHERE id = {ana.id}")  # an account from before 0010
    from_before = {"cookie": signed_cookie({"account_id": ana.id, "epoch": 0})}
    assert client.get("/api/auth/me", headers=from_before).json()["name"] == "Ana"
    bo = Player(client, "Bo")
    assert client.get("/api/auth/me", headers={"cookie": signed_cookie({"account_id": bo.id, "epoch": 0})}
                      ).status_code == 401
    assert client.post("/api/auth/logout", headers=from_before).status_code == 200
    assert client.get("/api/auth/me", headers=from_before).status_code == 401

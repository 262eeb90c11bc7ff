"""/api/auth: guests, registration with argon2, login, logout, me, bad names."""

from app.main import SESSION_COOKIE
from tests.support.players import Player


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


def test_register_login_logout(client):
    assert client.post("/api/auth/register", json={"name": "Bo", "password": "camel-caravan"}).status_code == 200
    client.post("/api/auth/logout")
    assert client.get("/api/auth/me").status_code == 401
    assert client.post("/api/auth/login", json={"name": "bo", "password": "wrong-password"}).status_code == 401
    logged = client.post("/api/auth/login", json={"name": "bo", "password": "camel-caravan"})
    assert logged.status_code == 200
    assert logged.json() == {"id": logged.json()["id"], "name": "Bo", "guest": False, "admin": True}  # the first one


def test_register_same_name_twice_conflicts(client):
    client.post("/api/auth/register", json={"name": "Cy", "password": "12345678"})
    again = client.post("/api/auth/register", json={"name": "CY", "password": "87654321"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"


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

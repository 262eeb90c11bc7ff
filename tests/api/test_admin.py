"""/api/admin: the first registered account is the admin; it lists accounts,
bans and unbans, makes one-time password-reset links, deletes chat lines, closes and deletes
tables; everyone else is refused; every action writes one JSON admin log line."""

from datetime import timedelta

import pytest
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from app.db.models import Account, utcnow
from app.main import SESSION_COOKIE
from tests.support.accounts import Member, admin_lines
from tests.support.players import Player, hello, receive_until, started_table


def closed_code(socket) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            socket.receive_json()
    return closed.value.code


def token_of(link: str) -> str:
    assert "/reset-password#token=" in link, link
    return link.split("#token=", 1)[1]


def test_the_first_registered_account_is_the_admin_and_nobody_else_gets_in(client):
    guest = Player(client, "Gus")
    ada, bo = Member(client, "Ada"), Member(client, "Bo")
    assert ada.get("/api/auth/me").json() == {"id": ada.id, "name": "Ada", "guest": False, "admin": True,
                                              "confirm_moves": None, "language": None}
    assert bo.get("/api/auth/me").json()["admin"] is False
    for outsider in (guest, bo):
        for method, path in (("GET", "/api/admin/users"), ("POST", f"/api/admin/users/{guest.id}/ban"),
                             ("DELETE", "/api/admin/tables/1"), ("DELETE", "/api/admin/chat/1")):
            refused = client.request(method, path, headers=outsider.headers)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden", (outsider.name, path)
    assert client.get("/api/admin/users").json()["error"]["code"] == "unauthorized"
    listed = ada.get("/api/admin/users").json()
    assert [(user["name"], user["guest"], user["admin"], user["banned_at"], user["deleted"]) for user in listed] == [
        ("Gus", True, False, None, False), ("Ada", False, True, None, False), ("Bo", False, False, None, False)]
    assert [user["name"] for user in ada.get("/api/admin/users", params={"search": "b"}).json()] == ["Bo"]


def test_ban_ends_every_session_closes_sockets_refuses_login_until_unban(client, capsys):
    ada, bo, cy = Member(client, "Ada"), Member(client, "Bo"), Member(client, "Cy")
    table_id = started_table(bo, [cy])
    capsys.readouterr()
    with bo.websocket(table_id) as socket:
        assert hello(socket)["seat"] == 0
        banned = ada.post(f"/api/admin/users/{bo.id}/ban")
        assert banned.status_code == 200 and banned.json()["banned_at"] is not None
        assert closed_code(socket) == 4401
    assert bo.get("/api/auth/me").status_code == 401
    refused = bo.login()
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    [line] = admin_lines(capsys.readouterr().err)
    assert line["action"] == "ban" and line["by"] == {"via": "api", "account_id": ada.id, "name": "Ada"}
    assert line["target"] == {"account_id": bo.id, "name": "Bo"} and line["at"].endswith("+00:00")
    # Refusals change nothing and log nothing.
    assert ada.post(f"/api/admin/users/{bo.id}/ban").json()["error"]["code"] == "conflict"
    assert ada.post(f"/api/admin/users/{ada.id}/ban").json()["error"]["code"] == "conflict"  # an admin
    assert ada.post("/api/admin/users/999/ban").json()["error"]["code"] == "not_found"
    assert ada.post(f"/api/admin/users/{cy.id}/unban").json()["error"]["code"] == "conflict"
    assert admin_lines(capsys.readouterr().err) == []
    assert ada.post(f"/api/admin/users/{bo.id}/unban").json()["banned_at"] is None
    assert bo.login().status_code == 200
    assert [line["action"] for line in admin_lines(capsys.readouterr().err)] == ["unban"]


def test_a_reset_link_sets_a_new_password_once_and_ends_the_old_sessions(client, capsys):
    ada, bo, guest = Member(client, "Ada"), Member(client, "Bo"), Player(client, "Gus")
    capsys.readouterr()
    made = ada.post(f"/api/admin/users/{bo.id}/password-reset").json()
    token = token_of(made["link"])
    assert made["link"].startswith("http://127.0.0.1:8000/reset-password#token=") and len(token) == 43
    [line] = admin_lines(capsys.readouterr().err)
    assert line["action"] == "reset_password" and line["target"]["account_id"] == bo.id
    assert token not in str(line)  # the log never holds the link
    short = client.post("/api/auth/reset-password", json={"token": token, "password": "short"})
    assert short.status_code == 400 and short.json()["error"]["code"] == "bad_request"
    used = client.post("/api/auth/reset-password", json={"token": token, "password": "a-new-password"})
    assert used.status_code == 200 and used.json()["id"] == bo.id
    new_cookie = used.cookies[SESSION_COOKIE]
    client.cookies.clear()
    assert client.get("/api/auth/me", headers={"cookie": f"{SESSION_COOKIE}={new_cookie}"}).json()["name"] == "Bo"
    assert bo.get("/api/auth/me").status_code == 401  # the session from before the reset ended
    again = client.post("/api/auth/reset-password", json={"token": token, "password": "third-password"})
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"
    assert bo.login().status_code == 401 and bo.login("a-new-password").status_code == 200
    assert ada.post(f"/api/admin/users/{guest.id}/password-reset").json()["error"]["code"] == "conflict"


def test_an_expired_reset_link_is_refused(client):
    ada, bo = Member(client, "Ada"), Member(client, "Bo")
    token = token_of(ada.post(f"/api/admin/users/{bo.id}/password-reset").json()["link"])

    async def expire():
        async with client.app.state.ctx.sessions() as session:
            await session.execute(update(Account).where(Account.id == bo.id)
                                  .values(password_reset_expires_at=utcnow() - timedelta(seconds=1)))
            await session.commit()

    client.portal.call(expire)
    refused = client.post("/api/auth/reset-password", json={"token": token, "password": "a-new-password"})
    assert refused.status_code == 404
    assert bo.login().status_code == 200  # the old password still holds


def test_deleting_a_chat_line_removes_it_for_everyone(client, capsys):
    ada, bo, cy = Member(client, "Ada"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(bo, [cy])
    with cy.websocket(table_id) as socket:
        hello(socket)
        rude = bo.post(f"/api/tables/{table_id}/chat", {"text": "rude words"}).json()
        kept = cy.post(f"/api/tables/{table_id}/chat", {"text": "hello"}).json()
        assert receive_until(socket, "chat")[0]["message"]["id"] == rude["id"]
        capsys.readouterr()
        assert ada.delete(f"/api/admin/chat/{rude['id']}").json() == {}
        assert receive_until(socket, "chat_removed")[0] == {"type": "chat_removed"}
    assert [message["id"] for message in cy.get(f"/api/tables/{table_id}/chat").json()["messages"]] == [kept["id"]]
    [line] = admin_lines(capsys.readouterr().err)
    assert line["action"] == "delete_chat_message"
    assert line["target"] == {"message_id": rude["id"], "table_id": table_id, "account_id": bo.id, "name": "Bo",
                              "text": "rude words"}
    assert ada.delete(f"/api/admin/chat/{rude['id']}").json()["error"]["code"] == "not_found"


def test_closing_a_game_stops_it_and_deleting_a_table_removes_it(client, capsys):
    ada, bo, cy = Member(client, "Ada"), Player(client, "Bo"), Player(client, "Cy")
    running = started_table(bo, [cy])
    open_id = bo.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    capsys.readouterr()
    assert ada.post(f"/api/admin/tables/{running}/close").json() == {"id": running, "status": "closed"}
    assert bo.get(f"/api/tables/{running}").json()["status"] == "closed"
    refused = bo.move(running, 0, {"type": "add", "amount": 1})
    assert refused.status_code == 409
    assert ada.post(f"/api/admin/tables/{running}/close").json()["error"]["code"] == "conflict"
    assert open_id in {table["id"] for table in client.get("/api/tables").json()}
    with cy.websocket(open_id) as socket:
        assert ada.delete(f"/api/admin/tables/{open_id}").json() == {}
        assert closed_code(socket) == 4404
    assert bo.get(f"/api/tables/{open_id}").status_code == 404
    assert open_id not in {table["id"] for table in client.get("/api/tables").json()}
    assert ada.delete(f"/api/admin/tables/{open_id}").json()["error"]["code"] == "not_found"
    lines = admin_lines(capsys.readouterr().err)
    assert [(line["action"], line["target"]["table_id"]) for line in lines] == [("close_table", running),
                                                                             ("delete_table", open_id)]
    assert lines[0]["target"]["was"] == "running"

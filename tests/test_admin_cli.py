"""``caravanserai admin ...`` against a running app's database, on SQLite and
PostgreSQL: roles, ban, reset link, chat and table removal, each with its JSON admin log line."""

import getpass
import json

import pytest
from starlette.websockets import WebSocketDisconnect

from app.cli import main
from tests.conftest import call_in_thread
from tests.support.accounts import Member, admin_lines
from tests.support.players import Player, hello, started_table


@pytest.fixture
def admin_cli(database_url, monkeypatch, tmp_path, capsys):
    """Run ``caravanserai admin ARGS`` in this process on the test database; ``(exit message or
    None, stdout, admin log lines)``."""
    for name in ("CARAVANSERAI_SECRET_KEY", "CARAVANSERAI_PUBLIC_URL", "CARAVANSERAI_COOKIE_SECURE", "SUDO_USER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CARAVANSERAI_DATABASE_URL", database_url)
    monkeypatch.setenv("CARAVANSERAI_PUBLIC_URL", "https://games.example.org")
    monkeypatch.chdir(tmp_path)  # no .env of the checkout

    seen: set[int] = set()

    def run(*args: str):
        capsys.readouterr()
        try:
            call_in_thread(main, ["admin", *args])
            refusal = None
        except SystemExit as exit:
            refusal = str(exit.code)
        captured = capsys.readouterr()
        # The test's own server (this process) writes each command-line action's line a second time
        # (the leader's relay into the server log), now or during a later call: the lines of this
        # call's actions, once each.
        lines = {line["id"]: line for line in admin_lines(captured.err) if line["id"] not in seen}
        seen.update(lines)
        return refusal, captured.out, list(lines.values())

    return run


def test_grant_and_revoke_the_admin_role(client, admin_cli):
    Member(client, "Ada")
    bo, gus = Member(client, "Bo"), Player(client, "Gus")
    refusal, out, [line] = admin_cli("grant", "bo")
    assert refusal is None and out == f"Bo (#{bo.id}) is now an admin\n"
    assert line["action"] == "grant_admin" and line["by"] == {"via": "cli", "account_id": None,
                                                              "name": getpass.getuser()}
    assert line["source"] == f"cli:{getpass.getuser()}"
    assert bo.get("/api/admin/users").status_code == 200
    assert admin_cli("grant", "Bo")[0] == "caravanserai admin grant: Bo is already an admin (conflict)"
    assert admin_cli("grant", f"#{gus.id}")[0].endswith("(conflict)")  # a guest
    assert admin_cli("grant", "nobody")[0].endswith("(not_found)")
    assert admin_cli("revoke", "BO")[0] is None
    assert bo.get("/api/admin/users").status_code == 403
    refusal, out, lines = admin_cli("users", "--search", "B")
    assert (refusal, lines) == (None, [])  # reading is no admin action
    assert [json.loads(row)["name"] for row in out.splitlines()] == ["Bo"]


def test_ban_from_the_command_line_logs_out_everywhere(client, admin_cli, database_url):
    Member(client, "Ada")
    bo, cy = Member(client, "Bo"), Player(client, "Cy")
    table_id = started_table(bo, [cy])
    with bo.websocket(table_id) as socket:
        hello(socket)
        refusal, out, [line] = admin_cli("ban", "Bo")
        assert refusal is None and out == f"Bo (#{bo.id}) is banned and logged out everywhere\n"
        assert (line["action"], line["target"]) == ("ban", {"account_id": bo.id, "name": "Bo"})
        if database_url.startswith("postgresql"):  # the running server hears it through NOTIFY
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert closed.value.code == 4401
    assert bo.get("/api/auth/me").status_code == 401
    assert bo.login().json()["error"]["code"] == "forbidden"
    assert admin_cli("unban", "Bo")[0] is None and bo.login().status_code == 200


def test_reset_link_from_the_command_line(client, admin_cli):
    ada = Member(client, "Ada")
    refusal, out, [line] = admin_cli("reset-password", "ada")
    link = out.splitlines()[0]
    assert refusal is None and link.startswith("https://games.example.org/reset-password#token=")
    assert line["action"] == "reset_password" and link.split("#token=")[1] not in str(line)
    answer = client.post("/api/auth/reset-password", json={"token": link.split("#token=")[1], "password": "brand-new-pw"})
    assert answer.status_code == 200 and answer.json()["name"] == "Ada"
    client.cookies.clear()
    assert ada.login("brand-new-pw").status_code == 200


def test_delete_chat_and_tables_from_the_command_line(client, admin_cli):
    bo, cy = Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(bo, [cy])
    message = bo.post(f"/api/tables/{table_id}/chat", {"text": "spam"}).json()
    refusal, out, [line] = admin_cli("delete-chat", str(message["id"]))
    assert (refusal, out, line["action"]) == (None, f"chat message {message['id']} deleted\n", "delete_chat_message")
    assert cy.get(f"/api/tables/{table_id}/chat").json()["messages"] == []
    assert admin_cli("close-table", str(table_id))[:2] == (None, f"table {table_id} closed\n")
    assert bo.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    refusal, out, [line] = admin_cli("delete-table", str(table_id), "--yes")
    assert (refusal, line["action"], line["target"]["table_id"]) == (None, "delete_table", table_id)
    assert bo.get(f"/api/tables/{table_id}").status_code == 404
    assert admin_cli("delete-table", str(table_id), "--yes")[0].endswith("(not_found)")
    assert cy.get(f"/api/players/{cy.id}").json()["games"] == []

"""The admin audit: every admin action, from the API or the command line, is a row of
``admin_audit`` (who, what, on what, from where, when) and a line of the server's log; ``caravanserai
admin audit`` and ``GET /api/admin/audit`` list them.  An admin reads any table's chat (``caravanserai
admin chat TABLE``, ``GET /api/admin/tables/{id}/chat``, and the table's own chat route); the last
admin cannot be revoked."""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from app.services.accounts.audit import RELAY_SECONDS
from tests.support.accounts import Member, admin_lines
from tests.support.players import Player, started_table
from tests.support.server import ROOT, ServerProcess
from tests import test_admin_cli


admin_cli = test_admin_cli.admin_cli  # the fixture: ``caravanserai admin`` in this process


def cli_process(database_url: str, *args: str) -> subprocess.CompletedProcess:
    """``caravanserai admin ARGS`` in a process of its own, as a host runs it beside the server."""
    environment = {"CARAVANSERAI_DATABASE_URL": database_url, "PATH": os.environ["PATH"], "HOME": "/tmp",
                   "CARAVANSERAI_PUBLIC_URL": "https://games.example.org"}
    return subprocess.run([sys.executable, "-m", "app.cli", "admin", *args], cwd=ROOT, env=environment,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def test_api_and_command_line_actions_reach_the_audit_table_and_the_server_log(database_url, tmp_path):
    server = ServerProcess(database_url, log_path=tmp_path / "server.log").start()
    try:
        with httpx.Client(base_url=server.base_url) as client:
            ada = Member(client, "Ada")  # the first registered account: the admin
            bo = Member(client, "Bo")
            assert ada.post(f"/api/admin/users/{bo.id}/ban").status_code == 200
            assert ada.post(f"/api/admin/users/{bo.id}/unban").status_code == 200
        done = cli_process(database_url, "--by", "Hostmaster Hal", "ban", "Bo")
        assert done.returncode == 0, done.stderr
        [cli_line] = admin_lines(done.stderr)  # the command line's own terminal
        user = getpass.getuser()
        assert cli_line["by"] == {"via": "cli", "account_id": None, "name": "Hostmaster Hal"}
        assert (cli_line["action"], cli_line["source"]) == ("ban", f"cli:{user}")
        # The server's log gets the command line's action from the leader, once.
        deadline = time.monotonic() + 20
        while cli_line["id"] not in [line["id"] for line in admin_lines(server.log_text())]:
            assert time.monotonic() < deadline, server.log_text()
            time.sleep(0.2)
        time.sleep(RELAY_SECONDS + 0.5)  # the leader's next look must not write it again
        logged = admin_lines(server.log_text())
        assert [(line["action"], line["by"]["via"], line["source"]) for line in logged] == [
            ("ban", "api", "127.0.0.1"), ("unban", "api", "127.0.0.1"), ("ban", "cli", f"cli:{user}")]
        assert logged[2] == cli_line
        # The same three in the database, newest first, from the command line and from the API.
        listed = cli_process(database_url, "audit")
        assert listed.returncode == 0 and [json.loads(row) for row in listed.stdout.splitlines()] == logged[::-1]
        listed = cli_process(database_url, "audit", "--action", "unban")
        assert [json.loads(row) for row in listed.stdout.splitlines()] == [logged[1]]
        with httpx.Client(base_url=server.base_url) as client:
            ada.client = client
            assert ada.get("/api/admin/audit").json() == logged[::-1]
            assert ada.get("/api/admin/audit", params={"limit": 1, "before": logged[2]["id"]}).json() == [logged[1]]
            assert ada.get("/api/admin/audit", params={"action": "unban"}).json() == [logged[1]]
            bo.client = client
            assert bo.login().status_code == 403  # banned from the command line
            guest = Player(client, "Gus")
            assert guest.get("/api/admin/audit").status_code == 403
    finally:
        server.stop()


def test_a_refused_action_records_nothing_and_the_last_admin_stays(client, admin_cli):
    ada = Member(client, "Ada")
    assert admin_cli("revoke", "Ada") == (
        "caravanserai admin revoke: Ada is the last admin: grant the role to someone else first (conflict)", "", [])
    assert ada.get("/api/admin/users").status_code == 200  # still an admin
    Member(client, "Bo")
    assert admin_cli("grant", "Bo")[0] is None
    assert admin_cli("revoke", "Ada")[0] is None
    assert admin_cli("revoke", "Bo")[0].endswith("Bo is the last admin: grant the role to someone else first (conflict)")
    refusal, out, _ = admin_cli("audit")
    assert refusal is None
    assert [(row["action"], row["target"]["name"]) for row in map(json.loads, out.splitlines())] == [
        ("revoke_admin", "Ada"), ("grant_admin", "Bo")]


def test_an_admin_reads_any_tables_chat_to_find_the_line_to_delete(client, admin_cli):
    ada = Member(client, "Ada")  # the admin, seated nowhere
    bo, cy = Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(bo, [cy], private=True)  # chat for its players only
    first = bo.post(f"/api/tables/{table_id}/chat", {"text": "good luck"}).json()
    second = cy.post(f"/api/tables/{table_id}/chat", {"text": "something rude"}).json()
    stranger = Player(client, "Dee")
    assert stranger.get(f"/api/tables/{table_id}/chat").status_code in (403, 404)  # not for a stranger
    answer = ada.get(f"/api/tables/{table_id}/chat")
    assert answer.status_code == 200 and [line["id"] for line in answer.json()["messages"]] == [first["id"], second["id"]]
    assert answer.json()["can_post"] is False  # reading is all an unseated admin does there
    listed = ada.get(f"/api/admin/tables/{table_id}/chat").json()
    assert [(line["id"], line["account_id"], line["text"]) for line in listed] == [
        (first["id"], bo.id, "good luck"), (second["id"], cy.id, "something rude")]
    assert ada.get(f"/api/admin/tables/{table_id}/chat", params={"before": second["id"]}).json() == listed[:1]
    assert ada.get("/api/admin/tables/999999/chat").status_code == 404
    assert bo.get(f"/api/admin/tables/{table_id}/chat").status_code == 403
    refusal, out, lines = admin_cli("chat", str(table_id))
    assert (refusal, lines) == (None, []) and [json.loads(row) for row in out.splitlines()] == listed
    assert admin_cli("delete-chat", str(second["id"]))[0] is None
    assert [line["text"] for line in ada.get(f"/api/admin/tables/{table_id}/chat").json()] == ["good luck"]
    assert admin_cli("chat", "999999")[0] == "caravanserai admin chat: no table 999999 (not_found)"


@pytest.mark.parametrize("arguments", [["audit", "--limit", "0"], ["chat", "1", "--before", "-3"]])
def test_listing_arguments_out_of_range_are_refused(admin_cli, arguments):
    assert admin_cli(*arguments)[0] == "2"  # argparse's usage error

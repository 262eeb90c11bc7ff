"""Regression tests for the bugs the reliability fuzzers found (fixed; the reasons say what they were)."""

from __future__ import annotations

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.reliability.support import RemoteGuest

NON_ASCII_INVITE = ("BUG: app/services/tables/changes.py check_access: secrets.compare_digest(invite_code, ...) raises "
                    "TypeError for a non-ASCII invite code: 500 on GET /api/tables/{id}, "
                    "/api/games/{id}[/log|/replay], "
                    "POST /api/tables/{id}/join, and a crashed socket on /ws/games/{id}, for any private table")


def test_a_non_ascii_invite_code_is_refused_not_a_crash(sqlite_server):
    """Found by test_schemathesis; against the real server process."""
    _, server = sqlite_server
    ana, bo = RemoteGuest(server, "Ana"), RemoteGuest(server, "Bo")
    with ana.http() as http:
        table_id = http.post("/api/tables", json={"ruleset": "toy-race", "seats": 2, "private": True}).json()["id"]
    failures = []
    calls = [("GET", f"/api/tables/{table_id}", {"params": {"invite_code": "é"}}),
             ("GET", f"/api/games/{table_id}", {"params": {"invite_code": "é"}}),
             ("GET", f"/api/games/{table_id}/log", {"params": {"invite_code": "é"}}),
             ("GET", f"/api/games/{table_id}/replay", {"params": {"invite_code": "é", "version": 0}}),
             ("POST", f"/api/tables/{table_id}/join", {"json": {"invite_code": "é"}})]
    for method, path, extra in calls:
        with bo.http() as http:  # a fresh connection each: after a 500 the server drops the connection
            answer = http.request(method, path, **extra)
        if answer.status_code != 404:
            failures.append(f"{method} {path}: {answer.status_code} {answer.text[:80]}")
    try:
        with connect(f"{server.ws_url}/ws/games/{table_id}?invite_code=%C3%A9", open_timeout=10,
                     additional_headers={"Cookie": f"caravanserai_session={bo.cookie}"}) as ws:
            frame = ws.recv(timeout=10)
            if '"not_found"' not in frame:
                failures.append(f"socket: {frame}")
    except ConnectionClosed as closed:
        if closed.rcvd is None or closed.rcvd.code != 4404:
            failures.append(f"socket closed with {closed.rcvd}")
    assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200
    assert not failures, failures


NUL_IN_LOGIN = ("BUG: app/services/accounts/identity.py login: the name goes to the database unchecked; on Postgres a NUL "
                "character (text columns cannot hold it) raises CharacterNotInRepertoireError: 500 instead of "
                "401/400 on POST /api/auth/login")


@pytest.mark.postgres
def test_a_nul_character_in_a_login_name_is_refused_not_a_crash(postgres_database):
    """Found by test_schemathesis (heavy run, Postgres)."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(postgres_database)), raise_server_exceptions=False) as client:
        guest = client.post("/api/auth/guest", json={"name": "nul\x00name"})
        assert guest.status_code == 400  # guest and register clean the name first
        answer = client.post("/api/auth/login", json={"name": "nul\x00name", "password": "whatever-it-is"})
        assert answer.status_code in (400, 401), answer.text

"""The real server as separate processes: two processes share games; a graceful shutdown loses
nothing (a crash mid-game: ``tests/reliability/test_crash.py``)."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from websockets.sync.client import connect

from app.main import SESSION_COOKIE
from tests.support.server import ServerProcess

TOY = ["tests.support.toy_rulesets:ToyRace"]


class RemotePlayer:
    """A guest on a running server process, over real HTTP and WebSocket."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        response = httpx.post(f"{server.base_url}/api/auth/guest", json={"name": name})
        self.cookie = response.cookies[SESSION_COOKIE]

    def http(self, server: ServerProcess | None = None) -> httpx.Client:
        server = server or self.server
        return httpx.Client(base_url=server.base_url, cookies={SESSION_COOKIE: self.cookie}, timeout=10)

    def socket(self, game_id: int, server: ServerProcess | None = None):
        server = server or self.server
        return connect(f"{server.ws_url}/ws/games/{game_id}",
                       additional_headers={"Cookie": f"{SESSION_COOKIE}={self.cookie}"}, open_timeout=10)


def receive(ws, frame_type: str) -> dict:
    for _ in range(20):
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == frame_type:
            return frame
    raise AssertionError(f"no {frame_type} frame")


def start_toy_game(ana: RemotePlayer, bo: RemotePlayer) -> int:
    with ana.http() as client:
        table_id = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2}).json()["id"]
    with bo.http() as client:
        assert client.post(f"/api/tables/{table_id}/join").status_code == 200
    with ana.http() as client:
        assert client.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def send_move(ws, version: int, amount: int) -> dict:
    frame = {"type": "move", "id": str(uuid.uuid4()), "version": version, "move": {"type": "add", "amount": amount}}
    ws.send(json.dumps(frame))
    return receive(ws, "ack")


@pytest.mark.postgres
def test_two_processes_on_one_postgres_serve_one_game(postgres_database, tmp_path):
    database_url = postgres_database
    first = ServerProcess(database_url, extra_rulesets=TOY, log_path=tmp_path / "first.log").start()
    second = ServerProcess(database_url, extra_rulesets=TOY, log_path=tmp_path / "second.log")
    try:
        second.start()  # inside try: should it fail, the first one is stopped all the same
        ana, bo = RemotePlayer(first, "Ana"), RemotePlayer(first, "Bo")
        table_id = start_toy_game(ana, bo)
        with ana.socket(table_id, first) as ana_ws, bo.socket(table_id, second) as bo_ws:
            for ws in (ana_ws, bo_ws):
                ws.send(json.dumps({"type": "hello", "since": 0}))
                assert receive(ws, "state")["version"] == 0
            send_move(ana_ws, 0, 2)
            pushed = receive(bo_ws, "state")  # committed on the first process, pushed by the second
            assert pushed["version"] == 1 and pushed["to_act"] == [1] and pushed["legal"]
            send_move(bo_ws, 1, 1)
            assert receive(ana_ws, "state")["version"] in (1, 2)
        with httpx.Client(base_url=second.base_url) as spectator:
            assert spectator.get(f"/api/games/{table_id}").json()["view"]["total"] == 3
    finally:
        first.stop()
        second.stop()


def test_graceful_shutdown_tells_clients_to_reconnect_and_loses_nothing(sqlite_database, tmp_path):
    """SQLite only (the default install) to keep the suite short: the shutdown path is the same on both."""
    from websockets.exceptions import ConnectionClosed

    server = ServerProcess(sqlite_database, extra_rulesets=TOY, log_path=tmp_path / "server.log").start()
    try:
        ana, bo = RemotePlayer(server, "Ana"), RemotePlayer(server, "Bo")
        table_id = start_toy_game(ana, bo)
        with ana.socket(table_id) as ana_ws:
            assert send_move(ana_ws, 0, 2)["version"] == 1
            server.process.terminate()  # SIGTERM, as systemd or docker stop send
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ana_ws.recv(timeout=10)
            assert closed.value.rcvd.code == 1012  # "service restart": clients reconnect
        server.process.wait(15)
        server.start()
        with bo.socket(table_id) as bo_ws:
            bo_ws.send(json.dumps({"type": "hello", "since": 0}))
            state = receive(bo_ws, "state")
            assert state["version"] == 1 and state["view"]["total"] == 2 and state["legal"]
    finally:
        server.stop()

"""A person at the test client: a guest or registered account with its own session cookie."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.main import SESSION_COOKIE


class Player:
    """An account logged in on ``client``; every request carries this player's cookie only."""

    def __init__(self, client: TestClient, name: str, password: str | None = None) -> None:
        """A new guest named ``name``; with ``password``, a new registered account instead."""
        self.client = client
        self.name = name
        if password is None:
            self._take_session(client.post("/api/auth/guest", json={"name": name}))
        else:
            self._take_session(client.post("/api/auth/register", json={"name": name, "password": password}))

    def log_in(self, password: str) -> None:
        """Log in again (a new session cookie), e.g. after the old cookie stopped working."""
        self._take_session(self.client.post("/api/auth/login", json={"name": self.name, "password": password}))

    def _take_session(self, response) -> None:
        assert response.status_code == 200, response.text
        self.cookie = response.cookies[SESSION_COOKIE]
        self.client.cookies.clear()
        self.id = response.json()["id"]

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{SESSION_COOKIE}={self.cookie}"}

    def get(self, path: str, **kwargs):
        return self.client.get(path, headers=self.headers, **kwargs)

    def post(self, path: str, json: Any = None, **kwargs):
        return self.client.post(path, json=json, headers=self.headers, **kwargs)

    def websocket(self, game_id: int, query: str = ""):
        return self.client.websocket_connect(f"/ws/games/{game_id}{query}", headers=self.headers)

    def move(self, game_id: int, version: int, move: dict, move_id: str | None = None):
        return self.post(f"/api/games/{game_id}/moves", {"id": move_id or str(uuid.uuid4()), "version": version, "move": move})


def started_table(creator: Player, others: list[Player], ruleset: str = "toy-race", **extra) -> int:
    """Create a table of ``ruleset`` for ``creator`` + ``others``, seat everyone, start; its id."""
    response = creator.post("/api/tables", {"ruleset": ruleset, "seats": 1 + len(others), **extra})
    assert response.status_code == 201, response.text
    table_id = response.json()["id"]
    code = response.json()["invite_code"]
    for other in others:
        joined = other.post(f"/api/tables/{table_id}/join", {"invite_code": code})
        assert joined.status_code == 200, joined.text
    started = creator.post(f"/api/tables/{table_id}/start")
    assert started.status_code == 200, started.text
    return table_id


def receive_until(websocket, frame_type: str, limit: int = 20) -> tuple[dict, list[dict]]:
    """Read frames until one of ``frame_type``; returns it and every frame read before it."""
    seen = []
    for _ in range(limit):
        frame = websocket.receive_json()
        if frame["type"] == frame_type:
            return frame, seen
        seen.append(frame)
    raise AssertionError(f"no {frame_type!r} frame within {limit} frames: {seen}")


def hello(websocket, since: int = 0) -> dict:
    """Say ``hello`` on a test-client socket and return the ``state`` frame that answers it."""
    websocket.send_json({"type": "hello", "since": since})
    return receive_until(websocket, "state")[0]

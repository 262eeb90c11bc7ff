"""Registered people at the test client, and the admin log lines a test caught."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from app.main import SESSION_COOKIE
from tests.support.players import Player


class Member(Player):
    """A registered account logged in on ``client`` (its own cookie, like :class:`Player`)."""

    def __init__(self, client: TestClient, name: str, password: str = "long-enough-1") -> None:
        self.client = client
        response = client.post("/api/auth/register", json={"name": name, "password": password})
        assert response.status_code == 200, response.text
        self.cookie = response.cookies[SESSION_COOKIE]
        client.cookies.clear()
        self.id = response.json()["id"]
        self.name = name
        self.password = password

    def login(self, password: str | None = None, name: str | None = None):
        """Log in again (a new cookie replaces this one on success); the answer."""
        answer = self.client.post("/api/auth/login", json={"name": name or self.name, "password": password or self.password})
        if answer.status_code == 200:
            self.cookie = answer.cookies[SESSION_COOKIE]
        self.client.cookies.clear()
        return answer

    def delete(self, path: str, **kwargs):
        return self.client.delete(path, headers=self.headers, **kwargs)


def admin_lines(text: str) -> list[dict]:
    """The admin log lines (``event == "admin_action"``) among the lines of ``text``."""
    lines = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("event") == "admin_action":
            lines.append(record)
    return lines

"""``serve`` stopped with SIGTERM after bots have played (their worker processes running): it
ends without multiprocessing's resource tracker reporting the bot pool's semaphores as leaked."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from tests.support.players import Player
from tests.support.server import ServerProcess


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s child processes (Linux's ``/proc``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def wait_gone(pids: list[int], seconds: float) -> None:
    """Wait until none of ``pids`` runs any more (or ``seconds`` pass)."""
    deadline = time.monotonic() + seconds
    while any(Path(f"/proc/{pid}").exists() for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)


@pytest.mark.timeout(120)
def test_sigterm_after_bot_moves_leaves_no_leaked_semaphores(tmp_path):
    """The pool's queues were left for the exit handlers, which never run: the server ends by the
    signal uvicorn raises again after its shutdown."""
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite", log_path=tmp_path / "server.log",
                           workdir=tmp_path, env={"CARAVANSERAI_BOT_DELAY_SECONDS": "0",
                                                  "CARAVANSERAI_BOT_PROCESSES": "1"}).start()
    try:
        with httpx.Client(base_url=server.base_url) as client:
            ana = Player(client, "Ana")
            table_id = ana.post("/api/tables", {"ruleset": "nomadi", "seats": 2}).json()["id"]
            assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "easy"}).status_code == 200
            assert ana.post(f"/api/tables/{table_id}/start").json()["status"] == "running"
            # the seats place their stones in turn: by version 3 the bot has placed at least one
            deadline = time.monotonic() + 60
            while (game := ana.get(f"/api/games/{table_id}").json())["version"] < 3 and time.monotonic() < deadline:
                if game["legal"]:
                    ana.move(table_id, game["version"], game["legal"][0])
                time.sleep(0.1)
        assert game["version"] >= 3, game
        helpers = children(server.process.pid)  # the resource tracker and the bot worker
        assert len(helpers) >= 2, helpers
    finally:
        server.stop()
    wait_gone(helpers, 10)  # the tracker reports what was left when the server's end reaches it
    log = server.log_text()
    assert "Finished server process" in log
    assert "leaked semaphore" not in log, log[-2000:]

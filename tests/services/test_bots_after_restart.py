"""Bots after a restart and on one process of two, with real server processes.

* kill -9 while a bot owes a move, for each thing that can put a bot on a seat (a bot seat, a
  person who left, resigned, ran out of time, or was away and handed over): after the restart every
  game moves on.  The first process waits a minute before each bot move, so at the kill every bot is
  certainly still owing its move; the restarted one waits 50 ms.
* Two processes on one PostgreSQL: one computes the bot moves (the leader), so the bot moves they
  computed together equal the bot moves in the log; when the leader is killed the other one leads.
"""

from __future__ import annotations

import re
from functools import partial

import httpx
import pytest

from tests.services.test_processes import TOY, RemotePlayer
from tests.support.polling import poll as poll_for
from tests.support.server import ServerProcess

poll = partial(poll_for, seconds=60.0, interval=0.1)  # a real process, sometimes on a busy machine

TAKEOVERS = ("bot", "left", "resigned", "timeout", "away")
OWING_ENV = {"CARAVANSERAI_BOT_DELAY_SECONDS": "60", "CARAVANSERAI_CLOCK_TICK_SECONDS": "0.1",
             "CARAVANSERAI_PRESENCE_REFRESH_SECONDS": "0.2", "CARAVANSERAI_ABSENT_AFTER_SECONDS": "1"}
QUICK_ENV = {"CARAVANSERAI_BOT_DELAY_SECONDS": "0.05", "CARAVANSERAI_CLOCK_TICK_SECONDS": "0.1"}


def game(server: ServerProcess, table_id: int) -> dict:
    return httpx.get(f"{server.base_url}/api/games/{table_id}", timeout=10).json()


def new_table(host: RemotePlayer, others: list[RemotePlayer], bots: tuple[int, ...] = (), **body) -> int:
    with host.http() as client:
        table_id = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2, **body}).json()["id"]
        for seat in bots:
            assert client.post(f"/api/tables/{table_id}/bots", json={"seat": seat}).status_code == 200
    for other in others:
        with other.http() as client:
            assert client.post(f"/api/tables/{table_id}/join").status_code == 200
    with host.http() as client:
        assert client.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def owe_a_bot_move(server: ServerProcess, kind: str, index: int) -> int:
    """A started toy race whose seat to act is played by a bot because of ``kind``; its id."""
    ana, bo = RemotePlayer(server, f"Ana{index}"), RemotePlayer(server, f"Bo{index}")
    if kind == "bot":
        table_id = new_table(ana, [], bots=(1,))
        with ana.http() as client:  # Ana moves; now the bot at seat 1 owes one
            assert client.post(f"/api/games/{table_id}/moves",
                               json={"id": "a1", "version": 0, "move": {"type": "add", "amount": 1}}).status_code == 200
        return table_id
    table_id = new_table(ana, [bo], move_seconds=5 if kind == "timeout" else None)
    if kind in ("left", "resigned"):
        with ana.http() as client:
            assert client.post(f"/api/tables/{table_id}/{'leave' if kind == 'left' else 'resign'}").status_code == 200
    elif kind == "away":  # Ana has no socket open: away after a second, then Bo hands her seat to the bot
        poll(lambda: game(server, table_id), lambda state: state["players"][0]["away_since"] is not None, seconds=30)
        with bo.http() as client:
            answer = client.post(f"/api/tables/{table_id}/bots", json={"seat": 0})
            assert answer.status_code == 200, answer.text  # nothing hands an untimed seat over by itself
    return table_id


def test_every_kind_of_bot_moves_on_after_the_server_is_killed(sqlite_database, tmp_path):
    """On SQLite (the default install); on Postgres, a leader that dies and the survivor that takes
    its bots over is ``test_two_processes_compute_each_bot_move_once_and_the_survivor_leads``."""
    server = ServerProcess(sqlite_database, extra_rulesets=TOY, log_path=tmp_path / "server.log", env=dict(OWING_ENV))
    server.start()
    try:
        tables = {kind: owe_a_bot_move(server, kind, index) for index, kind in enumerate(TAKEOVERS)}
        owed = {}
        for kind, table_id in tables.items():
            state = poll(lambda: game(server, table_id),
                         lambda state: (state["players"][state["to_act"][0]]["takeover"] or "bot") == kind, seconds=30)
            seat = state["to_act"][0]
            player = state["players"][seat]
            assert (player["takeover"] or ("bot" if player["bot"] else None)) == kind, (kind, state["players"])
            owed[kind] = state["version"]
        server.kill()
        # The same away time after the restart, so nobody's presence changes then (a change would
        # wake the game's bots by itself): what wakes them must be the new leader's resume.
        server.env = {**OWING_ENV, **QUICK_ENV}
        server.start()
        moved = {kind: poll(lambda: game(server, table_id), lambda state: state["version"] > owed[kind])["version"]
                 for kind, table_id in tables.items()}
        stalled = [kind for kind in TAKEOVERS if moved[kind] <= owed[kind]]
        assert not stalled, f"bots that never moved again after the restart: {stalled}"
    finally:
        server.stop()


def bot_metrics(server: ServerProcess) -> tuple[float, float]:
    """``(bot moves computed, leader 0/1)`` from the process's ``/metrics``."""
    text = httpx.get(f"{server.base_url}/metrics", timeout=10).text
    computed = re.search(r"^caravanserai_bot_moves_computed_total ([0-9.e+]+)$", text, re.MULTILINE)
    leader = re.search(r"^caravanserai_leader ([0-9.e+]+)$", text, re.MULTILINE)
    return float(computed.group(1)), float(leader.group(1))


def all_bot_game(server: ServerProcess, host: RemotePlayer) -> int:
    """A toy race of two bots (the host hands their own seat to one), started on ``server``."""
    with host.http(server) as client:
        table_id = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2}).json()["id"]
        for seat in (0, 1):
            assert client.post(f"/api/tables/{table_id}/bots", json={"seat": seat}).status_code == 200
        assert client.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


@pytest.mark.postgres
def test_two_processes_compute_each_bot_move_once_and_the_survivor_leads(postgres_database, tmp_path):
    servers = [ServerProcess(postgres_database, extra_rulesets=TOY, log_path=tmp_path / f"{name}.log",
                             env={**QUICK_ENV, "CARAVANSERAI_LEADER_RETRY_SECONDS": "0.2"})
               for name in ("first", "second")]
    try:
        for server in servers:
            server.start()
        hosts = [RemotePlayer(server, f"Host{index}") for index, server in enumerate(servers)]
        games = [all_bot_game(servers[index % 2], hosts[index % 2]) for index in range(6)]
        finished = [poll(lambda: game(servers[0], table_id), lambda state: state["status"] == "finished")
                    for table_id in games]
        assert all(state["status"] == "finished" for state in finished)
        bot_moves = sum(state["version"] for state in finished)  # every move of these games is a bot's
        metrics = [bot_metrics(server) for server in servers]
        assert sorted(leader for _, leader in metrics) == [0.0, 1.0]
        assert sum(computed for computed, _ in metrics) == bot_moves, metrics
        assert [computed for computed, leader in metrics if not leader] == [0.0]

        leader, survivor = (servers if metrics[0][1] else servers[::-1])
        leader.kill()
        table_id = all_bot_game(survivor, hosts[servers.index(survivor)])
        state = poll(lambda: game(survivor, table_id), lambda state: state["status"] == "finished")
        assert state["status"] == "finished"
        assert bot_metrics(survivor)[1] == 1.0
    finally:
        for server in servers:
            server.stop()

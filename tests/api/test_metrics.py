"""What ``/metrics`` tells a host: HTTP requests by route template, WebSocket
connections, database errors and 503s, bot moves and failures, pool connections, CPU and memory.
Sums over several workers: ``tests/hosting/test_two_workers.py``."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prometheus_client.mmap_dict import MmapedDict, mmap_key
import sqlalchemy.exc
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.metrics import Metrics, WorkerProcesses, tree_resident_memory
from app.rulesets.base import IllegalMove
from tests.conftest import TOY_RULESETS, make_settings
from tests.support.players import Player, hello, started_table
from tests.support.toy_rulesets import ToyRace


def value(client, name: str, **labels: str) -> float:
    """One sample of the app's ``/metrics`` (0 when absent)."""
    return client.app.state.ctx.metrics.registry.get_sample_value(name, labels) or 0.0


def wait_for_value(client, name: str, expected: float, **labels: str) -> float:
    """Poll until the sample equals ``expected`` (20 s at most); the last value read."""
    deadline = time.monotonic() + 20
    while (found := value(client, name, **labels)) != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


def test_http_requests_are_counted_by_route_template_never_by_path(client):
    for game_id in (123, 456, 123):
        assert client.get(f"/api/games/{game_id}").status_code == 404
    assert client.get("/no/such/place/987").status_code == 404
    assert client.get("/static/app.css").status_code == 200
    assert client.head("/healthz").status_code == 200
    text = client.get("/metrics").text
    assert 'caravanserai_http_requests_total{method="GET",route="/api/games/{game_id}",status="404"} 3.0' in text
    assert 'caravanserai_http_requests_total{method="GET",route="unmatched",status="404"} 1.0' in text
    assert 'caravanserai_http_requests_total{method="GET",route="/static/{path}",status="200"} 1.0' in text
    assert 'caravanserai_http_requests_total{method="GET",route="/healthz",status="200"} 1.0' in text
    assert 'caravanserai_http_request_seconds_count{method="GET",route="/api/games/{game_id}"} 3.0' in text
    routes = set(re.findall(r'route="([^"]*)"', text))
    assert not [route for route in routes if re.search(r"\d", route)], routes  # no raw ids, no raw paths


def test_websocket_connections_are_counted_while_open_and_when_closed(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as socket:
        hello(socket)
        assert value(client, "caravanserai_websockets_open") == 1
        assert value(client, "caravanserai_open_sockets") == 1
        assert value(client, "caravanserai_websocket_connects_total") == 1
    assert wait_for_value(client, "caravanserai_websocket_disconnects_total", 1, closed_by="client") == 1
    assert value(client, "caravanserai_websockets_open") == 0 and value(client, "caravanserai_open_sockets") == 0
    with pytest.raises(WebSocketDisconnect), ana.websocket(999_999) as socket:  # no such table: the server closes
        while True:
            socket.receive_json()
    assert wait_for_value(client, "caravanserai_websocket_disconnects_total", 1, closed_by="server") == 1
    assert value(client, "caravanserai_websocket_connects_total") == 2
    assert value(client, "caravanserai_websockets_open") == 0


def test_a_socket_the_hub_closes_on_logout_counts_as_closed_by_the_server(client):
    """The hub closes sockets itself (logout, deleted table, slow peer): the endpoint counts them,
    not a middleware watching every frame's ``send``, so the hub's closes must be the server's."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with pytest.raises(WebSocketDisconnect) as closed, bo.websocket(table_id) as socket:
        hello(socket)
        assert bo.post("/api/auth/logout").status_code == 200
        while True:
            socket.receive_json()
    assert closed.value.code == 4401
    assert wait_for_value(client, "caravanserai_websocket_disconnects_total", 1, closed_by="server") == 1
    assert value(client, "caravanserai_websocket_disconnects_total", closed_by="client") == 0
    assert value(client, "caravanserai_websockets_open") == 0


def test_database_errors_and_503s_are_counted(sqlite_database):
    """Also: a database error is answered and goes no further (the test client raises what escapes
    the application, as uvicorn logs it: "Exception in ASGI application", once for each 503 of a
    busy pool under load before)."""
    with TestClient(create_app(make_settings(sqlite_database))) as client:
        ctx = client.app.state.ctx
        real_sessions = ctx.sessions

        def exhausted_pool():
            raise sqlalchemy.exc.TimeoutError("QueuePool limit of size 5 overflow 5 reached, connection timed out")

        ctx.sessions = exhausted_pool
        busy = client.get("/api/tables")
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "unavailable"
        ctx.sessions = real_sessions

        async def drop_tables_table():
            async with ctx.engine.begin() as connection:
                await connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                await connection.exec_driver_sql("DROP TABLE chat_messages")
                await connection.exec_driver_sql("DROP TABLE seats")

        client.portal.call(drop_tables_table)
        assert client.get("/api/tables").status_code == 500  # "no such table": a database error, not a bug of ours
        assert client.get("/api/rulesets").status_code == 200
        assert value(client, "caravanserai_database_errors_total", kind="busy") == 1
        assert value(client, "caravanserai_database_errors_total", kind="failed") == 1
        assert value(client, "caravanserai_http_requests_total", method="GET", route="/api/tables", status="503") == 1
        assert value(client, "caravanserai_http_requests_total", method="GET", route="/api/tables", status="500") == 1


def test_pool_connections_are_counted_while_checked_out(client):
    ctx = client.app.state.ctx
    Player(client, "Ana")

    async def counted_and_checked_out() -> tuple[float, int]:
        # On the app's event loop, with no await between the two reads: no other task moves either.
        return value(client, "caravanserai_db_pool_connections_in_use"), ctx.engine.pool.checkedout()

    async def while_held() -> tuple[float, int]:
        async with ctx.engine.connect():
            return await settled()

    async def settled() -> tuple[float, int]:
        # A background task (presence, notices, absence) may take or give back a connection while
        # the gauge is being read on a busy machine: read again until both agree, as a scrape would.
        for _ in range(200):
            counted, checked_out = await counted_and_checked_out()
            if counted == checked_out:
                break
            await asyncio.sleep(0.01)
        return counted, checked_out

    counted, checked_out = client.portal.call(while_held)
    assert counted == checked_out >= 1
    counted_after, checked_out_after = client.portal.call(settled)
    assert counted_after == checked_out_after  # back down with the pool (a background task may hold one)


class RefusedBotRace(ToyRace):
    """Toy race whose rules refuse every move of seat 1: a bot there is always refused."""

    name = "toy-refused-bot-race"

    def apply(self, state, seat, move):
        if seat == 1:
            raise IllegalMove("seat 1 may not move in this test")
        return super().apply(state, seat, move)


class CrashingBotRace(ToyRace):
    """Toy race that fails to draw seat 1's view: a bot there crashes before it moves."""

    name = "toy-crashing-bot-race"

    def view(self, state, seat):
        if seat == 1:
            raise RuntimeError("a ruleset bug, for this test")
        return super().view(state, seat)


def test_bot_moves_and_failures_are_counted(sqlite_database):
    settings = make_settings(sqlite_database).model_copy(update={"extra_rulesets": TOY_RULESETS + [
        f"{__name__}:RefusedBotRace", f"{__name__}:CrashingBotRace"]})
    with TestClient(create_app(settings)) as client:
        ana = Player(client, "Ana")
        for ruleset in ("toy-race", "toy-refused-bot-race", "toy-crashing-bot-race"):
            table_id = ana.post("/api/tables", {"ruleset": ruleset, "seats": 2}).json()["id"]
            assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "random"}).status_code == 200
            assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
            assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        assert wait_for_value(client, "caravanserai_bot_moves_total", 1) == 1
        assert wait_for_value(client, "caravanserai_bot_failures_total", 1, reason="refused") == 1
        assert wait_for_value(client, "caravanserai_bot_failures_total", 1, reason="crashed") == 1


def test_a_bot_move_refused_because_its_person_took_the_seat_back_is_no_failure(sqlite_database, monkeypatch, caplog):
    """A person reclaiming their seat while the bot that kept it was thinking is the game going on:
    it was logged at ERROR and counted in the bot failures (8 times in one attack run)."""
    from app.services.games import pipeline as games
    from app.services.errors import AppError

    tried = []

    async def seat_taken_back(ctx, game_id, seat, *_args, **_kwargs):
        tried.append((game_id, seat))
        raise AppError("not_seated", f"seat {seat} is not played by a bot")

    monkeypatch.setattr(games, "submit_bot_move", seat_taken_back)
    caplog.set_level(logging.INFO, logger="app.services.leader.bot_driver")
    with TestClient(create_app(make_settings(sqlite_database))) as client:
        ana = Player(client, "Ana")
        table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
        assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "random"}).status_code == 200
        assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        deadline = time.monotonic() + 20
        while not tried and time.monotonic() < deadline:
            time.sleep(0.02)
        assert tried == [(table_id, 1)]
    assert value(client, "caravanserai_bot_failures_total", reason="refused") == 0  # read after the driver stopped
    lines = [record for record in caplog.records if record.name == "app.services.leader.bot_driver"]
    assert [record.levelname for record in lines] == ["INFO"], [record.getMessage() for record in lines]
    assert "no longer plays it" in lines[0].getMessage()


def test_cpu_and_memory_of_a_single_process(client):
    text = client.get("/metrics").text
    pid = os.getpid()
    assert re.search(rf'^process_resident_memory_bytes\{{pid="{pid}"\}} \d', text, re.MULTILINE)
    assert re.search(rf'^process_cpu_seconds_total\{{pid="{pid}"\}} \d', text, re.MULTILINE)
    assert "caravanserai_workers 1.0" in text


def test_the_servers_memory_counts_every_process_of_its_tree(client):
    """The workers' sum left out serve's supervisor and the resource tracker (229 MB reported, 300
    MiB used).  Here a child process holding 64 MiB is part of the tree of this (test) process."""
    child = subprocess.Popen([sys.executable, "-c", "import sys, time; held = bytearray(64 << 20); "
                              "print('ready', flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        own = value(client, "process_resident_memory_bytes", pid=str(os.getpid()))
        whole = value(client, "caravanserai_server_resident_memory_bytes")
        assert whole >= own + (64 << 20), (own, whole)
        assert tree_resident_memory(child.pid) >= 64 << 20
    finally:
        child.kill()
        child.wait()


def test_workers_are_the_live_processes_with_metric_files_and_dead_ones_stop_counting(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid, live_pid = int(dead.stdout), os.getpid()
    for name in (f"counter_{live_pid}.db", f"counter_{dead_pid}.db", f"gauge_livesum_{dead_pid}.db",
                 f"gauge_livesum_{live_pid}.db"):
        (tmp_path / name).write_bytes(b"")
    assert WorkerProcesses(str(tmp_path)).pids() == [live_pid]
    left = sorted(path.name for path in tmp_path.iterdir())
    # the dead worker's counts still count; its open sockets and connections do not
    assert left == sorted([f"counter_{live_pid}.db", f"counter_{dead_pid}.db", f"gauge_livesum_{live_pid}.db"])


def test_a_killed_worker_its_parent_has_not_reaped_stops_counting_in_the_next_scrape(tmp_path):
    """uvicorn's supervisor reaps a dead worker only when its health check looks again (up to 30 s
    when the worker died while being pinged): until then the worker is a zombie, which os.kill(pid, 0)
    still finds."""
    worker = subprocess.Popen([sys.executable, "-c", "pass"])  # exits, and is not waited for: a zombie
    try:
        deadline = time.monotonic() + 20
        while Path(f"/proc/{worker.pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
            assert time.monotonic() < deadline, "the child never exited"
            time.sleep(0.02)
        gauges = MmapedDict(str(tmp_path / f"gauge_livesum_{worker.pid}.db"))
        name = "caravanserai_websockets_open"
        gauges.write_value(mmap_key(name, name, [], [], "WebSocket connections open, all workers"), 3.0, 0.0)
        gauges.close()

        text = Metrics(str(tmp_path)).render().decode()
        assert re.search(rf"^{name} ", text, re.MULTILINE) is None  # not 3.0: the zombie's sockets are gone
        assert "caravanserai_workers 0.0" in text
        assert not (tmp_path / f"gauge_livesum_{worker.pid}.db").exists()
    finally:
        worker.wait()

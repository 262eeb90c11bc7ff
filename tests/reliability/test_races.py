"""Races at the edges of a socket's life, and subscriber/memory counts after many games.

* A socket that goes away during its handshake, right after it, right after ``hello`` (with a
  FIN or a RST), or in the middle of pushes, leaves no phantom subscriber: the server's
  ``caravanserai_open_sockets`` returns to 0 and its open file descriptors to their baseline.
* Many games opened, played and closed: subscriptions, per-game locks and hub entries return
  to their baseline in-process; the server process's memory stays within a bound.
* In one process (SQLite): simultaneous joins take each seat once, and a join racing the
  start or the closing of its table never leaves a broken table.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import json
import os
import random
import socket
import struct
import threading
import time
import uuid

import pytest
from fastapi.testclient import TestClient

from app.main import SESSION_COOKIE, create_app
from tests.conftest import make_settings
from tests.reliability.support import RemoteGuest, recv_until, report, rss_bytes, scale, \
    start_remote_table, wait_for_metric
from tests.reliability.test_two_processes import (test_join_racing_start_or_closing_never_leaves_a_broken_table
                                                  as join_races,
                                                  test_many_simultaneous_joins_take_each_seat_once as many_joins)
from tests.support.players import Player, started_table
from tests.support.server import ServerProcess


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request):
    """One server process: the shared SQLite one, or the first of the Postgres pair."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_server")[1]
    return request.getfixturevalue("postgres_servers")[1]


# -- raw WebSocket pieces, to hang up at any point of the handshake -----------------------------

def upgrade_request(server: ServerProcess, game_id: int, cookie: str | None) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET /ws/games/{game_id} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if cookie:
        lines.append(f"Cookie: {SESSION_COOKIE}={cookie}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def client_frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (RFC 6455 5.2)."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def hang_up(sock: socket.socket, reset: bool) -> None:
    if reset:  # SO_LINGER 0: close sends a RST instead of a FIN
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def read_until(sock: socket.socket, marker: bytes, limit: int = 65536) -> bytes:
    data = b""
    while marker not in data and len(data) < limit:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


STAGES = ["partial request", "request, no read", "upgraded", "hello", "hello+move", "hello, read state",
          "unknown game", "closing handshake"]


def abort_at(server: ServerProcess, game_id: int, cookie: str | None, stage: str, reset: bool) -> None:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        request = upgrade_request(server, 2**31 - 2 if stage == "unknown game" else game_id, cookie)
        if stage == "partial request":
            sock.sendall(request[: len(request) // 2])
            return
        sock.sendall(request)
        if stage == "request, no read":
            return
        assert b" 101 " in read_until(sock, b"\r\n\r\n")
        if stage in ("upgraded", "unknown game"):
            return
        sock.sendall(client_frame(b'{"type": "hello", "since": 0}'))
        if stage == "hello+move":
            move = {"type": "move", "id": str(uuid.uuid4()), "version": 0, "move": {"type": "nonsense"}}
            sock.sendall(client_frame(json.dumps(move).encode()))
        if stage == "hello, read state":
            read_until(sock, b'"type":"state"')
        if stage == "closing handshake":
            sock.sendall(client_frame(struct.pack("!H", 1000) + b"bye", opcode=8))
    finally:
        hang_up(sock, reset)


TCP_STATES = {"01": "ESTABLISHED", "08": "CLOSE_WAIT", "04": "FIN_WAIT1", "05": "FIN_WAIT2", "09": "LAST_ACK",
              "0B": "CLOSING", "03": "SYN_RECV"}


def server_connections(server: ServerProcess) -> dict[str, int]:
    """The server's own ends of TCP connections on its port, by state (TIME_WAIT and LISTEN left out)."""
    states: dict[str, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == server.port and fields[3] in TCP_STATES:
                    states[TCP_STATES[fields[3]]] = states.get(TCP_STATES[fields[3]], 0) + 1
    return states


def test_sockets_closing_during_their_handshake_leave_no_phantom_subscriber(server):
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0, "subscribers left over before this test"
    ana, bo = RemoteGuest(server, "Ana"), RemoteGuest(server, "Bo")
    game_id = start_remote_table([ana, bo], "through-the-desert")
    baseline = server_connections(server)
    chooser, moves = random.Random(5), random.Random(6)
    stop = threading.Event()

    def keep_moving():  # pushes race with the hang-ups
        with ana.http() as a, bo.http() as b:
            while not stop.is_set():
                states = [a.get(f"/api/games/{game_id}").json(), b.get(f"/api/games/{game_id}").json()]
                if states[0]["status"] != "running":
                    return
                seat = states[0]["to_act"][0]
                (a, b)[seat].post(f"/api/games/{game_id}/moves", json={
                    "id": str(uuid.uuid4()), "version": states[seat]["version"],
                    "move": moves.choice(states[seat]["legal"])})
                time.sleep(0.01)

    mover = threading.Thread(target=keep_moving)
    mover.start()
    tries = scale(48, 400)
    counts: dict[str, int] = {}
    try:
        for index in range(tries):
            stage = STAGES[index % len(STAGES)]
            cookie = chooser.choice([ana.cookie, bo.cookie, None])
            abort_at(server, game_id, cookie, stage, reset=chooser.random() < 0.5)
            counts[stage] = counts.get(stage, 0) + 1
        # and the ordinary client library, closing right after its hello
        for _ in range(scale(8, 50)):
            with ana.socket(game_id) as ws:
                ws.send('{"type": "hello", "since": 0}')
    finally:
        stop.set()
        mover.join(10)
    left = wait_for_metric(server, "caravanserai_open_sockets", 0, timeout=10)
    assert left == 0, f"{left} phantom subscribers after {tries} aborted handshakes"
    deadline = time.monotonic() + 10
    while sum(server_connections(server).values()) > sum(baseline.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sum(server_connections(server).values()) <= sum(baseline.values()), \
        f"server-side connections {baseline} -> {server_connections(server)}"
    # the server still serves this game
    with ana.socket(game_id) as ws:
        ws.send('{"type": "hello", "since": 0}')
        assert recv_until(ws, lambda frame: frame["type"] == "state")[0]["status"] == "running"
    report("handshake aborts", server=server.database_url.split(":")[0], tries=tries, **counts)


def play_toy_race(guests: list[RemoteGuest], game_id: int, spectator_url: str) -> None:
    """Both seats and a spectator subscribe; the seats race to 10 over their sockets; all close."""
    from websockets.sync.client import connect

    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(guest.socket(game_id)) for guest in guests]
        watcher = stack.enter_context(connect(spectator_url, open_timeout=10))
        frames = []
        for ws in [*sockets, watcher]:
            ws.send('{"type": "hello", "since": 0}')
            frames.append(recv_until(ws, lambda frame: frame["type"] == "state")[0])
        state = frames[0]
        while True:
            seat = state["to_act"][0]
            move_id = str(uuid.uuid4())
            sockets[seat].send(json.dumps({"type": "move", "id": move_id, "version": state["version"],
                                           "move": {"type": "add", "amount": 1 if state["view"]["total"] == 7 else 3}}))
            ack, _ = recv_until(sockets[seat], lambda frame: frame.get("id") == move_id)
            assert ack["type"] == "ack", ack
            target = ack["version"]
            state, _ = recv_until(watcher, lambda frame: frame["type"] == "state" and frame["version"] >= target)
            if state["status"] == "finished":
                return


def test_subscribers_and_memory_return_to_baseline_after_many_games(sqlite_server):
    _, server = sqlite_server
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0, "subscribers left over before this test"

    def games(count: int) -> None:
        for index in range(count):
            guests = [RemoteGuest(server, f"L{index}a"), RemoteGuest(server, f"L{index}b")]
            game_id = start_remote_table(guests, "toy-race")
            play_toy_race(guests, game_id, f"{server.ws_url}/ws/games/{game_id}")

    games(scale(3, 20))  # warm-up: imports, caches, pools
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0
    baseline = rss_bytes(server.process.pid)
    count = scale(15, 400)
    began = time.monotonic()
    games(count)
    elapsed = time.monotonic() - began
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0, "subscribers left after the games closed"
    grown = rss_bytes(server.process.pid) - baseline
    # A finished game stays in the snapshot cache (bounded at 2048 entries); a toy game is a few KB.
    assert grown < 12 * 2**20 + count * 20 * 2**10, f"memory grew by {grown / 2**20:.1f} MiB over {count} games"
    report("lifecycle", games=count, seconds=round(elapsed, 1), rss_growth_kib=grown // 1024,
           sockets_opened=count * 3)


def test_in_process_hub_locks_and_cache_return_to_baseline(sqlite_database):
    settings = make_settings(sqlite_database)
    with TestClient(create_app(settings)) as client:
        hub, ctx = client.app.state.hub, client.app.state.ctx
        count = scale(15, 200)
        for index in range(count):
            ana, bo = Player(client, f"A{index}"), Player(client, f"B{index}")
            game_id = started_table(ana, [bo])
            with ana.websocket(game_id) as a, bo.websocket(game_id) as b, \
                    client.websocket_connect(f"/ws/games/{game_id}") as watcher:
                states = []
                for ws in (a, b, watcher):
                    ws.send_json({"type": "hello", "since": 0})
                    while (frame := ws.receive_json())["type"] != "state":
                        pass
                    states.append(frame)
                assert hub.count() == 3
                version = 0
                while True:
                    mover = (a, b)[version % 2]
                    mover.send_json({"type": "move", "id": f"m{version}", "version": version,
                                     "move": {"type": "add", "amount": 3 if version < 2 else 2}})
                    while (frame := mover.receive_json())["type"] != "ack":
                        assert frame["type"] != "error", frame
                    version = frame["version"]
                    if version == 4:  # 3 + 3 + 2 + 2 = 10
                        break
        # the handlers' finally blocks run after the client side closes: give them a moment
        deadline = time.monotonic() + 5
        while hub.count() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.count() == 0
        assert not hub._subscribers, f"empty hub entries left for games {list(hub._subscribers)}"
        deadline = time.monotonic() + 5
        while hub._sockets and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not hub._sockets and not hub._payloads, "closed sockets or their payloads still held by the hub"
        gc.collect()
        assert len(ctx.locks._locks) <= 1, f"{len(ctx.locks._locks)} per-game locks still alive after every game ended"
        report("in-process lifecycle", games=count, sockets_opened=3 * count)


@pytest.mark.parametrize("test", [many_joins, join_races], ids=["simultaneous joins", "join racing start/close"])
def test_lobby_races_in_one_sqlite_process(sqlite_server, test):
    _, server = sqlite_server
    test((None, server, server))

"""Half-open sockets: a peer that stops answering (a laptop lid closed, a dead NAT entry) is dropped
by the server's heartbeat within a bounded time, its subscription goes, and the others see it offline.

The silent peer is a raw TCP socket that performs the WebSocket handshake and a ``hello`` by hand
and then never answers a ping: exactly what the server sees of a peer whose network vanished.
uvicorn pings every ``CARAVANSERAI_WS_PING_INTERVAL_SECONDS`` and closes a socket whose pong is
``CARAVANSERAI_WS_PING_TIMEOUT_SECONDS`` late; this server pings every 0.5 s and waits 2 s for a pong:
the live peer answers from its client library's thread, which a loaded CI machine can keep from
answering within 0.5 s (the live peer was then dropped as well, and the test failed).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time

from app.db.migrate import upgrade_to_head
from app.main import SESSION_COOKIE
from tests.conftest import TOY_RULESETS
from tests.reliability.support import RemoteGuest, metric, recv_until, start_remote_table, wait_for_metric
from tests.support.server import ServerProcess

PING_INTERVAL = 0.5
PING_TIMEOUT = 2.0
BOUND = PING_INTERVAL + PING_TIMEOUT + 3.0
"""Seconds within which a silent peer must be gone: one interval, one timeout, and slack for a loaded CI machine."""


def masked_text_frame(text: str) -> bytes:
    """One client-to-server WebSocket text frame (RFC 6455 section 5.2: clients mask), payload < 126 bytes."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def silent_peer(server: ServerProcess, game_id: int, cookie: str) -> socket.socket:
    """A socket that completes the handshake and a hello, then reads nothing and answers nothing."""
    peer = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    peer.sendall((f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Cookie: {SESSION_COOKIE}={cookie}\r\n\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = peer.recv(4096)
        assert chunk, f"the server closed during the handshake: {response!r}"
        response += chunk
    assert response.startswith(b"HTTP/1.1 101"), response
    peer.sendall(masked_text_frame(json.dumps({"type": "hello", "since": 0})))
    return peer


def test_a_peer_that_stops_answering_pings_is_dropped_within_the_bound(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/heartbeat.db"
    upgrade_to_head(url)
    server = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=tmp_path / "server.log",
                           env={"CARAVANSERAI_WS_PING_INTERVAL_SECONDS": str(PING_INTERVAL),
                                "CARAVANSERAI_WS_PING_TIMEOUT_SECONDS": str(PING_TIMEOUT)}).start()
    try:
        ana, bo = RemoteGuest(server, "Ana"), RemoteGuest(server, "Bo")
        game_id = start_remote_table([ana, bo], "toy-race")
        with ana.socket(game_id) as watcher:  # a live peer: its client library answers every ping
            watcher.send('{"type": "hello", "since": 0}')
            recv_until(watcher, lambda frame: frame["type"] == "state")
            peer = silent_peer(server, game_id, bo.cookie)
            recv_until(watcher, lambda frame: frame["type"] == "presence" and 1 in frame["online"])
            assert metric(server, "caravanserai_open_sockets") == 2

            started = time.monotonic()
            peer.settimeout(BOUND)
            try:
                while peer.recv(65536):  # pings and frames arrive; none is answered
                    if time.monotonic() - started > BOUND:
                        break
                closed_after = time.monotonic() - started
            except TimeoutError:
                closed_after = float("inf")
            finally:
                peer.close()
            assert closed_after < BOUND, f"the silent peer was still connected after {BOUND} s"

            # its seat shows offline to the others, and the live peer outlived many pings
            presence, _ = recv_until(watcher, lambda frame: frame["type"] == "presence" and 1 not in frame["online"],
                                     timeout=5)
            assert presence["online"] == [0]
            assert wait_for_metric(server, "caravanserai_open_sockets", 1) == 1
            time.sleep(3 * (PING_INTERVAL + PING_TIMEOUT))
            assert metric(server, "caravanserai_open_sockets") == 1
            watcher.send('{"type": "hello", "since": 0}')
            assert recv_until(watcher, lambda frame: frame["type"] == "state")[0]["status"] == "running"
    finally:
        server.stop()

"""The WebSocket fuzzer: random, truncated, oversized and wrong-typed frames (seeded) against a
real server process.

Every frame is answered by a clear ``error`` frame (or by what a well-formed frame gets:
``state`` for a ``hello``, ``pong`` for a ``ping``), or the socket is closed with a close code
(too big: 1009, not UTF-8: 1007, protocol violations: 1002).  After each frame the socket
still answers a ``ping`` with a ``pong``; the server stays up; no frame changes any game (the
fuzzed sockets are a spectator and a seat that is not to act in a running game, and a seat of a
finished game, so no move can be legal); the subscriber count returns to 0.
"""

from __future__ import annotations

import json
import os
import random
import socket
import struct
import uuid
from collections import Counter

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.reliability.support import (LEGACY, LeakScanner, RemoteGuest, fold, query, read_game, report, scale,
                                      start_remote_table, wait_for_metric)
from tests.reliability.test_races import read_until, upgrade_request

MAX_PAYLOAD = 64 * 1024  # Settings.max_payload_bytes: the app's limit and uvicorn's ws_max_size
JSON_VALUES = [None, True, False, 0, -1, 1, 2**31, 2**63, 2**70, -(2**70), 1.5, 1e308, -0.0, "", "0", "x" * 70,
               "\u0000", "\ud7ff\ue000", "ünïcødé", "💥", [], [1, "a"], {}, {"type": "add"}, {"a": {"b": None}}]


def random_json(chooser: random.Random, depth: int = 0):
    kind = chooser.randrange(7 if depth < 4 else 4)
    if kind < 4:
        return chooser.choice(JSON_VALUES)
    if kind == 4:
        return [random_json(chooser, depth + 1) for _ in range(chooser.randrange(4))]
    keys = ["type", "id", "version", "since", "move", "amount", "", "x"]
    return {chooser.choice(keys): random_json(chooser, depth + 1) for _ in range(chooser.randrange(4))}


def valid_frames(version: int) -> list[dict]:
    return [{"type": "hello", "since": version}, {"type": "ping"},
            {"type": "move", "id": str(uuid.uuid4()), "version": version, "move": {"type": "add", "amount": 2}}]


def fuzz_frame(chooser: random.Random, version: int) -> tuple[str, str | bytes]:
    """``(kind, payload)``: one fuzzed frame (text, or bytes for a binary frame)."""
    base = chooser.choice(valid_frames(version))
    kind = chooser.choice(["bytes", "text", "truncated", "wrong_type", "extra_field", "missing_field", "bad_type",
                           "random_json", "deep", "not_object", "near_limit", "numbers"])
    if kind == "bytes":
        return kind, os.urandom(chooser.randrange(0, 300))
    if kind == "text":
        return kind, "".join(chr(chooser.choice([chooser.randrange(32, 127), chooser.randrange(0x80, 0xD7FF),
                                                 chooser.randrange(0xE000, 0x10FFFF)]))
                             for _ in range(chooser.randrange(0, 200)))
    text = json.dumps(base)
    if kind == "truncated":
        return kind, text[: chooser.randrange(0, len(text))]
    if kind == "wrong_type":
        key = chooser.choice([key for key in base if key != "type"] or ["type"])
        return kind, json.dumps({**base, key: random_json(chooser)})
    if kind == "extra_field":
        extra = chooser.choice(["extra", "seat", "account_id", "__proto__"])
        return kind, json.dumps({**base, extra: random_json(chooser)})
    if kind == "missing_field":
        keys = list(base)
        keys.remove(chooser.choice(keys))
        return kind, json.dumps({key: base[key] for key in keys})
    if kind == "bad_type":
        return kind, json.dumps({**base, "type": chooser.choice(["HELLO", "", "state", "ack", "error", "pong", None, 1,
                                                                  "move ", "hello\u0000"])})
    if kind == "random_json":
        return kind, json.dumps(random_json(chooser))
    if kind == "deep":
        depth = chooser.choice([100, 1000, 10000, 20000])  # 20000 levels of a move: over the size limit
        if chooser.random() < 0.5:
            return kind, "[" * depth + "]" * depth
        head = json.dumps({**valid_frames(version)[2], "move": None})[: -len("null}")]
        return kind, head + '{"a":' * depth + "1" + "}" * depth + "}"
    if kind == "not_object":
        return kind, chooser.choice(["null", "1", '"hello"', "[]", "true", "NaN", "Infinity", "{", "}", "", " "])
    if kind == "near_limit":
        size = MAX_PAYLOAD - chooser.randrange(1, 2000)
        return kind, json.dumps({**base, "pad": "x" * max(0, size - len(text) - 12)})
    return kind, json.dumps({**base, chooser.choice(["since", "version"]): chooser.choice(
        [-1, 2**31 - 1, 2**31, 2**64, 1e300, 0.5, "1", "1e3", True])})


class FuzzSocket:
    """A socket that is (re)opened on demand and must answer a ping after every fuzzed frame."""

    def __init__(self, url: str, cookie: str | None, label: str) -> None:
        self.url, self.cookie, self.label = url, cookie, label
        self.ws = None
        self.sent = 0
        self.received: list[dict] = []

    def open(self):
        headers = {"Cookie": f"caravanserai_session={self.cookie}"} if self.cookie else {}
        self.ws = connect(self.url, additional_headers=headers, open_timeout=10, close_timeout=2, max_size=2**22,
                          **LEGACY)
        self.sent = 0

    def exchange(self, payload: str | bytes) -> tuple[list[dict], tuple[int, str] | None]:
        """Send one frame and a ping; the frames answered before the pong, or the close code and reason."""
        if self.ws is None or self.sent > 150:  # stay under the per-socket frame budget (burst 400)
            if self.ws is not None:
                self.ws.close()
            self.open()
        try:
            self.ws.send(payload)  # str: a text frame, bytes: a binary frame
            self.ws.send('{"type": "ping"}')
            self.sent += 2
            answers = []
            while True:
                frame = json.loads(self.ws.recv(timeout=15))
                self.received.append(frame)
                if frame.get("type") == "pong":
                    return answers, None
                answers.append(frame)
        except ConnectionClosed as closed:
            received = closed.rcvd
            self.ws = None
            return [], (received.code if received else 1006, received.reason if received else "")


def test_websocket_fuzzer_never_crashes_and_changes_nothing(sqlite_server):
    database_url, server = sqlite_server
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0, "subscribers left over before this test"
    chooser = random.Random(20260)
    ana, bo, cy, di = (RemoteGuest(server, name) for name in ("Ana", "Bo", "Cy", "Di"))
    running = start_remote_table([ana, bo], "toy-race")  # Ana (seat 0) is to act: Bo and spectators fuzz
    finished = start_remote_table([cy, di], "toy-race")
    with cy.http() as http_cy, di.http() as http_di:
        for version, (http, amount) in enumerate([(http_cy, 3), (http_di, 3), (http_cy, 3), (http_di, 1)]):
            answer = http.post(f"/api/games/{finished}/moves", json={"id": f"f{version}", "version": version,
                                                                     "move": {"type": "add", "amount": amount}})
            assert answer.status_code == 200, answer.text
    before = {game: query(database_url, "SELECT version, status FROM tables WHERE id = $1", game) +
              query(database_url, "SELECT count(*) AS moves FROM moves WHERE table_id = $1", game)
              for game in (running, finished)}
    sockets = [FuzzSocket(f"{server.ws_url}/ws/games/{running}", bo.cookie, "seat not to act"),
               FuzzSocket(f"{server.ws_url}/ws/games/{running}", None, "spectator"),
               FuzzSocket(f"{server.ws_url}/ws/games/{finished}", cy.cookie, "seat of a finished game")]
    versions = {sockets[0]: 0, sockets[1]: 0, sockets[2]: 4}
    kinds: Counter = Counter()
    outcomes: Counter = Counter()
    closes: Counter = Counter()
    problems: list[str] = []
    frames = scale(360, 6000)
    for index in range(frames):
        fuzz = sockets[index % len(sockets)]
        kind, payload = fuzz_frame(chooser, versions[fuzz])
        kinds[kind] += 1
        answers, closed = fuzz.exchange(payload)
        shown = repr(payload[:120])
        if closed is not None:
            code, reason = closed
            closes[f"{code} {reason}".strip()] += 1
            size = len(payload.encode() if isinstance(payload, str) else payload)
            if code != 1009 or size <= MAX_PAYLOAD:
                problems.append(f"{fuzz.label}: {kind} frame {shown} closed the socket with {code} {reason!r}")
            continue
        for frame in answers:
            outcomes[f"{frame.get('type')}:{frame.get('code', '')}".rstrip(":")] += 1
            if frame.get("type") == "ack":
                problems.append(f"{fuzz.label}: {kind} frame {shown} was acknowledged as a move: {frame}")
            elif frame.get("type") == "error" and not (frame.get("code") and frame.get("message")):
                problems.append(f"{fuzz.label}: unclear error {frame} for {shown}")
        errors = [frame for frame in answers if frame.get("type") == "error"]
        states = [frame for frame in answers if frame.get("type") == "state"]
        if not errors and not states:
            # only a well-formed hello or ping may go without an error
            try:
                parsed = json.loads(payload)
                fine = isinstance(parsed, dict) and parsed.get("type") in ("hello", "ping")
            except (ValueError, TypeError, RecursionError):
                fine = False
            if not fine:
                problems.append(f"{fuzz.label}: {kind} frame {shown} got no error: {answers}")
        if len(errors) > 1:
            problems.append(f"{fuzz.label}: {kind} frame {shown} got {len(errors)} errors")

    # no frame carried a seed or a PRNG state of either game
    scanner = LeakScanner(None, 0)
    for game in (read_game(database_url, running), read_game(database_url, finished)):
        scanner.add_number(game.seed)
        scanner.add_number(game.state.get("rng"))  # the row's state: on PostgreSQL perhaps a checkpoint's
        scanner.add_number(fold(game).get("rng"))  # the state now (the row may hold a checkpoint)
    for fuzz in sockets:
        scanner.check_text(json.dumps(fuzz.received), f"frames to the {fuzz.label}")

    protocol = protocol_abuses(server, running, bo.cookie)
    for fuzz in sockets:
        if fuzz.ws is not None:
            fuzz.ws.close()
    assert not problems, "\n".join(problems[:20])
    assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200
    after = {game: query(database_url, "SELECT version, status FROM tables WHERE id = $1", game) +
             query(database_url, "SELECT count(*) AS moves FROM moves WHERE table_id = $1", game)
             for game in (running, finished)}
    assert after == before, "a fuzzed frame changed a game"
    assert wait_for_metric(server, "caravanserai_open_sockets", 0) == 0, "the fuzzed sockets left subscribers behind"
    report("websocket fuzzer", frames=frames, kinds=dict(kinds), answers=dict(outcomes), closes=dict(closes),
           protocol_abuses=protocol)


# -- protocol-level abuse over a raw socket -----------------------------------------------------

def raw_frame(payload: bytes, opcode: int = 1, fin: bool = True, masked: bool = True, rsv: int = 0,
              declared: int | None = None) -> bytes:
    length = len(payload) if declared is None else declared
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    mask_bit = 0x80 if masked else 0
    if length < 126:
        header = struct.pack("!BB", first, mask_bit | length)
    elif length < 65536:
        header = struct.pack("!BBH", first, mask_bit | 126, length)
    else:
        header = struct.pack("!BBQ", first, mask_bit | 127, length)
    if not masked:
        return header + payload
    mask = os.urandom(4)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


ABUSES = {
    "invalid UTF-8 text": raw_frame(b'{"type": "\xff\xfe"}'),
    "unmasked frame": raw_frame(b'{"type": "ping"}', masked=False),
    "reserved opcode": raw_frame(b"x", opcode=3),
    "RSV bits without extension": raw_frame(b'{"type": "ping"}', rsv=0b111),
    "continuation without start": raw_frame(b"x", opcode=0),
    "control frame over 125 bytes": raw_frame(b"x" * 200, opcode=9),
    "fragmented control frame": raw_frame(b"x", opcode=9, fin=False),
    "truncated frame then hang-up": raw_frame(b'{"type": "ping"}', declared=100)[:20],
    "oversized declared length": raw_frame(b"", declared=2**40),
}


def protocol_abuses(server, game_id: int, cookie: str) -> dict[str, str]:
    """Each abuse on a fresh raw socket: the server closes (or drops) the connection and stays up."""
    outcomes = {}
    for name, frame in ABUSES.items():
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        try:
            sock.sendall(upgrade_request(server, game_id, cookie))
            assert b" 101 " in read_until(sock, b"\r\n\r\n")
            sock.sendall(raw_frame(b'{"type": "hello", "since": 0}'))
            sock.sendall(frame)
            if name == "truncated frame then hang-up":
                outcomes[name] = "hung up"
                continue
            data = b""
            while True:  # until the server closes the connection
                try:
                    chunk = sock.recv(65536)
                except (ConnectionResetError, TimeoutError) as exc:
                    outcomes[name] = type(exc).__name__
                    break
                if not chunk:
                    closing = data.rfind(b"\x88")
                    code = struct.unpack("!H", data[closing + 2: closing + 4])[0] if closing >= 0 and \
                        len(data) >= closing + 4 else None
                    outcomes[name] = f"closed {code}"
                    break
                data += chunk
            assert outcomes[name] != "TimeoutError", f"{name}: the server kept the connection open"
        finally:
            sock.close()
        assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200, name
    return outcomes

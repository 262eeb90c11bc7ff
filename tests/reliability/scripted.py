"""A scripted client that plays one whole game over real WebSockets and survives server crashes.

One socket per seat.  The client picks a seat to act and a random legal move, sends it with a
fresh move id and waits for the ``ack``; then it waits until every seat's socket has seen that
version.  When the connection breaks (the server was killed) it reconnects by itself: each
socket sends ``hello`` with the last version it saw, the first frame back must be a full
``state``, and a move that was never acknowledged is sent again with the *same* id and version
(the server must answer with an ``ack`` either way: a retry of a committed move is idempotent).

Seats whose guest is ``None`` are played by bots (a bot seat, or a person's seat a bot took over):
the client has no socket there and waits for the bots' moves when only they are to act.

Everything it saw is kept for the checks: acknowledged move ids and versions, every version
seen in a state frame, each seat's log entries as received, the number of reconnects and
retries, and any anomaly in ``failures``.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.reliability.support import RemoteGuest

DISCONNECTS = (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError)


class ScriptedGame(threading.Thread):
    def __init__(self, guests: list[RemoteGuest | None], game_id: int, seed: int, max_moves: int,
                 think_seconds: float = 0.0, deadline_seconds: float = 120.0, server_down=None) -> None:
        super().__init__(name=f"game-{game_id}", daemon=True)
        self.guests = guests
        self.game_id = game_id
        self.random = random.Random(seed)
        self.max_moves = max_moves
        self.think = think_seconds
        self.deadline = time.monotonic() + deadline_seconds
        self.server_down = server_down or threading.Event()  # set by the killer while no server runs
        self.sockets: dict[int, object] = {}
        self.latest: dict[int, dict] = {}
        self.logs: dict[int, list[dict]] = {seat: [] for seat, guest in enumerate(guests) if guest is not None}
        self.with_bots = None in guests
        self.acks: dict[str, int] = {}
        self.seen_versions: set[int] = set()
        self.pending: tuple[int, dict] | None = None
        self.moves = 0
        self.stats = {"connections": 0, "connect_attempts": 0, "retried_committed": 0, "retried_uncommitted": 0,
                      "acks": 0}
        self.failures: list[str] = []
        self.finished = False

    # -- socket handling ----------------------------------------------------------------------

    def _absorb(self, seat: int, frame: dict) -> None:
        kind = frame.get("type")
        if kind == "state":
            previous = self.latest.get(seat)
            if previous is not None and frame["version"] < previous["version"]:
                self.failures.append(f"seat {seat} went back from version {previous['version']} to {frame['version']}")
            since = previous["version"] if previous is not None else 0
            for entry in frame["log"]:
                if entry["version"] <= since:
                    self.failures.append(f"seat {seat} was sent log entry {entry} again (had version {since})")
            self.logs[seat].extend(frame["log"])
            self.latest[seat] = frame
            self.seen_versions.add(frame["version"])
        elif kind == "error":
            self.failures.append(f"seat {seat}: unexpected error frame {frame}")
        elif kind not in ("presence", "ack", "pong"):
            self.failures.append(f"seat {seat}: unknown frame {frame}")

    def _recv(self, seat: int) -> dict:
        try:
            return json.loads(self.sockets[seat].recv(timeout=15))
        except TimeoutError:
            if not self.server_down.is_set():
                self.failures.append(f"seat {seat}: no frame within 15 s while the server was up")
            raise ConnectionResetError("timed out") from None

    def _drop(self) -> None:
        for ws in self.sockets.values():
            try:
                ws.close()
            except Exception:
                pass
        self.sockets = {}

    def _connect_all(self) -> None:
        self.stats["connect_attempts"] += 1
        for seat, guest in enumerate(self.guests):
            if guest is None:
                continue
            ws = guest.socket(self.game_id)
            self.sockets[seat] = ws
            since = self.latest[seat]["version"] if seat in self.latest else 0
            ws.send(json.dumps({"type": "hello", "since": since}))
            first = self._recv(seat)
            if first.get("type") != "state":
                self.failures.append(f"seat {seat}: first frame after (re)connect was {first}, not a state")
            self._absorb(seat, first)
        self.stats["connections"] += 1

    def _await_answer(self, seat: int, message: dict) -> dict:
        while True:
            frame = self._recv(seat)
            if frame.get("type") in ("ack", "error") and frame.get("id") == message["id"]:
                return frame
            self._absorb(seat, frame)

    def _sync(self, version: int) -> None:
        for seat in self.sockets:
            while seat not in self.latest or self.latest[seat]["version"] < version:
                self._absorb(seat, self._recv(seat))

    def _send(self, seat: int, message: dict) -> None:
        self.sockets[seat].send(json.dumps(message))
        answer = self._await_answer(seat, message)
        if answer["type"] != "ack":
            self.failures.append(f"move {message} answered {answer}")
            self.pending = None
            raise ConnectionResetError("refused move")  # resynchronise from scratch
        # With bots a simultaneous step may have moved on meanwhile (their moves do not make ours stale).
        if answer["version"] != message["version"] + 1 and not (self.with_bots and answer["version"] > message["version"]):
            self.failures.append(f"move for version {message['version']} acknowledged at {answer['version']}")
        self.acks[message["id"]] = answer["version"]
        self.stats["acks"] += 1
        self.pending = None
        self._sync(answer["version"])

    # -- the game -----------------------------------------------------------------------------

    def _step(self) -> bool:
        """One move; False once the game is over or the move budget is spent."""
        if not self.sockets:
            self._connect_all()
        if self.pending is not None:
            seat, message = self.pending
            committed = max(frame["version"] for frame in self.latest.values()) > message["version"]
            self.stats["retried_committed" if committed else "retried_uncommitted"] += 1
            self._send(seat, message)
        fresh = max(self.latest.values(), key=lambda frame: frame["version"])
        if fresh["status"] == "finished":
            self.finished = True
            return False
        acting = [seat for seat in fresh["to_act"] if seat in self.sockets]
        if self.moves >= self.max_moves and (not self.with_bots or set(acting) == set(fresh["to_act"])):
            return False  # (with bots: once they wait for us, so the last state seen is the server's)
        if not acting or self.moves >= self.max_moves:  # bots are to act: wait for their move
            watcher = next(iter(self.sockets))
            while self.latest[watcher]["version"] <= fresh["version"]:
                self._absorb(watcher, self._recv(watcher))
            return True
        seat = self.random.choice(acting)
        frame = self.latest[seat]
        if frame["version"] < fresh["version"] or seat not in frame["to_act"]:
            self._sync(fresh["version"])  # this seat's socket has not seen the newest state yet
            return True
        message = {"type": "move", "id": str(uuid.uuid4()), "version": frame["version"],
                   "move": self.random.choice(frame["legal"])}
        self.pending = (seat, message)
        self.moves += 1
        self._send(seat, message)
        if self.think:
            time.sleep(self.think)
        return True

    def run(self) -> None:
        try:
            while time.monotonic() < self.deadline:
                try:
                    if not self._step():
                        return
                except DISCONNECTS:
                    self._drop()
                    time.sleep(0.05)
            self.failures.append("the game did not get to its end before the deadline")
        except Exception as exc:  # any other surprise is a failure of the test, reported by the main thread
            self.failures.append(f"client crashed: {exc!r}")
        finally:
            self._drop()

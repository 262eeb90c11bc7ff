#!/usr/bin/env python
"""The move-pipeline load client: the load shape of ``bench/README.md`` (the project's LOAD_SHAPE) against a running Caravanserai.

Usage (normally called by ``bench/run.py``, which starts a fresh server per run)::

    python bench/load.py --url http://127.0.0.1:8000 --games 100 --moves 200 \\
        [--server-pid PID] [--pg-admin-url postgresql://postgres@127.0.0.1:5432/postgres --pg-db NAME]

It prints one JSON line with the run's figures on stdout (``--markdown`` adds a table row on
stderr).  The server must load the ``bench-board`` ruleset (``bench/bench_board.py``).

One run:

1. Setup (not timed, reported as ``setup_s``): at most ``--concurrency`` (32) requests in
   flight.  2G guest accounts, G tables of ``bench-board`` (seat 0 creates), join (seat 1),
   start; one WebSocket per player with its own session cookie, ``hello``, wait for every
   initial ``state``.
2. Play, timed from t0 (every player holds its initial state): seat 0 of every game sends its
   first move at once; then per game a closed loop with one move in flight: a player that
   receives a ``state`` in which it is to act records the latency of the opponent's move and at
   once sends its own, until the game has M acknowledged moves.  The mover's own copy of the
   state (and its ``ack``) is received, decoded and ignored.
3. Stop when all G x M moves are acknowledged or after ``--timeout`` (300 s: ``timed_out``).
   No reconnection; a dropped socket or an ``error`` frame is an error and ends that game.

Other games (``--ruleset``, ``--seats``, ``--spectators``; ``bench/games.py`` runs them): every seat
joins with its own account and socket, spectator sockets have no cookie and read every frame, and
the move after each acknowledged one is made by :func:`next_mover` (the first seat to act; the
opponent in ``bench-board``), which also acknowledges it; a game stops at its end or after M moves.
``--engine-share`` then times the rules engine's own calls per move (``bench/engine_share.py``).

Latency of a move: ``perf_counter`` just before the mover's ``send`` of the move frame (the
frame is already encoded) to just after the opponent's ``orjson.loads`` of the resulting
``state``; both in this one process.  One exception, counted separately as ``rate_limited``:
if the server answers a move with ``rate_limited`` (its per-socket frame budget), the same
frame is written again 50 ms later and the latency still runs from the first write.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import http.cookiejar
import json
import math
import os
import random
import socket
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

RULESET = "bench-board"
SESSION_COOKIE = "caravanserai_session"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
RATE_LIMIT_RETRY_S = 0.05
SETUP_RETRIES = 5  # a setup request answered 503 (busy, nothing changed) is sent again up to this many times


# -- moves --------------------------------------------------------------------------------------


def pick_move(legal: list[dict[str, Any]], form: str, rng: random.Random) -> dict[str, Any]:
    """A random move of a state frame's ``legal`` written in ``form`` (docs/api.md), without
    expanding the grouped form: one ``randrange`` over all moves, so both forms pick the same move
    (for ``bench-board``, ``randrange(1000)`` gives cell k as it did before the grouped form)."""
    if form == "moves":
        return legal[rng.randrange(len(legal))]
    index = rng.randrange(sum(group["count"] for group in legal))
    for group in legal:
        if index < group["count"]:
            return {"type": group["type"], **group["same"],
                    **{key: column[index] for key, column in group["columns"].items()}}
        index -= group["count"]
    raise AssertionError("unreachable: index below the total count")


# -- /proc ------------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, int, int] | None:
    """``(ppid, utime+stime, cutime+cstime)`` in clock ticks, or None if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2:].split()  # after "pid (comm) "
    # fields[0] is state (field 3); ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def _all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants that are alive now."""
    children: dict[int, list[int]] = {}
    for pid in _all_pids():
        info = _stat(pid)
        if info is not None:
            children.setdefault(info[0], []).append(pid)
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        if _stat(pid) is None:
            continue
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    """``pid -> utime+stime`` (ticks) of the given processes that are alive."""
    out = {}
    for pid in pids:
        info = _stat(pid)
        if info is not None:
            out[pid] = info[1]
    return out


def status_kb(pid: int, key: str) -> int:
    """A ``kB`` field of ``/proc/PID/status`` (``VmRSS``, ``VmHWM``), 0 if absent."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class ServerProbe:
    """CPU and memory of the server process tree (the serve process and any uvicorn workers)."""

    def __init__(self, root: int | None) -> None:
        self.root = root
        self.start: dict[int, int] = {}

    def pids(self) -> list[int]:
        return process_tree(self.root) if self.root else []

    def memory_mib(self, key: str) -> float | None:
        pids = self.pids()
        return round(sum(status_kb(pid, key) for pid in pids) / 1024, 1) if pids else None

    def mark(self) -> None:
        self.start = cpu_ticks(self.pids())

    def cpu_since_mark(self) -> float | None:
        if not self.root:
            return None
        now = cpu_ticks(self.pids())
        return sum(ticks - self.start.get(pid, 0) for pid, ticks in now.items()) / CLK_TCK


class PostgresProbe:
    """CPU of the Postgres backends serving the benchmark database, and of the whole cluster.

    ``backend_cpu``: backends whose ``datname`` is the benchmark database, polled every 0.2 s
    during play (a backend that exits between polls loses at most 0.2 s of its CPU).
    ``total_cpu``: every process under the postmaster plus the postmaster's reaped-children
    counters (so exited backends are counted too); includes WAL writer, checkpointer and any
    other database's clients.  Needs Postgres on this machine (``/proc`` visible), else None.
    """

    def __init__(self, admin_url: str, database: str) -> None:
        self.admin_url = admin_url
        self.database = database
        self.connection = None
        self.postmaster: int | None = None
        self.base_backends: dict[int, int] = {}
        self.seen_backends: dict[int, int] = {}
        self.base_total = 0
        self._poller: asyncio.Task | None = None

    async def open(self) -> None:
        import asyncpg

        self.connection = await asyncpg.connect(self.admin_url.replace("postgresql+asyncpg://", "postgresql://"))
        own = await self.connection.fetchval("SELECT pg_backend_pid()")
        info = _stat(own)
        self.postmaster = info[0] if info else None

    async def _backend_pids(self) -> list[int]:
        rows = await self.connection.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", self.database)
        return [row["pid"] for row in rows]

    def _total_ticks(self) -> int:
        if self.postmaster is None:
            return 0
        tree = process_tree(self.postmaster)
        own = _stat(self.postmaster)
        return sum(cpu_ticks(tree).values()) + (own[2] if own else 0)

    async def mark(self) -> None:
        self.base_backends = cpu_ticks(await self._backend_pids())
        self.seen_backends = dict(self.base_backends)
        self.base_total = self._total_ticks()
        self._poller = asyncio.create_task(self._poll())

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            self.seen_backends.update(cpu_ticks(await self._backend_pids()))

    async def finish(self) -> tuple[float | None, float | None]:
        if self._poller:
            self._poller.cancel()
            await asyncio.gather(self._poller, return_exceptions=True)  # its query must end first
        self.seen_backends.update(cpu_ticks(await self._backend_pids()))
        if self.postmaster is None:
            return None, None
        backends = sum(ticks - self.base_backends.get(pid, 0) for pid, ticks in self.seen_backends.items())
        return backends / CLK_TCK, (self._total_ticks() - self.base_total) / CLK_TCK

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()


def machine_busy_seconds() -> float:
    """CPU seconds all CPUs of the machine spent not idle since boot (``/proc/stat``)."""
    with open("/proc/stat") as handle:
        fields = [int(value) for value in handle.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    busy = sum(fields[:8]) - idle  # user nice system idle iowait irq softirq steal (guest is in user)
    return busy / CLK_TCK


def client_cpu() -> float:
    times = os.times()
    return times.user + times.system


# -- players and games ------------------------------------------------------------------------


@dataclass(eq=False)
class Player:
    """One socket: a seated player (``seat`` >= 0, own guest account) or a spectator (``seat`` None, no cookie)."""

    index: int
    seat: int | None
    game: "Game"
    cookie: str = ""
    ws: ClientConnection | None = None
    version: int = 0
    legal: list[Any] = field(default_factory=list)  # of the last state in which this player is to act


@dataclass(eq=False)
class Game:
    index: int
    table_id: int = 0
    players: list[Player] = field(default_factory=list)
    spectators: list[Player] = field(default_factory=list)
    acked: int = 0
    sent_at: int = 0
    pending: tuple[Player, str, str] | None = None  # (mover, frame text, move id)
    first_mover: int = 0  # the seat that makes the first move (the first seat to act at version 0)
    done: bool = False
    ended: bool = False  # the game itself ended (a result), before M moves
    failed: bool = False
    rng: random.Random = field(default_factory=random.Random)


def next_mover(to_act: list[int], mover: int, seats: int) -> int:
    """The seat whose client acknowledges a move and makes the next one: the first seat to act
    after it (``to_act`` is sorted), or, when nobody is to act (the game ended), the seat after the
    mover.  For ``bench-board`` that is always the opponent (LOAD_SHAPE.md); in games where a seat
    moves several times in a row (Through the Desert's two camels, Heroes' actions) it is the mover
    itself, whose own copy of the state is then the acknowledgement; in a simultaneous step
    (Nimalia's draft) the seats to act move one at a time, lowest first, one move in flight per game.
    """
    return to_act[0] if to_act else (mover + 1) % seats


class LoadRun:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.url = args.url.rstrip("/")
        self.ws_url = "ws" + self.url[len("http"):]
        self.ruleset: str = args.ruleset
        self.seats: int = args.seats
        self.games = [Game(index=i, rng=random.Random(args.seed * 1_000_003 + i)) for i in range(args.games)]
        for game in self.games:
            game.players = [Player(index=self.seats * game.index + seat, seat=seat, game=game)
                            for seat in range(self.seats)]
            game.spectators = [Player(index=-1 - (args.spectators * game.index + k), seat=None, game=game)
                               for k in range(args.spectators)]
        self.players = [player for game in self.games for player in game.players]
        self.spectators = [spectator for game in self.games for spectator in game.spectators]
        self.latencies: list[int] = []  # ns
        self.errors: Counter[str] = Counter()
        self.rate_limited = 0
        self.unexpected = 0
        self.finished = 0
        self.all_done = asyncio.Event()
        self.t0 = 0
        self.last_ack = 0
        self.stopping = False
        self.frame_bytes = {"to_act": [0, 0, 0], "other": [0, 0, 0], "spectator": [0, 0, 0]}  # [sum, count, max]
        self.games_ended = 0  # games that reached their end (a result) within M moves
        self.setup_times: dict[str, float] = {}
        self.setup_retries = 0  # setup requests sent again after a 503 (not timed; reported)

    # -- setup ----------------------------------------------------------------------------------

    async def setup(self) -> None:
        """The untimed setup: accounts, tables, seats and start (:meth:`setup_lobby`), then the sockets."""
        await self.setup_lobby()
        await self.open_sockets()

    async def setup_lobby(self) -> None:
        """Guest accounts, tables, joins and starts, at most ``--concurrency`` requests in flight."""
        limit = asyncio.Semaphore(self.args.concurrency)
        jar = http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        async with httpx.AsyncClient(base_url=self.url, cookies=jar, trust_env=False, timeout=120.0,
                                     limits=httpx.Limits(max_connections=self.args.concurrency,
                                                         max_keepalive_connections=self.args.concurrency)) as http_client:

            async def call(method: str, path: str, player: Player | None, body: Any = None) -> httpx.Response:
                headers = {"Cookie": f"{SESSION_COOKIE}={player.cookie}"} if player and player.cookie else {}
                for attempt in range(SETUP_RETRIES + 1):
                    async with limit:
                        response = await http_client.request(method, path, json=body, headers=headers)
                    # 503 "unavailable": no database connection to spare in time, and the request changed
                    # nothing (docs/api.md), so the same request again is safe; seen on a loaded machine.
                    if response.status_code != 503 or attempt == SETUP_RETRIES:
                        break
                    self.setup_retries += 1
                    await asyncio.sleep(0.5 * (attempt + 1))
                if response.status_code >= 400:
                    raise RuntimeError(f"{method} {path} -> {response.status_code}: {response.text[:300]}")
                return response

            listed = [ruleset["name"] for ruleset in (await call("GET", "/api/rulesets", None)).json()]
            self.listed = self.ruleset in listed

            async def guest(player: Player) -> None:
                response = await call("POST", "/api/auth/guest", None, {"name": f"bench{player.index}"})
                player.cookie = response.cookies.get(SESSION_COOKIE) or ""
                if not player.cookie:
                    raise RuntimeError("guest login set no session cookie")

            async def create(game: Game) -> None:
                response = await call("POST", "/api/tables", game.players[0],
                                      {"ruleset": self.ruleset, "seats": self.seats, "options": {}, "private": False})
                game.table_id = response.json()["id"]

            async def join(game: Game) -> None:
                for player in game.players[1:]:  # one after the other: each join changes the table
                    await call("POST", f"/api/tables/{game.table_id}/join", player, {"seat": player.seat})

            async def start(game: Game) -> None:
                await call("POST", f"/api/tables/{game.table_id}/start", game.players[0])

            for phase, step, items in (("guests", guest, self.players), ("tables", create, self.games),
                                       ("join", join, self.games), ("start", start, self.games)):
                began = time.perf_counter()
                await asyncio.gather(*(step(item) for item in items))
                self.setup_times[phase] = round(time.perf_counter() - began, 3)

    async def open_sockets(self, players: list[Player] | None = None) -> None:
        """One socket per player and spectator (or per ``players``), its ``hello`` and initial ``state``."""
        limit = asyncio.Semaphore(self.args.concurrency)
        hello = orjson.dumps({"type": "hello", "since": 0, "legal_form": self.args.legal_form}).decode()

        async def open_socket(player: Player) -> None:
            async with limit:
                player.ws = await connect(
                    f"{self.ws_url}/ws/games/{player.game.table_id}",
                    additional_headers={"Cookie": f"{SESSION_COOKIE}={player.cookie}"} if player.cookie else {},
                    compression="deflate" if self.args.compression == "deflate" else None,
                    proxy=None, open_timeout=120, ping_interval=None, close_timeout=5, max_size=2**22)
                await player.ws.send(hello)
                while True:
                    frame = orjson.loads(await asyncio.wait_for(player.ws.recv(), 120))
                    if frame["type"] == "state":
                        break
                    if frame["type"] == "error":
                        raise RuntimeError(f"hello answered by error {frame}")
                if frame["seat"] != player.seat or frame["version"] != 0:
                    raise RuntimeError(f"unexpected initial state: seat {frame['seat']} version {frame['version']}")
                player.version = 0
                player.legal = frame["legal"]
                if frame["to_act"]:
                    player.game.first_mover = frame["to_act"][0]

        began = time.perf_counter()
        await asyncio.gather(*(open_socket(player) for player in
                               (self.players + self.spectators if players is None else players)))
        self.setup_times["sockets"] = round(time.perf_counter() - began, 3)

    # -- play -----------------------------------------------------------------------------------

    async def send_move(self, player: Player) -> None:
        game = player.game
        move_id = str(uuid.uuid4())
        text = orjson.dumps({"type": "move", "id": move_id, "version": player.version,
                             "move": pick_move(player.legal, self.args.legal_form, game.rng)}).decode()
        game.pending = (player, text, move_id)
        game.sent_at = time.perf_counter_ns()
        await player.ws.send(text)

    def fail(self, game: Game, code: str) -> None:
        self.errors[code] += 1
        if not game.done:
            game.done = game.failed = True
            self._count_finished()

    def _count_finished(self) -> None:
        self.finished += 1
        if self.finished == len(self.games):
            self.all_done.set()

    async def _resend(self, game: Game, player: Player, text: str) -> None:
        await asyncio.sleep(RATE_LIMIT_RETRY_S)
        if not game.done and not self.stopping:
            await player.ws.send(text)

    async def reader(self, player: Player) -> None:
        game = player.game
        moves = self.args.moves
        sizes = self.frame_bytes
        seats = self.seats
        try:
            async for message in player.ws:
                frame = orjson.loads(message)
                now = time.perf_counter_ns()
                kind = frame["type"]
                if kind == "state":
                    version = frame["version"]
                    if version <= player.version:
                        continue
                    player.version = version
                    to_act = frame["to_act"]
                    acting = player.seat in to_act
                    bucket = sizes["to_act" if acting else "other" if player.seat is not None else "spectator"]
                    bucket[0] += len(message)
                    bucket[1] += 1
                    if len(message) > bucket[2]:
                        bucket[2] = len(message)
                    pending = game.pending
                    if acting:
                        player.legal = frame["legal"]
                    if (game.done or pending is None or player.seat is None
                            or next_mover(to_act, pending[0].seat, seats) != player.seat):
                        continue  # a copy for someone else to act on (e.g. the mover's own): received and ignored
                    if version != game.acked + 1:
                        self.unexpected += 1
                    self.latencies.append(now - game.sent_at)
                    self.last_ack = now
                    game.acked += 1
                    game.pending = None
                    if not to_act:  # the game ended (its result is in this frame)
                        game.ended = True
                        self.games_ended += 1
                    if game.acked >= moves or game.ended:
                        game.done = True
                        self._count_finished()
                    else:
                        await self.send_move(player)
                elif kind == "error":
                    pending = game.pending
                    if frame.get("code") == "rate_limited" and pending and pending[0] is player:
                        self.rate_limited += 1
                        asyncio.get_running_loop().create_task(self._resend(game, player, pending[1]))
                    else:
                        self.fail(game, frame.get("code") or "error")
                # "ack" (and anything else) is ignored: the opponent's state is the acknowledgement
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug in this client must not hang the run
            print(f"reader {player.index}: {exc!r}", file=sys.stderr)
            self.fail(game, "client_exception")
            return
        if not self.stopping and not game.done:
            self.fail(game, "socket_closed")

    async def play(self, server: ServerProbe, pg: PostgresProbe | None) -> dict[str, Any]:
        readers = [asyncio.create_task(self.reader(player)) for player in self.players + self.spectators]
        server.mark()
        if pg:
            await pg.mark()
        profiler = await self._start_profiler(server)
        cpu0 = client_cpu()
        machine0 = machine_busy_seconds()
        self.t0 = time.perf_counter_ns()
        for game in self.games:
            await self.send_move(game.players[game.first_mover])
        timed_out = False
        try:
            await asyncio.wait_for(self.all_done.wait(), timeout=self.args.timeout)
        except asyncio.TimeoutError:
            timed_out = True
        figures: dict[str, Any] = {
            "machine_busy_cpu_s": round(machine_busy_seconds() - machine0, 2),
            "client_cpu_s": round(client_cpu() - cpu0, 2),
            "server_cpu_s": _round(server.cpu_since_mark(), 2),
            "server_peak_rss_mib": server.memory_mib("VmHWM"),
            "server_processes": len(server.pids()) or None,
        }
        if pg:
            backend_cpu, total_cpu = await pg.finish()
            figures["pg_backend_cpu_s"] = _round(backend_cpu, 2)
            figures["pg_total_cpu_s"] = _round(total_cpu, 2)
        if profiler is not None:
            await self._stop_profiler(profiler)
        self.stopping = True
        await asyncio.wait([asyncio.create_task(p.ws.close()) for p in self.players + self.spectators if p.ws],
                           timeout=30)
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        figures["timed_out"] = timed_out
        return figures

    async def _start_profiler(self, server: ServerProbe):
        if not self.args.profile_out or not server.root:
            return None
        command = ["py-spy", "record", "--pid", str(server.root), "--rate", str(self.args.profile_rate),
                   "--format", self.args.profile_format, "-o", self.args.profile_out, "--subprocesses", "--nonblocking"]
        if self.args.profile_gil:
            command.append("--gil")  # only samples holding the GIL: Python CPU, not waits
        process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=sys.stderr)
        await asyncio.sleep(0.5)  # let py-spy attach before the first move
        return process

    async def _stop_profiler(self, process) -> None:
        process.send_signal(2)  # SIGINT: py-spy writes its output and exits
        try:
            await asyncio.wait_for(process.wait(), 60)
        except asyncio.TimeoutError:
            process.kill()


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def nearest_rank(sorted_values: list[int], percent: float) -> int:
    """The nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(percent / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server = ServerProbe(args.server_pid)
    pg = PostgresProbe(args.pg_admin_url, args.pg_db) if args.pg_db else None
    load = LoadRun(args)
    result: dict[str, Any] = {
        "bench": "move-pipeline", "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": args.machine or socket.gethostname(), "cpus": os.cpu_count(), "label": args.label,
        "ruleset": args.ruleset, "seats": args.seats, "spectators_per_game": args.spectators,
        "games": args.games, "moves_per_game": args.moves, "compression": args.compression,
        "legal_form": args.legal_form, "server_idle_rss_mib": server.memory_mib("VmRSS"),
        "loadavg_1m_before": round(os.getloadavg()[0], 2),
    }
    if pg:
        await pg.open()
    try:
        began = time.perf_counter()
        await load.setup()
        result["setup_s"] = round(time.perf_counter() - began, 2)
        result["setup_phases_s"] = load.setup_times
        result["setup_retries"] = load.setup_retries
        result["ruleset_listed_in_lobby"] = load.listed
        figures = await load.play(server, pg)
    finally:
        if pg:
            await pg.close()
    acked = len(load.latencies)
    play_ns = (load.last_ack - load.t0) if acked else 0
    ordered = sorted(load.latencies)
    ms = 1e-6
    result.update({
        "expected": args.games * args.moves,
        "acked": acked,
        "timed_out": figures.pop("timed_out"),
        "play_s": round(play_ns / 1e9, 3),
        "throughput_mps": round(acked / (play_ns / 1e9), 1) if play_ns else 0.0,
        "latency_ms": {
            "p50": round(nearest_rank(ordered, 50) * ms, 2) if ordered else None,
            "p95": round(nearest_rank(ordered, 95) * ms, 2) if ordered else None,
            "p99": round(nearest_rank(ordered, 99) * ms, 2) if ordered else None,
            "max": round(ordered[-1] * ms, 2) if ordered else None,
            "mean": round(sum(ordered) / len(ordered) * ms, 2) if ordered else None,
        },
        **figures,
        "errors": sum(load.errors.values()),
        "error_codes": dict(load.errors),
        "games_failed": sum(game.failed for game in load.games),
        "rate_limited": load.rate_limited,
        "out_of_order_states": load.unexpected,
        "games_ended": load.games_ended,
        "state_frame_bytes": {name: round(total / count) if count else None
                              for name, (total, count, _) in load.frame_bytes.items()},
        "state_frame_bytes_max": {name: biggest or None for name, (_, _, biggest) in load.frame_bytes.items()},
    })
    if result.get("machine_busy_cpu_s") is not None:
        ours = sum(result.get(key) or 0 for key in ("server_cpu_s", "client_cpu_s", "pg_backend_cpu_s"))
        result["other_cpu_s"] = round(result["machine_busy_cpu_s"] - ours, 2)
    if result.get("server_cpu_s") is not None and play_ns:
        result["server_cpu_per_move_ms"] = round(result["server_cpu_s"] / acked * 1000, 3) if acked else None
    if result.get("pg_backend_cpu_s") is not None and acked:
        result["pg_cpu_per_move_ms"] = round(result["pg_backend_cpu_s"] / acked * 1000, 3)
    if args.engine_share and args.pg_db:
        import engine_share

        base, _, _ = args.pg_admin_url.rpartition("/")
        share = await engine_share.measure(f"{base}/{args.pg_db}", args.ruleset, args.extra_rulesets,
                                           spectators=args.spectators > 0)
        result["engine_us_per_move"] = share
        if share.get("moves") and result.get("server_cpu_per_move_ms") is not None:
            # the platform's cost per move: what the server spent beyond the rules engine's own calls
            result["platform_cpu_per_move_ms"] = round(result["server_cpu_per_move_ms"] - share["total_us"] / 1000, 3)
    return result


MD_HEADER = ("| commit | backend | G | M | run | moves/s | p50 ms | p95 ms | p99 ms | max ms | mean ms | server CPU s | server CPU ms/move | "
             "PG CPU s (backends / all) | client CPU s | other CPU s | peak RSS MiB | idle RSS MiB | errors | timed out |\n"
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def markdown_row(result: dict[str, Any]) -> str:
    lat = result.get("latency_ms") or {}

    def f(value, digits=1):
        return "-" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)

    pg = "-" if result.get("pg_backend_cpu_s") is None else f"{result['pg_backend_cpu_s']:.1f} / {result['pg_total_cpu_s']:.1f}"
    errors = str(result.get("errors", "-"))
    if result.get("rate_limited"):
        errors += f" (+{result['rate_limited']} rate_limited retries)"
    if result.get("setup_error"):
        errors = "setup failed: " + result["setup_error"][:60]
    commit = (result.get("commit") or "-") + ("+" if result.get("dirty_files") else "")
    return (f"| {commit} | {result.get('backend', result.get('label') or '-')} | {result['games']} | {result['moves_per_game']} | "
            f"{result.get('rep', '-')} | {f(result.get('throughput_mps'), 0)} | {f(lat.get('p50'), 1)} | "
            f"{f(lat.get('p95'), 1)} | {f(lat.get('p99'), 1)} | {f(lat.get('max'), 1)} | {f(lat.get('mean'), 1)} | "
            f"{f(result.get('server_cpu_s'), 1)} | {f(result.get('server_cpu_per_move_ms'), 2)} | {pg} | {f(result.get('client_cpu_s'), 1)} | "
            f"{f(result.get('other_cpu_s'), 1)} | "
            f"{f(result.get('server_peak_rss_mib'), 0)} | {f(result.get('server_idle_rss_mib'), 0)} | {errors} | "
            f"{'yes' if result.get('timed_out') else 'no'} |")


def add_run_arguments(parser: argparse.ArgumentParser, compression: str = "deflate") -> None:
    """The options of one run, shared with the Node client's wrapper (``node_load.py``)."""
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--games", "-G", type=int, required=True)
    parser.add_argument("--moves", "-M", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=300.0, help="play time limit in seconds (timed_out)")
    parser.add_argument("--concurrency", type=int, default=32, help="requests in flight during setup")
    parser.add_argument("--compression", choices=("deflate", "none"), default=compression,
                        help=f"offer permessage-deflate like a browser does, or not (default {compression})")
    parser.add_argument("--legal-form", choices=("grouped", "moves"), default="grouped",
                        help="how the state frames write legal, asked in the hello (docs/api.md; default grouped)")
    parser.add_argument("--ruleset", default=RULESET, help=f"the game played (default {RULESET})")
    parser.add_argument("--seats", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--spectators", type=int, default=0,
                        help="spectator sockets per game (no cookie; they read every frame; default 0)")
    parser.add_argument("--server-pid", type=int, help="root pid of the server (CPU, RSS from /proc)")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--pg-db", help="the server's Postgres database (enables the Postgres CPU figures)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--label", help="free text kept in the JSON line")
    parser.add_argument("--machine", help="machine name in the JSON line (default: hostname)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser)
    parser.add_argument("--profile-out", help="run py-spy record on the server during play, writing here")
    parser.add_argument("--profile-format", default="raw", choices=("raw", "flamegraph", "speedscope"))
    parser.add_argument("--profile-rate", type=int, default=100)
    parser.add_argument("--profile-gil", action="store_true", help="py-spy --gil: sample only the GIL holder")
    parser.add_argument("--markdown", action="store_true", help="also print a markdown table row on stderr")
    parser.add_argument("--engine-share", action="store_true",
                        help="after play, replay the run's games from its database in this process and time the "
                             "ruleset's own calls per move (bench/engine_share.py; needs --pg-db)")
    parser.add_argument("--extra-rulesets", default='["bench_board:BenchBoard"]', type=json.loads,
                        help="JSON list of extra ruleset import paths for --engine-share (as the server's setting)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        import uvloop  # the server runs on uvloop too (uvicorn[standard]); keeps the client lean

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(run(args))
    print(json.dumps(result), flush=True)
    if args.markdown:
        print(MD_HEADER + "\n" + markdown_row(result), file=sys.stderr)
    sys.exit(0)


if __name__ == "__main__":
    main()

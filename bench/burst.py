#!/usr/bin/env python
"""Spectator burst (issue 17, item 1): many sockets arrive within seconds while moves flow.

One command (from the repository root)::

    python bench/burst.py --spectators 2000 --games 1            # 2,000 sockets on one game in 10 s
    python bench/burst.py --spectators 5000 --games 100          # 5,000 over 100 games in 10 s

It creates a fresh Postgres database, starts ``python -m app.cli serve`` with the default settings
(the default pool: 5 + 5 connections and 10 for the move writer) and the ``bench-board`` ruleset,
and sets up ``--games`` started games of two guests each.  The two players of the first
``--moving-games`` games (all by default) then play without end, each move ``--think`` seconds
after the state that asks for it.  One second later the spectators arrive, evenly spread over
``--window`` seconds, each on game ``i % games``: it opens a socket (no cookie), says
``hello since=0``, waits for its ``state`` and then reads every frame until the end
(``--settle`` seconds after the last arrival).

It prints one JSON object: how many spectators got their ``state`` (and how long that took),
handshakes refused (by HTTP status), sockets dropped without a close frame or closed by the
server (by close code), the latency of the moves made while the spectators arrived (move frame
to its ``ack``, and to the opponent's ``state``) against the moves before, and what the server
log holds: tracebacks, "Task exception was never retrieved", pool time-outs.  ``--markdown``
adds a table row on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from load import CELLS, CLK_TCK, RULESET, SESSION_COOKIE, client_cpu, cpu_ticks, machine_busy_seconds, \
    nearest_rank, process_tree  # noqa: E402
from run import Server, create_pg_database, drop_pg_database, git_info  # noqa: E402

LOG_PATTERNS = {"tracebacks": "Traceback (most recent call last)",
                "task_exception_never_retrieved": "Task exception was never retrieved",
                "pool_timeouts": "QueuePool limit",
                "http_500": '" 500'}


def percentiles(values_ns: list[int]) -> dict[str, float | None]:
    """p50/p99/max of durations in ns, in ms."""
    ordered = sorted(values_ns)
    if not ordered:
        return {"n": 0, "p50": None, "p99": None, "max": None}
    return {"n": len(ordered), "p50": round(nearest_rank(ordered, 50) / 1e6, 1),
            "p99": round(nearest_rank(ordered, 99) / 1e6, 1), "max": round(ordered[-1] / 1e6, 1)}


class Burst:
    def __init__(self, args: argparse.Namespace, url: str, server_pid: int | None = None) -> None:
        self.args = args
        self.server_pid = server_pid
        self.url = url
        self.ws_url = "ws" + url[len("http"):]
        self.tables: list[int] = []
        self.cookies: list[tuple[str, str]] = []
        self.stopping = False
        self.window: tuple[int, int] = (0, 0)  # ns: first and last arrival
        self.moves: list[tuple[int, int, int | None]] = []  # (sent, ack latency, seen-by-opponent latency)
        self.move_errors: Counter[str] = Counter()
        self.served: list[int] = []  # ns from the connect to the first state
        self.refused: Counter[str] = Counter()
        self.closed: Counter[str] = Counter()
        self.error_frames: Counter[str] = Counter()
        self.frames = 0
        self.open: set = set()

    async def setup(self) -> None:
        jar = http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        limit = asyncio.Semaphore(16)
        async with httpx.AsyncClient(base_url=self.url, cookies=jar, trust_env=False, timeout=120) as client:
            async def call(method: str, path: str, cookie: str | None, body: Any = None) -> httpx.Response:
                async with limit:
                    answer = await client.request(method, path, json=body,
                                                  headers={"Cookie": f"{SESSION_COOKIE}={cookie}"} if cookie else {})
                if answer.status_code >= 400:
                    raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
                return answer

            async def one_game(index: int) -> tuple[int, tuple[str, str]]:
                cookies = []
                for seat in (0, 1):
                    answer = await call("POST", "/api/auth/guest", None, {"name": f"burst{index}s{seat}"})
                    cookies.append(answer.cookies[SESSION_COOKIE])
                table = (await call("POST", "/api/tables", cookies[0], {"ruleset": RULESET, "seats": 2})).json()["id"]
                await call("POST", f"/api/tables/{table}/join", cookies[1], {"seat": 1})
                await call("POST", f"/api/tables/{table}/start", cookies[0])
                return table, tuple(cookies)

            made = await asyncio.gather(*(one_game(index) for index in range(self.args.games)))
        self.tables = [table for table, _ in made]
        self.cookies = [cookies for _, cookies in made]

    # -- the players ----------------------------------------------------------------------------

    async def play(self, game: int) -> None:
        """Both seats of one game, moving ``--think`` s after each state that asks them to."""
        table = self.tables[game]
        sockets = []
        for seat in (0, 1):
            ws = await connect(f"{self.ws_url}/ws/games/{table}", additional_headers={
                "Cookie": f"{SESSION_COOKIE}={self.cookies[game][seat]}"}, open_timeout=60, ping_interval=None,
                max_size=2**23, compression=None)
            await ws.send('{"type":"hello","since":0}')
            sockets.append(ws)
        rng = random.Random(game)
        moves: dict[int, list] = {}  # the version a move makes -> [sent ns, ack latency, seen-by-opponent latency]

        def settle(version: int) -> None:
            entry = moves.get(version)
            if entry is not None and entry[1] is not None and entry[2] is not None:
                self.moves.append(tuple(moves.pop(version)))

        async def seat_loop(seat: int) -> None:
            ws = sockets[seat]
            version = -1
            async for message in ws:
                frame = orjson.loads(message)
                now = time.perf_counter_ns()
                if frame["type"] == "ack":
                    entry = moves.get(frame["version"])
                    if entry is not None:
                        entry[1] = now - entry[0]
                        settle(frame["version"])
                elif frame["type"] == "error":
                    self.move_errors[frame["code"]] += 1
                elif frame["type"] == "state" and frame["version"] > version:
                    version = frame["version"]
                    if seat in frame["to_act"]:
                        entry = moves.get(version)
                        if entry is not None:
                            entry[2] = now - entry[0]
                            settle(version)
                        if self.stopping:
                            continue
                        await asyncio.sleep(self.args.think)
                        moves[version + 1] = [time.perf_counter_ns(), None, None]
                        await ws.send(orjson.dumps({"type": "move", "id": str(uuid.uuid4()), "version": version,
                                                    "move": {"type": "place", "cell": rng.randrange(CELLS)}}).decode())

        try:
            await asyncio.gather(*(seat_loop(seat) for seat in (0, 1)))
        except ConnectionClosed as closed:
            if not self.stopping:
                self.move_errors[f"player socket closed {closed.rcvd.code if closed.rcvd else 'without a close frame'}"] += 1
        finally:
            for ws in sockets:
                await ws.close()

    # -- the spectators -------------------------------------------------------------------------

    async def spectator(self, index: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        table = self.tables[index % len(self.tables)]
        began = time.perf_counter_ns()
        try:
            ws = await connect(f"{self.ws_url}/ws/games/{table}", open_timeout=120, ping_interval=None,
                               max_size=2**23, compression=None)
        except InvalidStatus as exc:
            self.refused[f"HTTP {exc.response.status_code}"] += 1
            return
        except Exception as exc:
            self.refused[type(exc).__name__] += 1
            return
        self.open.add(ws)
        try:
            await ws.send('{"type":"hello","since":0}')
            greeted = False
            async for message in ws:
                if not greeted:
                    frame = orjson.loads(message)
                    if frame["type"] == "state":
                        greeted = True
                        self.served.append(time.perf_counter_ns() - began)
                    elif frame["type"] == "error":
                        self.error_frames[frame["code"]] += 1
                self.frames += 1
        except ConnectionClosed as closed:
            if not self.stopping:
                self.closed["without a close frame" if closed.rcvd is None else f"code {closed.rcvd.code}"] += 1
        finally:
            self.open.discard(ws)

    async def run(self) -> dict[str, Any]:
        await self.setup()
        moving = self.args.moving_games or len(self.tables)
        players = [asyncio.create_task(self.play(game)) for game in range(min(moving, len(self.tables)))]
        await asyncio.sleep(2.0)  # moves flow before the first spectator
        profiler = None
        if self.args.profile and self.server_pid:
            profiler = await asyncio.create_subprocess_exec(
                "py-spy", "record", "--pid", str(self.server_pid), "--rate", "200", "--format", "raw", "--nonblocking",
                "--subprocesses", "-o", str(self.args.profile), stdout=asyncio.subprocess.DEVNULL)
        server_pids = process_tree(self.server_pid) if self.server_pid else []
        cpu0 = (sum(cpu_ticks(server_pids).values()), client_cpu(), machine_busy_seconds(), time.monotonic())
        start = time.monotonic() + 0.5
        count = self.args.spectators
        arrivals = [start + self.args.window * index / max(1, count - 1) for index in range(count)]
        spectators = [asyncio.create_task(self.spectator(index, at)) for index, at in enumerate(arrivals)]
        self.window = (time.perf_counter_ns() + 500_000_000, time.perf_counter_ns() + int((0.5 + self.args.window) * 1e9))
        await asyncio.sleep(max(0.0, arrivals[-1] - time.monotonic()) + self.args.settle)
        give_up = time.monotonic() + 60  # a starved machine: every spectator still gets its state, or fails
        while (len(self.served) + sum(self.refused.values()) + sum(self.closed.values()) + sum(self.error_frames.values())
               < count and time.monotonic() < give_up):
            await asyncio.sleep(0.2)
        elapsed = time.monotonic() - cpu0[3]
        cpu = {"seconds": round(elapsed, 1),
               "server_cores": round((sum(cpu_ticks(server_pids).values()) - cpu0[0]) / CLK_TCK / elapsed, 2),
               "client_cores": round((client_cpu() - cpu0[1]) / elapsed, 2),
               "machine_busy_cores": round((machine_busy_seconds() - cpu0[2]) / elapsed, 2)}
        if profiler is not None:
            profiler.send_signal(2)  # SIGINT: py-spy writes its output
            await profiler.wait()
        self.stopping = True
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        if self.open:
            await asyncio.wait([asyncio.create_task(ws.close()) for ws in list(self.open)], timeout=30)
        done, late = await asyncio.wait(spectators, timeout=10)
        for task in late:
            task.cancel()
        first, last = self.window
        during = [(ack, seen) for sent, ack, seen in self.moves if first <= sent <= last]
        before = [(ack, seen) for sent, ack, seen in self.moves if sent < first]
        return {
            "spectators": count, "games": len(self.tables), "moving_games": len(players), "window_s": self.args.window,
            "served": len(self.served), "time_to_state_ms": percentiles(self.served),
            "handshakes_refused": dict(self.refused), "error_frames": dict(self.error_frames),
            "dropped_or_closed": dict(self.closed), "not_closed_at_teardown": len(late),
            "frames_to_spectators": self.frames,
            "moves_during_arrivals": len(during),
            "move_ack_ms_during": percentiles([ack for ack, _ in during if ack is not None]),
            "move_seen_ms_during": percentiles([seen for _, seen in during if seen is not None]),
            "move_ack_ms_before": percentiles([ack for ack, _ in before if ack is not None]),
            "move_errors": dict(self.move_errors),
            "cpu_while_arriving": cpu,
        }


def log_findings(text: str) -> dict[str, int]:
    return {name: text.count(pattern) for name, pattern in LOG_PATTERNS.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--moving-games", type=int, default=0, help="games whose players move (0: all)")
    parser.add_argument("--window", type=float, default=10.0, help="seconds over which the spectators arrive")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the last arrival")
    parser.add_argument("--think", type=float, default=0.25, help="seconds between a state and the move it asks for")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--keep-log", type=Path, help="copy the server log here")
    parser.add_argument("--profile", type=Path, help="py-spy raw profile of the server while the spectators arrive")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)

    name = f"caravanserai_burst_{int(time.time())}"
    database_url = create_pg_database(args.pg_admin_url, name)
    scratch = Path(tempfile.mkdtemp(prefix="burst-"))
    server = Server(database_url, scratch, args.workers, dict(item.split("=", 1) for item in args.server_env))
    try:
        server.start()
        try:
            import uvloop
            uvloop.install()
        except ImportError:
            pass
        result = asyncio.run(Burst(args, server.url, server.process.pid).run())
    finally:
        server.stop()
        drop_pg_database(args.pg_admin_url, name)
    log_text = server.log_path.read_text(errors="replace")
    if args.keep_log:
        args.keep_log.write_text(log_text)
    result["server_log"] = log_findings(log_text)
    result.update(git_info())
    print(json.dumps(result))
    if args.markdown:
        print(f"| {result['spectators']} | {result['games']} | {result['served']} | "
              f"{result['time_to_state_ms']['p99']} | {sum(result['handshakes_refused'].values())} | "
              f"{sum(result['dropped_or_closed'].values())} | {result['move_ack_ms_during']['p99']} | "
              f"{result['move_seen_ms_during']['p99']} | {result['server_log']['tracebacks']} |", file=sys.stderr)


if __name__ == "__main__":
    main()

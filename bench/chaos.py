#!/usr/bin/env python
"""Chaos run: two server instances on one Postgres, kill -9s, hostile clients, for minutes.

One command (from the repository root)::

    python bench/chaos.py --seconds 180

What runs at once, all on loopback:

* two ``caravanserai serve`` instances (``tests/support/server.py``) on one fresh Postgres database;
  every ``--kill-every`` seconds (jittered) one of them is killed with SIGKILL and restarted;
* ``--players`` threads, each playing whole games one after the other with the suite's scripted
  client (``tests/reliability/scripted.py``: one socket per seat, random legal moves, reconnect and
  retry with the same move id); every socket and request goes to an instance that is up, chosen at
  random each time, so the players of one game are spread over both.  Games are Through the Desert
  with a bot seat and a seat a bot took over, Nimalia and Nomadi with a takeover;
* ``--spectators`` sockets watching the running games, reconnecting to any instance when dropped,
  checking that versions never go back and no log entry comes twice;
* a session prober: a move sent through one instance right after a leave, a resign or a logout
  through the other (none may be committed), and the logged-out sockets must close with 4401;
* hostile clients: fuzzed frames (``tests/reliability/test_ws_fuzz.py``), sockets for ids that name
  no table, malformed REST requests.

At the end it prints one JSON object: moves acknowledged and lost (an acknowledged move id not
stored at its version), games checked (gapless log that replays to the stored snapshot), sockets
dropped without a close frame while their instance was up, close codes, HTTP 5xx answers, moves
accepted after a leave/resign/logout, and the tracebacks in the server logs.  It exits with
status 1 when a server's output holds any "Task was destroyed but it is pending!" line (a task,
such as a socket's writer, left running when its event loop closed) or any move was lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from app.db.migrate import upgrade_to_head  # noqa: E402
from run import create_pg_database, drop_pg_database  # noqa: E402
from tests.conftest import TOY_RULESETS  # noqa: E402
from tests.reliability.scripted import DISCONNECTS, ScriptedGame  # noqa: E402
from tests.reliability.support import RemoteGuest, check_stored_game, read_game, start_table_with_bots  # noqa: E402
from tests.reliability.test_ws_fuzz import MAX_PAYLOAD, fuzz_frame  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402

GAMES = [("through-the-desert", {1}, {2}, {}), ("nimalia", set(), {1}, {}), ("nomadi", set(), {1}, {"turn_limit": 12})]
LOG_PATTERNS = {"tracebacks": "Traceback (most recent call last)",
                "task_exception_never_retrieved": "Task exception was never retrieved",
                "pool_timeouts": "QueuePool limit",
                "tasks_destroyed_pending": "Task was destroyed but it is pending!"}
FATAL_LOG_PATTERNS = ("tasks_destroyed_pending",)
"""Server log lines that fail the run whatever else happened."""


class Cluster:
    """The instances, which of them are up, and the killer."""

    def __init__(self, database_url: str, scratch: Path) -> None:
        env = {"CARAVANSERAI_BOT_DELAY_SECONDS": "0.05"}
        self.servers = [ServerProcess(database_url, extra_rulesets=TOY_RULESETS, log_path=scratch / f"instance{i}.log",
                                      env=env) for i in (1, 2)]
        self.up = {id(server): threading.Event() for server in self.servers}
        self.lives = {id(server): 0 for server in self.servers}  # kills of each instance so far
        self.any_down = threading.Event()
        self.kills = 0
        self.lock = threading.Lock()

    def start(self) -> None:
        for server in self.servers:
            server.start(timeout=120)
            self.up[id(server)].set()

    def pick(self, chooser: random.Random) -> ServerProcess:
        """An instance that is up (waits while both are down)."""
        while True:
            live = [server for server in self.servers if self.up[id(server)].is_set()]
            if live:
                return chooser.choice(live)
            time.sleep(0.05)

    def is_up(self, server: ServerProcess) -> bool:
        return self.up[id(server)].is_set()

    def life(self, server: ServerProcess) -> int:
        """Which life of ``server`` this is (how often it was killed so far)."""
        return self.lives[id(server)]

    def lived_through(self, server: ServerProcess, life: int) -> bool:
        """Whether ``server`` is up and has not been killed since its ``life`` began."""
        return self.is_up(server) and self.lives[id(server)] == life

    def killer(self, every: float, until: float, chooser: random.Random) -> None:
        while time.monotonic() + every < until:
            time.sleep(chooser.uniform(0.5 * every, 1.5 * every))
            server = chooser.choice(self.servers)
            with self.lock:
                self.up[id(server)].clear()
                self.any_down.set()
                self.lives[id(server)] += 1
                server.kill()
                self.kills += 1
            time.sleep(chooser.uniform(0.0, 1.0))
            server.start(timeout=120)
            self.up[id(server)].set()
            if all(event.is_set() for event in self.up.values()):
                self.any_down.clear()

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class FailoverGuest(RemoteGuest):
    """A guest whose every request and socket goes to an instance that is up, chosen afresh each time."""

    def __init__(self, cluster: Cluster, name: str, chooser: random.Random) -> None:
        self.cluster, self.chooser = cluster, chooser
        while True:
            try:
                super().__init__(cluster.pick(chooser), name)
                return
            except (httpx.HTTPError, AssertionError):
                time.sleep(0.2)

    def http(self, server: ServerProcess | None = None) -> httpx.Client:
        return super().http(server or self.cluster.pick(self.chooser))

    def socket(self, game_id: int, server: ServerProcess | None = None, **kwargs):
        return super().socket(game_id, server or self.cluster.pick(self.chooser), **kwargs)


class Tally:
    """Counters shared by every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.games: list[tuple[int, dict[str, int]]] = []  # (game id, acknowledged move id -> version)
        self.running: list[int] = []

    def add(self, key: str, amount: int = 1) -> None:
        with self.lock:
            self.counts[key] += amount

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures[what[:100]] += 1


def retrying(call, attempts: int = 40):
    """``call()`` until it returns without a connection error (an instance may be restarting)."""
    for _ in range(attempts - 1):
        try:
            return call()
        except (httpx.HTTPError, AssertionError, *DISCONNECTS):
            time.sleep(0.25)
    return call()


def player(cluster: Cluster, tally: Tally, index: int, until: float) -> None:
    chooser = random.Random(index)
    round_number = 0
    while time.monotonic() < until - 5:
        ruleset, bot_seats, leaving, options = GAMES[(index + round_number) % len(GAMES)]
        round_number += 1
        people = (3 if ruleset == "through-the-desert" else 2) - len(bot_seats)
        guests = [FailoverGuest(cluster, f"P{index}R{round_number}S{seat}", chooser) for seat in range(people)]
        try:
            table_id = retrying(lambda: start_table_with_bots(guests, ruleset, bot_seats, leaving, options), 5)
        except Exception as exc:  # a restart in the middle of the set-up: try a new table
            tally.fail(f"set-up: {type(exc).__name__}")
            continue
        seats = [seat for seat in range(people + len(bot_seats)) if seat not in bot_seats]
        playing: list = [None] * (people + len(bot_seats))
        for seat, guest in zip(seats, guests):
            if seat not in leaving:
                playing[seat] = guest
        with tally.lock:
            tally.running.append(table_id)
        client = ScriptedGame(playing, table_id, seed=index * 1000 + round_number, max_moves=400,
                              think_seconds=0.02, deadline_seconds=max(10.0, until - time.monotonic()),
                              server_down=cluster.any_down)
        client.run()  # in this thread
        with tally.lock:
            tally.running.remove(table_id)
            tally.games.append((table_id, dict(client.acks)))
            tally.counts["moves_acknowledged"] += len(client.acks)
            tally.counts["reconnects"] += max(0, client.stats["connections"] - 1)
            tally.counts["retries_of_committed_moves"] += client.stats["retried_committed"]
            tally.counts["games_finished"] += client.finished
        for failure in client.failures:
            if failure == "the game did not get to its end before the deadline" and time.monotonic() >= until - 1:
                tally.add("games_cut_by_the_end_of_the_run")  # its deadline was the run's end: not a finding
                continue
            tally.fail(failure.split(":")[-1].strip() if "no frame within" not in failure else "no frame within 15 s")


async def spectators(cluster: Cluster, tally: Tally, count: int, until: float) -> None:
    chooser = random.Random(99)

    async def watch(number: int) -> None:
        while time.monotonic() < until:
            with tally.lock:
                games = list(tally.running)
            if not games:
                await asyncio.sleep(0.5)
                continue
            server, game_id = cluster.pick(chooser), chooser.choice(games)
            version, seen = -1, set()
            try:
                async with async_connect(f"{server.ws_url}/ws/games/{game_id}", open_timeout=30, ping_interval=None,
                                         max_size=2**22, close_timeout=2) as ws:
                    await ws.send('{"type": "hello", "since": 0}')
                    tally.add("spectator_connections")
                    stop_at = time.monotonic() + chooser.uniform(3, 30)
                    while time.monotonic() < min(stop_at, until):
                        try:
                            frame = orjson.loads(await asyncio.wait_for(ws.recv(), 1.0))
                        except (asyncio.TimeoutError, TimeoutError):
                            continue
                        if frame["type"] != "state":
                            continue
                        if frame["version"] < version:
                            tally.add("spectator_versions_went_back")
                        version = frame["version"]
                        for entry in frame["log"]:
                            key = (entry["version"], entry["text"])
                            if key in seen:
                                tally.add("spectator_log_entries_twice")
                            seen.add(key)
            except InvalidStatus as exc:
                tally.add(f"spectator_handshake_http_{exc.response.status_code}")
            except ConnectionClosed as closed:
                if closed.rcvd is None:
                    tally.add("spectator_dropped_without_close_frame_while_up" if cluster.is_up(server)
                              else "spectator_dropped_by_kill")
                else:
                    tally.add(f"spectator_closed_{closed.rcvd.code}")
            except InvalidMessage:  # the connection ended before any HTTP answer (a kill mid-handshake)
                tally.add("spectator_handshake_cut_while_" + ("up" if cluster.is_up(server) else "down"))
            except OSError:
                tally.add("spectator_connect_refused_while_" + ("up" if cluster.is_up(server) else "down"))
            await asyncio.sleep(chooser.uniform(0.1, 1.0))

    await asyncio.gather(*(watch(number) for number in range(count)))


def session_prober(cluster: Cluster, tally: Tally, until: float) -> None:
    """A move right after a leave, resign or logout through the other instance must not commit."""
    chooser = random.Random(5)
    while time.monotonic() < until - 5:
        if cluster.any_down.is_set():
            time.sleep(0.5)
            continue
        first, second = cluster.servers
        try:
            ana, bo = RemoteGuest(first, "Ana"), RemoteGuest(first, "Bo")
            game_id = retrying(lambda: start_table_with_bots([ana, bo], "toy-race", set(), set()), 3)
            path = chooser.choice(["leave", "resign", "logout"])
            with ana.http(first) as here, ana.http(second) as there:
                there.get(f"/api/games/{game_id}")  # the other instance caches the seats
                socket = ana.socket(game_id, second)
                try:
                    done = here.post("/api/auth/logout" if path == "logout" else f"/api/tables/{game_id}/{path}")
                    if done.status_code != 200:
                        tally.fail(f"prober {path}: {done.status_code}")
                        continue
                    move = {"type": "move", "id": str(uuid.uuid4()), "version": 0, "move": {"type": "add", "amount": 1}}
                    socket.send(json.dumps(move))
                    answer, closed = None, None
                    try:
                        while answer is None:
                            frame = json.loads(socket.recv(timeout=15))
                            if frame.get("id") == move["id"]:
                                answer = frame["type"]
                        if path == "logout":
                            while True:
                                socket.recv(timeout=15)
                    except ConnectionClosed as exc:
                        closed = exc.rcvd.code if exc.rcvd else None
                    except TimeoutError:
                        closed = "open after 15 s"
                    tally.add(f"moves_after_{path}_{answer or 'unanswered'}")
                    if path == "logout" and closed != 4401:
                        tally.add(f"logged_out_socket_not_closed_4401 ({closed})")
                finally:
                    socket.close()
        except (httpx.HTTPError, AssertionError, *DISCONNECTS) as exc:  # a kill in the middle: not a finding
            tally.add(f"prober_interrupted_{type(exc).__name__}")
        time.sleep(0.3)


def hostile(cluster: Cluster, tally: Tally, until: float, seed: int) -> None:
    chooser = random.Random(seed)
    paths = ["/api/games/{id}", "/api/games/{id}/moves", "/api/tables/{id}/join", "/api/tables/{id}/leave",
             "/api/games/{id}/replay?version=-1", "/api/tables", "/api/auth/login", "/api/games/{id}/log"]
    while time.monotonic() < until:
        server = cluster.pick(chooser)
        with tally.lock:
            games = list(tally.running) or [1]
        game_id = chooser.choice([*games, 0, -1, "abc", 2**40])
        life, biggest = cluster.life(server), 0
        try:
            if chooser.random() < 0.5:
                with connect(f"{server.ws_url}/ws/games/{game_id}", open_timeout=10, close_timeout=2) as ws:
                    for _ in range(chooser.randrange(1, 30)):
                        _, payload = fuzz_frame(chooser, chooser.randrange(0, 50))
                        biggest = max(biggest, len(payload.encode() if isinstance(payload, str) else payload))
                        ws.send(payload)
                        tally.add("hostile_frames")
                    try:
                        while True:
                            ws.recv(timeout=0.3)
                    except TimeoutError:
                        pass
            else:
                path = chooser.choice(paths).format(id=game_id)
                body = chooser.choice([None, {}, {"id": "x" * 70}, {"version": -5, "move": []}, [1, 2], "\u0000",
                                       {"name": "\u202e" * 40, "password": ""}])
                answer = httpx.request(chooser.choice(["GET", "POST", "DELETE"]), server.base_url + path, json=body,
                                       timeout=10)
                tally.add("hostile_requests")
                if answer.status_code >= 500:
                    tally.add(f"http_{answer.status_code}_while_{'up' if cluster.is_up(server) else 'down'}")
        except InvalidStatus as exc:
            if exc.response.status_code >= 500:
                tally.add(f"handshake_http_{exc.response.status_code}")
        except ConnectionClosed as closed:
            if closed.rcvd is None:
                # A frame over the size limit makes the server close at once (1009) while this client
                # may still be sending: the kernel then resets the connection, and a reset can discard
                # the close frame before this client reads it.  Only the other drops are findings.
                if not cluster.lived_through(server, life):
                    tally.add("hostile_dropped_without_close_frame_by_a_kill")
                elif biggest > MAX_PAYLOAD:
                    tally.add("hostile_oversize_frame_reset_without_close_frame")
                else:
                    tally.add("hostile_dropped_without_close_frame_while_up")
            elif closed.rcvd.code == 1009 and biggest <= MAX_PAYLOAD:
                tally.fail("hostile_closed_1009_without_an_oversize_frame")
        except InvalidMessage:  # the connection ended before any HTTP answer
            tally.add("hostile_handshake_cut_while_" + ("up" if cluster.is_up(server) else "down"))
        except (httpx.HTTPError, OSError):
            pass  # the instance is being killed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--players", type=int, default=8, help="threads playing games one after another")
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--hostile", type=int, default=2, help="hostile client threads")
    parser.add_argument("--kill-every", type=float, default=20.0)
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--keep-logs", type=Path)
    args = parser.parse_args(argv)

    name = f"caravanserai_chaos_{int(time.time())}"
    database_url = create_pg_database(args.pg_admin_url, name).replace("postgresql://", "postgresql+asyncpg://", 1)
    upgrade_to_head(database_url)
    scratch = Path(tempfile.mkdtemp(prefix="chaos-"))
    cluster, tally = Cluster(database_url, scratch), Tally()
    began = time.monotonic()
    try:
        cluster.start()
        until = time.monotonic() + args.seconds
        threads = [threading.Thread(target=player, args=(cluster, tally, index, until), daemon=True)
                   for index in range(args.players)]
        threads += [threading.Thread(target=hostile, args=(cluster, tally, until, seed), daemon=True)
                    for seed in range(args.hostile)]
        threads.append(threading.Thread(target=session_prober, args=(cluster, tally, until), daemon=True))
        threads.append(threading.Thread(target=lambda: asyncio.run(spectators(cluster, tally, args.spectators, until)),
                                        daemon=True))
        killer = threading.Thread(target=cluster.killer, args=(args.kill_every, until, random.Random(3)), daemon=True)
        for thread in [*threads, killer]:
            thread.start()
        for thread in [*threads, killer]:
            thread.join(args.seconds + 300)
        # Every acknowledged move is stored at its version; every game's log replays to its snapshot.
        lost, checked, broken = 0, 0, []
        for game_id, acks in tally.games:
            game = read_game(database_url, game_id)
            stored = {move["client_move_id"]: move["seq"] for move in game.moves}
            lost += sum(stored.get(move_id) != version for move_id, version in acks.items())
            try:
                check_stored_game(game)
                checked += 1
            except AssertionError as exc:
                broken.append(str(exc)[:200])
    finally:
        cluster.stop()
        logs = "".join(server.log_text() for server in cluster.servers)
        if args.keep_logs:
            args.keep_logs.mkdir(parents=True, exist_ok=True)
            for server in cluster.servers:
                (args.keep_logs / server.log_path.name).write_text(server.log_text())
        drop_pg_database(args.pg_admin_url, name)
    result = {"seconds": round(time.monotonic() - began), "kills": cluster.kills, "games": len(tally.games),
              "moves_lost": lost, "games_replayed": checked, "games_broken": broken, **dict(sorted(tally.counts.items())),
              "client_failures": dict(tally.failures.most_common(10)),
              "server_log": {key: logs.count(pattern) for key, pattern in LOG_PATTERNS.items()}}
    print(json.dumps(result, indent=1))
    fatal = {key: result["server_log"][key] for key in FATAL_LOG_PATTERNS if result["server_log"][key]}
    if fatal or lost:
        print(f"chaos run failed: {fatal or ''} {f'{lost} moves lost' if lost else ''}".strip(), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

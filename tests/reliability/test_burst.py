"""A spectator burst (docs/decisions.md, *Shared greeting reads*), bounded for the suite: loopback only, seconds long.

A server process on Postgres with the smallest pool (two connections, one of them the fan-out's
listener; no overflow; one for the move writer).  First, in a quiet moment, 150 spectators arrive at once: they must cost the database
almost nothing (before: five pooled sessions each, run one after the other, until the pool ran
dry and sockets were dropped with tracebacks).  Then 150 more arrive while moves flow in one of
the games.  Every socket gets its state; none is refused at the handshake or dropped; each ends
at its game's final version; the server log holds no traceback.  ``bench/burst.py`` measures the
full size (2,000 and 5,000 sockets) with timings; this test asserts on correctness only.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid

import httpx
import orjson
import pytest
from websockets.asyncio.client import connect

from tests.conftest import TOY_RULESETS, run_coroutine
from tests.reliability.support import RemoteGuest, report, scale, start_remote_table
from tests.support.server import ServerProcess

pytestmark = pytest.mark.postgres
SPECTATORS = scale(150, 1000)
LOG_FAILURES = ("Traceback", "Task exception was never retrieved", "QueuePool limit", "Exception in ASGI")


def checkouts(server: ServerProcess) -> float:
    text = httpx.get(f"{server.base_url}/metrics", timeout=10).text
    return float(re.search(r"^caravanserai_db_checkouts_total ([0-9.e+]+)$", text, re.MULTILINE).group(1))


class Spectator:
    """One anonymous socket that says hello and then reads every frame until told to stop."""

    def __init__(self, server: ServerProcess, game_id: int) -> None:
        self.server, self.game_id = server, game_id
        self.version = -1
        self.greeted = asyncio.Event()
        self.failure: str | None = None
        self.ws = None

    async def run(self) -> None:
        try:
            self.ws = await connect(f"{self.server.ws_url}/ws/games/{self.game_id}", open_timeout=60,
                                    ping_interval=None, close_timeout=5, max_size=2**22)
            await self.ws.send('{"type": "hello", "since": 0}')
            async for message in self.ws:
                frame = orjson.loads(message)
                if frame["type"] == "state":
                    if frame["version"] < self.version:
                        self.failure = f"went back from version {self.version} to {frame['version']}"
                    self.version = frame["version"]
                    self.greeted.set()
                elif frame["type"] == "error":
                    self.failure = f"error frame {frame}"
                    self.greeted.set()
        except Exception as exc:  # a refused handshake, a dropped socket
            self.failure = f"{type(exc).__name__}: {exc}"
            self.greeted.set()


async def burst(server: ServerProcess, players: list[RemoteGuest], game_ids: list[int]) -> dict:
    spectators: list[Spectator] = []

    async def arrive(count: int) -> None:
        batch = [Spectator(server, game_ids[index % len(game_ids)]) for index in range(count)]
        spectators.extend(batch)
        for spectator in batch:
            asyncio.ensure_future(spectator.run())
        await asyncio.wait_for(asyncio.gather(*(spectator.greeted.wait() for spectator in batch)), 120)

    # A quiet moment: the burst must not cost a database session per socket.
    before = await asyncio.to_thread(checkouts, server)
    await arrive(SPECTATORS)
    quiet_checkouts = await asyncio.to_thread(checkouts, server) - before

    # Moves flow in the first game while more spectators arrive.
    moving = game_ids[0]
    chooser = random.Random(17)
    cookies = [{"caravanserai_session": player.cookie} for player in players]
    stop = asyncio.Event()

    async def mover() -> int:
        moves = 0
        clients = [httpx.AsyncClient(base_url=server.base_url, timeout=30, cookies=cookie) for cookie in cookies]
        try:
            while (not stop.is_set() or moves < 10) and moves < 40:
                state = (await clients[0].get(f"/api/games/{moving}")).json()
                if state["status"] != "running":
                    break
                seat = state["to_act"][0]
                mine = (await clients[seat].get(f"/api/games/{moving}")).json()
                answer = await clients[seat].post(f"/api/games/{moving}/moves", json={
                    "id": str(uuid.uuid4()), "version": mine["version"], "move": chooser.choice(mine["legal"])})
                assert answer.status_code == 200, answer.text
                moves += 1
        finally:
            for client in clients:
                await client.aclose()
        return moves

    moving_task = asyncio.ensure_future(mover())
    await asyncio.sleep(0.2)
    await arrive(SPECTATORS)
    stop.set()
    moves = await moving_task

    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
        finals = {game_id: (await client.get(f"/api/games/{game_id}")).json()["version"] for game_id in game_ids}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(s.failure is None and s.version < finals[s.game_id] for s in spectators):
        await asyncio.sleep(0.1)
    behind = [(s.game_id, s.version, finals[s.game_id]) for s in spectators if s.failure is None
              and s.version < finals[s.game_id]]
    failures = [s.failure for s in spectators if s.failure is not None]
    await asyncio.gather(*(s.ws.close() for s in spectators if s.ws is not None), return_exceptions=True)
    return {"quiet_checkouts": quiet_checkouts, "moves": moves, "failures": failures, "behind": behind,
            "served": sum(s.version >= 0 for s in spectators)}


@pytest.mark.timeout(240)
def test_a_spectator_burst_is_served_with_the_smallest_pool_while_moves_flow(postgres_servers, tmp_path):
    url, first, _ = postgres_servers
    server = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=tmp_path / "burst.log", env={
        "CARAVANSERAI_DB_POOL_SIZE": "2", "CARAVANSERAI_DB_MAX_OVERFLOW": "0",
        "CARAVANSERAI_DB_MOVE_WRITER_CONNECTIONS": "1", "CARAVANSERAI_LOG_FORMAT": "text"}).start()
    try:
        players = [RemoteGuest(server, "Ana"), RemoteGuest(server, "Bo")]
        game_ids = [start_remote_table(players, "through-the-desert", server=server) for _ in range(3)]
        outcome = run_coroutine(burst, server, players, game_ids)
    finally:
        server.stop()
    log_text = server.log_text()
    assert not outcome["failures"], outcome["failures"][:5]
    assert outcome["served"] == 2 * SPECTATORS
    assert not outcome["behind"], f"sockets behind their game's final version: {outcome['behind'][:5]}"
    assert outcome["moves"] > 0
    # A hello needs no database session of its own: a few shared reads for the whole quiet burst
    # (before: five per socket, 750 here).
    assert outcome["quiet_checkouts"] < SPECTATORS / 10, outcome
    found = [line for line in log_text.splitlines() if any(failure in line for failure in LOG_FAILURES)]
    assert not found, found[:5]
    report("spectator burst", spectators=2 * SPECTATORS, moves=outcome["moves"],
           quiet_burst_checkouts=outcome["quiet_checkouts"])

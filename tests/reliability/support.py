"""Shared pieces of the reliability and security tests.

* ``HEAVY``/``scale``: the default run stays small; ``CARAVANSERAI_HEAVY_TESTS=1`` runs the big variants.
* ``RemoteGuest``: a guest account on a real server process, over HTTP and WebSocket.
* ``StoredGame``/``read_game``: a game's row and its move log read straight from the database
  (SQLite file or Postgres), for checks made from outside a server process.
* ``fold``: the replay of the stored moves over ``setup``, computed in the test process.
* ``LeakScanner``: which secrets, seeds and PRNG states must never reach which viewer.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
from websockets.sync.client import connect

from app.main import SESSION_COOKIE
from app.rulesets.registry import Registry
from app.rulesets.testing import canonical
from tests.conftest import TOY_RULESETS, run_coroutine
from tests.support.server import ServerProcess

# websockets >= 14 warns when a connection is opened outside ``with``; ``legacy=True`` opts into that use.
LEGACY = {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {}
HEAVY = os.environ.get("CARAVANSERAI_HEAVY_TESTS") == "1"
REGISTRY = Registry.discover(TOY_RULESETS)


def scale(default: int, heavy: int) -> int:
    """``default`` in the suite's run, ``heavy`` with ``CARAVANSERAI_HEAVY_TESTS=1``."""
    return heavy if HEAVY else default


def report(title: str, **counts: Any) -> None:
    """One line of fuzzer statistics, printed (visible with ``pytest -s`` or ``-rP``)."""
    print(f"[reliability] {title}: " + ", ".join(f"{key}={value}" for key, value in counts.items()))


# -- a guest on a real server process ----------------------------------------------------------

class RemoteGuest:
    """A guest on a running server process; HTTP and sockets may go to any process of the same database."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        self.name = name
        response = httpx.post(f"{server.base_url}/api/auth/guest", json={"name": name}, timeout=10, verify=False)
        assert response.status_code == 200, response.text
        self.cookie = response.cookies[SESSION_COOKIE]
        self.id = response.json()["id"]

    def http(self, server: ServerProcess | None = None) -> httpx.Client:
        server = server or self.server
        # verify=False: plain HTTP anyway, and it spares building an SSL context (~30 ms) per client.
        return httpx.Client(base_url=server.base_url, cookies={SESSION_COOKIE: self.cookie}, timeout=10, verify=False)

    def socket(self, game_id: int, server: ServerProcess | None = None, **kwargs):
        server = server or self.server
        return connect(f"{server.ws_url}/ws/games/{game_id}",
                       additional_headers={"Cookie": f"{SESSION_COOKIE}={self.cookie}"}, open_timeout=10,
                       close_timeout=2, **LEGACY, **kwargs)


def start_remote_table(guests: list[RemoteGuest], ruleset: str, options: dict | None = None,
                       server: ServerProcess | None = None) -> int:
    """A started table of ``ruleset`` with ``guests`` at seats 0.. in order; its id."""
    with guests[0].http(server) as client:
        created = client.post("/api/tables", json={"ruleset": ruleset, "seats": len(guests), "options": options or {}})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
    for guest in guests[1:]:
        with guest.http(server) as client:
            joined = client.post(f"/api/tables/{table_id}/join")
            assert joined.status_code == 200, joined.text
    with guests[0].http(server) as client:
        started = client.post(f"/api/tables/{table_id}/start")
        assert started.status_code == 200, started.text
    return table_id


def start_table_with_bots(guests: list[RemoteGuest], ruleset: str, bot_seats: set[int], leaving: set[int],
                          options: dict | None = None) -> int:
    """A started table: ``bot_seats`` hold bots, the other seats the guests in order; the guests at the
    ``leaving`` seats leave at once after the start, so a bot plays their seats (takeover ``left``)."""
    host = guests[0]
    seats = len(guests) + len(bot_seats)
    with host.http() as http:
        created = http.post("/api/tables", json={"ruleset": ruleset, "seats": seats, "options": options or {}})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        for seat in sorted(bot_seats):
            assert http.post(f"/api/tables/{table_id}/bots", json={"seat": seat, "level": "random"}).status_code == 200
    people = iter(guests[1:])
    for seat in range(1, seats):
        if seat not in bot_seats:
            with next(people).http() as http:
                assert http.post(f"/api/tables/{table_id}/join", json={"seat": seat}).status_code == 200
    with host.http() as http:
        assert http.post(f"/api/tables/{table_id}/start").status_code == 200
    people = [seat for seat in range(seats) if seat not in bot_seats]
    for seat, guest in zip(people, guests):
        if seat in leaving:
            with guest.http() as http:
                assert http.post(f"/api/tables/{table_id}/leave").status_code == 200
    return table_id


def recv_json(ws, timeout: float = 10.0) -> dict:
    return json.loads(ws.recv(timeout=timeout))


def recv_until(ws, predicate, timeout: float = 10.0, limit: int = 200) -> tuple[dict, list[dict]]:
    """Frames until one matching ``predicate``; returns it and every frame read before it."""
    seen = []
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        frame = recv_json(ws, max(0.01, deadline - time.monotonic()))
        if predicate(frame):
            return frame, seen
        seen.append(frame)
    raise AssertionError(f"no matching frame within {limit} frames: {seen[-5:]}")


def metric(server: ServerProcess, name: str) -> float:
    """One unlabelled sample of the server's ``/metrics``."""
    text = httpx.get(f"{server.base_url}/metrics", timeout=10, verify=False).text
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert match, f"{name} not in /metrics"
    return float(match.group(1))


def wait_for_metric(server: ServerProcess, name: str, expected: float, timeout: float = 10.0) -> float:
    """Poll ``/metrics`` until ``name`` equals ``expected`` (or the time is up); the last value read."""
    deadline = time.monotonic() + timeout
    while True:
        value = metric(server, name)
        if value == expected or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


# -- the database, read from outside the server -------------------------------------------------

@dataclass
class StoredGame:
    """A table row and its move log as stored."""

    id: int
    ruleset: str
    seat_count: int
    options: dict[str, Any]
    seed: int | None
    status: str
    version: int
    state: dict[str, Any] | None
    moves: list[dict[str, Any]] = field(default_factory=list)  # {seq, seat, move, client_move_id}
    state_version: int | None = None  # the version ``state`` belongs to when a checkpoint; None: ``version``


def json_value(value):
    """A JSON column as read: text (SQLite, asyncpg) or already decoded."""
    return json.loads(value) if isinstance(value, str) else value


def _sqlite_path(url: str) -> str:
    return url.split(":///", 1)[1]


def _pg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


def query(database_url: str, sql: str, *args) -> list[dict[str, Any]]:
    """Rows of ``sql`` (``$1``.. placeholders; rewritten to ``?`` for SQLite) as dicts."""
    if database_url.startswith("sqlite"):
        connection = sqlite3.connect(_sqlite_path(database_url), timeout=30)
        connection.row_factory = sqlite3.Row
        try:
            return [dict(row) for row in connection.execute(re.sub(r"\$\d+", "?", sql), args).fetchall()]
        finally:
            connection.close()

    async def fetch():
        connection = await asyncpg.connect(_pg_dsn(database_url))
        try:
            return [dict(row) for row in await connection.fetch(sql, *args)]
        finally:
            await connection.close()

    return run_coroutine(fetch)


def read_game(database_url: str, game_id: int) -> StoredGame:
    row = query(database_url, "SELECT id, ruleset, seat_count, options, seed, status, version, state, state_version "
                              "FROM tables WHERE id = $1", game_id)[0]
    moves = query(database_url, "SELECT seq, seat, move, client_move_id FROM moves WHERE table_id = $1 ORDER BY seq",
                  game_id)
    return StoredGame(id=row["id"], ruleset=row["ruleset"], seat_count=row["seat_count"],
                      options=json_value(row["options"]), seed=row["seed"], status=row["status"],
                      version=row["version"], state=json_value(row["state"]), state_version=row["state_version"],
                      moves=[{**move, "move": json_value(move["move"])} for move in moves])


def fold(game: StoredGame, upto: int | None = None) -> dict[str, Any]:
    """The state rebuilt by folding the stored moves (up to ``upto``) over ``setup``."""
    ruleset = REGISTRY.get(game.ruleset)
    state = ruleset.setup(game.seat_count, ruleset.parse_options(game.options), game.seed)
    for move in game.moves:
        if upto is not None and move["seq"] > upto:
            break
        state, _ = ruleset.apply(state, move["seat"], ruleset.parse_move(move["move"]))
    return state


def check_stored_game(game: StoredGame) -> None:
    """The move log has seq 1..version without gaps or doubles, and replays to the stored snapshot
    (at ``state_version`` when the row holds a checkpoint)."""
    seqs = [move["seq"] for move in game.moves]
    assert seqs == list(range(1, game.version + 1)), f"game {game.id}: seqs {seqs} for version {game.version}"
    ids = [move["client_move_id"] for move in game.moves]
    assert len(set(ids)) == len(ids), f"game {game.id}: a client move id is stored twice"
    assert canonical(fold(game, game.state_version)) == canonical(game.state), \
        f"game {game.id} does not replay to its snapshot"


# -- secrets, seeds, PRNG states ----------------------------------------------------------------

class LeakScanner:
    """What a viewer may not see, per version of one game.

    ``secrets[v][seat]`` = ``Ruleset.secrets(state_v, seat)``; ``forbidden_numbers`` = the seed and
    every PRNG state the game went through (as decimal and hex text).
    """

    def __init__(self, ruleset, seed: int) -> None:
        self.ruleset = ruleset
        self.secrets: dict[int, dict[int, set[str]]] = {}
        self.forbidden_numbers: set[str] = set()
        self._pattern: tuple[int, re.Pattern] | None = None
        self.add_number(seed)
        self.checked = 0
        self.checked_bytes = 0

    def add_number(self, value) -> None:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**6:
            self.forbidden_numbers.update({str(value), format(value, "x")})

    def record_version(self, version: int, state: dict[str, Any], seats: int) -> None:
        self.secrets[version] = {seat: set(self.ruleset.secrets(state, seat)) for seat in range(seats)}
        self.add_number(state.get("rng"))

    def others(self, version: int, viewer: int | None) -> dict[int, set[str]]:
        """The secrets at ``version`` of every seat but ``viewer`` (None: a spectator: all seats)."""
        assert version in self.secrets, f"no secrets recorded for version {version}"
        return {owner: tokens for owner, tokens in self.secrets[version].items() if owner != viewer}

    def _find(self, text: str, version: int, viewer: int | None, allowed: set[str] = frozenset()) -> list[str]:
        leaks = [f"seat {owner}'s {token!r} at version {version}"
                 for owner, tokens in self.others(version, viewer).items()
                 for token in tokens if token in text and token not in allowed]
        return leaks

    def numbers_in(self, text: str) -> list[str]:
        if not self.forbidden_numbers:  # no game left (an admin deleted them): nothing to find
            return []
        if self._pattern is None or self._pattern[0] != len(self.forbidden_numbers):
            alternatives = "|".join(sorted(map(re.escape, self.forbidden_numbers), key=len, reverse=True))
            self._pattern = (len(self.forbidden_numbers), re.compile(rf"(?<![0-9a-f])(?:{alternatives})(?![0-9a-f])"))
        return self._pattern[1].findall(text)

    def check_text(self, text: str, where: str) -> None:
        """No seed and no PRNG state in ``text`` (anything the server sent anyone)."""
        self.checked += 1
        self.checked_bytes += len(text)
        found = self.numbers_in(text)
        assert not found, f"{where}: seed/PRNG state {found} sent: {text[:300]}"

    def check_payload(self, payload: dict, viewer: int | None, where: str, version: int | None = None) -> None:
        """A state frame / GET game answer / replay: the body against the secrets at its version,
        each log entry against the secrets at the entry's version."""
        self.check_text(json.dumps(payload), where)
        version = payload["version"] if version is None else version
        body = {key: value for key, value in payload.items() if key != "log"}
        leaks = self._find(json.dumps(body), version, viewer)
        for entry in payload.get("log") or []:
            leaks += self._find(json.dumps(entry), entry["version"], viewer)
        assert not leaks, f"{where}: viewer {viewer} was sent {leaks}"

    def check_log(self, entries: list[dict], viewer: int | None, where: str) -> None:
        self.check_text(json.dumps(entries), where)
        leaks = [leak for entry in entries for leak in self._find(json.dumps(entry), entry["version"], viewer)]
        assert not leaks, f"{where}: viewer {viewer} was sent {leaks}"

    def check_other(self, value: Any, viewer: int | None, version: int, where: str,
                    allowed: set[str] = frozenset()) -> None:
        """Any other answer (error frame, presence, lobby) against the secrets at ``version``; ``allowed``:
        tokens the viewer itself sent in the request being answered."""
        text = json.dumps(value)
        self.check_text(text, where)
        leaks = self._find(text, version, viewer, allowed)
        assert not leaks, f"{where}: viewer {viewer} was sent {leaks}"

    def check_frame(self, frame: dict, viewer: int | None, current_version: int, where: str,
                    allowed: set[str] = frozenset()) -> None:
        if frame.get("type") == "state":
            self.check_payload(frame, viewer, where)
        else:
            self.check_other(frame, viewer, current_version, where, allowed)

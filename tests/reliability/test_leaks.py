"""The leak fuzzer: random whole games of every ruleset with hidden information, watched from
every seat and as a spectator, and nothing secret reaches anyone it should not.

Through the real WebSocket endpoint (in-process), one socket per seat plus one spectator:

* every frame each viewer receives (``state`` with its log entries, ``ack``, ``error``,
  ``presence``, ``pong``) is recorded and searched for the secrets (``Ruleset.secrets``) of every
  other seat, at the version the frame speaks of; the secrets are computed from the stored
  state, read after each mover's ``ack``;
* the REST answers are searched the same way: ``GET /api/games/{id}`` per viewer, ``/log``,
  ``/replay?version=n`` for several ``n``, the lobby ``/api/tables`` and ``/api/tables/{id}``;
* errors are provoked on purpose (moves out of turn, at a wrong version, malformed, a move id
  reused for another move) and their frames searched too;
* an oracle probe (rulesets whose moves name secret tokens, e.g. Nimalia's cards): a seat that
  names a card held by another seat is answered exactly as when it names a card nobody holds;
* the game's seed (``tables.seed``) and every PRNG state it went through (``state["rng"]``)
  never appear anywhere, in decimal or hex.
"""

from __future__ import annotations

import contextlib
import json
import random
import uuid

import anyio
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rulesets.base import Ruleset
from tests.conftest import make_settings
from tests.reliability.support import HEAVY, REGISTRY, LeakScanner, report
from tests.support.players import Player
from tests.support.stored import stored_state

HIDDEN = [ruleset.name for ruleset in REGISTRY.all() if ruleset.listed and ruleset.hidden_information]
MAX_MOVES = 2000
EXTRA_GAMES_UNTIL_A_SECRET = 5

# Short games with the variants that hide the most (hidden coins, face-down wells, ...).
GAMES = {
    "through-the-desert": [(3, {"piles": "zman", "end_trigger": "immediate"})],
    "nimalia": [(2, {}), (3, {"goal_level": "difficult"})],
    "nomadi": [(3, {"turn_limit": 10, "hidden_coins": True, "trading": True, "card_placement": "players"})],
    "heroes": [(3, {"round_limit": 4})],
    "toy-race": [(2, {})],
    "toy-sealed-bids": [(3, {})],
}
HEAVY_GAMES = {
    "through-the-desert": [(n, {"palm_placement": p, "leader_return": r}) for n in (2, 3, 4, 5)
                           for p, r in (("random", "choose"), ("choose", "random"))],
    "nimalia": [(n, {"goal_level": g}) for n in (2, 3, 4) for g in ("all", "easy", "difficult")],
    "nomadi": [(n, {"turn_limit": 20, "hidden_coins": True, "trading": t, "card_placement": c, "short_game": s})
               for n in (2, 3, 4) for t, c, s in ((True, "players", False), (False, "random", True))],
    "heroes": [(n, {"round_limit": 6, "nomads": nomads}) for n in (2, 3, 4) for nomads in ("wandering", "mercenary", "none")],
    "toy-race": [(2, {})] * 4,
    "toy-sealed-bids": [(2, {}), (3, {})] * 2,
}
# Every token a move could name, for the oracle probe (rulesets whose moves carry secret tokens).
TOKEN_UNIVERSE = {"nimalia": [f"nimalia-card-{number:02d}" for number in range(1, 61)]}


def receive(ws, seconds: float = 15.0) -> dict:
    """``receive_json`` with a time limit (the test client's own has none; a lost push would hang)."""
    async def get():
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return json.loads(message["text"])


class Viewer:
    """One socket (a seat or the spectator) and everything it received."""

    def __init__(self, ws, seat: int | None, player: Player | None) -> None:
        self.ws, self.seat, self.player = ws, seat, player
        self.latest: dict | None = None
        self.frames = 0


class LeakFuzz:
    def __init__(self, client: TestClient, ruleset_name: str, seats: int, options: dict, seed: int) -> None:
        self.client = client
        self.ruleset = REGISTRY.get(ruleset_name)
        self.random = random.Random(seed)
        self.players = [Player(client, f"P{seat}-{seed}") for seat in range(seats)]
        created = self.players[0].post("/api/tables", {"ruleset": ruleset_name, "seats": seats, "options": options})
        assert created.status_code == 201, created.text
        self.game_id = created.json()["id"]
        for player in self.players[1:]:
            assert player.post(f"/api/tables/{self.game_id}/join").status_code == 200
        assert self.players[0].post(f"/api/tables/{self.game_id}/start").status_code == 200
        state, version, seed_value = self.stored()
        self.scanner = LeakScanner(self.ruleset, seed_value)
        self.unchecked: list[tuple[dict, int | None]] = []
        self.seen_moves: list[dict] = []
        self.legal_pool: list[dict] = []
        self.record(version, state)
        self.stats = {"frames": 0, "rest": 0, "moves": 0, "probes": 0, "oracle_pairs": 0, "replays": 0}
        self.probe_codes: dict[str, int] = {}

    def stored(self):
        ctx = self.client.app.state.ctx

        async def load():
            async with ctx.sessions() as session:
                state, table = await stored_state(session, ctx.registry, self.game_id)
                return state, table.version, table.seed

        return self.client.portal.call(load)

    # -- checking ---------------------------------------------------------------------------

    def take(self, viewer: Viewer, allowed: set[str] = frozenset()) -> dict:
        frame = receive(viewer.ws)
        viewer.frames += 1
        self.stats["frames"] += 1
        if frame.get("type") == "state" and frame["version"] not in self.scanner.secrets:
            self.unchecked.append((frame, viewer.seat))  # pushed before the mover's ack: checked once it is stored
        else:
            self.scanner.check_frame(frame, viewer.seat, self.version, f"{self.ruleset.name} {frame.get('type')} frame",
                                     allowed)
        if frame.get("type") == "state":
            viewer.latest = frame
        elif frame.get("type") == "ack":
            self.seen_moves.append(frame)
        return frame

    def record(self, version: int, state: dict) -> None:
        self.scanner.record_version(version, state, len(self.players))
        self.version = version
        for frame, seat in self.unchecked:
            self.scanner.check_frame(frame, seat, version, f"{self.ruleset.name} early state frame")
        self.unchecked.clear()

    def sync(self, viewer: Viewer, version: int) -> None:
        while viewer.latest is None or viewer.latest["version"] < version:
            self.take(viewer)

    def rest(self, player: Player | None, path: str, **params):
        answer = (player.get(path, params=params) if player else self.client.get(path, params=params))
        assert answer.status_code < 500, answer.text
        self.stats["rest"] += 1
        return answer.json()

    def check_rest(self, viewers: list[Viewer], everything: bool) -> None:
        for viewer in viewers:
            if everything or self.random.random() < 0.15:
                payload = self.rest(viewer.player, f"/api/games/{self.game_id}")
                self.scanner.check_payload(payload, viewer.seat, f"GET game as {viewer.seat}")
        if everything or self.random.random() < 0.05:
            for path in ("/api/tables", f"/api/tables/{self.game_id}"):
                # the lobby is public: no seat's secret, whoever asks
                self.scanner.check_other(self.rest(None, path), None, self.version, f"GET {path}")
            self.scanner.check_log(self.rest(None, f"/api/games/{self.game_id}/log"), None, "GET log")

    def check_replays(self) -> None:
        versions = {0, self.version, *self.random.sample(range(self.version + 1), min(6, self.version + 1))}
        for version in sorted(versions):
            for player in (None, self.random.choice(self.players)):  # a seated caller still gets the spectator view
                replay = self.rest(player, f"/api/games/{self.game_id}/replay", version=version)
                self.scanner.check_payload(replay, None, f"replay at {version}", version=version)
                self.stats["replays"] += 1

    # -- provoking errors ---------------------------------------------------------------------

    def probe(self, viewer: Viewer, move: dict, version: int, kind: str, move_id: str | None = None,
              allowed: set[str] = frozenset()) -> dict:
        move_id = move_id or str(uuid.uuid4())
        viewer.ws.send_json({"type": "move", "id": move_id, "version": version, "move": move})
        while True:
            frame = self.take(viewer, allowed)
            if frame.get("id") == move_id and frame["type"] in ("ack", "error"):
                break
        assert frame["type"] == "error", f"probe {kind} {move} was accepted: {frame}"
        self.stats["probes"] += 1
        self.probe_codes[f"{kind}:{frame['code']}"] = self.probe_codes.get(f"{kind}:{frame['code']}", 0) + 1
        return frame

    def provoke(self, seats: list[Viewer], acting: list[int], last_ack: tuple[Viewer, str, dict] | None) -> None:
        viewer = self.random.choice(seats)
        kind = self.random.choice(["out_of_turn", "wrong_version", "malformed", "reused_id"])
        own_legal = viewer.latest["legal"] if viewer.latest else []
        if kind == "out_of_turn" and viewer.seat not in acting and own_legal:
            self.probe(viewer, self.random.choice(own_legal), self.version, kind)
        elif kind == "out_of_turn" and viewer.seat not in acting:
            template = self.random.choice(seats[acting[0]].latest["legal"]) if acting else {"type": "x"}
            # another seat's move may name its secrets: allowed only in answers to the one who sent them
            allowed = {token for token in self.scanner.others(self.version, viewer.seat).get(acting[0], set())
                       if token in json.dumps(template)} if acting else set()
            self.probe(viewer, template, self.version, kind, allowed=allowed)
        elif kind == "wrong_version":
            move = self.random.choice(own_legal) if own_legal else {"type": "x"}
            self.probe(viewer, move, self.version + self.random.randint(1, 50), kind)
        elif kind == "reused_id" and last_ack is not None and any(m != last_ack[2] for m in self.legal_pool):
            owner, move_id, move = last_ack  # the id of a committed move, sent again with another (well-formed) move
            different = self.random.choice([m for m in self.legal_pool if m != move])
            self.probe(owner, different, self.version, kind, move_id=move_id)
        else:
            self.probe(viewer, self.random.choice([{"type": "nonsense"}, {}, {"type": own_legal[0]["type"] if own_legal
                                                                                else "x", "junk": [1, 2]}]),
                       self.version, "malformed")

    def oracle(self, viewer: Viewer) -> None:
        """Naming another seat's secret card is answered like naming a card nobody holds."""
        universe = TOKEN_UNIVERSE.get(self.ruleset.name)
        mine = self.scanner.secrets[self.version][viewer.seat]
        candidates = [move for move in viewer.latest["legal"]
                      if any(isinstance(value, str) and value in mine for value in move.values())]
        if not universe or not candidates:
            return
        move = self.random.choice(candidates)
        field = next(key for key, value in move.items() if isinstance(value, str) and value in mine)
        others = sorted(set().union(*self.scanner.others(self.version, viewer.seat).values()))
        visible = json.dumps(viewer.latest)
        held = set().union(*self.scanner.secrets[self.version].values())
        unseen = [token for token in universe if token not in visible and token not in held]
        if not others or not unseen:
            return
        answers = []
        for token in (self.random.choice(others), self.random.choice(unseen)):
            frame = self.probe(viewer, dict(move, **{field: token}), self.version, "oracle", allowed={token})
            answers.append((frame["code"], frame["message"].replace(token, "<token>")))
        assert answers[0] == answers[1], f"naming another seat's card is answered differently: {answers}"
        self.stats["oracle_pairs"] += 1

    # -- the game -----------------------------------------------------------------------------

    def play(self) -> None:
        with contextlib.ExitStack() as stack:
            seats = [Viewer(stack.enter_context(player.websocket(self.game_id)), seat, player)
                     for seat, player in enumerate(self.players)]
            spectator = Viewer(stack.enter_context(self.client.websocket_connect(f"/ws/games/{self.game_id}")),
                               None, None)
            viewers = [*seats, spectator]
            for viewer in viewers:
                viewer.ws.send_json({"type": "hello", "since": 0})
                self.sync(viewer, 0)
            last_ack = None
            for _ in range(MAX_MOVES):
                current = spectator.latest
                if current["status"] == "finished":
                    break
                acting = current["to_act"]
                if self.random.random() < 0.25:
                    self.provoke(seats, acting, last_ack)
                mover = seats[self.random.choice(acting)]
                if self.random.random() < 0.2:
                    self.oracle(mover)
                move_id, move = str(uuid.uuid4()), self.random.choice(mover.latest["legal"])
                mover.ws.send_json({"type": "move", "id": move_id, "version": mover.latest["version"], "move": move})
                while True:  # frames before the ack are checked against the version before the move
                    frame = self.take(mover)
                    if frame.get("id") == move_id:
                        break
                assert frame["type"] == "ack", frame
                state, version, _ = self.stored()
                assert version == frame["version"]
                self.record(version, state)
                self.stats["moves"] += 1
                self.legal_pool = (self.legal_pool + mover.latest["legal"][:5])[-50:]
                last_ack = (mover, move_id, move)
                for viewer in viewers:
                    self.sync(viewer, version)
                self.check_rest(viewers, everything=False)
            else:
                pytest.fail(f"{self.ruleset.name} did not finish within {MAX_MOVES} moves")
            self.check_rest(viewers, everything=True)
            self.check_replays()
            for viewer in viewers:  # a last ping: whatever is still queued is read and checked
                viewer.ws.send_json({"type": "ping"})
                while self.take(viewer).get("type") != "pong":
                    pass


@pytest.fixture(scope="module")
def leak_client(tmp_path_factory):
    """One in-process app on a SQLite file for the whole fuzzer (``CARAVANSERAI_HEAVY_TESTS=1``: Postgres too)."""
    from app.db.migrate import upgrade_to_head

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('leaks')}/leaks.db"
    upgrade_to_head(url)
    with TestClient(create_app(make_settings(url))) as client:
        yield client


@pytest.mark.parametrize("ruleset_name", HIDDEN)
def test_no_frame_or_answer_leaks_a_secret_seed_or_prng_state(leak_client, ruleset_name):
    totals: dict[str, int] = {}
    codes: dict[str, int] = {}
    games = (HEAVY_GAMES if HEAVY else GAMES)[ruleset_name]
    scanned = tokens = numbers = 0
    declares_secrets = type(REGISTRY.get(ruleset_name)).secrets is not Ruleset.secrets
    # The server draws each table's seed, so whether a random game reaches a secret (Heroes: a battle's
    # tactic choice) differs between runs: replay the last configuration until one has come up.
    extra = [games[-1]] * (EXTRA_GAMES_UNTIL_A_SECRET if declares_secrets else 0)
    for index, (seats, options) in enumerate([*games, *extra]):
        if index >= len(games) and tokens:
            break
        fuzz = LeakFuzz(leak_client, ruleset_name, seats, options, seed=1000 * (index + 1) + len(ruleset_name))
        fuzz.play()
        for key, value in fuzz.stats.items():
            totals[key] = totals.get(key, 0) + value
        for key, value in fuzz.probe_codes.items():
            codes[key] = codes.get(key, 0) + value
        scanned += fuzz.scanner.checked_bytes
        tokens += len(set().union(*(tokens for seats in fuzz.scanner.secrets.values() for tokens in seats.values())))
        numbers += len(fuzz.scanner.forbidden_numbers) // 2
    if declares_secrets:
        assert tokens, f"{ruleset_name} declares secrets but none came up: the fuzzer looked for nothing"
    report(f"leak fuzzer {ruleset_name}", games=index + 1, secret_tokens=tokens, seeds_and_rng_states=numbers,
           kib_scanned=scanned // 1024, **totals, probe_codes=codes)

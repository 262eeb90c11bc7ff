"""Schemathesis against the app's own OpenAPI schema: every REST route, in-process, logged in.

For every operation, Schemathesis generates requests that fit the schema (positive) and
requests that break it (negative); path ids are often replaced by ids that exist (an open
table of ours, someone else's, a running game, a private table, a finished game) so the
handlers are reached, not only the 404 path.  Each request carries the session cookie of a
logged-in player.  Checks:

* never a 5xx; every refusal has the error shape ``{"error": {"code", "message"}}``;
* a refused request (4xx) changes nothing: the database (accounts, tables, seats, moves,
  versions, sessions) reads the same before and after.

Bots and the deadline watcher are slowed to a standstill so that the database changes only
through the requests under test.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis import strategies as st
from sqlalchemy import select

from app.db.models import Account, Move, NotifyAccount, PushSubscription, Seat, Table
from app.main import SESSION_COOKIE, create_app
from tests.conftest import make_settings
from tests.reliability.support import LeakScanner, report, scale
from tests.support.players import Player, started_table
from tests.support.stored import stored_state

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402

EXAMPLES = scale(3, 60)  # per operation and generation mode (the suite stays under its 12 minutes)


def fingerprint(client: TestClient) -> tuple[str, LeakScanner]:
    """Everything a request could change, as one comparable text; and a scanner for every seed and
    PRNG state in the database (which no answer may contain)."""
    ctx = client.app.state.ctx

    async def read():
        async with ctx.sessions() as session:
            accounts = (await session.execute(select(Account.id, Account.name, Account.session_epoch,
                                                     Account.confirm_moves).order_by(Account.id))).all()
            tables = (await session.execute(select(Table.id, Table.status, Table.version, Table.creator_id,
                                                   Table.private, Table.options).order_by(Table.id))).all()
            seats = (await session.execute(select(Seat.table_id, Seat.seat, Seat.account_id, Seat.bot_level,
                                                  Seat.takeover).order_by(Seat.table_id, Seat.seat))).all()
            moves = (await session.execute(select(Move.table_id, Move.seq, Move.client_move_id)
                                           .order_by(Move.table_id, Move.seq))).all()
            randomness = [(table.seed, state) for state, table in  # the state now, and a checkpoint's
                          [await stored_state(session, ctx.registry, table_id) for table_id, *_ in tables]]
            randomness += (await session.execute(select(Table.seed, Table.state))).all()
            notices = (await session.execute(select(NotifyAccount.account_id, NotifyAccount.email,
                                                    NotifyAccount.email_enabled).order_by(NotifyAccount.account_id))).all()
            browsers = (await session.execute(select(PushSubscription.id, PushSubscription.account_id,
                                                     PushSubscription.endpoint).order_by(PushSubscription.id))).all()
        scanner = LeakScanner(None, 0)
        for seed, state in randomness:
            scanner.add_number(seed)
            scanner.add_number((state or {}).get("rng"))
        text = json.dumps([[list(row) for row in rows] for rows in (accounts, tables, seats, moves, notices, browsers)],
                          default=str)
        return text, scanner

    return client.portal.call(read)


class World:
    """A logged-in player and a few tables in every state, whose ids the requests aim at."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.login()
        other, third = Player(client, "Other"), Player(client, "Third")
        me = self.me_player()
        self.ids = {
            "mine_open": me.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3}).json()["id"],
            "theirs_open": other.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"],
            "running": started_table(me, [other]),
            "private": other.post("/api/tables", {"ruleset": "toy-race", "seats": 2, "private": True}).json()["id"],
            "finished": started_table(other, [third]),
        }
        private = other.get(f"/api/tables/{self.ids['private']}").json()
        self.invite = private["invite_code"]
        for version, (player, amount) in enumerate([(other, 3), (third, 3), (other, 3), (third, 1)]):
            assert player.move(self.ids["finished"], version, {"type": "add", "amount": amount}).status_code == 200

    def login(self) -> None:
        """(Re)log in the registered player "Me" (after a generated logout, say)."""
        answer = self.client.post("/api/auth/login", json={"name": "Me", "password": "fuzzing-password"})
        if answer.status_code != 200:
            answer = self.client.post("/api/auth/register", json={"name": "Me", "password": "fuzzing-password"})
        assert answer.status_code == 200, answer.text
        self.cookie = answer.cookies[SESSION_COOKIE]
        self.client.cookies.clear()

    def me_player(self) -> Player:
        player = Player.__new__(Player)
        player.client, player.cookie, player.name = self.client, self.cookie, "Me"
        return player


def send(client: TestClient, cookie: str, kwargs: dict):
    headers = {key: value for key, value in (kwargs.get("headers") or {}).items()
               if key.lower() not in ("cookie", "user-agent", "x-schemathesis-testcaseid")}
    headers["cookie"] = f"{SESSION_COOKIE}={cookie}"
    body = {}
    if "json" in kwargs:
        body["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        body["content"] = data.encode() if isinstance(data, str) else data
    try:
        return client.request(kwargs["method"], kwargs["url"], params=kwargs.get("params") or None,
                              headers=headers, **body)
    finally:
        client.cookies.clear()


@pytest.fixture
def fuzz_client(postgres_database):
    """The app on Postgres only (the stricter store: its text refuses NUL, its types are checked), to
    keep the suite short; every route's own tests run on both backends."""
    frozen = make_settings(postgres_database, bot_delay_seconds=3600.0, clock_tick_seconds=3600.0)
    with TestClient(create_app(frozen), raise_server_exceptions=False) as client:  # a 500 is an answer to check
        yield client


def test_every_route_survives_schemathesis_and_refusals_change_nothing(fuzz_client):
    client = fuzz_client
    world = World(client)
    schema = schemathesis.openapi.from_dict(client.app.openapi())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20, [operation.label for operation in operations]
    statuses: Counter = Counter()
    per_operation: Counter = Counter()
    problems: list[str] = []
    unbreakable: list[str] = []
    last = [fingerprint(client)]  # the database as the previous request left it
    targets = st.sampled_from([None, *world.ids.values()])

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy(generation_mode=mode), target=targets, seat=st.integers(0, 3),
                   invite=st.booleans())
            def run(case, target, seat, invite):
                path_parameters = dict(case.path_parameters or {})
                for name in ("table_id", "game_id"):
                    if name in path_parameters and target is not None:
                        path_parameters[name] = target
                if "seat" in path_parameters and target is not None:
                    path_parameters["seat"] = seat
                case.path_parameters = path_parameters
                if invite and case.query is not None and "invite_code" in case.query:
                    case.query = {**case.query, "invite_code": world.invite}
                kwargs = case.as_transport_kwargs(base_url="http://testserver")
                before = last[0][0]
                response = send(client, world.cookie, kwargs)
                last[0] = fingerprint(client)
                statuses[response.status_code] += 1
                last[0][1].check_text(response.text, f"{kwargs['method']} {kwargs['url']}")  # no seed, no PRNG state
                per_operation[operation.label] += 1
                params = kwargs.get("params") or ""
                where = f"{kwargs['method']} {kwargs['url']} {params} {str(kwargs.get('json'))[:160]}"
                if response.status_code >= 500:
                    problems.append(f"{response.status_code} for {where}: {response.text[:200]}")
                    return
                if response.status_code >= 400:
                    try:
                        error = response.json()["error"]
                        assert set(error) == {"code", "message"} and error["code"] and error["message"]
                    except Exception:
                        problems.append(f"refusal without the error shape for {where}: {response.text[:200]}")
                    if last[0][0] != before:
                        problems.append(f"refused ({response.status_code}) but changed the database: {where}")
                elif operation.path == "/api/auth/logout":
                    world.login()
                    last[0] = fingerprint(client)

            try:
                run()
            except Unsatisfiable:  # nothing to break: an operation without parameters or body
                assert mode == GenerationMode.NEGATIVE, operation.label
                unbreakable.append(operation.label)
    assert not problems, "\n".join(problems[:20])
    report("schemathesis", operations=len(operations), requests=sum(statuses.values()),
           statuses=dict(sorted(statuses.items())), examples_per_mode=EXAMPLES, no_negative_cases=len(unbreakable))

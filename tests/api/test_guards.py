"""Rate limits, the open-tables cap and cross-site refusal."""

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.support.players import Player, started_table


@pytest.fixture
def strict_client(sqlite_database):
    settings = make_settings(sqlite_database, rate_limit_auth="3/minute", rate_limit_tables="4/minute",
                             rate_limit_moves="2/second", max_open_tables=2,
                             rate_limit_replays="3/minute")
    with TestClient(create_app(settings)) as client:
        yield client


def test_login_attempts_are_rate_limited(strict_client):
    client = strict_client
    client.post("/api/auth/register", json={"name": "Uma", "password": "right-password"})
    client.cookies.clear()
    answers = [client.post("/api/auth/login", json={"name": "Uma", "password": "wrong-guess"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [401, 401, 429]
    assert answers[-1].json()["error"]["code"] == "rate_limited"


def test_open_tables_per_account_are_capped(strict_client):
    ana = Player(strict_client, "Ana")
    assert [ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).status_code for _ in range(3)] == [201, 201, 429]


def test_rest_moves_are_rate_limited(strict_client):
    client = strict_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = ana.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 2}).json()["id"]
    bo.post(f"/api/tables/{table_id}/join")
    ana.post(f"/api/tables/{table_id}/start")
    codes = [ana.move(table_id, 0, {"type": "bid", "amount": 9}).json()["error"]["code"] for _ in range(3)]
    assert codes == ["bad_request", "bad_request", "rate_limited"]


def test_replays_are_rate_limited_per_address(strict_client):
    client = strict_client
    table_id = started_table(Player(client, "Ana"), [Player(client, "Bo")])
    answers = [client.get(f"/api/games/{table_id}/replay", params={"version": 0}) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["error"]["code"] == "rate_limited"


def test_cross_site_posts_are_refused(client):
    ana = Player(client, "Ana")
    foreign = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2},
                          headers={**ana.headers, "origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "forbidden"
    form = client.post("/api/tables", content=b"ruleset=toy-race&seats=2",
                       headers={**ana.headers, "content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 400
    same = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2},
                       headers={**ana.headers, "origin": "http://testserver"})
    assert same.status_code == 201
    assert [t["id"] for t in client.get("/api/tables").json()] == [same.json()["id"]]


def test_cross_site_socket_is_refused(client):
    from starlette.websockets import WebSocketDisconnect

    ana = Player(client, "Ana")
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/ws/games/1", headers={**ana.headers, "origin": "https://evil.example"}) as ws:
            ws.receive_json()
    assert refused.value.code == 4403

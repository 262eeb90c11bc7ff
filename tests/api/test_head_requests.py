"""``HEAD`` answers wherever ``GET`` does, with the same status and headers and no body (RFC
9110 9.3.2)."""

import pytest

from tests.support.players import Player

PATHS = ["/healthz", "/", "/static/app.css", "/rules", "/api/rulesets", "/api/tables", "/api/auth/me",
         "/no-such-page"]


@pytest.mark.parametrize("path", PATHS)
def test_head_answers_like_get_without_a_body(client, path):
    got = client.get(path, headers={"accept": "text/html"})
    head = client.head(path, headers={"accept": "text/html"})
    assert head.status_code == got.status_code
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == str(len(got.content))


def test_head_of_a_table_and_its_page(client):
    ana = Player(client, "Ana")
    table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert client.head(f"/api/tables/{table_id}").status_code == 200
    assert client.head(f"/tables/{table_id}").status_code == 200
    assert client.head("/api/tables/999999").status_code == 404


def test_head_where_get_is_not_allowed_is_refused_like_get(client):
    assert client.head("/api/auth/logout").status_code == client.get("/api/auth/logout").status_code == 405

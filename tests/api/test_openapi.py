"""/openapi.json tells the truth: every route's answer has a schema, the errors
are the 400..429 the app gives with its error body, never FastAPI's 422; and the answer models
name every field the server really sends."""

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.support.players import Player, started_table

ERROR_REF = "#/components/schemas/ErrorOut"


@pytest.fixture(scope="module")
def openapi() -> dict:
    return create_app(make_settings("sqlite+aiosqlite:///:memory:")).openapi()


def operations(document):
    for path, by_method in document["paths"].items():
        for method, operation in by_method.items():
            yield f"{method.upper()} {path}", operation


def test_every_route_documents_its_answer_schema(openapi):
    found = dict(operations(openapi))
    assert len(found) >= 29
    for label, operation in found.items():
        success = [status for status in operation["responses"] if status.startswith("2")]
        assert success, label
        for status in success:
            schema = operation["responses"][status]["content"]["application/json"]["schema"]
            # A named model, or a list of them; the public log alone is a list of loose objects.
            named = schema.get("$ref") or schema.get("items", {}).get("$ref")
            assert named or label == "GET /api/games/{game_id}/log", (label, schema)


def test_no_422_anywhere_and_errors_use_the_error_body(openapi):
    assert "HTTPValidationError" not in openapi["components"]["schemas"]
    assert "ValidationError" not in openapi["components"]["schemas"]
    error_statuses = set()
    for label, operation in operations(openapi):
        assert "422" not in operation["responses"], label
        for status, response in operation["responses"].items():
            if status.startswith("4") or status.startswith("5"):
                error_statuses.add(status)
                assert response["content"]["application/json"]["schema"] == {"$ref": ERROR_REF}, (label, status)
    assert {"400", "401", "403", "404", "409", "429"} <= error_statuses
    error = openapi["components"]["schemas"]["ErrorOut"]
    assert error["required"] == ["error"]
    assert set(openapi["components"]["schemas"]["ErrorDetail"]["properties"]) == {"code", "message"}


def test_routes_with_parameters_document_400_and_logged_in_ones_401(openapi):
    found = dict(operations(openapi))
    assert set(found["POST /api/games/{game_id}/moves"]["responses"]) == {"200", "400", "401", "403", "404", "409",
                                                                          "429"}
    assert set(found["GET /api/auth/me"]["responses"]) == {"200", "401"}
    assert set(found["POST /api/tables/{table_id}/rematch"]["responses"]) >= {"200", "201"}


@pytest.fixture
def sqlite_client(sqlite_database):
    with TestClient(create_app(make_settings(sqlite_database))) as client:
        yield client


def properties(openapi, name):
    return set(openapi["components"]["schemas"][name]["properties"])


def test_answers_carry_exactly_the_fields_their_models_name(sqlite_client, openapi):
    """The models let unnamed fields through (so nothing is lost on the wire): check they name them all."""
    client = sqlite_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    assert set(ana.get("/api/auth/me").json()) == properties(openapi, "AccountOut")
    table_id = started_table(ana, [bo])
    table = ana.get(f"/api/tables/{table_id}").json()
    assert set(table) == properties(openapi, "TableOut")
    assert set(table["seats"][0]) == properties(openapi, "SeatOut")
    assert set(table["time_control"]) == properties(openapi, "TimeControlOut")
    assert set(ana.get("/api/tables/mine").json()[0]) == properties(openapi, "MyTableOut")
    assert set(client.get("/api/rulesets").json()[0]) == properties(openapi, "RulesetOut")
    game = ana.get(f"/api/games/{table_id}").json()
    assert set(game) == properties(openapi, "GameState")
    assert set(game["players"][0]) == properties(openapi, "PlayerOut")
    moved = ana.move(table_id, 0, {"type": "add", "amount": 3})
    assert moved.status_code == 200 and set(moved.json()) == properties(openapi, "MoveAccepted")
    assert set(ana.get(f"/api/games/{table_id}/replay", params={"version": 1}).json()) == properties(openapi,
                                                                                                    "ReplayOut")
    line = ana.post(f"/api/tables/{table_id}/chat", {"text": "hello"}).json()
    assert set(line) == properties(openapi, "ChatLine")
    assert set(ana.get(f"/api/tables/{table_id}/chat").json()) == properties(openapi, "ChatOut")
    profile = client.get(f"/api/players/{ana.id}").json()
    assert set(profile) == properties(openapi, "ProfileOut")
    assert set(profile["games"][0]) == properties(openapi, "ProfileGameOut")
    followed = ana.post(f"/api/players/{bo.id}/follow", {})
    assert followed.status_code == 201 and set(followed.json()) == properties(openapi, "RelationOut")
    assert set(ana.get("/api/friends").json()) == properties(openapi, "FriendsOut")
    ratings = ana.get(f"/api/tables/{table_id}/ratings").json()
    assert set(ratings) == properties(openapi, "TableRatingsOut")
    assert set(ratings["seats"][0]) == properties(openapi, "SeatRatingOut")
    choices = ana.get("/api/notifications").json()
    assert set(choices) == properties(openapi, "NotificationsOut")
    assert set(choices["email"]) == properties(openapi, "EmailOut")
    assert set(choices["push"]) == properties(openapi, "PushOut")

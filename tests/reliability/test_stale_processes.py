"""A process that has not yet heard the news (docs/decisions.md, *Checks at commit*).

Two app instances on one Postgres, each with its own cache and LISTEN connection.  The news of a
seating change or a logout made on instance one is *lost* on its way to instance two (as when
instance one dies between its commit and its NOTIFY, or the notice is just slow), and then the
player moves through instance two.  The move must be refused all the same: the check belongs to the
committing statement, not to what a process last heard.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from tests.conftest import make_settings
from tests.reliability.support import query
from tests.support.players import Player, hello, receive_until, started_table

pytestmark = pytest.mark.postgres


async def _lose(_news):
    """A fan-out sender that tells no other process (the notice is lost)."""


def stored_moves(database_url: str, game_id: int) -> list[str]:
    return [row["client_move_id"] for row in query(database_url, "SELECT client_move_id FROM moves "
                                                                  "WHERE table_id = $1 ORDER BY seq", game_id)]


@pytest.fixture
def instances(postgres_database):
    """``(one, two)``: two app instances on one database; what instance one publishes never reaches two.
    Bots wait a minute before each move, so no bot moves in the seat under test meanwhile."""
    settings = make_settings(postgres_database, bot_delay_seconds=60)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        one.app.state.ctx.fanout._send = _lose
        yield one, two


@pytest.mark.parametrize("path", ["leave", "resign"])
def test_a_move_through_another_process_right_after_leaving_is_refused(instances, postgres_database, path):
    """A leave or resign: the one-statement move on instance two trusted its cached seats (Ana still
    plays seat 0 herself) until the NOTIFY came: 10 of 24 moves after leave and 2 of 24 after resign
    were committed in the chaos run.  Here the notice never comes."""
    one, two = instances
    ana, bo = Player(one, "Ana"), Player(one, "Bo")
    game_id = started_table(ana, [bo])
    assert two.get(f"/api/games/{game_id}", headers=ana.headers).json()["seat"] == 0  # two caches the seats
    assert ana.post(f"/api/tables/{game_id}/{path}").status_code == 200

    late = two.post(f"/api/games/{game_id}/moves", headers=ana.headers,
                    json={"id": "after-" + path, "version": 0, "move": {"type": "add", "amount": 1}})

    assert late.status_code == 403 and late.json()["error"]["code"] == "not_seated", late.text
    assert stored_moves(postgres_database, game_id) == []
    # Instance two's cache must not keep the stale seats either: the refusal read the seats again.
    shown = two.get(f"/api/games/{game_id}", headers=ana.headers).json()
    assert shown["players"][0]["takeover"] == ("left" if path == "leave" else "resigned")


def test_a_bot_move_through_another_process_after_its_person_returned_is_refused(instances, postgres_database):
    """The other direction: Ana takes her seat back (hello on instance one) while instance
    two still believes the bot plays it; the bot's move made there must not commit."""
    from app.services.games import pipeline as games

    one, two = instances
    ana, bo = Player(one, "Ana"), Player(one, "Bo")
    game_id = started_table(ana, [bo])
    assert ana.post(f"/api/tables/{game_id}/leave").status_code == 200
    assert two.get(f"/api/games/{game_id}", headers=bo.headers).json()["players"][0]["takeover"] == "left"
    with ana.websocket(game_id) as ws:
        assert hello(ws)["players"][0]["takeover"] is None  # reclaimed on instance one

    async def bot_move():
        try:
            return await games.submit_bot_move(two.app.state.ctx, game_id, 0, games.bot_move_id(0, 0), 0,
                                               {"type": "add", "amount": 1})
        except games.AppError as exc:
            return exc.code

    outcome = two.portal.call(bot_move)
    assert outcome == "not_seated"
    assert stored_moves(postgres_database, game_id) == []


def test_a_move_after_logout_is_refused_even_where_the_logout_was_not_heard(instances, postgres_database):
    """A move must never commit for a session that ended before the move arrived, on
    any process.  Bo's socket on instance two never said ``hello`` (so it kept the account of its
    connect); Bo logs out on instance one and the notice is lost.  Before: the move was committed."""
    one, two = instances
    ana, bo = Player(one, "Ana"), Player(one, "Bo")
    game_id = started_table(ana, [bo])
    assert ana.move(game_id, 0, {"type": "add", "amount": 1}).status_code == 200  # Bo is to act
    with two.websocket_connect(f"/ws/games/{game_id}", headers=bo.headers) as ws:
        assert bo.post("/api/auth/logout").status_code == 200  # on instance one; two is not told
        ws.send_json({"type": "move", "id": "after-logout", "version": 1, "move": {"type": "add", "amount": 1}})
        try:
            answer = receive_until(ws, "error")[0]
        except WebSocketDisconnect as closed:  # closed by the session check before the move was read
            assert closed.code == 4401
        else:
            if answer["id"] is None:  # the connect's session check ran after the logout: told, then closed
                assert answer["code"] == "unauthorized", answer
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive_until(ws, "error")
                assert closed.value.code == 4401
            else:
                assert answer["id"] == "after-logout" and answer["code"] == "unauthorized", answer
    assert stored_moves(postgres_database, game_id) == [stored_moves(postgres_database, game_id)[0]]
    # The same over REST through instance two:
    late = two.post(f"/api/games/{game_id}/moves", headers=bo.headers,
                    json={"id": "rest-after-logout", "version": 1, "move": {"type": "add", "amount": 1}})
    assert late.status_code == 401, late.text
    assert len(stored_moves(postgres_database, game_id)) == 1


def test_a_hello_never_answers_with_a_version_older_than_the_socket_has_seen(instances):
    """A player whose socket dropped reconnects to the other process, which has not yet heard of the
    last move (its notice is slow or lost): ``hello since=1`` must not be answered with version 0
    from that process's cache (the chaos run saw players' versions go back by one after a kill)."""
    one, two = instances
    ana, bo = Player(one, "Ana"), Player(one, "Bo")
    game_id = started_table(ana, [bo])
    assert two.get(f"/api/games/{game_id}", headers=bo.headers).json()["version"] == 0  # two caches version 0
    assert ana.move(game_id, 0, {"type": "add", "amount": 2}).status_code == 200  # on one; two is not told
    with two.websocket_connect(f"/ws/games/{game_id}", headers=bo.headers) as ws:
        ws.send_json({"type": "hello", "since": 1})
        state = receive_until(ws, "state")[0]
    assert state["version"] == 1 and state["view"]["total"] == 2
    assert state["log"] == []  # nothing after the version the socket had


@pytest.mark.timeout(60)  # before the fix the sockets stayed open: receive_json() waited for ever
def test_a_socket_of_a_logged_out_session_is_closed_where_the_notice_was_lost(postgres_database):
    """Logout, every socket on every process: the resync that makes good a lost game notice also finds
    sockets whose session ended, and closes them with 4401 (hello or not)."""
    settings = make_settings(postgres_database, resync_seconds=0.2)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        one.app.state.ctx.fanout._send = _lose
        ana, bo = Player(one, "Ana"), Player(one, "Bo")
        game_id = started_table(ana, [bo])
        with two.websocket_connect(f"/ws/games/{game_id}", headers=bo.headers) as silent, \
                two.websocket_connect(f"/ws/games/{game_id}", headers=bo.headers) as greeted:
            assert hello(greeted)["seat"] == 1
            assert bo.post("/api/auth/logout").status_code == 200
            for ws in (silent, greeted):
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        ws.receive_json()
                assert closed.value.code == 4401

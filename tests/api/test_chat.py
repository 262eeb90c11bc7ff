"""/api/tables/{id}/chat and ``chat`` frames: who reads and writes a table's chat, and what is refused."""

import uuid

import pytest
from fastapi.testclient import TestClient

from app.db.models import ChatMessage, utcnow
from app.main import create_app
from tests.conftest import make_settings
from tests.support.players import Player, hello, receive_until, started_table

XSS = '<script>alert("x")</script> & <img src=x onerror="alert(1)">'


def chat_path(table_id):
    return f"/api/tables/{table_id}/chat"


def say(player, table_id, text, **extra):
    return player.post(chat_path(table_id), {"text": text, **extra})


def texts(answer):
    return [message["text"] for message in answer.json()["messages"]]


def test_players_post_and_read_oldest_first(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    first = say(ana, table_id, "good luck")
    assert first.status_code == 201
    posted = first.json()
    assert {key: posted[key] for key in ("seat", "name", "text")} == {"seat": 0, "name": "Ana", "text": "good luck"}
    assert isinstance(posted["id"], int) and posted["at"].endswith("+00:00")
    second = say(bo, table_id, "   you too  ").json()
    assert (second["seat"], second["name"], second["text"]) == (1, "Bo", "you too")
    answer = bo.get(chat_path(table_id))
    assert answer.status_code == 200
    assert answer.json() == {"messages": [posted, second], "can_post": True, "reason": None}


def test_text_is_stored_verbatim_escaping_is_the_clients_job(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert say(ana, table_id, XSS).json()["text"] == XSS
    assert texts(bo.get(chat_path(table_id))) == [XSS]


def test_empty_long_and_control_character_messages_are_refused(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    for text in ("", "   ", "x" * 301, "two\nlines", "nul\x00byte", "tab\there", "rtl\u202eoverride",
                 "line\u2028separator", "para\u2029graph", "\u200b", " \u200b\u200d ", "tag\U000e0041s"):
        refused = say(ana, table_id, text)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", repr(text)
    missing = ana.post(chat_path(table_id), {})
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "bad_request"
    assert say(ana, table_id, "y" * 300).status_code == 201
    assert say(ana, table_id, "  " + "z" * 300 + "  ").status_code == 201  # 300 once trimmed
    assert say(ana, table_id, "family \U0001f469\u200d\U0001f467 ok").status_code == 201  # a joiner is not a control
    assert texts(ana.get(chat_path(table_id))) == ["y" * 300, "z" * 300, "family \U0001f469\u200d\U0001f467 ok"]


def test_history_is_the_latest_hundred_oldest_first(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ctx = client.app.state.ctx

    async def write_many():
        async with ctx.sessions() as session:
            session.add_all(ChatMessage(table_id=table_id, account_id=ana.id, seat=0, name="Ana", text=f"line {n}",
                                        created_at=utcnow()) for n in range(105))
            await session.commit()

    client.portal.call(write_many)
    assert texts(bo.get(chat_path(table_id))) == [f"line {n}" for n in range(5, 105)]


def test_open_table_chat_works_before_the_start(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert say(ana, table_id, "waiting for one more").status_code == 201
    refused = say(bo, table_id, "let me in")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_seated"
    bo.post(f"/api/tables/{table_id}/join")
    assert say(bo, table_id, "here").json()["seat"] == 1
    assert texts(ana.get(chat_path(table_id))) == ["waiting for one more", "here"]


@pytest.fixture
def strict_chat_client(database_url):
    with TestClient(create_app(make_settings(database_url, rate_limit_chat="3/minute"))) as strict:
        yield strict


def test_chat_is_rate_limited_per_account(strict_chat_client):
    ana, bo = Player(strict_chat_client, "Ana"), Player(strict_chat_client, "Bo")
    table_id = started_table(ana, [bo])
    codes = [say(ana, table_id, f"spam {n}").status_code for n in range(4)]
    assert codes == [201, 201, 201, 429]
    assert say(ana, table_id, "more").json()["error"]["code"] == "rate_limited"
    assert say(bo, table_id, "same address, own allowance").status_code == 201  # per account, not per address
    assert texts(bo.get(chat_path(table_id))) == ["spam 0", "spam 1", "spam 2", "same address, own allowance"]


def test_spectators_neither_read_nor_write_by_default(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    say(ana, table_id, "players only")
    assert client.get(f"/api/tables/{table_id}").json()["chat_spectators"] is False
    for answer in (cy.get(chat_path(table_id)), client.get(chat_path(table_id)), say(cy, table_id, "hi")):
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_seated"
    anonymous = client.post(chat_path(table_id), json={"text": "hi"})
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
    assert texts(ana.get(chat_path(table_id))) == ["players only"]


def test_spectators_chat_where_the_creator_allowed_it(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo], chat_spectators=True)
    assert client.get(f"/api/tables/{table_id}").json()["chat_spectators"] is True
    watcher = say(cy, table_id, "nice move").json()
    assert (watcher["seat"], watcher["name"], watcher["text"]) == (None, "Cy", "nice move")
    assert cy.get(chat_path(table_id)).json()["can_post"] is True
    anonymous = client.get(chat_path(table_id)).json()
    assert anonymous["messages"] == [watcher] and anonymous["can_post"] is False and "sign in" in anonymous["reason"]
    assert client.post(chat_path(table_id), json={"text": "hi"}).json()["error"]["code"] == "unauthorized"


def test_private_table_chat_follows_the_invite_rules(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo], private=True, chat_spectators=True)
    code = ana.get(f"/api/tables/{table_id}").json()["invite_code"]
    assert say(bo, table_id, "just us").status_code == 201
    for answer in (cy.get(chat_path(table_id)), say(cy, table_id, "hello?"), client.get(chat_path(table_id)),
                   cy.get(chat_path(table_id), params={"invite_code": "wrong"})):
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert texts(cy.get(chat_path(table_id), params={"invite_code": code})) == ["just us"]
    assert say(cy, table_id, "invited", invite_code=code).json()["seat"] is None
    closed = started_table(ana, [bo], private=True)  # spectators not allowed: the invite shows the game, not the chat
    closed_code = ana.get(f"/api/tables/{closed}").json()["invite_code"]
    refused = cy.get(chat_path(closed), params={"invite_code": closed_code})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_seated"


def test_unknown_table(client):
    ana = Player(client, "Ana")
    assert ana.get(chat_path(4242)).json()["error"]["code"] == "not_found"
    assert say(ana, 4242, "anyone?").json()["error"]["code"] == "not_found"


def test_chat_frames_reach_players_but_not_spectators_by_default(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    say(ana, table_id, "before anyone connected")
    with ana.websocket(table_id) as ana_ws, bo.websocket(table_id) as bo_ws, \
            client.websocket_connect(f"/ws/games/{table_id}") as spectator:
        for ws in (ana_ws, bo_ws, spectator):
            hello(ws)
        posted = say(bo, table_id, XSS).json()
        for ws in (ana_ws, bo_ws):
            frame, before = receive_until(ws, "chat")
            assert frame == {"type": "chat", "message": posted}  # the older line is not replayed
            assert [f["type"] for f in before if f["type"] == "chat"] == []
        # The same push reached the spectator's socket by now; a move's state frame comes after it.
        ana.move(table_id, 0, {"type": "add", "amount": 1})
        state, before = receive_until(spectator, "state")
        assert state["version"] == 1 and [f for f in before if f["type"] == "chat"] == []


def test_chat_frames_reach_spectators_where_allowed(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo], chat_spectators=True)
    with client.websocket_connect(f"/ws/games/{table_id}") as spectator, cy.websocket(table_id) as cy_ws:
        hello(spectator)
        hello(cy_ws)
        first = say(ana, table_id, "welcome, watchers").json()
        second = say(cy, table_id, "thanks!").json()
        for ws in (spectator, cy_ws):
            assert receive_until(ws, "chat")[0]["message"] == first
            assert receive_until(ws, "chat")[0]["message"] == second


def test_chat_frames_are_not_repeated_after_a_second_hello(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as ws:
        hello(ws)
        first = say(bo, table_id, "one").json()
        assert receive_until(ws, "chat")[0]["message"] == first
        hello(ws)
        second = say(bo, table_id, "two").json()
        frame, before = receive_until(ws, "chat")
        assert frame["message"] == second and not [f for f in before if f["type"] == "chat"]
        ws.send_json({"type": "move", "id": str(uuid.uuid4()), "version": 0, "move": {"type": "add", "amount": 1}})
        assert [f["type"] for f in receive_until(ws, "ack")[1] if f["type"] == "chat"] == []


def test_chat_before_the_start_at_a_table_with_a_bot_logs_no_error(client, caplog):
    """Chatting in the waiting room must not send the bot driver looking for a game (it logged a
    traceback per message)."""
    import logging

    ana = Player(client, "Ana")
    table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "random"}).status_code == 200
    with caplog.at_level(logging.ERROR):
        assert say(ana, table_id, "ready?").status_code == 201
        client.portal.call(client.app.state.bots.settled)  # a bot task the message started has ended
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []

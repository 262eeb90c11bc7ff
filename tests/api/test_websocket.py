"""/ws/games/{id}: hello and state, moves with ack/error, per-viewer pushes after commit, bad frames."""

import json
import uuid

from tests.support.players import Player, receive_until, started_table


def move_frame(version, amount, move_id=None):
    return {"type": "move", "id": move_id or str(uuid.uuid4()), "version": version,
            "move": {"type": "add", "amount": amount}}


def test_hello_answers_state_with_log_since(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ana.move(table_id, 0, {"type": "add", "amount": 1})
    bo.move(table_id, 1, {"type": "add", "amount": 2})
    with client.websocket_connect(f"/ws/games/{table_id}") as spectator:
        spectator.send_json({"type": "hello", "since": 1})
        state = spectator.receive_json()
    assert state["type"] == "state" and state["version"] == 2 and state["seat"] is None
    assert state["log"] == [{"version": 2, "text": "Bo added 2", "template": "{seat1} added 2",
                             "args": {"seat1": {"kind": "player", "seat": 1, "text": "Bo"}}, "rule": None}]
    assert state["legal"] == [] and state["to_act"] == [0]


def test_move_acks_sender_and_pushes_each_viewer_its_view(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as ana_ws, bo.websocket(table_id) as bo_ws, \
            client.websocket_connect(f"/ws/games/{table_id}") as spectator:
        for ws in (ana_ws, bo_ws, spectator):
            ws.send_json({"type": "hello", "since": 0})
            assert receive_until(ws, "state")[0]["version"] == 0
        frame = move_frame(0, 2)
        ana_ws.send_json(frame)
        ack, before = receive_until(ana_ws, "ack")
        assert ack == {"type": "ack", "id": frame["id"], "version": 1}
        ana_state = next((f for f in before if f["type"] == "state"), None) or receive_until(ana_ws, "state")[0]
        bo_state = receive_until(bo_ws, "state")[0]
        spectator_state = receive_until(spectator, "state")[0]
    assert ana_state["version"] == bo_state["version"] == spectator_state["version"] == 1
    assert spectator_state["online"] == [0, 1]
    assert bo_state["legal"] and ana_state["legal"] == [] and spectator_state["legal"] == []
    assert bo_state["view"]["my_word"].startswith("secret-1-") and spectator_state["view"]["my_word"] is None
    assert ana_state["view"]["my_word"].startswith("secret-0-")
    assert any(ana_state["view"]["my_word"] in entry["text"] for entry in ana_state["log"])
    assert all(ana_state["view"]["my_word"] not in entry["text"] for entry in bo_state["log"] + spectator_state["log"])


def test_refusals_over_the_socket(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with bo.websocket(table_id) as bo_ws, client.websocket_connect(f"/ws/games/{table_id}") as spectator:
        cases = [
            (bo_ws, json.dumps(move_frame(0, 1)), "not_your_turn"),
            (bo_ws, "{not json", "bad_request"),
            (bo_ws, json.dumps({"type": "dance"}), "bad_request"),
            (bo_ws, json.dumps({"type": "move", "version": 0}), "bad_request"),
            (bo_ws, json.dumps({"type": "hello", "since": -4}), "bad_request"),
            (bo_ws, json.dumps({"type": "move", "id": "x" * 200, "version": 0, "move": {}}), "bad_request"),
            (bo_ws, "x" * 70_000, "bad_request"),
            (spectator, json.dumps(move_frame(0, 1)), "unauthorized"),
        ]
        for ws, text, code in cases:
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == code, (text[:60], answer)
    assert client.get(f"/api/games/{table_id}").json()["version"] == 0


def test_seated_player_of_other_table_is_not_seated(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    with cy.websocket(table_id) as cy_ws:
        cy_ws.send_json(move_frame(0, 1))
        assert cy_ws.receive_json()["code"] == "not_seated"


def test_ping_pong_and_unknown_game(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect("/ws/games/4242") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_retry_over_socket_is_idempotent(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    frame = move_frame(0, 3)
    with ana.websocket(table_id) as ws:
        ws.send_json(frame)
        first, _ = receive_until(ws, "ack")
        ws.send_json(frame)
        second, _ = receive_until(ws, "ack")
    assert first == second == {"type": "ack", "id": frame["id"], "version": 1}
    assert client.get(f"/api/games/{table_id}").json()["view"]["total"] == 3


def test_reconnect_resumes_from_since(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with bo.websocket(table_id) as ws:
        ws.send_json({"type": "hello", "since": 0})
        assert ws.receive_json()["version"] == 0
    ana.move(table_id, 0, {"type": "add", "amount": 1})
    bo.move(table_id, 1, {"type": "add", "amount": 1})
    ana.move(table_id, 2, {"type": "add", "amount": 1})
    with bo.websocket(table_id) as ws:
        ws.send_json({"type": "hello", "since": 0})
        state = ws.receive_json()
    # Bo reads the public entries of versions 1-3 and his own private entry of version 2.
    assert state["version"] == 3 and [entry["version"] for entry in state["log"]] == [1, 2, 2, 3]
    assert state["legal"] and state["to_act"] == [1]


def test_private_game_socket_needs_invite(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], private=True)
    code = ana.get(f"/api/tables/{table_id}").json()["invite_code"]
    with client.websocket_connect(f"/ws/games/{table_id}") as ws:
        assert ws.receive_json()["code"] == "not_found"
    with client.websocket_connect(f"/ws/games/{table_id}?invite_code={code}") as ws:
        ws.send_json({"type": "hello", "since": 0})
        assert ws.receive_json()["type"] == "state"


def test_a_socket_for_a_malformed_or_out_of_range_id_gets_not_found_and_4404(client):
    """``/ws/games/0``, ``-1``, ``abc`` and ids past the largest were refused at the
    handshake (HTTP 403, from the path's validation); docs/api.md promises an ``error`` frame and 4404
    for a table that does not exist, and no such id can name one."""
    import pytest
    from starlette.websockets import WebSocketDisconnect

    for game_id in ("0", "-1", "abc", "1.5", str(2**31), "99999999999999999999"):
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["code"] == "not_found", (game_id, frame)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404, game_id


TOY_RACE_GROUPED = [{"type": "add", "count": 3, "keys": ["amount"], "same": {}, "columns": {"amount": [1, 2, 3]}}]
TOY_RACE_MOVES = [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}, {"type": "add", "amount": 3}]


def state_at(websocket, version: int) -> dict:
    """The ``state`` frame of ``version`` (frames of older versions and other types are skipped)."""
    for _ in range(10):
        frame = receive_until(websocket, "state")[0]
        if frame["version"] == version:
            return frame
    raise AssertionError(f"no state of version {version}")


def test_a_socket_that_asks_for_grouped_legal_keeps_it_while_another_on_the_seat_gets_moves(client):
    """``legal_form: "grouped"`` in the hello holds for that socket's pushes too; a second
    socket of the same seat without it gets the list of moves (the hub's payload cache is per form)."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as plain, ana.websocket(table_id) as grouped:
        plain.send_json({"type": "hello", "since": 0})
        first_plain = state_at(plain, 0)
        grouped.send_json({"type": "hello", "since": 0, "legal_form": "grouped"})
        first_grouped = state_at(grouped, 0)
        assert first_plain["legal"] == TOY_RACE_MOVES
        assert first_grouped["legal"] == TOY_RACE_GROUPED
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        assert state_at(plain, 1)["legal"] == [] and state_at(grouped, 1)["legal"] == []
        assert bo.move(table_id, 1, {"type": "add", "amount": 2}).status_code == 200  # another player's move
        pushed_plain, pushed_grouped = state_at(plain, 2), state_at(grouped, 2)
    assert pushed_grouped["legal"] == TOY_RACE_GROUPED and pushed_grouped["to_act"] == [0]
    assert pushed_plain["legal"] == TOY_RACE_MOVES
    assert {key: value for key, value in pushed_plain.items() if key != "legal"} == \
        {key: value for key, value in pushed_grouped.items() if key != "legal"}


def test_an_unknown_legal_form_is_a_bad_request(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as ws:
        ws.send_json({"type": "hello", "since": 0, "legal_form": "bogus"})
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_request" and "legal_form" in answer["message"]
        ws.send_json({"type": "hello", "since": 0, "legal_form": "moves"})
        assert state_at(ws, 0)["legal"] == TOY_RACE_MOVES


def watchers_told(websocket, count: int, limit: int = 5) -> dict:
    """The first ``presence`` frame (of the next ``limit``) that counts ``count`` spectators."""
    for _ in range(limit):
        presence, _ = receive_until(websocket, "presence")
        if presence["spectators"] == count:
            return presence
    raise AssertionError(f"no presence frame with {count} spectators")


def test_presence_counts_the_people_who_watch_without_a_seat(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as ana_ws:
        ana_ws.send_json({"type": "hello", "since": 0})
        receive_until(ana_ws, "state")
        with cy.websocket(table_id) as cy_ws:
            cy_ws.send_json({"type": "hello", "since": 0})
            receive_until(cy_ws, "state")
            presence = watchers_told(ana_ws, 1)  # (Ana's own arrival was told first)
            assert presence == {"type": "presence", "online": [0], "spectators": 1}
            with cy.websocket(table_id) as second_tab:  # the same person in a second tab: still one
                second_tab.send_json({"type": "hello", "since": 0})
                receive_until(second_tab, "state")
                # a socket greeted while others watch is told how many (its state frame does not say)
                assert receive_until(second_tab, "presence")[0]["spectators"] == 1
        assert watchers_told(ana_ws, 0) == {"type": "presence", "online": [0], "spectators": 0}

"""Taking back one's last move: REST and WebSocket, refusals, the log, replays, the clock.

The toy race (tests/support/toy_rulesets.py) lets adding 1 or 2 be taken back, not adding 3.
"""

import uuid
from datetime import datetime, timezone

from tests.support.players import Player, hello, receive_until, started_table
from tests.support.polling import poll


def add(amount):
    return {"type": "add", "amount": amount}


def undo(player, table_id, version, move_id=None):
    return player.post(f"/api/games/{table_id}/undo", {"id": move_id or str(uuid.uuid4()), "version": version})


def code_of(response):
    return response.json()["error"]["code"]


def test_undo_puts_back_the_state_and_logs_it(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert ana.move(table_id, 0, add(2)).json()["version"] == 1
    assert ana.get(f"/api/games/{table_id}").json()["undo"] is True
    assert bo.get(f"/api/games/{table_id}").json()["undo"] is False  # not Bo's move
    assert client.get(f"/api/games/{table_id}").json()["undo"] is False  # a spectator
    answer = undo(ana, table_id, 1)
    assert answer.status_code == 200 and answer.json()["version"] == 2
    state = ana.get(f"/api/games/{table_id}").json()
    assert (state["view"]["total"], state["to_act"], state["version"], state["undo"]) == (0, [0], 2, False)
    assert [(e["version"], e["text"]) for e in client.get(f"/api/games/{table_id}/log").json()] == [
        (1, "Ana added 2"), (2, "Ana takes back their last move")]
    # the game goes on from there, and every version still folds
    assert ana.move(table_id, 2, add(1)).json()["version"] == 3
    totals = [client.get(f"/api/games/{table_id}/replay?version={v}").json()["view"]["total"] for v in range(4)]
    assert totals == [0, 2, 0, 1]


def test_undo_is_refused_after_another_seat_acted_and_after_a_revealing_move(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    assert code_of(undo(ana, table_id, 0)) == "not_reversible"  # nothing to take back yet
    ana.move(table_id, 0, add(1))
    unmoved = undo(bo, table_id, 1)  # Bo has not moved: nothing of his to take back
    assert (code_of(unmoved), unmoved.json()["error"]["message"]) == ("not_reversible", "there is no move to take back")
    bo.move(table_id, 1, add(3))  # adding 3 cannot be taken back
    cases = [
        (undo(ana, table_id, 2), "not_reversible", 409),  # Bo acted since Ana's move
        (undo(bo, table_id, 2), "not_reversible", 409),  # Bo's move revealed something
        (undo(bo, table_id, 1), "stale_version", 409),
        (undo(cy, table_id, 2), "not_seated", 403),
        (client.post(f"/api/games/{table_id}/undo", json={"id": "x", "version": 2}), "unauthorized", 401),
        (undo(ana, 999, 2), "not_found", 404),
    ]
    for response, code, status in cases:
        assert (code_of(response), response.status_code) == (code, status), response.text
    state = client.get(f"/api/games/{table_id}").json()
    assert (state["version"], state["view"]["total"]) == (2, 4)
    assert [e["version"] for e in client.get(f"/api/games/{table_id}/log").json()] == [1, 2]


def test_undo_retry_is_idempotent_and_a_move_id_is_not_an_undo_id(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    move_id = str(uuid.uuid4())
    ana.move(table_id, 0, add(1), move_id=move_id)
    assert code_of(undo(ana, table_id, 1, move_id=move_id)) == "bad_request"
    undo_id = str(uuid.uuid4())
    assert undo(ana, table_id, 1, undo_id).json() == {"id": undo_id, "version": 2}
    assert undo(ana, table_id, 1, undo_id).json() == {"id": undo_id, "version": 2}  # sent again: same answer
    assert code_of(undo(ana, table_id, 2)) == "not_reversible"  # the move is gone: nothing left to take back
    assert client.get(f"/api/games/{table_id}").json()["version"] == 2


def test_sealed_bid_taken_back_until_the_other_seat_bids(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    ana.move(table_id, 0, {"type": "bid", "amount": 5})
    assert undo(ana, table_id, 1).json()["version"] == 2
    assert ana.get(f"/api/games/{table_id}").json()["to_act"] == [0, 1]
    ana.move(table_id, 2, {"type": "bid", "amount": 4})
    bo.move(table_id, 2, {"type": "bid", "amount": 1})  # a stale version is fine in a simultaneous step
    assert code_of(undo(ana, table_id, 4)) == "not_reversible"
    assert code_of(undo(bo, table_id, 4)) == "not_reversible"  # Bo's bid revealed both
    replayed = client.get(f"/api/games/{table_id}/replay?version=4").json()["view"]
    assert replayed["totals"] == [4, 1] and replayed["round"] == 2


def ack_and_state(socket):
    """The sender's ``ack`` and the next ``state`` frame, which come in either order (other frames skipped)."""
    seen = {}
    while len(seen) < 2:
        frame = socket.receive_json()
        if frame["type"] in ("ack", "state"):
            seen[frame["type"]] = frame
    return seen["ack"], seen["state"]


def test_undo_over_the_socket(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with ana.websocket(table_id) as socket:
        hello(socket)
        socket.send_json({"type": "move", "id": "m1", "version": 0, "move": add(2)})
        _, state = ack_and_state(socket)
        assert state["undo"] is True
        socket.send_json({"type": "undo", "id": "u1", "version": 1})
        ack, state = ack_and_state(socket)
        assert ack == {"type": "ack", "id": "u1", "version": 2}
        assert (state["version"], state["view"]["total"], state["undo"]) == (2, 0, False)
        assert [entry["text"] for entry in state["log"]] == ["Ana takes back their last move"]
        socket.send_json({"type": "undo", "id": "u2", "version": 2})
        error, _ = receive_until(socket, "error")
        assert (error["id"], error["code"]) == ("u2", "not_reversible")


def test_undo_gives_back_the_deadline_counted_from_the_move_before(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], move_seconds=600, pace="live")
    ana.move(table_id, 0, add(1))
    moved_at = datetime.now(timezone.utc)
    bo.move(table_id, 1, add(1))
    undo(bo, table_id, 2)
    players = client.get(f"/api/games/{table_id}").json()["players"]
    assert players[0]["deadline"] is None
    due = datetime.fromisoformat(players[1]["deadline"])
    # Bo's clock started with Ana's move: due 600 s after it, not 600 s after the undo
    assert abs((due - moved_at).total_seconds() - 600) < 5


def test_both_camels_of_a_turn_are_taken_back_one_after_the_other(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="through-the-desert", options={"first_player": "host"})
    players = {0: ana, 1: bo}
    last_seat = None
    for _ in range(40):  # leaders, then camels, until a seat is to place its second camel of a turn
        game = client.get(f"/api/games/{table_id}").json()
        seat = game["to_act"][0]
        if seat == last_seat and game["view"]["phase"] == "camels":
            break
        player = players[seat]
        move = player.get(f"/api/games/{table_id}").json()["legal"][0]
        assert player.move(table_id, game["version"], move).status_code == 200
        last_seat = seat
    player = players[seat]
    first = client.get(f"/api/games/{table_id}").json()["version"]
    before_turn = client.get(f"/api/games/{table_id}/replay?version={first - 1}").json()["view"]
    player.move(table_id, first, player.get(f"/api/games/{table_id}").json()["legal"][0])
    assert client.get(f"/api/games/{table_id}").json()["to_act"] == [1 - seat]
    assert undo(player, table_id, first + 1).json()["version"] == first + 2
    assert undo(player, table_id, first + 2).json()["version"] == first + 3
    state = player.get(f"/api/games/{table_id}").json()
    assert client.get(f"/api/games/{table_id}").json()["view"] == before_turn
    assert (state["to_act"], state["undo"]) == ([seat], False)
    assert code_of(undo(player, table_id, first + 3)) == "not_reversible"  # the move before was the other seat's
    replayed = client.get(f"/api/games/{table_id}/replay?version={first + 3}").json()["view"]
    assert replayed == before_turn


def test_a_move_a_bot_made_for_the_seat_is_not_its_persons_to_take_back(client):
    """Leave, the bot moves for the seat, come back with ``hello``: that move is the bot's, not one's own."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert ana.move(table_id, 0, add(1)).status_code == 200
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200
    state = poll(lambda: ana.get(f"/api/games/{table_id}").json(), lambda game: game["version"] >= 2)
    assert state["to_act"] == [0]  # the bot answered for Bo
    with bo.websocket(table_id) as socket:
        back = hello(socket)  # Bo takes his seat back
        assert back["players"][1]["takeover"] is None and back["undo"] is False
        refused = undo(bo, table_id, 2)
    assert refused.status_code == 409 and code_of(refused) == "not_reversible"
    assert "only a move you made yourself" in refused.json()["error"]["message"]
    assert ana.get(f"/api/games/{table_id}").json()["version"] == 2  # nothing changed

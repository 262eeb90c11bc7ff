"""/api/games and the move pipeline over REST: state per viewer, refusals that change nothing, idempotency, replay."""

import concurrent.futures
import uuid

from tests.support.players import Player, started_table


def add(amount):
    return {"type": "add", "amount": amount}


def game_version(client, table_id):
    return client.get(f"/api/games/{table_id}").json()["version"]


def test_state_per_viewer(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    mine = ana.get(f"/api/games/{table_id}").json()
    assert mine["seat"] == 0 and mine["to_act"] == [0] and mine["version"] == 0
    assert [m["amount"] for m in mine["legal"]] == [1, 2, 3]
    assert mine["view"]["my_word"].startswith("secret-0-")
    theirs = bo.get(f"/api/games/{table_id}").json()
    assert theirs["seat"] == 1 and theirs["legal"] == []
    spectator = client.get(f"/api/games/{table_id}").json()
    assert spectator["seat"] is None and spectator["view"]["my_word"] is None
    assert [p["name"] for p in spectator["players"]] == ["Ana", "Bo"]


def test_move_commits_and_advances(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    response = ana.move(table_id, 0, add(2))
    assert response.status_code == 200 and response.json()["version"] == 1
    state = client.get(f"/api/games/{table_id}").json()
    assert state["view"]["total"] == 2 and state["to_act"] == [1]
    assert [entry["text"] for entry in client.get(f"/api/games/{table_id}/log").json()] == ["Ana added 2"]


def test_refused_moves_change_nothing(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    cases = [
        (bo.move(table_id, 0, add(1)), "not_your_turn"),
        (cy.move(table_id, 0, add(1)), "not_seated"),
        (client.post(f"/api/games/{table_id}/moves", json={"id": "x", "version": 0, "move": add(1)}), "unauthorized"),
        (ana.move(table_id, 5, add(1)), "stale_version"),
        (ana.move(table_id, 0, {"type": "add", "amount": 9}), "bad_request"),
        (ana.move(table_id, 0, {"type": "fly"}), "bad_request"),
        (ana.move(table_id, 0, "add one"), "bad_request"),
        (ana.post(f"/api/games/{table_id}/moves", {"version": 0, "move": add(1)}), "bad_request"),
        (ana.move(999, 0, add(1)), "not_found"),
    ]
    for response, code in cases:
        assert response.json()["error"]["code"] == code, response.text
        assert 400 <= response.status_code < 500
    assert game_version(client, table_id) == 0
    assert client.get(f"/api/games/{table_id}/log").json() == []


def test_illegal_move_names_the_rule(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ana.move(table_id, 0, add(3)); bo.move(table_id, 1, add(2)); ana.move(table_id, 2, add(2))
    refused = bo.move(table_id, 3, add(3))
    assert refused.status_code == 409
    assert refused.json()["error"] == {"code": "illegal_move", "message": "toy rule: from 7 you may not add 3"}
    assert game_version(client, table_id) == 3


def test_retried_move_id_is_idempotent(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    move_id = str(uuid.uuid4())
    first = ana.move(table_id, 0, add(1), move_id=move_id)
    again = ana.move(table_id, 0, add(1), move_id=move_id)
    assert first.json() == again.json() == {"id": move_id, "version": 1}
    assert client.get(f"/api/games/{table_id}").json()["view"]["total"] == 1


def test_same_move_from_two_tabs_commits_once(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    move_id = str(uuid.uuid4())
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: ana.move(table_id, 0, add(3), move_id=move_id).json(), range(4)))
    assert answers == [{"id": move_id, "version": 1}] * 4
    assert client.get(f"/api/games/{table_id}").json()["view"]["total"] == 3


def test_concurrent_different_moves_only_one_wins(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda amount: ana.move(table_id, 0, add(amount)), [1, 2, 3, 1]))
    winners = [a for a in answers if a.status_code == 200]
    assert len(winners) == 1
    assert {a.json()["error"]["code"] for a in answers if a.status_code != 200} <= {"stale_version", "not_your_turn"}
    assert game_version(client, table_id) == 1


def test_simultaneous_step_accepts_both_bids_with_same_version(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    assert ana.move(table_id, 0, {"type": "bid", "amount": 4}).json()["version"] == 1
    assert bo.move(table_id, 0, {"type": "bid", "amount": 2}).json()["version"] == 2
    state = client.get(f"/api/games/{table_id}").json()
    assert state["view"]["totals"] == [4, 2] and state["view"]["round"] == 2
    assert ana.move(table_id, 2, {"type": "bid", "amount": 1}).status_code == 200
    assert ana.move(table_id, 3, {"type": "bid", "amount": 1}).json()["error"]["code"] == "not_your_turn"


def test_a_bid_made_while_the_seat_had_nothing_to_do_is_stale_in_the_next_round(client):
    # docs/architecture.md: only another seat's move *in the same simultaneous step* is no reason to
    # refuse yours.  At version 1 Ana had bid and waited for Bo; Bo's bid (version 2) opened round 2.
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    assert ana.move(table_id, 0, {"type": "bid", "amount": 4}).json()["version"] == 1
    assert bo.move(table_id, 1, {"type": "bid", "amount": 2}).json()["version"] == 2
    late = ana.move(table_id, 1, {"type": "bid", "amount": 5}).json()
    assert late["error"]["code"] == "stale_version" and "moved on to version 2" in late["error"]["message"]
    state = client.get(f"/api/games/{table_id}").json()
    assert state["version"] == 2 and state["view"]["round"] == 2


def test_a_move_for_a_version_the_game_has_not_reached_says_so(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    error = ana.move(table_id, 5, add(1)).json()["error"]
    assert error["code"] == "stale_version"
    assert error["message"] == "the game is at version 0; your move was for version 5, which it has not reached"
    assert game_version(client, table_id) == 0


def test_heroes_refuses_a_move_sent_for_the_version_before_another_seats_turn(client):
    # Found by a fresh user: Heroes (a ruleset with simultaneous steps) took moves sent for an older
    # version in its turn-by-turn phases.  Play the seat to act's first legal move until a version
    # whose one seat to act was not to act at the version before; that seat's move for the older
    # version must be refused, and the game stay where it is.
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    players = [ana, bo]
    table_id = started_table(ana, [bo], ruleset="heroes")
    before = None
    for _ in range(200):
        seen = [player.get(f"/api/games/{table_id}").json() for player in players]
        acting = seen[0]["to_act"]
        if before is not None and len(acting) == 1 and acting[0] not in before["to_act"]:
            seat = acting[0]
            late = players[seat].move(table_id, before["version"], seen[seat]["legal"][0]).json()
            assert late["error"]["code"] == "stale_version"
            assert game_version(client, table_id) == seen[0]["version"]
            return
        seat = acting[0]
        before = seen[0]
        assert players[seat].move(table_id, seen[seat]["version"], seen[seat]["legal"][0]).status_code == 200
    raise AssertionError("no turn passed from one seat to another in 200 moves")


def test_pending_bid_hidden_from_others(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    ana.move(table_id, 0, {"type": "bid", "amount": 5})
    assert ana.get(f"/api/games/{table_id}").json()["view"]["my_bid"] == 5
    assert bo.get(f"/api/games/{table_id}").json()["view"]["my_bid"] is None
    assert client.get(f"/api/games/{table_id}").json()["view"]["my_bid"] is None


def play_to_end(client, table_id, ana, bo):
    players = [ana, bo]
    while True:
        state = client.get(f"/api/games/{table_id}").json()
        if state["status"] == "finished":
            return state
        seat = state["to_act"][0]
        amount = 1 if state["view"]["total"] == 7 else 3
        assert players[seat].move(table_id, state["version"], add(amount)).status_code == 200


def test_finished_game_has_result_and_refuses_moves(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    final = play_to_end(client, table_id, ana, bo)
    # 3+3 (6), 3 (9 by Ana), then Bo adds 3 -> 12: Bo wins at version 4.
    assert final["version"] == 4 and final["result"]["ranks"] == [2, 1]
    assert ana.move(table_id, 4, add(1)).json()["error"]["code"] == "illegal_move"


def test_replay_folds_moves_to_each_version(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    play_to_end(client, table_id, ana, bo)
    totals = [client.get(f"/api/games/{table_id}/replay", params={"version": v}).json()["view"]["total"]
              for v in range(5)]
    assert totals == [0, 3, 6, 9, 12]
    replayed = client.get(f"/api/games/{table_id}/replay", params={"version": 4}).json()
    assert replayed["view"] == {**client.get(f"/api/games/{table_id}").json()["view"]}
    assert client.get(f"/api/games/{table_id}/replay", params={"version": 9}).json()["error"]["code"] == "bad_request"


def test_private_log_entries_reach_only_their_seat(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ana.move(table_id, 0, add(1))
    word = ana.get(f"/api/games/{table_id}").json()["view"]["my_word"]
    assert any(word in entry["text"] for entry in ana.get(f"/api/games/{table_id}").json()["log"])
    for text in (bo.get(f"/api/games/{table_id}").text, client.get(f"/api/games/{table_id}").text,
                 client.get(f"/api/games/{table_id}/log").text,
                 client.get(f"/api/games/{table_id}/replay", params={"version": 1}).text):
        assert word not in text


def test_private_game_needs_invite_code_to_watch(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], private=True)
    code = ana.get(f"/api/tables/{table_id}").json()["invite_code"]
    assert client.get(f"/api/games/{table_id}").json()["error"]["code"] == "not_found"
    assert client.get(f"/api/games/{table_id}/log").json()["error"]["code"] == "not_found"
    assert client.get(f"/api/games/{table_id}", params={"invite_code": code}).json()["seat"] is None


def test_metrics_count_moves_and_games(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ana.move(table_id, 0, add(1))
    bo.move(table_id, 0, add(1))  # stale: refused
    text = client.get("/metrics").text
    assert "caravanserai_moves_committed_total 1.0" in text
    assert 'caravanserai_moves_refused_total{code="stale_version"} 1.0' in text
    assert "caravanserai_games_running 1.0" in text
    assert "caravanserai_move_seconds_count 1.0" in text
    assert client.get("/healthz").json()["status"] == "ok"

"""POST /api/tables/{id}/rematch and the ``rematch`` frame: the same table again, started at once."""

import concurrent.futures
import time

from sqlalchemy import update

from app.db.models import Table
from tests.support.players import Player, hello, receive_until, started_table

# Toy race to 10: Ana 3, Bo 3, Ana 3, Bo 1 -> Bo reaches 10 and wins.
WINNING_LINE = [3, 3, 3, 1]


def finish_toy_race(players, table_id):
    for version, amount in enumerate(WINNING_LINE):
        answer = players[version % 2].move(table_id, version, {"type": "add", "amount": amount})
        assert answer.status_code == 200, answer.text
    assert players[0].get(f"/api/games/{table_id}").json()["status"] == "finished"


def rematch(player, table_id):
    return player.post(f"/api/tables/{table_id}/rematch")


def force_finished(client, table_id):
    """Mark a game over without playing it (the rematch looks only at the status)."""
    async def finish():
        async with client.app.state.ctx.sessions() as session:
            await session.execute(update(Table).where(Table.id == table_id).values(status="finished"))
            await session.commit()
    client.portal.call(finish)
    client.app.state.ctx.cache.forget(table_id)


def test_rematch_copies_ruleset_options_privacy_time_control_and_seats(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    options = {"piles": "zman", "end_trigger": "immediate", "hide_well_values": False}
    created = ana.post("/api/tables", {"ruleset": "through-the-desert", "seats": 3, "options": options,
                                       "private": True, "move_seconds": 600, "chat_spectators": True}).json()
    old_id, code = created["id"], created["invite_code"]
    assert bo.post(f"/api/tables/{old_id}/join", {"seat": 2, "invite_code": code}).status_code == 200
    assert ana.post(f"/api/tables/{old_id}/bots", {"seat": 1, "level": "random"}).status_code == 200
    assert ana.post(f"/api/tables/{old_id}/start").status_code == 200
    force_finished(client, old_id)

    answer = rematch(bo, old_id)
    assert answer.status_code == 201
    new_id = answer.json()["id"]
    assert new_id != old_id and answer.json() == {"id": new_id, "invite_code": code}
    old, new = ana.get(f"/api/tables/{old_id}").json(), ana.get(f"/api/tables/{new_id}").json()
    assert old["rematch_id"] == new_id and new["rematch_of"] == old_id and new["rematch_id"] is None
    assert new["status"] == "running"  # (its bot may have moved already)
    assert new["ruleset"] == "through-the-desert" and new["options"] == old["options"]
    assert new["options"]["piles"] == "zman" and new["options"]["end_trigger"] == "immediate"
    assert new["private"] is True and new["invite_code"] == code
    assert new["time_control"] == {"move_seconds": 600, "pace": "live"} and new["chat_spectators"] is True
    assert [(s["seat"], s["account_id"], s["bot"], s["bot_level"]) for s in new["seats"]] == [
        (0, ana.id, False, None), (1, None, True, "random"), (2, bo.id, False, None)]
    assert new["creator_id"] == ana.id
    game = bo.get(f"/api/games/{new_id}").json()
    assert game["seat"] == 2 and game["status"] == "running"
    acting = game["to_act"]
    assert acting and all(game["players"][seat]["deadline"] is not None for seat in acting)
    assert client.get(f"/api/tables/{new_id}").json()["error"]["code"] == "not_found"  # still private


def test_a_resigned_player_plays_the_rematch_in_person(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    ana.move(table_id, 0, {"type": "add", "amount": 3})
    assert bo.post(f"/api/tables/{table_id}/resign").status_code == 200
    deadline = time.monotonic() + 30
    while (game := ana.get(f"/api/games/{table_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        if game["legal"]:
            ana.move(table_id, game["version"], game["legal"][0])
        time.sleep(0.02)
    new_id = rematch(bo, table_id).json()["id"]  # a resigned player is still a player of the game
    seats = ana.get(f"/api/tables/{new_id}").json()["seats"]
    assert [(s["account_id"], s["bot"], s["takeover"]) for s in seats] == [(ana.id, False, None), (bo.id, False, None)]


def test_rematch_is_idempotent(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    finish_toy_race([ana, bo], table_id)
    first = rematch(ana, table_id)
    assert first.status_code == 201
    new_id = first.json()["id"]
    again = [rematch(bo, table_id), rematch(ana, table_id)]
    assert [(a.status_code, a.json()["id"]) for a in again] == [(200, new_id), (200, new_id)]
    assert [t["id"] for t in ana.get("/api/tables/mine").json()] == [new_id, table_id]


def test_simultaneous_rematch_requests_make_one_table(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    finish_toy_race([ana, bo], table_id)
    askers = [ana, bo] * 3
    with concurrent.futures.ThreadPoolExecutor(len(askers)) as pool:
        answers = list(pool.map(lambda player: rematch(player, table_id), askers))
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 200, 200, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    assert len(ana.get("/api/tables/mine").json()) == 2


def test_rematch_refusals(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo])
    running = rematch(ana, table_id)
    assert running.status_code == 409 and running.json()["error"]["code"] == "conflict"
    open_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert rematch(ana, open_id).json()["error"]["code"] == "conflict"
    finish_toy_race([ana, bo], table_id)
    outsider = rematch(cy, table_id)
    assert outsider.status_code == 403 and outsider.json()["error"]["code"] == "not_seated"
    anonymous = client.post(f"/api/tables/{table_id}/rematch")
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
    assert rematch(ana, 4242).json()["error"]["code"] == "not_found"
    private_id = started_table(ana, [bo], private=True)
    finish_toy_race([ana, bo], private_id)
    assert rematch(cy, private_id).json()["error"]["code"] == "not_found"
    assert ana.get(f"/api/tables/{table_id}").json()["rematch_id"] is None  # nothing was created
    assert len(ana.get("/api/tables/mine").json()) == 3


def test_every_subscriber_of_the_old_game_hears_of_the_rematch(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    finish_toy_race([ana, bo], table_id)
    with ana.websocket(table_id) as ana_ws, bo.websocket(table_id) as bo_ws, \
            client.websocket_connect(f"/ws/games/{table_id}") as spectator:
        for ws in (ana_ws, bo_ws, spectator):
            assert hello(ws)["status"] == "finished"
        new_id = rematch(bo, table_id).json()["id"]
        for ws in (ana_ws, bo_ws, spectator):
            assert receive_until(ws, "rematch")[0] == {"type": "rematch", "table_id": new_id}
        rematch(ana, table_id)  # the same rematch: nobody is told twice
        ana_ws.send_json({"type": "ping"})
        assert [f for f in receive_until(ana_ws, "pong")[1] if f["type"] == "rematch"] == []
    with client.websocket_connect(f"/ws/games/{table_id}") as late:  # opened after the rematch began
        late.send_json({"type": "hello", "since": 0})
        frame, _ = receive_until(late, "rematch")
        assert frame == {"type": "rematch", "table_id": new_id}
    game = ana.get(f"/api/games/{new_id}").json()
    assert game["status"] == "running" and game["version"] == 0 and game["seat"] == 0

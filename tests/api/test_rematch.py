"""POST /api/tables/{id}/rematch and the ``rematch`` frame: the same table again, offered to the same
people; nobody is seated at a game they did not accept."""

import concurrent.futures
import time

from sqlalchemy import update

from app.db.models import Account, Table, utcnow
from tests.support.players import Player, hello, receive_until, started_table

# Toy race to 10: Ana 3, Bo 3, Ana 3, Bo 1 -> Bo reaches 10 and wins.
WINNING_LINE = [3, 3, 3, 1]


def finish_toy_race(players, table_id):
    for version, amount in enumerate(WINNING_LINE):
        answer = players[version % 2].move(table_id, version, {"type": "add", "amount": amount})
        assert answer.status_code == 200, answer.text
    assert players[0].get(f"/api/games/{table_id}").json()["status"] == "finished"


def play_out(player, table_id):
    """``player`` makes their moves (bots the others) until the game is over."""
    deadline = time.monotonic() + 30
    while (game := player.get(f"/api/games/{table_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        if game["legal"]:
            player.move(table_id, game["version"], game["legal"][0])
        time.sleep(0.02)


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
    old, new = ana.get(f"/api/tables/{old_id}").json(), bo.get(f"/api/tables/{new_id}").json()
    assert old["rematch_id"] == new_id and new["rematch_of"] == old_id and new["rematch_id"] is None
    assert new["status"] == "open"  # an offer: Ana has not accepted yet
    assert new["ruleset"] == "through-the-desert" and new["options"] == old["options"]
    assert new["options"]["piles"] == "zman" and new["options"]["end_trigger"] == "immediate"
    assert new["private"] is True and new["invite_code"] == code
    assert new["time_control"] == {"move_seconds": 600, "pace": "live"} and new["chat_spectators"] is True
    assert [(s["seat"], s["account_id"], s["bot"], s["bot_level"]) for s in new["seats"]] == [
        (0, None, False, None), (1, None, True, "random"), (2, bo.id, False, None)]
    held = new["seats"][0]["held_for"]
    assert (held["account_id"], held["name"]) == (ana.id, "Ana") and new["creator_id"] == bo.id  # the proposer hosts
    assert ana.post(f"/api/tables/{new_id}/join", {"invite_code": code}).json()["status"] == "running"  # she accepts
    new = ana.get(f"/api/tables/{new_id}").json()
    assert [(s["seat"], s["account_id"], s["held_for"]) for s in new["seats"]] == [
        (0, ana.id, None), (1, None, None), (2, bo.id, None)]
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
    play_out(ana, table_id)
    new_id = rematch(bo, table_id).json()["id"]  # a resigned player is still a player of the game
    assert rematch(ana, table_id).json()["id"] == new_id  # Ana accepts by asking too
    seats = ana.get(f"/api/tables/{new_id}").json()["seats"]
    assert [(s["account_id"], s["bot"], s["takeover"]) for s in seats] == [(ana.id, False, None), (bo.id, False, None)]


def test_rematch_is_idempotent(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    finish_toy_race([ana, bo], table_id)
    first = rematch(ana, table_id)
    assert first.status_code == 201
    new_id = first.json()["id"]
    again = [rematch(bo, table_id), rematch(ana, table_id), rematch(bo, table_id)]
    assert [(a.status_code, a.json()["id"]) for a in again] == [(200, new_id), (200, new_id), (200, new_id)]
    assert [t["id"] for t in ana.get("/api/tables/mine").json()] == [new_id, table_id]
    assert ana.get(f"/api/tables/{new_id}").json()["status"] == "running"  # Bo's first request accepted it


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
    new = ana.get(f"/api/tables/{answers[0].json()['id']}").json()
    assert new["status"] == "running" and {s["account_id"] for s in new["seats"]} == {ana.id, bo.id}


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


def three_finished(client, private=False):
    """Ana, Ben and Cleo at a finished toy-sealed-bids table (3 seats)."""
    ana, ben, cleo = Player(client, "Ana"), Player(client, "Ben"), Player(client, "Cleo")
    table_id = started_table(ana, [ben, cleo], ruleset="toy-sealed-bids", private=private)
    force_finished(client, table_id)
    return (ana, ben, cleo), table_id


def test_an_offer_seats_only_those_who_accept_and_the_proposer_starts_with_bots_for_the_others(client):
    (ana, ben, cleo), old_id = three_finished(client)
    new_id = rematch(ana, old_id).json()["id"]
    invited = {s["held_for"]["account_id"] for s in ana.get(f"/api/tables/{new_id}").json()["seats"] if s["held_for"]}
    assert invited == {ben.id, cleo.id}
    for person in (ben, cleo):  # each sees the offer among their invitations, from Ana
        offers = person.get("/api/friends").json()["invitations"]
        assert [(o["table_id"], o["from"]["name"]) for o in offers] == [(new_id, "Ana")]
    dan = Player(client, "Dan")  # a held seat is nobody else's
    assert dan.post(f"/api/tables/{new_id}/join", {"seat": 1}).json()["error"]["code"] == "table_full"
    assert dan.post(f"/api/tables/{new_id}/join").json()["error"]["code"] == "table_full"
    waiting = ana.post(f"/api/tables/{new_id}/start")
    assert waiting.status_code == 409 and "waiting for Ben, Cleo to accept" in waiting.json()["error"]["message"]

    assert ben.post(f"/api/tables/{new_id}/join").json()["status"] == "open"  # Ben accepts: still waiting for Cleo
    cleo_offer = cleo.get("/api/friends").json()["invitations"][0]["id"]
    assert cleo.client.delete(f"/api/invitations/{cleo_offer}", headers=cleo.headers).status_code == 200  # declines
    table = ana.get(f"/api/tables/{new_id}").json()
    assert table["status"] == "open" and [(s["account_id"], s["held_for"]) for s in table["seats"]] == [
        (ana.id, None), (ben.id, None), (None, None)]
    started = ana.post(f"/api/tables/{new_id}/start", {"empty_seats": "bots"})
    assert started.status_code == 200, started.text
    seats = started.json()["seats"]
    assert started.json()["status"] == "running"
    assert [(s["account_id"], s["bot"]) for s in seats] == [(ana.id, False), (ben.id, False), (None, True)]
    assert cleo.get(f"/api/games/{new_id}").json()["seat"] is None  # Cleo watches at most


def test_the_proposer_may_start_with_fewer_seats_where_the_game_allows(client):
    (ana, ben, cleo), old_id = three_finished(client)
    new_id = rematch(ana, old_id).json()["id"]
    assert ben.post(f"/api/tables/{new_id}/join").status_code == 200
    started = ana.post(f"/api/tables/{new_id}/start", {"empty_seats": "fewer"})  # Cleo did not answer
    assert started.status_code == 200, started.text
    assert [(s["seat"], s["account_id"]) for s in started.json()["seats"]] == [(0, ana.id), (1, ben.id)]
    assert cleo.get("/api/friends").json()["invitations"] == []  # her offer is gone with the seat
    assert ben.get(f"/api/games/{new_id}").json()["seat"] == 1


def test_fewer_seats_than_the_game_takes_is_refused_and_changes_nothing(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    finish_toy_race([ana, bo], table_id)
    new_id = rematch(ana, table_id).json()["id"]
    refused = ana.post(f"/api/tables/{new_id}/start", {"empty_seats": "fewer"})
    assert refused.status_code == 400 and "at least 2 players" in refused.json()["error"]["message"]
    assert ana.post(f"/api/tables/{new_id}/start", {"empty_seats": "nobody"}).status_code == 400
    table = ana.get(f"/api/tables/{new_id}").json()
    assert table["status"] == "open" and table["seats"][1]["held_for"]["account_id"] == bo.id


def test_a_rematch_seats_no_deleted_or_banned_account_and_starts_when_nobody_is_left_to_ask(client):
    (ana, ben, cleo), old_id = three_finished(client)
    assert ben.post("/api/account/delete", {}).status_code == 200

    async def ban():
        async with client.app.state.ctx.sessions() as session:
            await session.execute(update(Account).where(Account.id == cleo.id).values(banned_at=utcnow()))
            await session.commit()
    client.portal.call(ban)
    answer = rematch(ana, old_id)
    assert answer.status_code == 201
    table = ana.get(f"/api/tables/{answer.json()['id']}").json()
    assert table["status"] == "running"  # nobody to wait for: Ana asked for it
    assert [(s["account_id"], s["bot"], s["held_for"]) for s in table["seats"]] == [
        (ana.id, False, None), (None, True, None), (None, True, None)]


def test_a_former_opponent_cannot_rate_you_through_a_rematch(client):
    """The attack: Ana asks for a rematch, waits until Vic would count as away, hands his seat to a
    bot and plays it out.  Vic never accepted, so he has no seat, nothing to hand over, no rating change."""
    ana, vic = Player(client, "Ana"), Player(client, "Vic")
    table_id = started_table(ana, [vic])
    finish_toy_race([ana, vic], table_id)
    rating_before = ana.get(f"/api/tables/{table_id}/ratings").json()["seats"][1]["rating"]
    new_id = rematch(ana, table_id).json()["id"]
    handed = ana.post(f"/api/tables/{new_id}/bots", {"seat": 1, "level": "default"})  # an open table: the host's bot
    assert handed.status_code == 200 and handed.json()["seats"][1]["account_id"] is None
    started = ana.post(f"/api/tables/{new_id}/start").json()
    assert started["status"] == "running" and vic.id not in [s["account_id"] for s in started["seats"]]
    assert vic.get("/api/friends").json()["invitations"] == []  # the seat went to a bot: the offer is withdrawn
    play_out(ana, new_id)
    ratings = ana.get(f"/api/tables/{new_id}/ratings").json()["seats"]
    assert [seat["account_id"] for seat in ratings] == [ana.id]  # one person: nothing rated
    assert ana.get(f"/api/tables/{table_id}/ratings").json()["seats"][1]["rating"] == rating_before

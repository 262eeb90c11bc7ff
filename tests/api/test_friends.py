"""Friends: following, the Friends list (online, running games), invitations to
a table, and blocking (chat hidden, invitations refused); every refusal changes nothing."""

from __future__ import annotations

from tests.support.players import Player, hello, receive_until, started_table


def error_of(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_follow_unfollow_and_the_refusals(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    answer = ana.post(f"/api/players/{bo.id}/follow")
    assert (answer.status_code, answer.json()) == (201, {"following": True, "blocked": False})
    assert error_of(ana.post(f"/api/players/{bo.id}/follow")) == (409, "conflict")  # twice
    assert error_of(ana.post(f"/api/players/{ana.id}/follow")) == (400, "bad_request")  # oneself
    assert error_of(ana.post("/api/players/999999/follow")) == (404, "not_found")
    assert error_of(client.post(f"/api/players/{bo.id}/follow")) == (401, "unauthorized")
    assert [friend["id"] for friend in ana.get("/api/friends").json()["friends"]] == [bo.id]  # nothing changed
    assert ana.get(f"/api/players/{bo.id}").json()["following"] is True
    assert bo.get(f"/api/players/{ana.id}").json()["following"] is False  # following is one way
    assert ana.client.delete(f"/api/players/{bo.id}/follow", headers=ana.headers).json() == {
        "following": False, "blocked": False}
    assert error_of(ana.client.delete(f"/api/players/{bo.id}/follow", headers=ana.headers)) == (404, "not_found")
    assert ana.get("/api/friends").json() == {"friends": [], "invitations": [], "blocked": []}


def test_the_friends_list_shows_who_is_online_and_the_running_games_one_may_see(client):
    ana, bo, cy, di = (Player(client, name) for name in ("Ana", "Bo", "Cy", "Di"))
    for friend in (cy, bo):
        assert ana.post(f"/api/players/{friend.id}/follow").status_code == 201
    public = started_table(bo, [cy])
    hidden = started_table(bo, [di], private=True)  # Ana is not at this private game
    shared = started_table(ana, [bo], private=True)  # ... but plays this one
    assert hidden and not [friend for friend in ana.get("/api/friends").json()["friends"] if friend["online"]]

    with cy.websocket(public) as socket:
        hello(socket)  # a tab of Cy's has a game open
        friends = ana.get("/api/friends").json()["friends"]
    assert [(friend["name"], friend["online"]) for friend in friends] == [("Cy", True), ("Bo", False)]
    assert [(game["id"], game["title"], game["private"]) for game in friends[1]["games"]] == [
        (shared, "Toy race", True), (public, "Toy race", False)]
    assert [game["id"] for game in friends[0]["games"]] == [public]


def test_inviting_a_friend_to_a_table_and_every_refusal(client):
    ana, bo, cy, di = (Player(client, name) for name in ("Ana", "Bo", "Cy", "Di"))
    for friend in (bo, di):
        assert ana.post(f"/api/players/{friend.id}/follow").status_code == 201
    created = ana.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3, "private": True}).json()
    table_id = created["id"]
    answer = ana.post(f"/api/tables/{table_id}/invitations", {"account_id": bo.id})
    assert answer.status_code == 201
    assert answer.json() | {"id": None} == {"id": None, "table_id": table_id, "invitee": {"id": bo.id, "name": "Bo"}}

    [invitation] = bo.get("/api/friends").json()["invitations"]
    assert invitation | {"id": None, "at": None, "table": None} == {
        "id": None, "at": None, "table_id": table_id, "ruleset": "toy-sealed-bids", "title": "Toy sealed bids",
        "private": True, "invite_code": created["invite_code"], "from": {"id": ana.id, "name": "Ana"},
        "free_seats": 2, "seat": None, "rematch": False, "table": None,
        "terms": "Ana and 2 free seats · live · no time limit · rated · standard options"}
    assert invitation["table"]["id"] == table_id and invitation["table"]["seats"][0]["account_id"] == ana.id
    assert bo.get("/api/invitations").json() == [invitation]  # the page header's notice reads the same

    refusals = [
        (ana, {"account_id": bo.id}, (409, "conflict")),  # invited already
        (ana, {"account_id": ana.id}, (400, "bad_request")),  # oneself
        (ana, {"account_id": cy.id}, (403, "forbidden")),  # not a friend (Ana does not follow Cy)
        (ana, {"account_id": 999999}, (404, "not_found")),
        (cy, {"account_id": bo.id}, (404, "not_found")),  # a private table Cy does not belong to
        (ana, {"account_id": 0}, (400, "bad_request")),
    ]
    for inviter, body, expected in refusals:
        assert error_of(inviter.post(f"/api/tables/{table_id}/invitations", body)) == expected, body
    assert assert_no_invitations(cy) and assert_no_invitations(di)

    # Bo accepts: the invitation carries the private table's code; once seated, it is gone.
    assert bo.post(f"/api/tables/{table_id}/join", {"invite_code": invitation["invite_code"]}).status_code == 200
    assert bo.get("/api/friends").json()["invitations"] == []
    # Di blocked Ana: Ana's invitation is refused.  Then the table fills up.
    assert di.post(f"/api/players/{ana.id}/block").status_code == 201
    assert error_of(ana.post(f"/api/tables/{table_id}/invitations", {"account_id": di.id})) == (403, "forbidden")
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 2, "level": "random"}).status_code == 200
    assert di.client.delete(f"/api/players/{ana.id}/block", headers=di.headers).status_code == 200
    assert error_of(ana.post(f"/api/tables/{table_id}/invitations", {"account_id": di.id})) == (409, "table_full")
    assert_no_invitations(di)

    # A public table: only its players may invite.
    public = cy.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert error_of(ana.post(f"/api/tables/{public}/invitations", {"account_id": bo.id})) == (403, "not_seated")


def assert_no_invitations(player: Player) -> bool:
    assert player.get("/api/friends").json()["invitations"] == []
    return True


def test_declining_and_withdrawing_invitations(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    assert ana.post(f"/api/players/{bo.id}/follow").status_code == 201
    table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    invitation = ana.post(f"/api/tables/{table_id}/invitations", {"account_id": bo.id}).json()["id"]
    assert error_of(Player(client, "Cy").client.delete(f"/api/invitations/{invitation}")) == (401, "unauthorized")
    assert bo.client.delete(f"/api/invitations/{invitation}", headers=bo.headers).json() == {}
    assert error_of(bo.client.delete(f"/api/invitations/{invitation}", headers=bo.headers)) == (404, "not_found")
    assert bo.get("/api/friends").json()["invitations"] == []


def test_blocking_hides_the_blocked_players_chat_and_their_pending_invitations(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    assert ana.post(f"/api/players/{bo.id}/follow").status_code == 201
    waiting = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    assert ana.post(f"/api/tables/{waiting}/invitations", {"account_id": bo.id}).status_code == 201
    assert bo.post(f"/api/players/{ana.id}/follow").status_code == 201

    answer = bo.post(f"/api/players/{ana.id}/block")
    assert (answer.status_code, answer.json()) == (201, {"following": False, "blocked": True})  # no longer following
    assert error_of(bo.post(f"/api/players/{ana.id}/block")) == (409, "conflict")
    assert error_of(bo.post(f"/api/players/{bo.id}/block")) == (400, "bad_request")
    assert error_of(bo.post(f"/api/players/{ana.id}/follow")) == (409, "conflict")  # unblock first
    listed = bo.get("/api/friends").json()
    assert (listed["friends"], listed["invitations"], listed["blocked"]) == ([], [], [{"id": ana.id, "name": "Ana"}])

    table_id = started_table(ana, [bo, cy], ruleset="toy-sealed-bids")
    with bo.websocket(table_id) as socket:
        hello(socket)
        assert ana.post(f"/api/tables/{table_id}/chat", {"text": "hello all"}).status_code == 201
        assert cy.post(f"/api/tables/{table_id}/chat", {"text": "hi"}).status_code == 201
        frame, _ = receive_until(socket, "chat")
        assert (frame["message"]["name"], frame["message"]["text"]) == ("Cy", "hi")  # Ana's line never came
    assert [line["text"] for line in bo.get(f"/api/tables/{table_id}/chat").json()["messages"]] == ["hi"]
    assert [line["text"] for line in cy.get(f"/api/tables/{table_id}/chat").json()["messages"]] == ["hello all", "hi"]
    assert cy.get(f"/api/tables/{table_id}/chat").json()["messages"][0]["account_id"] == ana.id

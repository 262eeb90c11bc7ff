"""``GET /api/players/{id}``: a player's games with results (the profile page)."""

from tests.support.players import Player, started_table


def play_to_the_end(ana: Player, bo: Player, table_id: int) -> None:
    """toy-race: 3, 3, 1, 1, 2 brings the total to 10 on Ana's third move: Ana wins 1 - 0."""
    for version, (player, amount) in enumerate([(ana, 3), (bo, 3), (ana, 1), (bo, 1), (ana, 2)]):
        assert player.move(table_id, version, {"type": "add", "amount": amount}).status_code == 200


def test_profile_lists_running_and_finished_games_with_places(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    finished = started_table(ana, [bo])
    play_to_the_end(ana, bo, finished)
    running = started_table(cy, [ana])
    open_table = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]

    profile = cy.get(f"/api/players/{ana.id}").json()
    assert (profile["id"], profile["name"], profile["guest"]) == (ana.id, "Ana", True)
    assert [game["id"] for game in profile["games"]] == [running, finished]  # newest first, no open table
    assert open_table not in [game["id"] for game in profile["games"]]
    by_id = {game["id"]: game for game in profile["games"]}
    assert by_id[finished]["outcome"] == {"place": 1, "score": 1, "players": 2, "shared": False,
                                          "abandoned_from": None}
    assert by_id[finished]["seat"] == 0 and by_id[running]["seat"] == 1
    assert by_id[running]["outcome"] is None and by_id[running]["status"] == "running"
    assert (profile["played"], profile["won"]) == (1, 1)

    bo_profile = client.get(f"/api/players/{bo.id}").json()  # anyone may look, signed in or not
    assert bo_profile["games"][0]["outcome"] == {"place": 2, "score": 0, "players": 2, "shared": False,
                                                "abandoned_from": None}
    assert (bo_profile["played"], bo_profile["won"]) == (1, 0)


def test_private_games_show_only_on_the_players_own_profile(client):
    ana, bo, eve = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Eve")
    private = started_table(ana, [bo], private=True)
    assert [game["id"] for game in ana.get(f"/api/players/{ana.id}").json()["games"]] == [private]
    assert ana.get(f"/api/players/{ana.id}").json()["games"][0]["invite_code"]
    for viewer in (eve, bo):  # bo is seated there, but it is Ana's profile page
        assert viewer.get(f"/api/players/{ana.id}").json()["games"] == []
    assert client.get(f"/api/players/{ana.id}").json()["games"] == []


def test_unknown_or_malformed_player_ids_are_clear_errors(client):
    assert client.get("/api/players/999999").status_code == 404
    assert client.get("/api/players/999999").json()["error"]["code"] == "not_found"
    for path in ("/api/players/0", "/api/players/abc", "/api/players/99999999999999999999"):
        response = client.get(path)
        assert response.status_code in (400, 404, 422) and "error" in response.json(), path


def test_player_page_is_served(client):
    ana = Player(client, "Ana")
    response = client.get(f"/players/{ana.id}")
    assert response.status_code == 200 and "player.js" in response.text

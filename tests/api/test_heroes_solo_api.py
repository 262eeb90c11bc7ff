"""A solo Heroes table over REST: one seat, the Enemy played by the server inside the move that
hands it the turn, its steps in the public log, its deck order in no view (spec 1.12)."""

from tests.support.players import Player, started_table


def test_a_solo_table_starts_with_one_seat_and_the_enemy_moves_with_your_move(client):
    ana = Player(client, "Ana")
    table_id = started_table(ana, [], ruleset="heroes")
    mine = ana.get(f"/api/games/{table_id}").json()
    assert mine["to_act"] == [0] and mine["view"]["phase"] == "nomad_move"
    assert mine["view"]["solo"]["deck_size"] == 7 and "deck" not in mine["view"]["solo"]
    move = mine["legal"][0]
    response = ana.move(table_id, mine["version"], move)
    assert response.status_code == 200, response.text
    log = [entry["text"] for entry in client.get(f"/api/games/{table_id}/log").json()]
    assert log[0].startswith("The first Nomad goes on West Capital") and log[1].startswith("The Enemy draws card")
    assert log[2].startswith("Ana moves the Nomad from West Capital")
    assert any(line.startswith("The Enemy (Hero 1, card ") for line in log)
    spectator = client.get(f"/api/games/{table_id}").json()
    assert "deck" not in spectator["view"]["solo"] and spectator["to_act"] == [0]
    assert [player["name"] for player in spectator["players"]] == ["Ana"]


def test_a_move_naming_the_south_is_refused_and_changes_nothing(client):
    ana = Player(client, "Ana")
    table_id = started_table(ana, [], ruleset="heroes")
    before = ana.get(f"/api/games/{table_id}").json()
    bad = {"type": "move_nomad", "origin": "W_capital", "destination": "S_desert"}
    response = ana.move(table_id, before["version"], bad)
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "illegal_move"
    assert "no region 'S_desert'" in response.json()["error"]["message"]
    assert ana.get(f"/api/games/{table_id}").json()["version"] == before["version"]


def test_a_solo_replay_shows_the_enemys_steps_and_never_its_deck(client):
    ana = Player(client, "Ana")
    table_id = started_table(ana, [], ruleset="heroes")
    for _ in range(3):
        game = ana.get(f"/api/games/{table_id}").json()
        assert ana.move(table_id, game["version"], game["legal"][0]).status_code == 200
    now = client.get(f"/api/games/{table_id}").json()
    replayed = client.get(f"/api/games/{table_id}/replay", params={"version": now["version"]}).json()
    assert replayed["view"] == now["view"]  # the Enemy's steps fold back exactly from the moves
    start = client.get(f"/api/games/{table_id}/replay", params={"version": 0}).json()
    assert start["view"]["phase"] == "nomad_move" and "deck" not in start["view"]["solo"]

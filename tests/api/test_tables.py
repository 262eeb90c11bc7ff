"""/api/tables and /api/rulesets: the lobby, its rules and its refusals."""

import concurrent.futures

from tests.support.players import Player


def create(player, **body):
    return player.post("/api/tables", {"ruleset": "toy-race", "seats": 2, **body})


def test_rulesets_list_has_options_schema(client):
    names = {entry["name"]: entry for entry in client.get("/api/rulesets").json()}
    assert names["toy-race"]["min_players"] == 2 and names["toy-race"]["max_players"] == 2
    assert names["toy-race"]["options_schema"]["type"] == "object"
    assert names["toy-race"]["summary"] == "" and names["toy-race"]["minutes"] is None  # not declared
    nomadi = names["nomadi"]  # a game's card in the lobby: one line and a typical length
    assert nomadi["summary"].startswith("Roll six dice") and nomadi["minutes"] == [30, 60]


def test_create_seats_creator_and_lists_public_table(client):
    ana = Player(client, "Ana")
    created = create(ana)
    assert created.status_code == 201 and created.json()["invite_code"] is None
    table = client.get(f"/api/tables/{created.json()['id']}").json()
    assert table["status"] == "open"
    assert [seat["name"] for seat in table["seats"]] == ["Ana", None]
    assert [t["id"] for t in client.get("/api/tables").json()] == [created.json()["id"]]


def test_create_refuses_unknown_ruleset_bad_seats_and_bad_options(client):
    ana = Player(client, "Ana")
    assert create(ana, ruleset="chess").json()["error"]["code"] == "not_found"
    assert create(ana, seats=3).json()["error"]["code"] == "bad_request"
    refused = create(ana, options={"colour": "blue"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request"
    assert client.get("/api/tables").json() == []


def test_create_converts_no_option_of_any_game(client):
    """docs/api.md, "Errors": a switch or a number written as another JSON type is refused, naming the
    option, and no table is made; the same options written as their types make one."""
    ana = Player(client, "Ana")
    wrong = {
        "nomadi": [("trading", "yes"), ("trading", 1), ("turn_limit", 20.0), ("turn_limit", "50")],
        "nimalia": [("first_game", "yes"), ("first_game", 1)],
        "through-the-desert": [("hide_well_values", "no"), ("hide_well_values", 0)],
        "heroes": [("round_limit", 5.0), ("round_limit", "5"), ("edition", 1)],
    }
    for ruleset, options in wrong.items():
        for name, value in options:
            refused = create(ana, ruleset=ruleset, options={name: value})
            assert refused.status_code == 400, (ruleset, name, value, refused.json())
            assert refused.json()["error"]["code"] == "bad_request"
            assert f"bad option {name}:" in refused.json()["error"]["message"]
    assert client.get("/api/tables").json() == []
    made = [create(ana, ruleset="nomadi", options={"trading": True, "turn_limit": 50}),
            create(ana, ruleset="nimalia", options={"first_game": True}),
            create(ana, ruleset="through-the-desert", options={"hide_well_values": False}),
            create(ana, ruleset="heroes", options={"round_limit": 5, "edition": "core"})]
    assert [response.status_code for response in made] == [201] * 4
    options = {table["ruleset"]: table["options"] for table in client.get("/api/tables").json()}
    assert options["nomadi"]["trading"] is True and options["nomadi"]["turn_limit"] == 50
    assert options["heroes"]["round_limit"] == 5


def test_create_needs_login(client):
    response = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2})
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized"


def test_join_full_table_and_twice(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = create(ana).json()["id"]
    assert ana.post(f"/api/tables/{table_id}/join").json()["error"]["code"] == "conflict"
    assert bo.post(f"/api/tables/{table_id}/join").status_code == 200
    full = cy.post(f"/api/tables/{table_id}/join")
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
    assert cy.post(f"/api/tables/{table_id}/join", {"seat": 7}).json()["error"]["code"] == "bad_request"


def test_simultaneous_joins_take_each_seat_once(client):
    ana = Player(client, "Ana")
    table_id = create(ana, ruleset="toy-sealed-bids", seats=3).json()["id"]
    players = [Player(client, f"P{index}") for index in range(6)]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        codes = list(pool.map(lambda p: p.post(f"/api/tables/{table_id}/join").status_code, players))
    assert sorted(codes) == [200, 200, 409, 409, 409, 409]
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert len({seat["account_id"] for seat in seats}) == 3


def test_start_only_by_creator_when_full_and_once(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = create(ana).json()["id"]
    assert ana.post(f"/api/tables/{table_id}/start").json()["error"]["code"] == "conflict"
    bo.post(f"/api/tables/{table_id}/join")
    assert bo.post(f"/api/tables/{table_id}/start").json()["error"]["code"] == "forbidden"
    assert ana.post(f"/api/tables/{table_id}/start").json()["status"] == "running"
    again = ana.post(f"/api/tables/{table_id}/start")
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
    left = bo.post(f"/api/tables/{table_id}/leave").json()  # a running game: a bot plays for Bo
    assert left["seats"][1]["takeover"] == "left" and left["seats"][1]["name"] == "Bo"


def test_leave_frees_seat_and_creator_leaving_closes(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = create(ana).json()["id"]
    bo.post(f"/api/tables/{table_id}/join")
    assert [s["name"] for s in bo.post(f"/api/tables/{table_id}/leave").json()["seats"]] == ["Ana", None]
    assert bo.post(f"/api/tables/{table_id}/leave").json()["error"]["code"] == "not_seated"
    assert ana.post(f"/api/tables/{table_id}/leave").json()["status"] == "closed"
    assert client.get("/api/tables").json() == []


def test_private_table_needs_invite_code(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    created = create(ana, private=True).json()
    table_id, code = created["id"], created["invite_code"]
    assert code
    assert client.get("/api/tables").json() == []
    assert client.get(f"/api/tables/{table_id}").json()["error"]["code"] == "not_found"
    assert bo.post(f"/api/tables/{table_id}/join", {"invite_code": "wrong"}).json()["error"]["code"] == "not_found"
    joined = bo.post(f"/api/tables/{table_id}/join", {"invite_code": code})
    assert joined.status_code == 200 and joined.json()["invite_code"] == code
    spectator_view = client.get(f"/api/tables/{table_id}", params={"invite_code": code}).json()
    assert spectator_view["id"] == table_id and spectator_view["invite_code"] is None


def test_unknown_ids_and_malformed_bodies(client):
    ana = Player(client, "Ana")
    assert client.get("/api/tables/999").json()["error"]["code"] == "not_found"
    assert ana.post("/api/tables/999/join").json()["error"]["code"] == "not_found"
    assert client.get("/api/tables/abc").json()["error"]["code"] == "bad_request"
    raw = client.post("/api/tables", content=b"{not json", headers={**ana.headers, "content-type": "application/json"})
    assert raw.status_code == 400 and raw.json()["error"]["code"] == "bad_request"
    huge = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2, "options": {"x": "y" * 100_000}})
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "bad_request"
    assert client.get("/api/nothing-here").json()["error"]["code"] == "not_found"


def test_mine_lists_own_private_and_finished_tables(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    private_id = create(ana, private=True).json()["id"]
    public_id = create(bo).json()["id"]
    ana.post(f"/api/tables/{public_id}/join")
    assert [t["id"] for t in ana.get("/api/tables/mine").json()] == [public_id, private_id]
    assert [t["id"] for t in bo.get("/api/tables/mine").json()] == [public_id]
    assert client.get("/api/tables/mine").json()["error"]["code"] == "unauthorized"


def test_same_names_at_one_table_are_told_apart(client):
    first, second = Player(client, "Carol"), Player(client, "Carol")
    table_id = create(first).json()["id"]
    names = [seat["name"] for seat in second.post(f"/api/tables/{table_id}/join").json()["seats"]]
    assert names == ["Carol (seat 1)", "Carol (seat 2)"]


def test_unknown_pages_get_a_page_and_unknown_api_paths_json(client):
    page = client.get("/no-such-page", headers={"accept": "text/html"})
    assert page.status_code == 404 and "Back to the lobby" in page.text
    # a table or player page that names no row: the page explains itself, with a 404 for everything else
    ana = Player(client, "Ana")
    table_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    for path in ("/tables/abc", "/tables/999999", "/tables/0", "/tables/99999999999999999999", "/tables/１",
                 "/players/999999", "/players/abc"):
        page = client.get(path, headers={"accept": "text/html"})
        assert page.status_code == 404 and "<html" in page.text, path
    assert client.get(f"/tables/{table_id}").status_code == 200
    assert client.get(f"/players/{ana.id}").status_code == 200
    assert client.get("/api/nope", headers={"accept": "text/html"}).json()["error"]["code"] == "not_found"


def test_abandoned_open_tables_expire_from_the_lobby(client):
    from datetime import timedelta

    from sqlalchemy import update

    from app.db.models import Table, utcnow
    from app.services.leader.housekeeping import expire_open_tables

    ana = Player(client, "Ana")
    old_id, new_id = create(ana).json()["id"], create(ana).json()["id"]
    ctx = client.app.state.ctx

    async def age_and_sweep():
        async with ctx.sessions() as session:
            await session.execute(update(Table).where(Table.id == old_id).values(created_at=utcnow() - timedelta(days=2)))
            await session.commit()
        return await expire_open_tables(ctx, timedelta(hours=24))

    assert client.portal.call(age_and_sweep) == 1
    assert [t["id"] for t in client.get("/api/tables").json()] == [new_id]

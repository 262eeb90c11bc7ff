"""Ratings per game: rated and friendly tables, openskill's numbers, the result,
profile and leaderboard, and recomputation from the stored games."""

from __future__ import annotations

import concurrent.futures
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from app.cli import main as cli_main
from app.db.models import Rating, Seat, utcnow
from app.main import create_app
from app.services.accounts import ratings
from tests.conftest import TOY_RULESETS, call_in_thread, make_settings
from tests.support.players import Player, hello, started_table
from tests.support.polling import poll

PODIUM = "tests.support.toy_rulesets:ToyPodium"


@pytest.fixture
def client(database_url):
    """A test app that also offers ``toy-podium`` (1-5 seats, equal scores share a place)."""
    settings = make_settings(database_url).model_copy(update={"extra_rulesets": TOY_RULESETS + [PODIUM]})
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def podium(players: list[Player], points: list[int], **extra) -> int:
    """A toy-podium game of ``players`` (seat order) in which each scores ``points``; played to the end."""
    table_id = started_table(players[0], players[1:], ruleset="toy-podium", **extra)
    for version, (player, score) in enumerate(zip(players, points)):
        answer = player.move(table_id, version, {"type": "score", "points": score})
        assert answer.status_code == 200, answer.text
    return table_id


def stored(client) -> dict[tuple[int, str], tuple[float, float, int]]:
    async def read():
        async with client.app.state.ctx.sessions() as session:
            return {(row.account_id, row.ruleset): (row.mu, row.sigma, row.games)
                    for row in await session.scalars(select(Rating))}
    return client.portal.call(read)


def recompute(client, write: bool) -> ratings.Recomputed:
    async def run():
        async with client.app.state.ctx.sessions() as session:
            return await ratings.recompute(session, client.app.state.ctx.registry, write=write)
    return client.portal.call(run)


def test_a_first_two_player_game_moves_both_ratings_by_openskills_numbers(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = podium([ana, bo], [2, 0])
    # Plackett-Luce, both at mu 25, sigma 25/3 (+ tau 25/300): c = sqrt(2 (sigma^2 + tau^2 + beta^2)) = 13.177,
    # p(win) = 1/2, so mu moves by (sigma^2 + tau^2) / c / 2 = 2.6354; sigma to 8.0659.
    # Shown: 1000 + 40 (mu - 3 sigma): 1000 + 40 (27.6354 - 24.1977) = 1138; 1000 + 40 (22.3646 - 24.1977) = 927.
    answer = bo.get(f"/api/tables/{table_id}/ratings").json()
    assert answer["rated"] is True
    assert [(s["seat"], s["account_id"], s["rating"], s["games"]) for s in answer["seats"]] == [
        (0, ana.id, 1138, 1), (1, bo.id, 927, 1)]
    assert answer["seats"][0]["change"] | {"at": None} == {
        "table_id": table_id, "seat": 0, "place": 1, "before": 1000, "after": 1138, "delta": 138, "at": None}
    assert answer["seats"][1]["change"]["delta"] == -73
    mu, sigma, games = stored(client)[(ana.id, "toy-podium")]
    assert (round(mu, 4), round(sigma, 4), games) == (27.6354, 8.0659, 1)


def test_rated_games_between_four_accounts_agree_with_openskill_and_with_recomputation(client):
    ana, bo, cy, di = (Player(client, name) for name in ("Ana", "Bo", "Cy", "Di"))
    played = [  # (players in seat order, their scores): places follow the scores, equal ones shared
        ([ana, bo, cy, di], [2, 1, 1, 0]),
        ([bo, di], [1, 1]),
        ([cy, ana, di], [0, 2, 1]),
        ([di, cy, bo, ana], [2, 2, 0, 1]),
        ([ana, bo, cy, di], [0, 1, 2, 2]),
    ]
    for players, points in played:
        podium(players, points)
    podium([ana, bo], [0, 2], rated=False)  # friendly: changes nothing
    cy_alone = cy.post("/api/tables", {"ruleset": "toy-podium", "seats": 1}).json()["id"]
    assert cy.get(f"/api/tables/{cy_alone}").json()["rated"] is False  # a solo table is friendly by default

    model = PlackettLuce()
    expected = {player.id: model.rating() for player in (ana, bo, cy, di)}
    for players, points in played:
        places = [1 + sum(other > mine for other in points) for mine in points]
        rated = model.rate([[expected[player.id]] for player in players], ranks=places)
        for player, team in zip(players, rated):
            expected[player.id] = team[0]
    games = {ana.id: 4, bo.id: 4, cy.id: 4, di.id: 5}
    assert stored(client) == {(account_id, "toy-podium"): (rating.mu, rating.sigma, games[account_id])
                              for account_id, rating in expected.items()}

    board = client.get("/api/rulesets/toy-podium/leaderboard").json()
    shown = {account_id: round(rating.ordinal(alpha=40, target=1000)) for account_id, rating in expected.items()}
    assert [entry["account_id"] for entry in board] == sorted(shown, key=lambda account_id: -shown[account_id])
    assert [(entry["rank"], entry["rating"], entry["games"]) for entry in board] == [
        (rank, shown[entry["account_id"]], games[entry["account_id"]]) for rank, entry in enumerate(board, start=1)]
    assert board[0]["name"] in ("Ana", "Bo", "Cy", "Di")

    profile = client.get(f"/api/players/{ana.id}").json()
    [podium_rating] = profile["ratings"]
    assert (podium_rating["ruleset"], podium_rating["title"], podium_rating["games"]) == ("toy-podium", "Toy podium", 4)
    assert podium_rating["rating"] == shown[ana.id] == podium_rating["history"][-1]["after"]
    assert [entry["place"] for entry in podium_rating["history"]] == [1, 1, 3, 4]
    assert all(earlier["after"] == later["before"]
               for earlier, later in zip(podium_rating["history"], podium_rating["history"][1:]))

    again = recompute(client, write=False)
    assert (again.games, again.differences) == (5, 0)
    assert {key: (skill.mu, skill.sigma, count) for key, (skill, count) in again.ratings.items()} == stored(client)

    before = stored(client)
    async def spoil():
        async with client.app.state.ctx.sessions() as session:
            await session.execute(update(Rating).where(Rating.account_id == bo.id).values(mu=0.0))
            await session.commit()
    client.portal.call(spoil)
    assert recompute(client, write=True).differences == 1
    assert stored(client) == before and recompute(client, write=False).differences == 0
    assert client.get(f"/api/players/{ana.id}").json()["ratings"] == profile["ratings"]  # history rebuilt alike


def test_two_games_of_the_same_people_ending_at_once_are_rated_one_after_the_other(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    tables = [started_table(ana, [bo, cy], ruleset="toy-podium") for _ in range(2)]
    for table_id in tables:
        for version, player in enumerate((ana, bo)):
            assert player.move(table_id, version, {"type": "score", "points": version}).status_code == 200
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # Cy's last moves, both at once
        answers = list(pool.map(lambda table_id: cy.move(table_id, 2, {"type": "score", "points": 2}), tables))
    assert [answer.status_code for answer in answers] == [200, 200]
    assert {games for (_, _, games) in stored(client).values()} == {2}  # each rating row saw both games
    assert recompute(client, write=False).differences == 0  # rated in an order that replays alike


def test_bot_seats_do_not_count_and_one_who_resigned_is_ranked_last_among_the_people(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    # Ana and a bot: fewer than two people, so nothing is rated.
    lonely = ana.post("/api/tables", {"ruleset": "toy-podium", "seats": 2}).json()["id"]
    assert ana.post(f"/api/tables/{lonely}/bots", {"seat": 1, "level": "random"}).status_code == 200
    assert ana.post(f"/api/tables/{lonely}/start").status_code == 200
    assert ana.move(lonely, 0, {"type": "score", "points": 2}).status_code == 200
    poll(lambda: client.get(f"/api/tables/{lonely}").json()["status"], lambda status: status == "finished")
    assert client.get(f"/api/tables/{lonely}/ratings").json()["seats"] == [
        {"seat": 0, "account_id": ana.id, "rating": 1000, "games": 0, "change": None}]

    # Ana, a bot, Bo and Cy; Cy resigns and the bot plays Cy's seat: the three people are rated, Cy
    # last among them (after every place anyone reached), whatever the bot scored for Cy.
    table_id = ana.post("/api/tables", {"ruleset": "toy-podium", "seats": 4}).json()["id"]
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "random"}).status_code == 200
    for player in (bo, cy):
        assert player.post(f"/api/tables/{table_id}/join").status_code == 200
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    assert cy.post(f"/api/tables/{table_id}/resign").status_code == 200
    assert ana.move(table_id, 0, {"type": "score", "points": 1}).status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["to_act"] == [2])
    assert bo.move(table_id, game["version"], {"type": "score", "points": 1}).status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["status"] == "finished")
    ranks = game["result"]["ranks"]
    # Versions: 1 Ana, 2 the seat-1 bot, 3 Bo, 4 the bot for Cy (seat 3), the game's last move.
    assert game["result"]["abandoned"] == [{"seat": 3, "takeover": "resigned", "from_version": 4,
                                            "text": "Cy: abandoned (resigned), a bot played from move 4"}]
    answer = client.get(f"/api/tables/{table_id}/ratings").json()
    last = max(ranks) + 1
    assert [(entry["seat"], entry["change"]["place"]) for entry in answer["seats"]] == [
        (0, ranks[0]), (2, ranks[2]), (3, last)]
    model = PlackettLuce()
    people = model.rate([[model.rating()] for _ in range(3)], ranks=[ranks[0], ranks[2], last])
    assert [entry["rating"] for entry in answer["seats"]] == [
        round(team[0].ordinal(alpha=40, target=1000)) for team in people]
    assert recompute(client, write=False).differences == 0


def test_one_who_left_is_ranked_last_even_when_the_bot_won_for_them(client):
    """Bo leaves before his move; the bot scores for him (0 to 2), Ana scores 0: Bo abandoned, so
    Ana is first among the people: the same numbers as a first game Ana won (1138 and 927)."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-podium")
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200
    assert ana.move(table_id, 0, {"type": "score", "points": 0}).status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["status"] == "finished")
    assert [entry["text"] for entry in game["result"]["abandoned"]] == ["Bo: abandoned (left), a bot played from move 2"]
    answer = client.get(f"/api/tables/{table_id}/ratings").json()
    ranks = game["result"]["ranks"]  # the bot's score for Bo decides these, not the ratings
    assert [(entry["rating"], entry["change"]["place"]) for entry in answer["seats"]] == [
        (1138, ranks[0]), (927, max(ranks) + 1)]
    assert recompute(client, write=False).differences == 0


def test_a_first_place_a_bot_reached_for_someone_who_left_is_no_win_of_theirs(client):
    """Bo leaves before his move and the bot scores for him; Ana scores 0, so Bo's seat is first
    (shared when the bot also scores 0). His profile (``GET /api/players/{id}``) says he abandoned
    it and counts no win, as his rating ranks him last for it."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-podium")
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200
    assert ana.move(table_id, 0, {"type": "score", "points": 0}).status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["status"] == "finished")
    assert game["status"] == "finished" and game["result"]["ranks"][1] == 1
    [abandoned] = game["result"]["abandoned"]
    profile = client.get(f"/api/players/{bo.id}").json()
    assert profile["games"][0]["outcome"]["place"] == 1
    assert profile["games"][0]["outcome"]["abandoned_from"] == abandoned["from_version"] == 2
    assert (profile["played"], profile["won"]) == (1, 0)
    ana_profile = client.get(f"/api/players/{ana.id}").json()
    assert ana_profile["games"][0]["outcome"]["abandoned_from"] is None


@pytest.fixture
def watched_client(database_url):
    """``client``, with the leader's clock and presence ticking fast: a person gone a while is
    marked away within a fraction of a second."""
    settings = make_settings(database_url, clock_tick_seconds=0.05, presence_refresh_seconds=0.1)
    settings = settings.model_copy(update={"extra_rulesets": TOY_RULESETS + [PODIUM]})
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.mark.parametrize("clock", [None, 3600])
def test_one_handed_to_a_bot_for_being_away_counts_only_where_a_clock_was_agreed(watched_client, clock):
    """Ana, Bo and Cy; Cy is gone, is marked away, and Ana hands Cy's seat to the bot, which plays
    it to the end.  With a time limit (an hour a move), Cy agreed to a clock that would have done
    the same: Cy abandoned, ranked last.  Without one, nobody agreed to anything that lets a bot
    stand in for Cy: Cy's rating does not move, and Ana and Bo are compared by their own places."""
    client = watched_client
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo, cy], ruleset="toy-podium", pace="live", move_seconds=clock)
    assert ana.move(table_id, 0, {"type": "score", "points": 1}).status_code == 200
    assert bo.move(table_id, 1, {"type": "score", "points": 2}).status_code == 200

    async def cy_left_long_ago():
        async with client.app.state.ctx.sessions() as session:
            await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == 2)
                                  .values(seen_at=utcnow() - timedelta(hours=1), connected_at=None))
            await session.commit()
    client.portal.call(cy_left_long_ago)
    poll(lambda: ana.get(f"/api/tables/{table_id}").json(), lambda shown: shown["seats"][2]["away_since"] is not None)
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 2}).status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["status"] == "finished")
    assert [(entry["seat"], entry["takeover"]) for entry in game["result"]["abandoned"]] == [(2, "away")]
    ranks = game["result"]["ranks"]  # the podium's scores: Bo 2 first, Ana 1 second, the bot's for Cy
    assert (ranks[1], ranks[0]) == (1, 2)
    seats = client.get(f"/api/tables/{table_id}/ratings").json()["seats"]
    if clock:
        assert [(entry["seat"], entry["change"]["place"]) for entry in seats] == [(0, 2), (1, 1), (2, max(ranks) + 1)]
    else:
        assert [(entry["seat"], entry["change"] and entry["change"]["place"]) for entry in seats] == [
            (0, 2), (1, 1), (2, None)]
        assert seats[2]["rating"] == 1000 and seats[2]["games"] == 0  # Cy: as before the game
    assert recompute(client, write=False).differences == 0


def test_one_who_came_back_and_finished_counts_by_their_place(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo, cy], ruleset="toy-podium")
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200  # Ana is to score: no bot move yet
    with bo.websocket(table_id) as socket:
        assert hello(socket)["players"][1]["takeover"] is None  # Bo is back
    for version, (player, points) in enumerate(((ana, 0), (bo, 2), (cy, 1))):
        assert player.move(table_id, version, {"type": "score", "points": points}).status_code == 200
    game = client.get(f"/api/games/{table_id}").json()
    assert game["status"] == "finished" and game["result"]["abandoned"] == []
    places = [entry["change"]["place"] for entry in client.get(f"/api/tables/{table_id}/ratings").json()["seats"]]
    assert places == [3, 1, 2]


def test_a_game_where_every_person_was_replaced_is_not_rated(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-podium")
    assert ana.post(f"/api/tables/{table_id}/resign").status_code == 200
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200
    game = poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["status"] == "finished")
    assert [entry["seat"] for entry in game["result"]["abandoned"]] == [0, 1]
    assert [entry["change"] for entry in client.get(f"/api/tables/{table_id}/ratings").json()["seats"]] == [None, None]
    assert stored(client) == {}
    assert recompute(client, write=False).differences == 0


def test_rating_refusals_are_clear_and_change_nothing(client):
    ana = Player(client, "Ana")
    answer = ana.post("/api/tables", {"ruleset": "toy-podium", "seats": 1, "rated": True})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    assert "one seat" in answer.json()["error"]["message"]
    answer = client.get("/api/rulesets/no-such-game/leaderboard")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert client.get("/api/rulesets/toy-podium/leaderboard").json() == []
    assert client.get("/api/tables/999999/ratings").json()["error"]["code"] == "not_found"
    private = ana.post("/api/tables", {"ruleset": "toy-podium", "seats": 2, "private": True}).json()
    assert client.get(f"/api/tables/{private['id']}/ratings").status_code == 404
    assert client.get(f"/api/tables/{private['id']}/ratings?invite_code={private['invite_code']}").json() == {
        "rated": True, "seats": [{"seat": 0, "account_id": ana.id, "rating": 1000, "games": 0, "change": None}]}


def test_a_rematch_keeps_the_table_friendly(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = podium([ana, bo], [1, 0], rated=False)
    rematch_id = bo.post(f"/api/tables/{table_id}/rematch").json()["id"]
    assert ana.get(f"/api/tables/{rematch_id}").json()["rated"] is False
    assert stored(client) == {}


def test_the_recompute_command_reports_and_checks(sqlite_database, monkeypatch, capsys):
    settings = make_settings(sqlite_database).model_copy(update={"extra_rulesets": TOY_RULESETS + [PODIUM]})
    with TestClient(create_app(settings)) as test_client:
        ana, bo = Player(test_client, "Ana"), Player(test_client, "Bo")
        podium([ana, bo], [2, 1])
    monkeypatch.setenv("CARAVANSERAI_DATABASE_URL", sqlite_database)
    monkeypatch.setenv("CARAVANSERAI_EXTRA_RULESETS", f'["{PODIUM}"]')
    call_in_thread(cli_main, ["ratings", "recompute", "--check"])
    assert capsys.readouterr().out.strip() == "1 rated games replayed, 2 ratings; 0 stored numbers differed"
    call_in_thread(cli_main, ["ratings", "recompute"])
    assert "and were rewritten" in capsys.readouterr().out

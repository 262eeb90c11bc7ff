"""Absent players never stall a game, and nobody's seat goes to a bot without a rule they agreed
to: a table's pace, presence across processes (seen_at), players marked away by the leader (never
while a socket of theirs is open), the seat handed to the bot by the host or the others (never by
itself at an untimed table), the person's return, abandoned games, and "My games".

Time is moved by writing the stored moments (``seen_at``) or by handing the services an injected
``now``; the tests only ever poll for what the server does about it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import Seat, utcnow
from app.main import create_app
from app.services.leader import absence
from app.services.attendance import presence
from tests.conftest import make_settings
from tests.support.players import Player, hello, receive_until, started_table
from tests.support.polling import poll


@pytest.fixture
def client(database_url):
    settings = make_settings(database_url, clock_tick_seconds=0.05, presence_refresh_seconds=0.1)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def run(client, coroutine_function, *args, **kwargs):
    return client.portal.call(lambda: coroutine_function(client.app.state.ctx, *args, **kwargs))


def write_seat(client, table_id: int, seat: int, **values) -> None:
    async def write(ctx):
        async with ctx.sessions() as session:
            await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(**values))
            await session.commit()

    run(client, write)


def read_seats(client, table_id: int) -> list:
    async def read(ctx):
        async with ctx.sessions() as session:
            return (await session.execute(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat))).scalars().all()

    return run(client, read)


def gone(client, table_id: int, seat: int, hours: float = 0.5) -> None:
    """``seat``'s person was last seen ``hours`` ago (more than a live table's away time)."""
    write_seat(client, table_id, seat, seen_at=utcnow() - timedelta(hours=hours))


def table(player: Player, table_id: int) -> dict:
    return player.get(f"/api/tables/{table_id}").json()


def hand_over(player: Player, table_id: int, seat: int):
    return player.post(f"/api/tables/{table_id}/bots", {"seat": seat})


# -- pace ---------------------------------------------------------------------------------------

def test_pace_is_chosen_at_creation_or_follows_from_the_clock(client):
    ana = Player(client, "Ana")
    cases = [({"pace": "turn_based", "move_seconds": 3 * 86400}, "turn_based", 3 * 86400),
             ({"pace": "live", "move_seconds": 60}, "live", 60),
             ({"pace": "turn_based"}, "turn_based", None),
             ({"move_seconds": 86400}, "turn_based", 86400),  # as before paces: a day per move is turn-based
             ({"move_seconds": 120}, "live", 120),
             ({}, "live", None)]
    for body, pace, seconds in cases:
        created = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2, **body})
        assert created.status_code == 201, (body, created.text)
        shown = table(ana, created.json()["id"])
        assert (shown["pace"], shown["time_control"]) == (pace, {"move_seconds": seconds, "pace": pace}), body
    listed = {entry["pace"] for entry in client.get("/api/tables").json()}
    assert listed == {"live", "turn_based"}


@pytest.mark.parametrize("body", [{"pace": "live", "move_seconds": 86400}, {"pace": "turn_based", "move_seconds": 60},
                                  {"pace": "blitz"}])
def test_a_pace_that_does_not_fit_the_clock_is_refused(client, body):
    ana = Player(client, "Ana")
    refused = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2, **body})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request"
    assert ana.get("/api/tables/mine").json() == []


def test_a_rematch_keeps_the_pace(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], pace="turn_based", move_seconds=86400)
    for version in range(10):
        mover = (ana, bo)[version % 2]
        if mover.move(table_id, version, {"type": "add", "amount": 1}).status_code != 200:
            break
    assert table(ana, table_id)["status"] == "finished"
    new_id = ana.post(f"/api/tables/{table_id}/rematch").json()["id"]
    assert table(ana, new_id)["pace"] == "turn_based"


# -- presence -----------------------------------------------------------------------------------

def test_an_open_socket_keeps_its_seat_present_and_closing_it_stops_that(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    gone(client, table_id, 1)
    assert run(client, presence.is_present, table_id, 1) is False
    with bo.websocket(table_id) as ws:
        hello(ws)
        assert poll(lambda: run(client, presence.is_present, table_id, 1), bool) is True
    # No socket any more: nothing refreshes Bo's seat, so it falls out of the window by itself.
    assert poll(lambda: run(client, presence.is_present, table_id, 1), lambda present: not present) is False
    assert run(client, presence.is_away, table_id, 1) is False  # not for long enough to be away
    with pytest.raises(Exception) as no_person:
        run(client, presence.is_present, table_id + 1000, 0)
    assert getattr(no_person.value, "code", None) == "not_found"


def test_a_rest_move_counts_as_being_there(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    gone(client, table_id, 0)
    moved_at = utcnow()
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    seen = poll(lambda: run(client, presence.seat_presence, table_id, 0).seen_at, lambda at: at >= moved_at)
    assert seen >= moved_at


# -- away ---------------------------------------------------------------------------------------

def test_a_player_gone_for_the_away_time_is_shown_away_and_a_hello_brings_them_back(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])  # live, untimed
    with bo.websocket(table_id) as bo_ws:
        assert hello(bo_ws)["players"][0]["away_since"] is None
        gone(client, table_id, 0)
        frame = receive_until(bo_ws, "state")[0]
        ana_seat = frame["players"][0]
        assert ana_seat["away_since"] is not None and ana_seat["takeover"] is None
        assert ana_seat["away_deadline"] is None  # nothing hands her seat to a bot by itself
        assert frame["players"][1]["away_since"] is None  # Bo's socket keeps him present
        assert table(bo, table_id)["seats"][0]["away_since"] == ana_seat["away_since"]
        assert run(client, presence.is_away, table_id, 0) is True
        with ana.websocket(table_id) as ana_ws:
            assert hello(ana_ws)["players"][0]["away_since"] is None
            back = receive_until(bo_ws, "state")[0]
            assert back["players"][0]["away_since"] is None and back["players"][0]["away_deadline"] is None


def test_turn_based_tables_wait_longer_before_someone_is_away(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], pace="turn_based", move_seconds=3 * 86400)
    gone(client, table_id, 0, hours=2)  # away on a live table, not on a turn-based one (24 h)
    gone(client, table_id, 1, hours=25)
    seats = poll(lambda: read_seats(client, table_id), lambda rows: rows[1].away_since is not None)
    assert seats[1].away_since is not None and seats[0].away_since is None
    assert seats[1].away_deadline is None  # the table's clock takes over, nothing else


def test_the_host_hands_an_away_players_seat_to_the_bot_and_the_player_takes_it_back(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = started_table(ana, [bo, cy], ruleset="toy-sealed-bids", pace="turn_based", move_seconds=86400)
    gone(client, table_id, 2, hours=30)
    poll(lambda: table(ana, table_id), lambda shown: shown["seats"][2]["away_since"] is not None)
    refused = hand_over(bo, table_id, 2)  # Bo is not the host, and the host is here
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    with ana.websocket(table_id) as ana_ws:
        hello(ana_ws)
        handed = hand_over(ana, table_id, 2)
        assert handed.status_code == 200, handed.text
        assert handed.json()["seats"][2]["takeover"] == "away"
        # The bot bids for Cy at once; Ana and Bo are still to bid.
        frame = receive_until(ana_ws, "state")[0]
        while frame["view"]["bid_in"] != [False, False, True]:
            frame = receive_until(ana_ws, "state")[0]
        assert frame["players"][2]["takeover"] == "away" and frame["to_act"] == [0, 1]
    with cy.websocket(table_id) as cy_ws:
        back = hello(cy_ws)
        assert back["players"][2]["takeover"] is None and back["players"][2]["away_since"] is None
    assert table(ana, table_id)["seats"][2]["takeover"] is None


def test_when_the_host_is_the_one_away_another_player_may_hand_the_seat_over(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], pace="live", move_seconds=3600)  # the clock is far off
    gone(client, table_id, 0)
    poll(lambda: table(bo, table_id), lambda shown: shown["seats"][0]["away_since"] is not None)
    handed = hand_over(bo, table_id, 0)
    assert handed.status_code == 200 and handed.json()["seats"][0]["takeover"] == "away"
    state = poll(lambda: bo.get(f"/api/games/{table_id}").json(), lambda game: game["version"] == 1)
    assert state["version"] == 1 and state["to_act"] == [1]  # the bot played Ana's move


def test_handing_over_is_refused_when_it_should_be_and_changes_nothing(client):
    ana, bo, eve = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Eve")
    table_id = started_table(ana, [bo])
    before = [(seat.takeover, seat.away_since) for seat in read_seats(client, table_id)]
    refusals = [(hand_over(ana, table_id, 1), 409, "conflict"),   # Bo is not away
                (hand_over(eve, table_id, 1), 403, "not_seated"),  # a spectator
                (hand_over(ana, table_id, 0), 409, "conflict"),   # one's own seat: that is Leave
                (hand_over(ana, table_id, 7), 400, "bad_request"),
                (client.post(f"/api/tables/{table_id}/bots", json={"seat": 1}), 401, "unauthorized")]
    for answer, status, code in refusals:
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
    assert [(seat.takeover, seat.away_since) for seat in read_seats(client, table_id)] == before
    assert bo.get(f"/api/games/{table_id}").json()["version"] == 0

    private_id = started_table(ana, [bo], private=True)
    assert hand_over(eve, private_id, 1).json()["error"]["code"] == "not_found"

    finished_id = started_table(ana, [bo])
    for version in range(10):
        if (ana, bo)[version % 2].move(finished_id, version, {"type": "add", "amount": 1}).status_code != 200:
            break
    gone(client, finished_id, 1)
    finished = hand_over(ana, finished_id, 1)
    assert (finished.status_code, finished.json()["error"]["code"]) == (409, "conflict")
    assert [seat.takeover for seat in read_seats(client, finished_id)] == [None, None]


@pytest.mark.parametrize("pace", ["live", "turn_based"])
def test_an_untimed_table_never_hands_an_away_players_seat_to_a_bot_by_itself(client, pace):
    """No clock was agreed, so nothing but another player's hand-over lets a bot play the seat,
    however long its person stays away (far longer than every away setting)."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], pace=pace)
    with bo.websocket(table_id) as bo_ws:
        hello(bo_ws)
        gone(client, table_id, 0, hours=30)
        poll(lambda: read_seats(client, table_id), lambda rows: rows[0].away_since is not None)
        for hours in (1, 30, 24 * 20):  # the leader looks again, much later
            run(client, absence.watch, utcnow() + timedelta(hours=hours))
        assert [(seat.takeover, seat.away_deadline) for seat in read_seats(client, table_id)] == [(None, None)] * 2
        assert bo.get(f"/api/games/{table_id}").json()["version"] == 0
        assert hand_over(bo, table_id, 0).status_code == 200  # Bo may, the host being away
        # The bot's move is committed (the leader's sweep makes it within 30 s should its news be
        # lost), and then pushed to Bo: two steps, so a failure says which one did not happen.
        moved = poll(lambda: bo.get(f"/api/games/{table_id}").json(), lambda game: game["version"] >= 1, seconds=60)
        assert moved["version"] >= 1, moved
        frame = receive_until(bo_ws, "state")[0]
        while frame["version"] < 1:
            frame = receive_until(bo_ws, "state")[0]
        assert frame["players"][0]["takeover"] == "away" and frame["to_act"] == [1]
    with ana.websocket(table_id) as ana_ws:
        assert hello(ana_ws)["players"][0]["takeover"] is None  # back in her seat, as after leaving


@pytest.fixture
def slow_refresh_client(database_url):
    """The smallest away time ``serve`` accepts (4 presence refreshes), with a refresh slow enough
    that no refresh runs during a test: the stored moments are what the test writes."""
    settings = make_settings(database_url, clock_tick_seconds=3600, presence_refresh_seconds=30,
                             absent_after_seconds=120, turn_based_absent_after_hours=120 / 3600)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.mark.parametrize("pace", ["live", "turn_based"])
def test_an_open_socket_is_never_away_with_the_smallest_settings_accepted(slow_refresh_client, pace):
    """A tab that is open is written down once a refresh: even when the last refresh is almost
    ``PRESENT_REFRESHES`` periods late, its person is not away; once the socket is gone, they are."""
    client = slow_refresh_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], pace=pace)
    refresh = client.app.state.ctx.settings.presence_refresh_seconds
    with ana.websocket(table_id) as ana_ws:
        hello(ana_ws)
        now = utcnow()
        for late in (1, 2, presence.PRESENT_REFRESHES - 0.01):  # refreshes missed by a busy process
            written = now - timedelta(seconds=late * refresh)
            write_seat(client, table_id, 0, seen_at=written, connected_at=written)
            assert run(client, absence.watch, now) == set()
            assert read_seats(client, table_id)[0].away_since is None
        # Whatever the seen moment says, an open socket keeps its person present...
        write_seat(client, table_id, 0, seen_at=now - timedelta(hours=30), connected_at=now)
        assert run(client, absence.watch, now) == set() and read_seats(client, table_id)[0].away_since is None
        write_seat(client, table_id, 0, away_since=now)  # ...and even when marked away, cannot be handed over
        refused = hand_over(bo, table_id, 0)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "conflict"
        assert read_seats(client, table_id)[0].takeover is None
    gone_at = now - timedelta(seconds=client.app.state.ctx.settings.absent_after_seconds + 1)
    write_seat(client, table_id, 0, seen_at=gone_at, connected_at=gone_at, away_since=None)
    assert run(client, absence.watch, now) == {table_id}  # the socket closed long enough ago: away


# -- abandoned ----------------------------------------------------------------------------------

def test_a_game_whose_every_person_stayed_away_is_abandoned_listed_and_revived_by_a_return(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    last_move = table(ana, table_id)["last_activity_at"]
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=29)) == []
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=31)) == [table_id]
    shown = table(ana, table_id)
    assert shown["status"] == "abandoned" and shown["last_activity_at"] == last_move
    assert [(entry["id"], entry["status"]) for entry in client.get("/api/tables").json()] == [(table_id, "abandoned")]
    assert [(entry["id"], entry["status"]) for entry in client.get(f"/api/players/{bo.id}").json()["games"]] == \
        [(table_id, "abandoned")]
    assert [(entry["id"], entry["my_turn"]) for entry in ana.get("/api/tables/mine").json()] == [(table_id, False)]
    # A seated person brings it back to life: a hello, a REST read or a REST move, as they like.
    with bo.websocket(table_id) as ws:
        assert hello(ws)["status"] == "running"
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=31)) == [table_id]
    assert client.get(f"/api/games/{table_id}").json()["status"] == "abandoned"  # a spectator's read: no
    assert table(ana, table_id)["status"] == "abandoned"
    revived = bo.get(f"/api/games/{table_id}").json()
    assert revived["status"] == "running" and revived["legal"] == [] and revived["to_act"] == [0]
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=31)) == [table_id]
    assert ana.get(f"/api/games/{table_id}").json()["legal"] != []  # her read revived it: her moves are offered
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=31)) == [table_id]
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200  # a move revives it too
    assert table(ana, table_id)["status"] == "running"


def test_a_game_with_someone_around_or_nobody_to_wait_for_is_not_abandoned(client):
    ana, bo, cy, di = (Player(client, name) for name in ("Ana", "Bo", "Cy", "Di"))
    table_id = started_table(ana, [bo])
    write_seat(client, table_id, 0, seen_at=utcnow() + timedelta(days=30))  # Ana is still seen "then"
    bots_only = started_table(cy, [di])
    for player in (cy, di):
        assert player.post(f"/api/tables/{bots_only}/resign").status_code == 200
    assert run(client, absence.abandon_deserted, now=utcnow() + timedelta(days=31)) == []
    assert table(ana, table_id)["status"] == "running"
    assert table(cy, bots_only)["status"] in ("running", "finished")  # the bots play it out


# -- my games -----------------------------------------------------------------------------------

def test_my_games_lists_the_games_where_it_is_my_turn_first_with_deadline_and_last_activity(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    waiting = started_table(ana, [bo], pace="turn_based", move_seconds=3 * 86400)
    assert ana.move(waiting, 0, {"type": "add", "amount": 1}).status_code == 200  # now Bo's turn
    soon = started_table(ana, [cy], pace="turn_based", move_seconds=86400)  # Ana's turn, due in a day
    later = started_table(ana, [bo], pace="turn_based", move_seconds=7 * 86400)  # Ana's turn, due in a week
    untimed = started_table(ana, [cy])  # Ana's turn, no deadline
    open_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    games = ana.get("/api/tables/mine").json()
    assert [game["id"] for game in games] == [soon, later, untimed, open_id, waiting]
    assert [game["my_turn"] for game in games] == [True, True, True, False, False]
    assert games[0]["my_deadline"] < games[1]["my_deadline"] and games[2]["my_deadline"] is None
    assert games[4]["my_deadline"] is None and games[4]["seats"][1]["deadline"] is not None  # Bo's clock runs
    assert all(game["my_seat"] == 0 and game["last_activity_at"] for game in games)
    bo_games = bo.get("/api/tables/mine").json()
    assert [(game["id"], game["my_turn"]) for game in bo_games] == [(waiting, True), (later, False)]

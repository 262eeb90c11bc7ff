"""Time control and take-over: stored deadlines, the default bot taking over a seat whose
time ran out or whose player left, reclaiming on return, resigning, and a restart with a deadline pending."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.models import LeaderHeartbeat, Seat, utcnow
from app.services.attendance.presence import aware
from app.services.leader import downtime
from tests.conftest import run_coroutine
from tests.services.test_processes import RemotePlayer
from tests.support.nomadi_steering import steer
from tests.support.players import Player, receive_until, started_table
from tests.support.polling import poll
from tests.support.server import ServerProcess


def seats(client, table_id):
    ctx = client.app.state.ctx

    async def load():
        async with ctx.sessions() as session:
            return (await session.execute(select(Seat.seat, Seat.deadline, Seat.takeover)
                                          .where(Seat.table_id == table_id).order_by(Seat.seat))).all()

    return client.portal.call(load)


def expire_deadline(client, table_id, seat):
    ctx = client.app.state.ctx

    async def expire():
        async with ctx.sessions() as session:
            await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat)
                                  .values(deadline=utcnow() - timedelta(seconds=1)))
            await session.commit()

    client.portal.call(expire)


def wait_for(client, table_id, predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{table_id}").json()
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"not reached: {state}")


@pytest.fixture
def timed_client(database_url):
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(database_url, clock_tick_seconds=0.05))) as test_client:
        yield test_client


def test_deadline_follows_the_seat_to_act(timed_client):
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], move_seconds=60)
    (_, ana_due, _), (_, bo_due, _) = seats(client, table_id)
    assert ana_due is not None and bo_due is None
    ana.move(table_id, 0, {"type": "add", "amount": 1})
    (_, ana_due, _), (_, bo_due, _) = seats(client, table_id)
    assert ana_due is None and bo_due is not None
    players = client.get(f"/api/games/{table_id}").json()["players"]
    assert players[0]["deadline"] is None and players[1]["deadline"] is not None


def test_no_time_control_no_deadline(timed_client):
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert [due for _, due, _ in seats(client, table_id)] == [None, None]


def test_timeout_hands_seat_to_bot_and_return_reclaims_it(timed_client):
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], move_seconds=60)
    with bo.websocket(table_id) as bo_ws:
        bo_ws.send_json({"type": "hello", "since": 0})
        receive_until(bo_ws, "state")
        expire_deadline(client, table_id, 0)
        # Everyone is told: a state frame with Ana's seat taken over, then the bot's move.
        told = receive_until(bo_ws, "state")[0]
        assert told["players"][0]["takeover"] == "timeout"
        moved = wait_for(client, table_id, lambda s: s["version"] == 1)
        assert moved["to_act"] == [1]
    with ana.websocket(table_id) as ana_ws:
        ana_ws.send_json({"type": "hello", "since": 0})
        back = receive_until(ana_ws, "state")[0]
        assert back["players"][0]["takeover"] is None
    bo.move(table_id, 1, {"type": "add", "amount": 1})
    state = client.get(f"/api/games/{table_id}").json()
    assert state["to_act"] == [0] and state["version"] == 2  # Ana plays her own turn again: no bot move
    client.portal.call(client.app.state.bots.settled)  # every bot move Bo's commit could call for
    assert client.get(f"/api/games/{table_id}").json()["version"] == 2


def test_leaving_a_running_game_lets_the_bot_play_and_resigning_is_final(timed_client):
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert ana.post(f"/api/tables/{table_id}/leave").json()["seats"][0]["takeover"] == "left"
    wait_for(client, table_id, lambda s: s["version"] == 1)
    assert ana.post(f"/api/tables/{table_id}/resign").json()["seats"][0]["takeover"] == "resigned"
    with ana.websocket(table_id) as ana_ws:
        ana_ws.send_json({"type": "hello", "since": 0})
        assert receive_until(ana_ws, "state")[0]["players"][0]["takeover"] == "resigned"
    assert ana.post(f"/api/tables/{table_id}/resign").json()["error"]["code"] == "not_seated"


TIMED_ENV = {"CARAVANSERAI_CLOCK_TICK_SECONDS": "0.2", "CARAVANSERAI_BOT_DELAY_SECONDS": "0"}


def timed_remote_table(server: ServerProcess, move_seconds: int) -> int:
    """A started toy race of Ana (seat 0, to act) and Bo on ``server``, ``move_seconds`` a move; its id."""
    ana, bo = RemotePlayer(server, "Ana"), RemotePlayer(server, "Bo")
    with ana.http() as client:
        table_id = client.post("/api/tables", json={"ruleset": "toy-race", "seats": 2, "move_seconds": move_seconds}).json()["id"]
    with bo.http() as client:
        client.post(f"/api/tables/{table_id}/join")
    with ana.http() as client:
        client.post(f"/api/tables/{table_id}/start")
    return table_id


def test_restart_with_pending_deadline_still_takes_over_on_time(database_url, tmp_path):
    server = ServerProcess(database_url, extra_rulesets=["tests.support.toy_rulesets:ToyRace"],
                           log_path=tmp_path / "server.log", env=TIMED_ENV).start()
    try:
        table_id = timed_remote_table(server, move_seconds=5)
        started = time.monotonic()
        server.kill()
        server.start()
        back_after = time.monotonic() - started
        with httpx.Client(base_url=server.base_url) as spectator:
            while (state := spectator.get(f"/api/games/{table_id}").json())["players"][0]["takeover"] is None:
                assert time.monotonic() - started < 30, "no take-over"
                time.sleep(0.05)
            taken_after = time.monotonic() - started
        assert state["players"][0]["takeover"] == "timeout"
        # Due 5 s after the start; the new process's watcher ticks every 0.2 s once it is up.
        assert 4.8 <= taken_after <= max(5.0, back_after) + 2.0, (taken_after, back_after)
    finally:
        server.stop()


def test_the_clocks_stop_while_no_server_runs(database_url, tmp_path):
    """Killed with 30 s left on Ana's clock and back a minute later: she still has her 30 s (and up
    to one heartbeat more), instead of a bot taking her seat the moment the server is back."""
    server = ServerProcess(database_url, extra_rulesets=["tests.support.toy_rulesets:ToyRace"],
                           log_path=tmp_path / "server.log", env=TIMED_ENV).start()
    try:
        table_id = timed_remote_table(server, move_seconds=600)
        beat, _ = poll(lambda: run_coroutine(read_rows, database_url, table_id), lambda rows: rows[0] is not None)
        assert beat is not None, "the leader never wrote a heartbeat"
        server.kill()
        # What the database holds after a crash a minute ago with 30 s left on Ana's clock (her
        # deadline 30 s in the past now), written while no process runs.
        now = utcnow()
        crashed, due = now - timedelta(seconds=60), now - timedelta(seconds=30)
        run_coroutine(write_rows, database_url, table_id, crashed, due)
        server.start()
        # The new leader gives the time back before its clock enforces anything, then writes a heartbeat.
        beat, _ = poll(lambda: run_coroutine(read_rows, database_url, table_id), lambda rows: aware(rows[0]) > now,
                       seconds=30)
        back = utcnow()
        assert aware(beat) > now, "the new leader never wrote a heartbeat"
        with httpx.Client(base_url=server.base_url) as spectator:
            state = spectator.get(f"/api/games/{table_id}").json()
        assert state["players"][0]["takeover"] is None
        given_back = datetime.fromisoformat(state["players"][0]["deadline"]) - due
        assert timedelta(seconds=60) <= given_back <= back - crashed, (given_back, back - crashed)
    finally:
        server.stop()


async def write_rows(url: str, table_id: int, heartbeat: datetime, deadline: datetime) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(update(LeaderHeartbeat).values(at=heartbeat))
            await connection.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == 0).values(deadline=deadline))
    finally:
        await engine.dispose()


async def read_rows(url: str, table_id: int) -> tuple[datetime, datetime]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            beat = await connection.scalar(select(LeaderHeartbeat.at))
            deadline = await connection.scalar(select(Seat.deadline).where(Seat.table_id == table_id, Seat.seat == 0))
            return beat, deadline
    finally:
        await engine.dispose()


def test_a_short_gap_moves_no_deadline_and_a_long_one_moves_each_by_the_gap(timed_client):
    """A restart within a few heartbeats (or the leadership passing between processes) gives nothing
    back; ten minutes down gives the seat to act its ten minutes."""
    client = timed_client
    ctx = client.app.state.ctx
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], move_seconds=60)
    (_, due, _), (_, none, _) = seats(client, table_id)
    assert none is None and due is not None
    now = utcnow()
    client.portal.call(downtime.beat, ctx, now)
    assert client.portal.call(downtime.resume_clocks, ctx, now + timedelta(seconds=downtime.GAP_SECONDS - 1)) is None
    assert seats(client, table_id)[0][1] == due
    client.portal.call(downtime.beat, ctx, now)
    assert client.portal.call(downtime.resume_clocks, ctx, now + timedelta(minutes=10)) == timedelta(minutes=10)
    assert aware(seats(client, table_id)[0][1]) == aware(due) + timedelta(minutes=10)
    assert seats(client, table_id)[1][1] is None


def test_a_gap_with_no_timed_game_running_is_logged_as_information_not_a_warning(timed_client, caplog):
    """An ordinary restart warned "the move deadlines of 0 running game(s) moved on"."""
    ctx = timed_client.app.state.ctx
    now = utcnow()
    timed_client.portal.call(downtime.beat, ctx, now)
    with caplog.at_level("INFO", logger=downtime.__name__):
        assert timed_client.portal.call(downtime.resume_clocks, ctx, now + timedelta(minutes=10)) is None
    [record] = [record for record in caplog.records if "no leader ran" in record.getMessage()]
    assert record.levelname == "INFO" and "0 running game(s)" in record.getMessage()

    ana, bo = Player(timed_client, "Ana"), Player(timed_client, "Bo")
    started_table(ana, [bo], move_seconds=60)
    caplog.clear()
    timed_client.portal.call(downtime.beat, ctx, now)
    with caplog.at_level("INFO", logger=downtime.__name__):
        assert timed_client.portal.call(downtime.resume_clocks, ctx, now + timedelta(minutes=10)) is not None
    [record] = [record for record in caplog.records if "no leader ran" in record.getMessage()]
    assert record.levelname == "WARNING" and "1 running game(s)" in record.getMessage()


def test_person_cannot_move_while_a_bot_plays_their_seat(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    ana.post(f"/api/tables/{table_id}/resign")
    # The bot may already have bid for Ana; either way her own move is refused and offers nothing.
    refused = ana.move(table_id, 0, {"type": "bid", "amount": 1})
    assert refused.json()["error"]["code"] in ("not_seated", "stale_version")
    assert ana.get(f"/api/games/{table_id}").json()["legal"] == []
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["to_act"] in ([0, 1], [1]) and table["created_at"].endswith("+00:00")


def test_an_unanswered_nomadi_offer_times_out_to_decline_and_the_owner_keeps_the_seat(timed_client):
    """Spec nomadi.md section 5, #16 and #30 [D]: a card answer that runs out of time is a decline,
    not a take-over; the mover's turn goes on and the owner still plays their own seat."""
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="nomadi", move_seconds=60, options={"first_player": "host"})
    players, rng = [ana, bo], random.Random(2)
    for _ in range(600):  # steer through the pipeline until a card waits for its owner's answer
        games = [player.get(f"/api/games/{table_id}").json() for player in players]
        if games[0]["view"]["phase"] == "answer":
            break
        assert games[0]["status"] == "running", "the game ended before a card was offered"
        seat = next(seat for seat, game in enumerate(games) if game["legal"])
        move = games[seat]["legal"][0] if games[seat]["view"]["phase"] == "claim" else steer(games[seat], rng)
        assert players[seat].move(table_id, games[seat]["version"], move).status_code == 200
    else:
        raise AssertionError("no card was offered within 600 moves")
    offer = games[0]["view"]["offer"]
    owner, mover = offer["owner"], games[0]["view"]["current"]
    assert games[0]["to_act"] == [owner] and owner != mover
    version = games[0]["version"]

    expire_deadline(client, table_id, owner)
    after = wait_for(client, table_id, lambda state: state["version"] == version + 1)
    assert after["view"]["phase"] != "answer" and after["view"]["offer"] is None
    assert after["view"]["players"][owner]["cards"] == games[0]["view"]["players"][owner]["cards"]  # declined
    texts = [entry["text"] for entry in after["log"] if entry["version"] == version + 1]
    assert "declin" in texts[0]
    # R-30b: the mover's turn goes on, unless none of their dice is left or can be used, which
    # the log then says; in a 2-player game the turn passes to the owner.
    turn_ended = any(text.startswith("Turn over for ") for text in texts)
    expected = owner if turn_ended else mover
    assert after["to_act"] == [expected] and after["view"]["current"] == expected
    assert after["view"]["phase"] == ("roll" if turn_ended else "move")
    assert [takeover for _, _, takeover in seats(client, table_id)] == [None, None]
    deadlines = [due for _, due, _ in seats(client, table_id)]
    assert deadlines[expected] is not None and deadlines[1 - expected] is None  # the clock of whoever acts runs


def test_leaving_twice_changes_nothing_and_tells_nobody_again(timed_client):
    client = timed_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    with bo.websocket(table_id) as bo_ws:
        bo_ws.send_json({"type": "hello", "since": 0})
        receive_until(bo_ws, "state")
        assert ana.post(f"/api/tables/{table_id}/leave").status_code == 200
        frame = receive_until(bo_ws, "state")[0]
        while frame["version"] < 1:  # the bot plays Ana's turn; then it is Bo's, and nothing moves
            frame = receive_until(bo_ws, "state")[0]
        assert frame["players"][0]["takeover"] == "left" and frame["to_act"] == [1]
        for _ in range(3):
            assert ana.post(f"/api/tables/{table_id}/leave").json()["seats"][0]["takeover"] == "left"
        bo_ws.send_json({"type": "ping"})
        frames = receive_until(bo_ws, "pong")[1]
        assert [frame for frame in frames if frame["type"] == "state"] == []


def test_outsiders_learn_nothing_of_private_tables_from_leave_or_resign(timed_client):
    client = timed_client
    ana, bo, eve = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Eve")
    table_id = started_table(ana, [bo], private=True)
    for path in (f"/api/tables/{table_id}/resign", f"/api/tables/{table_id + 100}/resign"):
        assert eve.post(path).json()["error"]["code"] == "not_found", path
    open_id = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2, "private": True}).json()["id"]
    assert eve.move(open_id, 0, {"type": "add", "amount": 1}).json()["error"]["code"] == "not_found"

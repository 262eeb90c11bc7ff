"""Resync: a client that missed versions always ends with the server's view, and the first
frame after every (re)connect is a full ``state``.

* A long disconnect: the seat comes back with ``hello since=v`` and gets the current state
  with exactly the log entries after ``v`` that it may read.
* A reconnect storm while the game moves on (one process, and across two processes on
  Postgres): every first frame is a ``state``; versions on one socket never go back; the log
  entries gathered over all the connections are the server's log, none missing, none twice.
* A move committed (on another process, too) while a socket is saying ``hello`` still reaches
  that socket: nobody stays behind until the next move.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import uuid

import pytest

from app.rulesets.testing import canonical
from tests.reliability.support import HEAVY, RemoteGuest, recv_json, recv_until, report, scale, start_remote_table


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def pair(request):
    """``(A, B)``: the one SQLite process twice, or the two Postgres processes."""
    if request.param == "sqlite":
        server = request.getfixturevalue("sqlite_server")[1]
        return server, server
    _, first, second = request.getfixturevalue("postgres_servers")
    return first, second


def frames_until(ws, found, seconds: float = 60.0) -> list[dict]:
    """The frames a test client's socket receives until one is ``found`` (that one last), asked
    for by pings: frames are queued in order, so each pong comes after every push sent before it.
    Gives up after ``seconds`` (a limit, never a target) and returns what came, for the message."""
    frames: list[dict] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ws.send_json({"type": "ping"})
        while (frame := ws.receive_json())["type"] != "pong":
            frames.append(frame)
            if found(frame):
                return frames
        time.sleep(0.05)
    return frames


def rest_state(http, game_id: int) -> dict:
    return http.get(f"/api/games/{game_id}").json()


def play_random_move(http, game_id: int, chooser: random.Random) -> int | None:
    """One random legal move by this seat if it is to act; the new version, or None."""
    state = rest_state(http, game_id)
    if state["status"] != "running" or state["seat"] not in state["to_act"]:
        return None
    answer = http.post(f"/api/games/{game_id}/moves", json={"id": str(uuid.uuid4()), "version": state["version"],
                                                            "move": chooser.choice(state["legal"])})
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


def assert_same_as_server(frame: dict, truth: dict, where: str) -> None:
    for key in ("version", "status", "seat", "view", "legal", "to_act", "result"):
        assert canonical(frame[key]) == canonical(truth[key]), f"{where}: {key} differs from the server's"


def test_long_disconnect_resyncs_with_exactly_the_missed_log(pair):
    a, b = pair
    chooser = random.Random(11)
    guests = [RemoteGuest(a, "Ana"), RemoteGuest(a, "Bo")]
    game_id = start_remote_table(guests, "nimalia")  # simultaneous steps and private log entries
    https = [guest.http(server) for guest, server in zip(guests, (a, b))]
    try:
        with guests[1].socket(game_id, b) as ws:
            ws.send('{"type": "hello", "since": 0}')
            first = recv_json(ws)
            assert first["type"] == "state"
            since = first["version"]
        played = 0
        for _ in range(scale(12, 40)):  # the game goes on while Bo is away
            for http in https:
                played += play_random_move(http, game_id, chooser) is not None
        truth = rest_state(https[1], game_id)
        with guests[1].socket(game_id, a) as ws:
            ws.send(json.dumps({"type": "hello", "since": since}))
            frame = recv_json(ws)
        assert frame["type"] == "state", frame
        assert_same_as_server(frame, truth, "after a long disconnect")
        assert frame["log"] == [entry for entry in truth["log"] if entry["version"] > since]
        assert played and frame["version"] > since
    finally:
        for http in https:
            http.close()


def test_reconnect_storm_while_the_game_moves_on(pair):
    a, b = pair
    chooser = random.Random(12)
    guests = [RemoteGuest(a, "Ana"), RemoteGuest(b, "Bo")]
    game_id = start_remote_table(guests, "through-the-desert")
    stop = threading.Event()
    moves = [0]

    def mover():
        with guests[0].http(a) as first, guests[1].http(b) as second:
            while not stop.is_set():
                if all(play_random_move(http, game_id, chooser) is None for http in (first, second)):
                    state = rest_state(first, game_id)
                    if state["status"] != "running":
                        return
                moves[0] += 1
                time.sleep(0.005)

    thread = threading.Thread(target=mover)
    thread.start()
    watcher = guests[1]
    log: list[dict] = []
    version = 0
    reconnects = frames = 0
    failures: list[str] = []
    try:
        for index in range(scale(25, 300)):
            server = (a, b)[index % 2]
            with watcher.socket(game_id, server) as ws:
                ws.send(json.dumps({"type": "hello", "since": version}))
                reconnects += 1
                first = True
                until = time.monotonic() + chooser.uniform(0.0, 0.08)
                while first or time.monotonic() < until:
                    try:
                        frame = recv_json(ws, timeout=max(0.001, until - time.monotonic()) if not first else 10)
                    except TimeoutError:
                        break
                    frames += 1
                    if first and frame["type"] != "state":
                        failures.append(f"first frame after reconnect #{reconnects} was {frame['type']}")
                    first = False
                    if frame["type"] == "state":
                        if frame["version"] < version:
                            failures.append(f"version went back from {version} to {frame['version']}")
                        log.extend(frame["log"])
                        version = frame["version"]
    finally:
        stop.set()
        thread.join(30)
    assert not failures, failures
    with watcher.http(a) as http:
        truth = rest_state(http, game_id)
    with watcher.socket(game_id, b) as ws:
        ws.send(json.dumps({"type": "hello", "since": version}))
        frame = recv_json(ws)
    assert frame["type"] == "state"
    log.extend(frame["log"])
    assert_same_as_server(frame, truth, "after the storm")
    assert log == truth["log"], "log entries gathered over the reconnects differ from the server's log"
    report("reconnect storm", processes=1 if a is b else 2, reconnects=reconnects + 1, frames=frames,
           moves=moves[0], final_version=truth["version"])


HELLO_RACE = ("FIXED BUG: app/realtime/hub.py Hub.send_state: a move committed on another process while a socket is "
              "being greeted (snapshot read, subscriber.version still -1) is announced by NOTIFY, on_version skips "
              "the socket, and the catch-up check after the send reads only this process's cache (filled by the bot "
              "driver's listener only if its task happens to win): the socket stays behind until the next move")


def test_a_move_committed_during_a_hello_still_reaches_the_socket(pair, request):
    a, b = pair
    if a is not b:
        # Across two processes the race (HELLO_RACE, now fixed) hit ~5% of tries: the heavy run repeats it
        # 300 times; test_hello_racing_a_commit reproduces it deterministically in every run.
        if not HEAVY:
            pytest.skip("statistical two-process variant: CARAVANSERAI_HEAVY_TESTS=1")
    chooser = random.Random(13)
    guests = [RemoteGuest(a, "Ana"), RemoteGuest(b, "Bo")]
    game_id = start_remote_table(guests, "through-the-desert")
    missed = []
    tries = scale(30, 300)
    with guests[0].http(b) as ana, guests[1].http(b) as bo:
        for attempt in range(tries):
            state = rest_state(ana, game_id)
            if state["status"] != "running":
                game_id = start_remote_table(guests, "through-the-desert")
                continue
            http = ana if state["to_act"] == [0] else bo
            mover_state = rest_state(http, game_id)
            delay = chooser.uniform(0, 0.02)
            with guests[0].socket(game_id, a) as ws:  # the socket says hello on A; the move lands on B
                committed = []

                def move():
                    time.sleep(delay)
                    answer = http.post(f"/api/games/{game_id}/moves", json={
                        "id": str(uuid.uuid4()), "version": mover_state["version"],
                        "move": chooser.choice(mover_state["legal"])})
                    committed.append(answer.json()["version"])

                thread = threading.Thread(target=move)
                thread.start()
                ws.send(json.dumps({"type": "hello", "since": mover_state["version"]}))
                thread.join(10)
                target = committed[0]
                try:
                    recv_until(ws, lambda frame: frame["type"] == "state" and frame["version"] >= target, timeout=1.5)
                except TimeoutError:
                    missed.append((attempt, target, round(delay, 4)))
    assert not missed, f"{len(missed)} of {tries} sockets never got the move committed during their hello: {missed}"
    report("push racing hello", processes=1 if a is b else 2, tries=tries)


@pytest.mark.postgres
@pytest.mark.parametrize("elsewhere", [True, False], ids=["commit on another instance", "commit on this instance"])
def test_hello_racing_a_commit(postgres_database, monkeypatch, elsewhere):
    """Deterministic form of the race: two app instances on one Postgres (each with its own cache
    and LISTEN connection).  While instance 1 greets a socket (between reading the snapshot and
    sending it), a move is committed on instance 2 (or, as the control, on instance 1) and its
    NOTIFY is heard; the socket must still get that version.

    Instance 1's bot driver also listens and happens to load the new snapshot into the cache,
    which hides the bug whenever its task wins the race against the greeting; here its listener
    is slowed down by a second (as under load) so the greeting always wins.
    """
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.services.games import pipeline as games_service
    from app.services.leader.bot_driver import BotDriver
    from tests.conftest import make_settings
    from tests.support.players import Player, started_table

    with TestClient(create_app(make_settings(postgres_database))) as one, \
            TestClient(create_app(make_settings(postgres_database))) as two:
        ctx = one.app.state.ctx
        listeners = ctx.fanout._listeners
        for index, listener in enumerate(listeners):
            if isinstance(getattr(listener, "__self__", None), BotDriver):
                listeners[index] = lambda game, version, slow=listener: \
                    asyncio.get_running_loop().call_later(1.0, slow, game, version) and None
        ana, bo = Player(one, "Ana"), Player(one, "Bo")
        game_id = started_table(ana, [bo])
        mover = two if elsewhere else one
        original = games_service.read_log_rows
        armed = [True]

        async def read_log_with_a_commit_in_between(context, game, since, until=None):
            if armed[0] and context is ctx and game == game_id:
                armed[0] = False
                answer = await asyncio.to_thread(mover.post, f"/api/games/{game_id}/moves", headers=ana.headers,
                                                 json={"id": "m1", "version": 0, "move": {"type": "add", "amount": 2}})
                assert answer.status_code == 200, answer.text
                await asyncio.sleep(0.3)  # instance 1 hears the NOTIFY meanwhile
            return await original(context, game, since, until=until)

        monkeypatch.setattr(games_service, "read_log_rows", read_log_with_a_commit_in_between)
        with bo.websocket(game_id) as ws:
            ws.send_json({"type": "hello", "since": 0})
            first = ws.receive_json()
            assert first["type"] == "state" and first["version"] == 0
            assert not armed[0], "the commit was not injected"
            frames = frames_until(ws, lambda frame: frame["type"] == "state" and frame["version"] == 1)
            assert frames[-1]["version"] == 1, f"the socket stayed at version 0; frames after the greeting: {frames}"


@pytest.mark.postgres
def test_a_lost_notice_between_processes_still_reaches_the_socket(postgres_database):
    """Instance 2 commits a move but its notice to instance 1 is lost (as when it dies right after
    the commit): instance 1's resync poll brings its socket to the new version within seconds."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings
    from tests.support.players import Player, started_table

    settings = make_settings(postgres_database, resync_seconds=0.3)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        async def lose(news):
            return None

        two.app.state.ctx.fanout._send = lose  # instance 2 tells nobody else
        ana, bo = Player(one, "Ana"), Player(one, "Bo")
        game_id = started_table(ana, [bo])
        with bo.websocket(game_id) as ws:
            ws.send_json({"type": "hello", "since": 0})
            assert ws.receive_json()["version"] == 0
            answer = two.post(f"/api/games/{game_id}/moves", headers=ana.headers,
                              json={"id": "m1", "version": 0, "move": {"type": "add", "amount": 2}})
            assert answer.status_code == 200, answer.text
            frames = frames_until(ws, lambda frame: frame["type"] == "state" and frame["version"] == 1)
            states = [frame for frame in frames if frame["type"] == "state"]
            assert [(state["version"], state["view"]["total"]) for state in states] == [(1, 2)]

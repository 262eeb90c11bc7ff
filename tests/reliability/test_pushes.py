"""Pushing ``state`` frames: racing pushes and the resync poll.

Deterministic forms of what the chaos run saw with several processes: the test holds a socket's
send lock (as a slow send does) while versions pile up behind it, or parks a socket whose send
never completes (a peer that stopped reading), and checks what the other sockets get.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.realtime.hub import Subscriber
from tests.conftest import make_settings
from tests.support.players import Player, hello, receive_until, started_table


def poll(condition, timeout: float = 20.0, what: str = "condition") -> None:
    """Wait until ``condition()`` holds (checked every 20 ms), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.02)


def frames_until_pong(ws) -> list[dict]:
    """Every frame up to the answer of a ``ping`` (frames are queued in order: pushes sent before come first)."""
    ws.send_json({"type": "ping"})
    frames = []
    while (frame := ws.receive_json())["type"] != "pong":
        frames.append(frame)
    return frames


def test_two_racing_pushes_never_send_a_log_entry_twice(client):
    """Racing pushes: ``Hub.on_version`` built the log part from ``subscriber.version`` before taking the send
    lock, so a push for version 2 queued behind one for version 1 resent version 1's entries."""
    hub = client.app.state.hub
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    game_id = started_table(ana, [bo])
    with bo.websocket(game_id) as ws:
        assert hello(ws)["version"] == 0
        subscriber = next(s for s in hub.watchers(game_id) if s.seat == 1)
        lock = subscriber.send_lock
        client.portal.call(lock.acquire)  # a slow send in progress
        try:
            assert ana.move(game_id, 0, {"type": "add", "amount": 1}).status_code == 200
            poll(lambda: len(lock._waiters or ()) == 1, what="the push of version 1 waiting")
            assert bo.move(game_id, 1, {"type": "add", "amount": 2}).status_code == 200
            poll(lambda: subscriber.pending is not None and subscriber.pending.snapshot.version == 2,
                 what="the push of version 2 waiting in the socket's outbox")
        finally:
            client.portal.call(lock.release)
        frames = frames_until_pong(ws)
    entries = [(entry["version"], entry["text"]) for frame in frames if frame["type"] == "state"
               for entry in frame["log"]]
    assert len(entries) == len(set(entries)), f"a log entry was sent twice: {entries}"
    assert {version for version, _ in entries} == {1, 2}
    assert max(frame["version"] for frame in frames if frame["type"] == "state") == 2


class _PeerThatStoppedReading:
    """A socket whose sends never complete (its peer's buffers are full), until it is closed."""

    def __init__(self) -> None:
        self.closed_with: int | None = None
        self._closed = asyncio.Event()

    async def send_text(self, _text: str) -> None:
        await self._closed.wait()
        raise RuntimeError("closed")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code
        self._closed.set()


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_a_socket_that_stopped_reading_does_not_hold_up_the_resync_of_other_games(postgres_database):
    """Sockets two versions behind a finished game for over 20 s after a crash.  The moves'
    notices died with the process that committed them, so only the resync poll could bring them up
    to date, and the poll pushed game after game, waiting for each send: one socket whose peer had
    stopped reading (its send never completes until the heartbeat closes it, 20-40 s) held up the
    resync of every other game on the process."""
    settings = make_settings(postgres_database, resync_seconds=0.2)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        async def lose(_news):
            return None

        two.app.state.ctx.fanout._send = lose  # what instance two commits, instance one never hears
        hub = one.app.state.hub
        ana, bo = Player(one, "Ana"), Player(one, "Bo")
        stuck_game = started_table(ana, [bo])
        finished_game = started_table(ana, [bo])
        stuck = Subscriber(_PeerThatStoppedReading(), stuck_game, None)
        stuck.version = 0
        hub.add(stuck)  # first in the resync's order
        with bo.websocket(finished_game) as ws:
            assert hello(ws)["version"] == 0
            assert two.post(f"/api/games/{stuck_game}/moves", headers=ana.headers,
                            json={"id": "s1", "version": 0, "move": {"type": "add", "amount": 1}}).status_code == 200
            for version, (player, amount) in enumerate([(ana, 3), (bo, 3), (ana, 3), (bo, 1)]):
                answer = two.post(f"/api/games/{finished_game}/moves", headers=player.headers,
                                  json={"id": f"f{version}", "version": version, "move": {"type": "add", "amount": amount}})
                assert answer.status_code == 200, answer.text
            deadline = time.monotonic() + 20
            latest = 0
            while latest < 4 and time.monotonic() < deadline:
                time.sleep(0.3)
                latest = max([latest] + [frame["version"] for frame in frames_until_pong(ws)
                                         if frame["type"] == "state"])
        assert latest == 4, "the finished game's socket stayed behind while another game's socket was stuck"


def test_a_state_older_than_the_sockets_last_ack_is_never_sent_after_the_ack(client, monkeypatch):
    """Found by a fresh user under load (Nimalia's draft): a socket got the ``ack`` of its pick at
    version N, then the late ``state`` of version N - 1, which still listed its seat to act; a client
    that trusted it picked again for N - 1 and was refused.  Here the pushes wait (as a slow read
    does) while Bo's pick of the same simultaneous step is acknowledged."""
    hub = client.app.state.hub
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    game_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    gate = client.portal.call(_new_event)
    read_log = hub._log_rows

    async def slow_log_rows(snapshot):
        await gate.wait()
        return await read_log(snapshot)

    with bo.websocket(game_id) as ws:
        assert hello(ws)["version"] == 0
        subscriber = next(s for s in hub.watchers(game_id) if s.seat == 1)
        monkeypatch.setattr(hub, "_log_rows", slow_log_rows)
        monkeypatch.setattr(hub, "_push_from_memory", lambda *_: False)  # every push reads, and waits
        assert ana.move(game_id, 0, {"type": "bid", "amount": 4}).json()["version"] == 1  # its push waits
        ws.send_json({"type": "move", "id": "bo-bid", "version": 0, "move": {"type": "bid", "amount": 2}})
        ack, before = receive_until(ws, "ack")
        assert ack["version"] == 2 and [frame for frame in before if frame["type"] == "state"] == []
        client.portal.call(gate.set)
        poll(lambda: subscriber.version == 2, what="the push of version 2")
        frames = frames_until_pong(ws)
    states = [frame for frame in frames if frame["type"] == "state"]
    assert [state["version"] for state in states] == [2], [state["version"] for state in states]
    logged = [entry["version"] for entry in states[0]["log"]]
    assert logged.count(1) == 1 and set(logged) == {1, 2}, logged  # version 1's entry is not lost


async def _new_event() -> asyncio.Event:
    return asyncio.Event()


def test_a_socket_that_stopped_reading_holds_up_nobody_of_its_game_and_is_closed(database_url):
    """The pushes moved and presence frames to one writer per socket with no timer per
    frame: a spectator whose peer stopped reading must still hold up nobody of its own game (before,
    a player's greeting waited for the presence frame to the stuck socket, up to the send timeout),
    and the send watch must close it (1013) once a frame has been going out for
    ``ws_send_timeout_seconds``."""
    with TestClient(create_app(make_settings(database_url, ws_send_timeout_seconds=3600))) as client:
        hub = client.app.state.hub
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        game_id = started_table(ana, [bo])
        peer = _PeerThatStoppedReading()
        stuck = Subscriber(peer, game_id, None)
        stuck.version = 0
        hub.add(stuck)  # greeted before Bo: Bo's greeting tells it that Bo is online
        with bo.websocket(game_id) as ws:
            assert hello(ws)["version"] == 0  # Bo's greeting did not wait for the stuck spectator's presence frame
            assert ana.move(game_id, 0, {"type": "add", "amount": 1}).status_code == 200
            assert bo.move(game_id, 1, {"type": "add", "amount": 2}).status_code == 200
            got: list[int] = []
            poll(lambda: 2 in got or got.extend(f["version"] for f in frames_until_pong(ws) if f["type"] == "state"),
                 what="Bo's socket getting version 2")
            assert stuck.sending_since is not None and peer.closed_with is None  # the spectator is still stuck
            assert client.portal.call(hub.close_stuck_sends) == []  # not for long enough yet
            stuck_writer = stuck.writer
            assert stuck_writer is not None and not stuck_writer.done()
            hub._send_timeout = 0.5  # now it has been (or soon will)
            poll(lambda: peer.closed_with is not None, what="the stuck socket closed by the send watch")
            assert peer.closed_with == 1013
            # The stuck writer ends too (cancelled just after the close is sent).  Not ``stuck.writer is
            # None``: a push that arrives before the socket's handler removes it (the resync poll, on
            # PostgreSQL) starts a fresh writer, whose send to the closed peer fails at once.
            poll(stuck_writer.done, what="the stuck socket's writer stopped")
        client.portal.call(hub.remove, stuck)


def _pending_writers() -> list[asyncio.Task]:
    return [task for task in asyncio.all_tasks() if not task.done()
            and getattr(task.get_coro(), "__qualname__", "") == "Hub._write_pushes"]


async def _pending_writers_now() -> list[asyncio.Task]:
    return _pending_writers()


def test_a_socket_closed_while_its_push_was_read_leaves_no_writer_behind(client, monkeypatch):
    """Found in crash runs ("Task was destroyed but it is pending! ... Hub._write_pushes"): a push
    chose its sockets, awaited the log, then queued to sockets that had closed meanwhile, starting
    a writer for each that nothing ever cancelled."""
    hub = client.app.state.hub
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    game_id = started_table(ana, [bo])
    gate = client.portal.call(_new_event)
    read_log = hub._log_rows

    async def slow_log_rows(snapshot):
        await gate.wait()
        return await read_log(snapshot)

    with cy.websocket(game_id) as watching:  # stays open: its writer is the only one expected
        assert hello(watching)["version"] == 0
        with bo.websocket(game_id) as ws, ana.websocket(game_id) as other:
            assert hello(ws)["version"] == 0 and hello(other)["version"] == 0
            closing = [s for s in hub.watchers(game_id) if s.seat is not None]
            monkeypatch.setattr(hub, "_log_rows", slow_log_rows)
            monkeypatch.setattr(hub, "_push_from_memory", lambda *_: False)  # every push reads, and waits
            assert ana.move(game_id, 0, {"type": "add", "amount": 1}).status_code == 200
        poll(lambda: len(hub.watchers(game_id)) == 1, what="both players' sockets closed")
        client.portal.call(gate.set)
        poll(lambda: next(iter(hub.watchers(game_id))).version == 1, what="the push reaching the open socket")
        assert all(s.writer is None for s in closing)
        assert len(client.portal.call(_pending_writers_now)) == 1  # the open socket's own
    poll(lambda: not client.portal.call(_pending_writers_now), what="the last writer ended with its socket")

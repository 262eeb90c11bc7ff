"""Checkpoints of the state on PostgreSQL (app/services/games/state.py).

The usual move writes the state only when its version is a multiple of ``CHECKPOINT_EVERY``; every
reader must still see the state at the game's version: in a fresh process, after the cache is
dropped, after an undo between checkpoints; and a finished game's row must hold its final state.
The expected states are folded here with the ruleset itself, never with ``game_state``.
"""

from __future__ import annotations

import json
import random

import asyncpg
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.games import state as game_state
from app.services.games import pipeline as games
from tests.conftest import make_settings, run_coroutine
from tests.support.players import Player, started_table

pytestmark = pytest.mark.postgres


def row_of(url: str, table_id: int) -> dict:
    """The game's row as stored: ``state``, ``state_version``, ``to_act``, ``version``, ``status``, ``seed``."""
    async def read():
        connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            row = await connection.fetchrow("SELECT state::text, state_version, to_act::text, version, status, seed, "
                                            "options::text FROM tables WHERE id = $1", table_id)
            return {key: json.loads(row[key]) if key in ("state", "to_act", "options") and row[key] is not None
                    else row[key] for key in row.keys()}
        finally:
            await connection.close()
    return run_coroutine(read)


def state_read_by(client: TestClient, table_id: int) -> tuple[int, dict]:
    """``(version, state)`` of the game as that process's pipeline reads it (``games.load_snapshot``)."""
    ctx = client.app.state.ctx

    async def load():
        snapshot = await games.load_snapshot(ctx, table_id)
        return snapshot.version, snapshot.state
    return client.portal.call(load)


def play(players: list[Player], table_id: int, count: int, played: list[tuple[int, dict]]) -> int:
    """Play ``count`` moves: each time the seat to act plays a legal move (seeded random choice); appends
    ``(seat, move)`` to ``played``; returns the version reached."""
    version, choose = None, random.Random(19)
    for _ in range(count):
        game = players[0].get(f"/api/games/{table_id}").json()
        assert game["to_act"], (len(played), game["status"], game["version"], game["result"])
        seat = game["to_act"][0]
        mover = players[seat]
        legal = mover.get(f"/api/games/{table_id}").json()["legal"]
        move = choose.choice(legal)
        response = mover.move(table_id, game["version"], move)
        assert response.status_code == 200, response.text
        version = response.json()["version"]
        played.append((seat, move))
    return version


def test_a_game_past_several_checkpoints_reads_in_a_fresh_process_as_folded_move_by_move(postgres_database):
    settings = make_settings(postgres_database)
    played: list[tuple[int, dict]] = []
    with TestClient(create_app(settings)) as first:
        ana, bo = Player(first, "Ana"), Player(first, "Bo")
        table_id = started_table(ana, [bo], ruleset="through-the-desert")
        version = play([ana, bo], table_id, 2 * game_state.CHECKPOINT_EVERY + 5, played)
        registry = first.app.state.ctx.registry
    assert version == 37
    stored = row_of(postgres_database, table_id)

    ruleset = registry.get("through-the-desert")
    expected = [ruleset.setup(2, ruleset.parse_options(stored["options"]), stored["seed"])]
    for seat, move in played:
        expected.append(ruleset.apply(expected[-1], seat, ruleset.parse_move(move))[0])

    # The fast path wrote the state at version 32 and none after it.
    assert (stored["version"], stored["state_version"], stored["status"]) == (37, 32, "running")
    assert stored["state"] == expected[32] and stored["state"] != expected[37]
    assert stored["to_act"] == sorted(ruleset.to_act(expected[37]))
    with TestClient(create_app(settings)) as fresh:
        assert state_read_by(fresh, table_id) == (37, expected[37])
        listed = next(table for table in Player(fresh, "Cy").get("/api/tables").json() if table["id"] == table_id)
        assert listed["to_act"] == sorted(ruleset.to_act(expected[37])) == [played[-1][0] ^ 1]


def test_undo_right_after_fast_path_moves_between_checkpoints(postgres_database, monkeypatch):
    """Toy race, a checkpoint every 4 versions: moves 5 and 6 leave the state of version 4 in the
    row; Bo takes back move 6 (version 7 = the state of version 5: total 5, Bo to act)."""
    monkeypatch.setattr(game_state, "CHECKPOINT_EVERY", 4)
    settings = make_settings(postgres_database)
    add = {"type": "add", "amount": 1}
    with TestClient(create_app(settings)) as first:
        ana, bo = Player(first, "Ana"), Player(first, "Bo")
        table_id = started_table(ana, [bo])
        for version in range(6):
            mover = (ana, bo)[version % 2]
            assert mover.move(table_id, version, add).json()["version"] == version + 1
        between = row_of(postgres_database, table_id)
        undone = bo.post(f"/api/games/{table_id}/undo", {"id": "undo-1", "version": 6})
        assert undone.status_code == 200, undone.text
        after_undo = row_of(postgres_database, table_id)
        assert bo.move(table_id, 7, {"type": "add", "amount": 2}).json()["version"] == 8  # a checkpoint again
        assert ana.move(table_id, 8, add).json()["version"] == 9
    assert (between["version"], between["state_version"], between["to_act"]) == (6, 4, [0])
    assert between["state"]["total"] == 4
    assert (after_undo["version"], after_undo["state_version"], after_undo["to_act"]) == (7, None, None)
    assert (after_undo["state"]["total"], after_undo["state"]["turn"]) == (5, 1)
    last = row_of(postgres_database, table_id)
    assert (last["version"], last["state_version"], last["state"]["total"], last["to_act"]) == (9, 8, 7, [1])
    with TestClient(create_app(settings)) as fresh:
        version, state = state_read_by(fresh, table_id)
    assert (version, state["total"], state["turn"], state["winner"]) == (9, 8, 1, None)


def toy_race_played(client, moves: int):
    """Ana and Bo at a new toy race that has had ``moves`` moves of 1 (Ana first); ``(ana, bo, table id)``."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    for version in range(moves):
        assert (ana, bo)[version % 2].move(table_id, version, {"type": "add", "amount": 1}).status_code == 200
    return ana, bo, table_id


def test_a_restart_or_a_dropped_cache_between_checkpoints_loses_nothing(postgres_database, monkeypatch):
    monkeypatch.setattr(game_state, "CHECKPOINT_EVERY", 4)
    settings = make_settings(postgres_database)
    with TestClient(create_app(settings)) as first:
        ana, bo, table_id = toy_race_played(first, 6)
        first.app.state.ctx.cache.forget(table_id)
        first.app.state.ctx.replays.__init__()  # nothing folded before either
        assert ana.get(f"/api/games/{table_id}").json()["view"]["total"] == 6
    assert row_of(postgres_database, table_id)["state_version"] == 4
    with TestClient(create_app(settings)) as restarted:  # the process that played is gone
        ana.client = bo.client = restarted
        game = ana.get(f"/api/games/{table_id}").json()
        assert (game["version"], game["view"]["total"], game["to_act"]) == (6, 6, [0])
        assert ana.move(table_id, 6, {"type": "add", "amount": 2}).json()["version"] == 7
    stored = row_of(postgres_database, table_id)
    assert (stored["version"], stored["state_version"], stored["state"]["total"]) == (7, 4, 4)
    with TestClient(create_app(settings)) as fresh:
        version, state = state_read_by(fresh, table_id)
    assert (version, state["total"], state["turn"]) == (7, 8, 1)


def test_a_finished_games_row_holds_its_final_state(postgres_database, monkeypatch):
    """Toy race, a checkpoint every 4 versions: the last move (version 10, total 10) goes through
    the locking path and writes it all, though 10 is no checkpoint."""
    monkeypatch.setattr(game_state, "CHECKPOINT_EVERY", 4)
    settings = make_settings(postgres_database)
    add = {"type": "add", "amount": 1}
    with TestClient(create_app(settings)) as first:
        ana, bo, table_id = toy_race_played(first, 9)
        assert row_of(postgres_database, table_id)["state_version"] == 8
        assert bo.move(table_id, 9, add).json()["version"] == 10  # from total 9 to 10: Bo wins
    stored = row_of(postgres_database, table_id)
    assert (stored["status"], stored["version"]) == ("finished", 10)
    assert (stored["state_version"], stored["to_act"]) == (None, None)
    assert (stored["state"]["total"], stored["state"]["winner"]) == (10, 1)


def test_a_move_committed_elsewhere_while_a_snapshot_is_read_never_relabels_the_older_state(postgres_database,
                                                                                              monkeypatch):
    """Another process commits version 3 while this one reads the game at version 2: the snapshot
    it keeps must be version 2 with version 2's state (or 3 with 3's), never 3 with 2's state.
    (A second read of the table row refreshed the version under the state already folded; the
    next move through this process was then applied to that older state: seen as a sealed-bids
    game that never finished, tests/reliability/test_two_processes.py.)"""
    settings = make_settings(postgres_database)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        ana, bo, table_id = toy_race_played(first, 2)
        reading = game_state.state_now

        async def read_while_another_process_moves(ctx, session, table):
            state = await reading(ctx, session, table)
            if ctx is second.app.state.ctx:
                assert ana.move(table_id, 2, {"type": "add", "amount": 1}).json()["version"] == 3  # through first
            return state
        monkeypatch.setattr(game_state, "state_now", read_while_another_process_moves)
        version, state = state_read_by(second, table_id)
        monkeypatch.setattr(game_state, "state_now", reading)
        assert (version, state["total"]) in ((2, 2), (3, 3))
        kept = second.app.state.ctx.cache.get(table_id)
        assert (kept.version, kept.state["total"]) in ((2, 2), (3, 3))
        bo.client = second  # Bo moves through the process that read
        assert bo.move(table_id, 3, {"type": "add", "amount": 1}).json()["version"] == 4
    assert row_of(postgres_database, table_id)["version"] == 4
    with TestClient(create_app(settings)) as fresh:
        assert state_read_by(fresh, table_id)[1]["total"] == 4

"""Whole games of every installed ruleset through the real API and WebSocket.

* The replay fold of the stored moves over ``setup`` equals the stored snapshot at the end.
* The leak check: one socket per seat plus a spectator; every frame any of them receives is
  searched for the secrets (``Ruleset.secrets``) of every other seat at that version.
"""

from __future__ import annotations

import contextlib
import json
import random
import uuid

import pytest

from app.rulesets.registry import Registry
from app.rulesets.testing import canonical
from app.services.games import pipeline as games
from app.services.games.cache import ReplayCache
from tests.conftest import TOY_RULESETS
from tests.support.players import Player, started_table
from tests.support.stored import stored_state

RULESETS = [ruleset.name for ruleset in Registry.discover(TOY_RULESETS).all() if ruleset.listed]
MAX_MOVES = 1500
# Options that keep a whole game short enough for the suite (random Nomadi play rarely reaches the goal).
QUICK_OPTIONS = {"nomadi": {"turn_limit": 12}, "heroes": {"round_limit": 4}}


def stored(client, table_id):
    """``(state, version)`` of the game as its rows store it (``tests/support/stored.py``)."""
    ctx = client.app.state.ctx

    async def load():
        async with ctx.sessions() as session:
            state, table = await stored_state(session, ctx.registry, table_id)
            return state, table.version

    return client.portal.call(load)


def next_state(websocket, version, already_read=()):
    """Frames (``already_read`` first) until the ``state`` of ``version``; returns it and every frame read."""
    frames = []
    pending = list(already_read)
    while True:
        frame = pending.pop(0) if pending else websocket.receive_json()
        frames.append(frame)
        assert frame["type"] != "error", frame
        if frame["type"] == "state" and frame["version"] >= version:
            return frame, frames


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_whole_game_replays_to_snapshot_and_leaks_nothing(client, ruleset_name):
    ruleset = client.app.state.ctx.registry.get(ruleset_name)
    players = [Player(client, f"P{seat}") for seat in range(ruleset.min_players)]
    table_id = started_table(players[0], players[1:], ruleset=ruleset_name, options=QUICK_OPTIONS.get(ruleset_name, {}))
    chooser = random.Random(7)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(player.websocket(table_id)) for player in players]
        spectator = stack.enter_context(client.websocket_connect(f"/ws/games/{table_id}"))
        viewers = [*sockets, spectator]
        latest = []
        for ws in viewers:
            ws.send_json({"type": "hello", "since": 0})
            latest.append(next_state(ws, 0)[0])
        for _ in range(MAX_MOVES):
            if latest[-1]["status"] == "finished":
                break
            seat = chooser.choice(latest[-1]["to_act"])
            frame = latest[seat]
            move_id = str(uuid.uuid4())
            sockets[seat].send_json({"type": "move", "id": move_id, "version": frame["version"],
                                     "move": chooser.choice(frame["legal"])})
            # The ack comes after the commit: only then is the stored state the one to check against.
            held_back = []
            while (answer := sockets[seat].receive_json())["type"] != "ack":
                assert answer["type"] != "error", answer
                held_back.append(answer)
            state, version = stored(client, table_id)
            assert version == answer["version"]
            secrets = {owner: ruleset.secrets(state, owner) for owner in range(len(players))}
            for index, ws in enumerate(viewers):
                latest[index], received = next_state(ws, version, held_back if index == seat else [])
                text = json.dumps(received)
                viewer = index if index < len(players) else None
                for owner, tokens in secrets.items():
                    if owner != viewer:
                        leaked = [token for token in tokens if token in text]
                        assert not leaked, f"seat {owner}'s secrets {leaked} reached viewer {viewer}"
        else:
            pytest.fail(f"{ruleset_name} did not finish within {MAX_MOVES} moves")

    final_state, final_version = stored(client, table_id)
    ctx = client.app.state.ctx
    _, replayed = client.portal.call(games.replay_state, ctx, table_id, final_version)
    assert canonical(replayed) == canonical(final_state)
    # Folds that start from the states kept by earlier replays (app/services/games/replays.py) give what a
    # fold from setup gives, whatever order the versions are asked in.
    asked = chooser.sample(range(final_version + 1), min(8, final_version + 1))
    from_kept = [canonical(client.portal.call(games.replay_state, ctx, table_id, version)[1]) for version in asked]
    ctx.replays = ReplayCache()
    from_setup = []
    for version in asked:
        from_setup.append(canonical(client.portal.call(games.replay_state, ctx, table_id, version)[1]))
        ctx.replays = ReplayCache()
    assert from_kept == from_setup

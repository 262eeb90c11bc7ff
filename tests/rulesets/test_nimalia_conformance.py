"""Nimalia over random games: the rules hold in final positions, no view or readable log entry
shows a hidden card (the deck included, which is no seat's secret), and the spectator's frames of
a whole game through the real WebSocket.  The contract itself is
checked for every ruleset by ``tests/rulesets/test_conformance.py``."""

from __future__ import annotations

import contextlib
import json
import random
import uuid

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rulesets.nimalia.cards import card_token
from app.rulesets.testing import canonical, random_games
from tests.conftest import make_settings
from tests.rulesets.nimalia_fixtures import RULES
from tests.support.players import Player, started_table
from tests.support.stored import stored_state


@pytest.fixture(scope="module")
def default_games():
    return random_games(RULES, games=2)


def test_final_positions_keep_the_rules(default_games):
    """P4 and S4 hold at the end of every random game; totals match the last round record."""
    assert sorted({game.n_players for game in default_games}) == [2, 3, 4]
    for game in default_games:
        state = game.final
        for seat in range(game.n_players):
            grid = RULES.view(state, None)["players"][seat]
            top, left, bottom, right = grid["box"]
            assert bottom - top < 6 and right - left < 6
            assert len(state["placements"][seat]) == 15
        assert state["scores"] == state["history"][-1]["after"]
        assert min(state["scores"]) >= 0


def held_cards(state: dict, seat: int) -> set[str]:
    """Tokens of the cards in ``seat``'s hand and its face-down choice."""
    pick = state["picks"][seat]
    return {card_token(card) for card in state["hands"][seat]} | ({card_token(pick["card"])} if pick else set())


def hidden_from(state: dict, viewer: int | None, seen: frozenset[str] = frozenset()) -> set[str]:
    """Tokens of every card ``viewer`` must not see: other seats' hands and choices, but for the
    cards the viewer held itself this round (``seen``: it passed them on), and the deck."""
    hidden = {card_token(card) for card in state["deck"]}
    for seat in range(state["players"]):
        if seat != viewer:
            hidden |= held_cards(state, seat) - seen
    return hidden


NAMES = ("Ana", "Ben", "Cy", "Di")


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_no_view_or_readable_log_entry_shows_a_hidden_card(n_players):
    """Each seat sees the cards it held this round and no other hidden card: the test keeps its
    own record of what each seat has held since the round began."""
    rng = random.Random(n_players)
    state = RULES.setup(n_players, RULES.parse_options({}), seed=11 + n_players)
    log: list = []
    seen = [held_cards(state, seat) for seat in range(n_players)]
    shown_passed = 0
    while RULES.to_act(state):
        seat = rng.choice(sorted(RULES.to_act(state)))
        round_before = state["round"]
        state, events = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
        log.extend(events)
        if state["round"] != round_before:
            seen = [set() for _ in range(n_players)]
        for other in range(n_players):
            seen[other] |= held_cards(state, other)
        for viewer in [None, *range(n_players)]:
            hidden = hidden_from(state, viewer, frozenset(seen[viewer]) if viewer is not None else frozenset())
            view_text = canonical(RULES.view(state, viewer))
            text = view_text + "".join(e.render(NAMES) + canonical(e.args) for e in events if e.visible_to(viewer))
            assert not [token for token in hidden if token in text]
            if viewer is not None and not state["over"]:  # and it is told every card it passed on that is still in a hand
                passed = {token for other in range(n_players) if other != viewer for token in held_cards(state, other)}
                passed &= seen[viewer]
                assert all(token in view_text for token in passed)
                shown_passed += len(passed)
    assert len(log) > 0 and shown_passed > 0


# -- a whole game through the WebSocket ----------------------------------------------------------


def _stored(client, table_id):
    async def load():
        ctx = client.app.state.ctx
        async with ctx.sessions() as session:
            state, table = await stored_state(session, ctx.registry, table_id)
            return state, table.version

    return client.portal.call(load)


def _frames_until(websocket, version: int) -> tuple[dict, list[dict]]:
    frames = []
    while True:
        frame = websocket.receive_json()
        frames.append(frame)
        assert frame["type"] != "error", frame
        if frame["type"] == "state" and frame["version"] >= version:
            return frame, frames


def test_spectator_frames_of_a_whole_three_player_game_show_no_card_in_a_hand(sqlite_database):
    with TestClient(create_app(make_settings(sqlite_database))) as client:
        players = [Player(client, f"P{seat}") for seat in range(3)]
        table_id = started_table(players[0], players[1:], ruleset="nimalia")
        chooser = random.Random(3)
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(player.websocket(table_id)) for player in players]
            spectator = stack.enter_context(client.websocket_connect(f"/ws/games/{table_id}"))
            viewers = [*sockets, spectator]
            latest = []
            for ws in viewers:
                ws.send_json({"type": "hello", "since": 0})
                latest.append(_frames_until(ws, 0)[0])
            moves = 0
            round_seen, seen = 1, [held_cards(_stored(client, table_id)[0], seat) for seat in range(len(sockets))]
            while latest[-1]["status"] != "finished":
                seat = chooser.choice(latest[-1]["to_act"])
                version = latest[-1]["version"] + 1
                sockets[seat].send_json({"type": "move", "id": str(uuid.uuid4()), "version": latest[seat]["version"],
                                         "move": chooser.choice(latest[seat]["legal"])})
                received = []
                for index, ws in enumerate(viewers):
                    latest[index], frames = _frames_until(ws, version)
                    received.append(json.dumps(frames))
                state, stored_version = _stored(client, table_id)
                assert stored_version == version
                if state["round"] != round_seen:  # what each seat has held this round (it may see those)
                    round_seen, seen = state["round"], [set() for _ in sockets]
                seen = [held | held_cards(state, seat) for seat, held in enumerate(seen)]
                for index, text in enumerate(received):
                    viewer = index if index < len(sockets) else None
                    mine = frozenset(seen[index]) if viewer is not None else frozenset()
                    leaked = [token for token in hidden_from(state, viewer, mine) if token in text]
                    assert not leaked, f"{leaked} reached viewer {viewer} at version {version}"
                moves += 1
            assert moves == 45
            assert latest[-1]["result"] is not None

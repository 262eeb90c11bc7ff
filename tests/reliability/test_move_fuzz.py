"""Well-formed frames with fuzzed moves: every real ruleset, through the WebSocket, in-process.

While random games are played, the seat to act also sends moves made from its own legal moves
by changing one field (numbers out of range, negative, huge; strings swapped for other tokens
of the game or garbage; lists shortened, lengthened, nested; another move type's name).
Checks: each is answered by an ``ack`` or an ``error`` frame (a crash in ``parse_move`` or
``apply`` would close the socket instead); an acknowledged move must be one of the legal moves
(``apply`` accepts nothing ``legal_moves`` does not offer); a refused one changes nothing.
"""

from __future__ import annotations

import contextlib
import random
import uuid
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rulesets.testing import canonical
from tests.conftest import make_settings
from tests.reliability.support import HEAVY, REGISTRY, report, scale
from tests.reliability.test_leaks import receive
from tests.support.players import Player

RULESETS = {"through-the-desert": {}, "nimalia": {}, "nomadi": {"turn_limit": 10, "trading": True,
                                                                 "voluntary_pass": True, "card_placement": "players"}}
INTS = [-1, 0, 1, 2, 5, 7, 13, 99, 10**6, 2**31 - 1, 2**31, -(2**31), 2**63, 2**80]


def mutate(chooser: random.Random, move: dict, strings: list[str], types: list[str]) -> dict:
    fields = [key for key in move if key != "type"]
    if not fields or chooser.random() < 0.1:
        return {**move, "type": chooser.choice(types + ["", "pass ", "PLACE"])}
    key = chooser.choice(fields)
    return {**move, key: mutate_value(chooser, move[key], strings)}


def mutate_value(chooser: random.Random, value, strings: list[str]):
    if isinstance(value, bool):
        return chooser.choice([not value, None, 0, "true"])
    if isinstance(value, int):
        return chooser.choice([value + chooser.choice([-7, -1, 1, 7]), chooser.choice(INTS), str(value), float(value)])
    if isinstance(value, str):
        return chooser.choice([chooser.choice(strings), value + "x", value.upper(), "", value[:-1], "nimalia-card-00",
                               "card-99", "well-99:9", "\u0000", value * 3])
    if isinstance(value, list):
        choice = chooser.randrange(4)
        if choice == 0 and value:
            index = chooser.randrange(len(value))
            return [mutate_value(chooser, item, strings) if at == index else item for at, item in enumerate(value)]
        if choice == 1:
            return value[:-1]
        if choice == 2:
            return value + [chooser.choice(INTS)]
        return [value]
    if value is None:
        return chooser.choice([0, "", [], {}])
    if isinstance(value, dict):
        return {**value, "extra": 1} if chooser.random() < 0.5 else {}
    return None


def strings_in(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings_in(item)]
    return []


@pytest.fixture(scope="module")
def move_client(tmp_path_factory):
    from app.db.migrate import upgrade_to_head

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('moves')}/moves.db"
    upgrade_to_head(url)
    with TestClient(create_app(make_settings(url))) as client:
        yield client


@pytest.mark.parametrize("ruleset_name", sorted(RULESETS))
def test_fuzzed_moves_are_refused_cleanly_or_are_legal(move_client, ruleset_name):
    client = move_client
    ruleset = REGISTRY.get(ruleset_name)
    chooser = random.Random(len(ruleset_name) * 31)
    counts: Counter = Counter()
    for game in range(scale(1, 6)):
        seats = chooser.randint(ruleset.min_players, min(ruleset.max_players, 3 if not HEAVY else ruleset.max_players))
        players = [Player(client, f"M{game}-{seat}") for seat in range(seats)]
        created = players[0].post("/api/tables", {"ruleset": ruleset_name, "seats": seats,
                                                  "options": RULESETS[ruleset_name]})
        game_id = created.json()["id"]
        for player in players[1:]:
            player.post(f"/api/tables/{game_id}/join")
        assert players[0].post(f"/api/tables/{game_id}/start").status_code == 200
        strings: set[str] = set()
        types: set[str] = set()
        committed = 0
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(player.websocket(game_id)) for player in players]
            latest = []
            for ws in sockets:
                ws.send_json({"type": "hello", "since": 0})
                while (frame := receive(ws))["type"] != "state":
                    pass
                latest.append(frame)

            def send(seat: int, move: dict) -> dict:
                move_id = str(uuid.uuid4())
                sockets[seat].send_json({"type": "move", "id": move_id, "version": latest[seat]["version"],
                                         "move": move})
                while True:
                    frame = receive(sockets[seat])
                    if frame["type"] == "state":
                        latest[seat] = frame
                    elif frame.get("id") == move_id:
                        return frame

            def catch_up(version: int) -> None:
                for seat, ws in enumerate(sockets):
                    while latest[seat]["version"] < version:
                        frame = receive(ws)
                        if frame["type"] == "state":
                            latest[seat] = frame

            for _ in range(2000):
                if latest[0]["status"] == "finished":
                    break
                seat = chooser.choice(latest[0]["to_act"])
                legal = latest[seat]["legal"]
                for move in legal[:50]:
                    strings.update(strings_in(move))
                    types.add(move["type"])
                legal_forms = {canonical(move) for move in legal}
                for _ in range(chooser.choice([0, 0, 1, 3])):
                    fuzzed = mutate(chooser, chooser.choice(legal), sorted(strings), sorted(types))
                    answer = send(seat, fuzzed)
                    counts[f"{answer['type']}:{answer.get('code', '')}".rstrip(":")] += 1
                    if answer["type"] == "ack":
                        parsed = canonical(ruleset.dump_move(ruleset.parse_move(fuzzed)))
                        assert parsed in legal_forms, f"{ruleset_name}: {fuzzed} was accepted but is not a legal move"
                        committed += 1
                        catch_up(answer["version"])
                        break
                    assert answer["type"] == "error" and answer["code"] and answer["message"], answer
                else:
                    answer = send(seat, chooser.choice(legal))
                    assert answer["type"] == "ack", answer
                    counts["legal moves"] += 1
                    committed += 1
                    catch_up(answer["version"])
            else:
                pytest.fail(f"{ruleset_name} did not finish")
        # refused moves changed nothing: the game is at exactly one version per acknowledged move
        assert client.get(f"/api/games/{game_id}").json()["version"] == committed
    report(f"move fuzzer {ruleset_name}", **dict(counts))

"""Log lines and the result speak the players' words, never internal codes.

A full random game of each ruleset is played over REST; every log line a reader gets (the
spectator's ``GET /log`` text, every seat's own log with its private lines, and a spectator's
WebSocket ``state`` frame, its templates filled from their arguments as the browser does) is
scanned for rule codes (``R-30b``), card ids (``card-08``), objective ids (``O12``) and raw
coordinates (``(-2, 11)``).  Rule codes belong in an entry's ``rule``, which must be an anchor of
the game's rules page.
"""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.tables.seating import SeatInfo
from app.services.games.views import log_entries, result_payload
from app.rulesets.base import Result, amount
from tests.conftest import make_settings
from tests.support.players import Player, hello, started_table
from tests.support.polling import poll

CODES = re.compile(r"\b[A-Z]{1,3}-[A-Z]?\d+[a-z]?\b|card-\d+|\bO\d+\b|\(\s*-?\d+\s*,\s*-?\d+\s*\)")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

GAMES = [  # short games (about 70, 30, 100 and 20 moves) with the options that add log lines
    ("through-the-desert", 2, {"hide_well_values": True}),
    ("nimalia", 2, {}),
    ("nomadi", 2, {"turn_limit": 10, "trading": True, "hidden_coins": True}),
    ("heroes", 2, {"nomads": "mercenary", "round_limit": 4}),
]


@pytest.fixture
def client(sqlite_database):
    """One database is enough: this test reads words, not storage."""
    with TestClient(create_app(make_settings(sqlite_database))) as test_client:
        yield test_client


def filled(entry: dict) -> str:
    """An entry's sentence as the browser writes it (static/js/log-text.js): the template with
    every argument's words."""
    return PLACEHOLDER.sub(lambda match: entry["args"][match.group(1)]["text"], entry["template"])


def codes_in(text: str) -> list[str]:
    return CODES.findall(text)


@pytest.mark.parametrize(("ruleset", "seats", "options"), GAMES, ids=[game[0] for game in GAMES])
def test_a_whole_game_logs_no_rule_code_card_id_objective_id_or_coordinates(client, ruleset, seats, options):
    players = [Player(client, f"P{seat}") for seat in range(seats)]
    table_id = started_table(players[0], players[1:], ruleset=ruleset, options=options)
    rng = random.Random(20)
    game = players[0].get(f"/api/games/{table_id}").json()
    while game["status"] == "running":
        seat = rng.choice(game["to_act"])
        if game["seat"] != seat:
            game = players[seat].get(f"/api/games/{table_id}").json()
        answer = players[seat].move(table_id, game["version"], rng.choice(game["legal"]))
        assert answer.status_code == 200, answer.text
        game = players[seat].get(f"/api/games/{table_id}").json()

    public = client.get(f"/api/games/{table_id}/log").json()
    lines = [entry["text"] for entry in public]
    for player in players:  # each seat's log holds its private lines too
        lines += [entry["text"] for entry in player.get(f"/api/games/{table_id}").json()["log"]]
    with client.websocket_connect(f"/ws/games/{table_id}") as socket:
        frame = hello(socket)
    assert [entry["text"] for entry in frame["log"]] == [entry["text"] for entry in public]
    lines += [filled(entry) for entry in frame["log"]]
    assert all(filled(entry) == entry["text"] for entry in frame["log"])
    lines.append(game["result"]["reason"])

    assert len(public) > 20
    found = {line: codes_in(line) for line in lines if codes_in(line)}
    assert found == {}
    rules = {entry["rule"] for entry in public if entry["rule"]}
    page = client.get(f"/rules/{ruleset}/reference").text
    assert all(f'id="{rule}"' in page for rule in rules), rules - {rule for rule in rules if f'id="{rule}"' in page}


def test_an_old_stored_plain_text_entry_still_reads_with_its_rule_apart():
    stored = [(3, [{"text": "{seat0} rolls 2, 2, 5: no die can be used, so they roll again (R-14)", "seats": None},
                   {"text": "{seat1} keeps a secret", "seats": [1]}])]
    assert log_entries(stored, None, ("Ana", "Bo")) == [{
        "version": 3, "text": "Ana rolls 2, 2, 5: no die can be used, so they roll again",
        "template": "{seat0} rolls 2, 2, 5: no die can be used, so they roll again",
        "args": {"seat0": {"kind": "player", "seat": 0, "text": "Ana"}}, "rule": "R-14",
    }]
    assert [entry["text"] for entry in log_entries(stored, 1, ("Ana", "Bo"))][1] == "Bo keeps a secret"


def test_the_result_reason_names_no_rule_code():
    result = Result(scores=[40, 52], ranks=[2, 1], reason="the last pink camel was taken (G-1)")
    payload = result_payload(result, (SeatInfo(0, 1, "Ana"), SeatInfo(1, 2, "Bo")))
    assert payload["reason"] == "the last pink camel was taken" and payload["rule"] == "G-1"
    assert payload["abandoned"] == []


def test_the_result_reason_keeps_its_template_for_a_client_that_translates_it():
    result = Result(scores=[40, 52], ranks=[2, 1], reason="After 5 rounds {seat1} has the most points.")
    payload = result_payload(result, (SeatInfo(0, 1, "Ana"), SeatInfo(1, 2, "Bo")))
    assert payload["reason"] == "After 5 rounds Bo has the most points."
    assert payload["reason_template"] == "After 5 rounds {seat1} has the most points."
    assert payload["rule"] is None
    assert payload["reason_args"] == {}


def test_a_reason_with_arguments_sends_them_apart_and_its_words_filled():
    result = Result(scores=[30], ranks=[2], reason="{seat0} loses to the Enemy, {mine} VP to {theirs}: the round limit "
                    "({limit}) was reached", reason_args={"mine": amount(30), "theirs": amount(41), "limit": amount(12)})
    payload = result_payload(result, (SeatInfo(0, 1, "Ana"),))
    assert payload["reason"] == "Ana loses to the Enemy, 30 VP to 41: the round limit (12) was reached"
    assert payload["reason_template"] == result.reason
    assert payload["reason_args"]["limit"] == {"kind": "amount", "value": 12, "unit": "", "text": "12"}
    # a result without arguments dumps as it did before they existed (stored hashes, old clients)
    assert "reason_args" not in Result(scores=[1], ranks=[1], reason="x").model_dump()
    assert result.reason_words(("Ana",)) == payload["reason"]


@pytest.fixture
def any_client(database_url):
    """Both databases: on PostgreSQL a bot's move usually takes the one-statement path, which marks it too."""
    with TestClient(create_app(make_settings(database_url))) as test_client:
        yield test_client


def test_a_move_a_bot_made_for_a_person_says_so_in_the_log_and_the_replay(any_client):
    """Bo leaves; the default bot plays his move.  Each entry of that move names the bot in its
    arguments, so every reader, the replay included, says "Bo (bot)"; Ana's own move stays hers."""
    client = any_client
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo])
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    assert bo.post(f"/api/tables/{table_id}/leave").status_code == 200
    poll(lambda: client.get(f"/api/games/{table_id}").json(), lambda game: game["version"] >= 2)
    bot = {"kind": "player", "seat": 1, "bot": True, "text": "Bo (bot)"}
    public = {entry["version"]: entry for entry in client.get(f"/api/games/{table_id}/log").json()}
    assert public[1]["text"] == "Ana added 1" and "by" not in public[1]["args"]
    assert public[2]["text"].startswith("Bo (bot) added ")
    assert public[2]["args"]["seat1"] == bot and public[2]["args"]["by"] == bot
    replayed = client.get(f"/api/games/{table_id}/replay?version=2").json()["log"]
    assert [entry["text"] for entry in replayed] == ["Ana added 1", public[2]["text"]]
    assert replayed[1]["args"]["by"] == bot
    # Bo's private word follows an entry everyone read that named the bot: it keeps its own words
    # (tests/services/test_bot_log.py has the cases of "played by").
    private = [entry for entry in bo.get(f"/api/games/{table_id}").json()["log"] if entry["version"] == 2]
    assert private[1]["text"].startswith("your word is ") and "played by" not in private[1]["text"]
    assert private[1]["args"]["by"] == bot

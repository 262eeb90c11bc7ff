"""Turn notices over a whole game: three people start a turn-based Through the Desert game
(a day per move) with their tabs closed, and each is told by push and by e-mail whenever it is
their turn, once per turn, until the game ends.

The game lasts days of simulated time: time-machine moves the whole process's clock (the server's
deadlines, the notifier's once-per-turn and digest clock) on by 20 hours before every move, so
each player answers within the day a move allows and no clock runs out; nobody really waits."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone

import time_machine
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.test_notifications import Registered, confirm_address, notify_settings, settle, subscribe
from tests.support.mailbox import Mailbox, text_of
from tests.support.push_service import PushService

DAY = 86400


def test_three_players_are_each_told_every_turn_by_push_and_mail_until_the_game_ends(sqlite_database):
    start = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)  # an evening
    with time_machine.travel(start, tick=True) as traveller, Mailbox() as mailbox, PushService() as push:
        # Nobody counts as away here (a day of simulated time would make each player away between
        # their turns): the turn notices alone are counted.  Away players have tests of their own (test_away.py).
        app = create_app(notify_settings(sqlite_database, mailbox, turn_based_absent_after_hours=100_000,
                                         abandon_after_days=10_000))
        with TestClient(app) as client:
            players = [Registered(client, name) for name in ("Ana", "Bo", "Cy")]
            keys, addresses = [], []
            for player in players:
                addresses.append(f"{player.name.lower()}@example.org")
                confirm_address(player, mailbox, addresses[-1])
                keys.append(subscribe(player, push, player.name))
            # The shorter piles and the immediate end (G-2) keep the whole game to a few dozen moves.
            created = players[0].post("/api/tables", {"ruleset": "through-the-desert", "seats": 3, "move_seconds": DAY,
                                                       "options": {"piles": "zman", "end_trigger": "immediate"}}).json()
            table_id = created["id"]
            for player in players[1:]:
                assert player.post(f"/api/tables/{table_id}/join", {}).status_code == 200

            # They have closed their tabs when the host starts the game.
            assert players[0].post(f"/api/tables/{table_id}/start").status_code == 200
            game = players[0].get(f"/api/games/{table_id}").json()

            rng = random.Random(16)
            told = [0, 0, 0]
            last_mover = None
            while game["status"] == "running":
                [seat] = game["to_act"]
                if seat != last_mover:  # a new turn (two camels by the same seat are one turn)
                    told[seat] += 1
                    [*_, request] = push.wait_for(players[seat].name, told[seat])
                    notice = keys[seat].decrypt(request.body)
                    assert notice["title"] == f"Your turn in Through the Desert (table {table_id})"
                    assert notice["url"] == f"/tables/{table_id}"
                    [*_, mail] = mailbox.wait_for(addresses[seat], 1 + told[seat])
                    assert mail["Subject"] == notice["title"]
                    assert re.search(r"It is your move, due in (1 day|23 hours)\.", text_of(mail))  # a day per move
                traveller.shift(timedelta(hours=20))  # the player answers the next day
                mover = players[seat]
                legal = mover.get(f"/api/games/{table_id}").json()["legal"]
                answer = mover.move(table_id, game["version"], rng.choice(legal))
                assert answer.status_code == 200, answer.text
                last_mover = seat
                game = players[0].get(f"/api/games/{table_id}").json()
            settle(client)

            assert game["result"] is not None
            assert datetime.now(timezone.utc) - start > timedelta(days=14)  # the game lived for weeks
            seats = players[0].get(f"/api/tables/{table_id}").json()["seats"]
            assert [seat["takeover"] for seat in seats] == [None, None, None]  # no clock ran out, nobody was replaced
            assert min(told) >= 3
            for seat, player in enumerate(players):  # once per turn on each channel, nothing after the end
                assert len(push.received(player.name)) == told[seat]
                assert len(mailbox.to(addresses[seat])) == 1 + told[seat]

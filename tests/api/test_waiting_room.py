"""A timed game starts only with every seated person at the table (app/services/attendance/waiting.py):
taking a seat is agreeing to the clock, not to a game begun while one is gone."""

from __future__ import annotations

from datetime import timedelta

import time_machine

from app.db.models import utcnow
from tests.support.players import Player

AWAY = timedelta(seconds=120)  # absent_after_seconds' default: a live table's away time


def open_table(ana: Player, bo: Player, **terms) -> int:
    created = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2, **terms})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert bo.post(f"/api/tables/{table_id}/join", {"invite_code": created.json()["invite_code"]}).status_code == 200
    return table_id


def start(ana: Player, table_id: int):
    return ana.post(f"/api/tables/{table_id}/start")


def test_a_timed_game_waits_for_a_seated_person_who_is_gone_and_starts_once_they_are_back(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = open_table(ana, bo, move_seconds=30)
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):  # Bo closed the page after joining
        refused = start(ana, table_id)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "conflict"
        assert refused.json()["error"]["message"].startswith("Bo is not at the table, and with a move clock")
        assert "start with a bot or fewer seats in their place" in refused.json()["error"]["message"]
        shown = ana.get(f"/api/tables/{table_id}").json()
        assert shown["status"] == "open"  # nothing changed
        assert shown["seats"][0]["away_since"] is None and shown["seats"][1]["away_since"] is not None  # the host sees it
        assert bo.get(f"/api/tables/{table_id}").json()["seats"][1]["away_since"] is None  # Bo opens the table: back
        started = start(ana, table_id)
        assert started.status_code == 200 and started.json()["status"] == "running"


def test_a_waiting_room_that_keeps_asking_keeps_its_person_at_the_table(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = open_table(ana, bo, move_seconds=30)
    moment = utcnow()
    for minute in range(1, 4):  # Bo's page asks for the table, here once a minute, for three minutes
        with time_machine.travel(moment + timedelta(minutes=minute), tick=False):
            assert bo.get(f"/api/tables/{table_id}").status_code == 200
    with time_machine.travel(moment + timedelta(minutes=3, seconds=30), tick=False):
        assert start(ana, table_id).status_code == 200


def test_the_host_need_not_be_there_and_a_spectator_asking_counts_for_nobody(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = open_table(ana, bo, move_seconds=30)
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        assert cy.get(f"/api/tables/{table_id}").status_code == 200  # someone else looking does not bring Bo back
        assert start(ana, table_id).status_code == 409
        bo.get(f"/api/tables/{table_id}")
        assert start(ana, table_id).status_code == 200  # Ana herself was last seen at creation: she is starting it


def test_several_people_gone_are_named_together_in_french_too(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    created = ana.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3, "move_seconds": 30})
    table_id = created.json()["id"]
    for person in (bo, cy):
        assert person.post(f"/api/tables/{table_id}/join").status_code == 200
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        english = start(ana, table_id).json()["error"]["message"]
        assert english.startswith("Bo, Cy are not at the table")
        french = ana.client.post(f"/api/tables/{table_id}/start", headers={**ana.headers, "accept-language": "fr"})
        assert french.json()["error"]["message"].startswith("Bo, Cy ne sont pas à la table")


def test_an_untimed_game_or_a_turn_based_one_within_its_day_starts_with_someone_gone(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    untimed = open_table(ana, bo)
    turn_based = open_table(ana, bo, pace="turn_based", move_seconds=86400)
    with time_machine.travel(utcnow() + timedelta(hours=2), tick=False):
        assert start(ana, untimed).status_code == 200  # no clock: nothing happens to Bo's seat until Bo comes
        assert start(ana, turn_based).status_code == 200  # away only after a day (turn_based_absent_after_hours)


def test_the_host_may_start_without_someone_gone_with_a_bot_or_fewer_seats_in_their_place(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    with_bot = open_table(ana, bo, move_seconds=30)
    created = ana.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3, "move_seconds": 30}).json()["id"]
    for person in (bo, cy):
        assert person.post(f"/api/tables/{created}/join").status_code == 200
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        cy.get(f"/api/tables/{created}")  # Cy is there, Bo is not
        started = ana.post(f"/api/tables/{with_bot}/start", {"empty_seats": "bots"}).json()
        assert started["status"] == "running" and started["seats"][1]["account_id"] is None and started["seats"][1]["bot"]
        fewer = ana.post(f"/api/tables/{created}/start", {"empty_seats": "fewer"}).json()
        assert fewer["status"] == "running" and [seat["name"] for seat in fewer["seats"]] == ["Ana", "Cy"]
    assert bo.get(f"/api/tables/{with_bot}").json()["seats"][1]["account_id"] is None  # Bo plays in neither game


def test_start_on_a_table_that_is_not_open_says_so_whoever_is_gone(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = open_table(ana, bo, move_seconds=30)
    assert start(ana, table_id).status_code == 200
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        again = start(ana, table_id).json()["error"]
        assert (again["code"], again["message"]) == ("conflict", "this game has already started")


def test_a_timed_rematch_waits_for_its_host_when_someone_seated_has_gone(client):
    """The last accept of a rematch offer starts it, but not while someone who accepted earlier is
    gone: the offer stays open and its host starts it (with them back, or without them)."""
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    old = ana.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3, "move_seconds": 30}).json()["id"]
    for person in (bo, cy):
        person.post(f"/api/tables/{old}/join")
    assert start(ana, old).status_code == 200
    for _ in range(3):
        for person in (ana, bo, cy):
            game = person.get(f"/api/games/{old}").json()
            if game["legal"]:
                person.move(old, game["version"], game["legal"][0])
    assert ana.get(f"/api/games/{old}").json()["status"] == "finished"
    offer = ana.post(f"/api/tables/{old}/rematch").json()["id"]
    assert bo.post(f"/api/tables/{old}/rematch").status_code == 200  # Bo accepts, then goes
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        assert cy.post(f"/api/tables/{old}/rematch").status_code == 200  # the last accept
        shown = cy.get(f"/api/tables/{offer}").json()
        assert shown["status"] == "open" and shown["seats"][1]["away_since"] is not None
        bo.get(f"/api/tables/{offer}")
        assert start(ana, offer).json()["status"] == "running"


def test_only_the_host_hears_who_is_gone(client):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    table_id = open_table(ana, bo, move_seconds=30, private=True)
    with time_machine.travel(utcnow() + AWAY + timedelta(seconds=5), tick=False):
        assert start(cy, table_id).json()["error"]["code"] == "not_found"  # a private table is nobody else's business
        assert start(bo, table_id).json()["error"]["code"] == "forbidden"
        assert bo.post(f"/api/tables/{table_id}/start", {"empty_seats": "bots"}).json()["error"]["code"] == "forbidden"
        assert ana.get(f"/api/tables/{table_id}").json()["seats"][1]["account_id"] == bo.id  # nobody lost a seat

"""Away players in the browser: a turn-based table made in the lobby form shows its pace; a player who
never comes to the table is shown away to the host, with the countdown of their clock; the host
hands the seat to a bot, which plays; the player opens the table and has the seat back; "My games"
lists the table where it is your move first, with its deadline.

A server of its own, whose players count as away after two seconds (a setting), so no test waits
for minutes."""

from __future__ import annotations

import re

import pytest

from tests.e2e.pages import api, expect, guest_page, sign_in, version_of, wait_for_version_change
from tests.e2e.conftest import SERVER_START_SECONDS
from tests.support.server import ServerProcess


@pytest.fixture
def quick_away_server(tmp_path):
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/away.db", log_path=tmp_path / "server.log", workdir=tmp_path,
                           env={"CARAVANSERAI_ABSENT_AFTER_SECONDS": "2", "CARAVANSERAI_TURN_BASED_ABSENT_AFTER_HOURS": "0.0006",
                                "CARAVANSERAI_PRESENCE_REFRESH_SECONDS": "0.3", "CARAVANSERAI_CLOCK_TICK_SECONDS": "0.2",
                                "CARAVANSERAI_BOT_DELAY_SECONDS": "0.1"})
    server.start(timeout=SERVER_START_SECONDS)
    try:
        yield server.base_url
    finally:
        server.stop()


def test_an_away_player_is_shown_with_a_countdown_handed_to_a_bot_and_takes_the_seat_back(quick_away_server, chromium):
    base = quick_away_server
    ana = sign_in(chromium, base, "Ana")
    bo = sign_in(chromium, base, "Bo")

    ana.select_option("#ruleset", "through-the-desert")
    ana.select_option("#pace", "turn_based")
    expect(ana.locator("#move-seconds")).to_have_value(str(3 * 86400))  # the usual turn-based clock
    ana.select_option("#move-seconds", str(86400))
    ana.click("#create-table")
    ana.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = ana.url.rsplit("/", 1)[1]
    expect(ana.locator("#waiting-info")).to_contain_text("turn-based · 1 day per move")
    # Bo joins from his lobby and goes on with his day: he never opens the table.
    bo.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
    bo.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    bo.goto(f"{base}/")
    ana.click('[data-action="start"]')
    expect(ana.locator("#game")).to_have_attribute("data-status", "running")
    expect(ana.locator("#time-control")).to_contain_text("turn-based · 1 day per move")

    # Through the Desert: seat 0 (Ana) places first; play until it is Bo's move.
    game = ana.request.get(f"{base}/api/games/{table_id}").json()
    while 1 not in game["to_act"]:
        answer = ana.request.post(f"{base}/api/games/{table_id}/moves",
                                  data={"id": f"a{game['version']}", "version": game["version"], "move": game["legal"][0]})
        assert answer.ok, answer.text()
        game = ana.request.get(f"{base}/api/games/{table_id}").json()

    # Bo's lobby: "My games" puts this table first, his move, with the day's deadline counting down.
    bo.click("#refresh-tables")
    first = bo.locator("#mine .mine-item").first
    expect(first).to_have_attribute("data-my-table-id", table_id)
    expect(first).to_have_attribute("data-your-turn", "true")
    expect(first.locator("[data-my-deadline]")).to_have_text(re.compile(r"^(1 d 00 h|23:\d\d:\d\d)$"))
    expect(first.locator('[data-pace="turn_based"]')).to_have_text("turn-based")
    # "Started" when Bo moves first, "just now" unless a loaded machine took a minute: the label is the point.
    expect(first.locator("[data-last-activity]")).to_have_text(re.compile(r"^(Last move|Started) (just now|\d+ min ago)$"))

    # Ana's table: Bo is away, with the countdown of his clock, and she may hand his seat over.
    notice = ana.locator('#away [data-away-seat="1"]')
    expect(notice).to_contain_text("Bo is away.", timeout=15_000)
    expect(notice.locator("[data-away-countdown]")).to_have_text(re.compile(r"^(1 d 00 h|23:\d\d:\d\d)$"))
    expect(ana.locator('.player[data-seat="1"] [data-away]')).to_be_visible()
    before = version_of(ana)
    notice.locator('[data-action="hand-over"]').click()
    dialog = ana.locator("dialog.confirm-dialog")
    expect(dialog).to_contain_text("A bot plays their seat until they come back")
    dialog.locator('[data-dialog="ok"]').click()
    expect(ana.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "away")
    expect(ana.locator('.player[data-seat="1"] [data-takeover-label]')).to_have_text("bot playing (away)")
    wait_for_version_change(ana, before)  # the bot played Bo's move
    expect(ana.locator("#away")).to_be_hidden()

    # Bo opens the table (as after leaving) and plays his own seat again.
    bo.locator(f'[data-my-table-id="{table_id}"] [data-action="open"]').click()
    expect(bo.locator("#game")).to_have_attribute("data-status", "running")
    expect(ana.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "")
    expect(bo.locator("#seat-status")).to_be_hidden()
    expect(ana.locator('.player[data-seat="1"] [data-away]')).to_have_count(0)


def test_the_host_sees_who_is_not_at_a_timed_table_and_starts_once_they_are_back(quick_away_server, chromium):
    """The waiting room of a timed table shows who is not at the table, and its host can start only
    once they are back (app/services/attendance/waiting.py): Bo took his seat and opened nothing."""
    base = quick_away_server
    ana, bo = guest_page(chromium, base, "Ana"), guest_page(chromium, base, "Bo")
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": "nimalia", "seats": 2, "move_seconds": 60})["id"]
    api(bo, base, "POST", f"/api/tables/{table_id}/join")  # Bo takes the seat and opens nothing: gone
    ana.goto(f"{base}/tables/{table_id}")
    bo_seat = ana.locator('#waiting-seats [data-seat="1"]')
    expect(bo_seat.locator("[data-away]")).to_have_text(" · not at the table", timeout=15_000)
    expect(ana.locator("#waiting-note")).to_have_text(
        "Waiting for Bo to come back to the table: with a move clock the game starts only with everyone here.")
    expect(ana.locator('[data-action="start"]')).to_be_disabled()
    expect(ana.locator('[data-action="start-bots"]')).to_have_text("Start with bots in their seats")  # or without him
    refused = ana.request.post(f"{base}/api/tables/{table_id}/start", data={})
    assert refused.status == 409 and refused.json()["error"]["message"].startswith("Bo is not at the table")

    bo.goto(f"{base}/tables/{table_id}")  # Bo comes back: his waiting room keeps him there
    expect(bo_seat.locator("[data-away]")).to_have_count(0, timeout=15_000)
    expect(ana.locator("#waiting-note")).to_have_text("Everyone is here: start when ready.")
    expect(ana.locator('[data-action="start-bots"]')).to_have_count(0)
    ana.locator('[data-action="start"]').click()
    expect(ana.locator("#game")).to_have_attribute("data-status", "running")
    expect(bo.locator("#game")).to_have_attribute("data-status", "running")

"""The waiting room of a timed table shows who is not at the table, and its host can start only once
they are back (app/services/attendance/waiting.py): a server of its own whose people count as away
after 2 s, so a seat whose person took it and went away shows so within seconds."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SERVER_START_SECONDS
from tests.e2e.pages import api, expect, guest_page
from tests.support.server import ServerProcess


@pytest.fixture(scope="module")
def quick_away_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("quick-away")
    server = ServerProcess(f"sqlite+aiosqlite:///{workdir}/away.db", log_path=workdir / "server.log", workdir=workdir,
                           env={"CARAVANSERAI_ABSENT_AFTER_SECONDS": "2", "CARAVANSERAI_PRESENCE_REFRESH_SECONDS": "0.5"})
    server.start(timeout=SERVER_START_SECONDS)
    try:
        yield server.base_url
    finally:
        server.stop()


def test_the_host_sees_who_is_gone_and_starts_once_they_are_back(quick_away_server, chromium):
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
    refused = ana.request.post(f"{base}/api/tables/{table_id}/start", data={})
    assert refused.status == 409 and refused.json()["error"]["message"].startswith("Bo is not at the table")

    bo.goto(f"{base}/tables/{table_id}")  # Bo comes back: his waiting room keeps him there
    expect(bo_seat.locator("[data-away]")).to_have_count(0, timeout=15_000)
    expect(ana.locator("#waiting-note")).to_have_text("Everyone is here: start when ready.")
    ana.locator('[data-action="start"]').click()
    expect(ana.locator("#game")).to_have_attribute("data-status", "running")
    expect(bo.locator("#game")).to_have_attribute("data-status", "running")

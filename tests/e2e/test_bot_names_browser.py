"""A person's seat a bot plays (here after Leave) is named "Name (bot)" on the table page wherever the
game names it: the turn line, the board's prompts and the player's card, in every game; the players'
panel keeps the person's name with its "bot playing (left)" badge.

A server of its own whose bots wait ten minutes before a move, so the seat the bot took over stays
the one to act while the page is read."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SERVER_START_SECONDS
from tests.e2e.pages import api, expect, guest_page, server_game
from tests.support.server import ServerProcess


@pytest.fixture(scope="module")
def slow_bot_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("slow-bots")
    server = ServerProcess(f"sqlite+aiosqlite:///{workdir}/bots.db", log_path=workdir / "server.log", workdir=workdir,
                           env={"CARAVANSERAI_BOT_DELAY_SECONDS": "600"})
    server.start(timeout=SERVER_START_SECONDS)
    try:
        yield server.base_url
    finally:
        server.stop()


def only_bo_to_act_then_bo_leaves(chromium, base: str, ruleset: str):
    """Ana and Bo at a 2-seat table of ``ruleset``, played through the API until Bo alone is to act;
    then Bo leaves and a bot plays his seat. Ana's page, open at the table."""
    ana, bo = guest_page(chromium, base, "Ana"), guest_page(chromium, base, "Bo")
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": ruleset, "seats": 2})["id"]
    api(bo, base, "POST", f"/api/tables/{table_id}/join")
    api(ana, base, "POST", f"/api/tables/{table_id}/start")
    for _ in range(20):
        game = server_game(ana, base, table_id)
        if game["to_act"] == [1]:
            break
        page = ana if 0 in game["to_act"] else bo
        mine = server_game(page, base, table_id)
        api(page, base, "POST", f"/api/games/{table_id}/moves",
            {"id": f"m{mine['version']}-{mine['seat']}", "version": mine["version"], "move": mine["legal"][0]})
    else:
        raise AssertionError("Bo never came to act alone")
    api(bo, base, "POST", f"/api/tables/{table_id}/leave")
    ana.goto(f"{base}/tables/{table_id}")
    expect(ana.locator("#game")).to_have_attribute("data-status", "running")
    expect(ana.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "left")
    return ana


@pytest.mark.parametrize("ruleset", ["heroes", "through-the-desert", "nimalia", "nomadi"])
def test_a_seat_a_bot_plays_for_its_person_is_named_with_bot(slow_bot_server, chromium, ruleset):
    ana = only_bo_to_act_then_bo_leaves(chromium, slow_bot_server, ruleset)
    expect(ana.locator("#turn")).to_contain_text("Waiting for Bo (bot)")
    expect(ana.locator('.player[data-seat="1"] .player-name')).to_have_text("Bo")  # beside its badge
    expect(ana.locator('.player[data-seat="1"] [data-takeover-label]')).to_have_text("bot playing (left)")
    expect(ana.locator("#board")).to_contain_text("Bo (bot)")  # the player's card on the board
    if ruleset == "heroes":
        expect(ana.locator(".hx-waiting")).to_contain_text("Bo (bot)")
        expect(ana.locator('[data-player-seat="1"] .hx-player-head strong')).to_have_text("Bo (bot)")
        expect(ana.locator('[data-player-seat="0"] .hx-player-head strong')).to_have_text("Ana")


def test_a_seat_a_bot_plays_is_marked_in_the_readers_words(slow_bot_server, chromium):
    """Two people of one name, the second taken over: a French page names him "Zoé (place 2, bot)"
    (the seat label and the bot mark in one, as the log writes a bot's move for him)."""
    base = slow_bot_server
    first, second = guest_page(chromium, base, "Zoé"), guest_page(chromium, base, "Zoé")
    api(first, base, "POST", "/api/account/settings", {"language": "fr"})
    table_id = api(first, base, "POST", "/api/tables", {"ruleset": "heroes", "seats": 2,
                                                       "options": {"first_player": "host"}})["id"]
    api(second, base, "POST", f"/api/tables/{table_id}/join")
    api(first, base, "POST", f"/api/tables/{table_id}/start")
    api(second, base, "POST", f"/api/tables/{table_id}/leave")
    first.goto(f"{base}/tables/{table_id}")
    expect(first.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "left")
    expect(first.locator('[data-player-seat="1"] .hx-player-head strong')).to_have_text("Zoé (place 2, bot)")
    expect(first.locator('[data-player-seat="0"] .hx-player-head strong')).to_have_text("Zoé (place 1)")

"""A person against a bot in real Chromium: the host seats a bot from the waiting room, starts,
moves by clicking, and the bot answers through the server."""

from __future__ import annotations

import random

import pytest

from tests.e2e.test_through_the_desert_browser import play_one_move, sign_in, version_of

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_host_plays_against_a_bot(live_server, chromium):
    page = sign_in(chromium, live_server, "Hana")
    created = page.request.post(f"{live_server}/api/tables",
                                data={"ruleset": "through-the-desert", "seats": 2, "options": {}, "private": False})
    table_id = str(created.json()["id"])
    page.goto(f"{live_server}/tables/{table_id}")
    page.select_option('[data-bot-level="1"]', "random")
    page.click('[data-action="add-bot-1"]')
    expect(page.locator('[data-seat="1"]')).to_contain_text("(bot)")
    page.click('[data-action="start"]')
    expect(page.locator("#game")).to_have_attribute("data-version", "0")
    rng = random.Random(3)
    for _ in range(3):
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=15_000)
        before = version_of(page)
        play_one_move(page, live_server, table_id, rng)
        # The bot (seat 2 in the players list) answers by itself: the version moves past ours.
        expect(page.locator("#game")).not_to_have_attribute("data-version", str(before + 1), timeout=15_000)
    expect(page.locator(".player[data-seat='1']")).to_contain_text("(bot)")

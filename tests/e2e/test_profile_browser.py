"""The lobby shows running games with whose turn it is, and a player's profile page lists their
games with results (issue 10), in real Chromium."""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.pages import finish_by_rest, server_game, sign_in

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_lobby_shows_whose_turn_and_the_profile_lists_results(live_server, chromium):
    base = live_server
    ana, bo, cy = (sign_in(chromium, base, name) for name in ("Ana", "Bo", "Cy"))
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "through-the-desert", "seats": 2}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    game = server_game(cy, base, table_id)
    [to_act] = game["to_act"]

    # Cy, who plays nowhere, sees the running table with its players and whose turn it is.
    cy.click("#refresh-tables")
    item = cy.locator(f'[data-table-id="{table_id}"]')
    expect(item).to_have_attribute("data-status", "running")
    expect(item.locator(".seat-chip")).to_have_count(2)
    expect(item.locator('.seat-chip[data-to-act="true"]')).to_have_count(1)
    expect(item.locator('.seat-chip[data-to-act="true"]')).to_contain_text(["Ana", "Bo"][to_act])
    expect(item.locator('[data-action="watch"]')).to_have_text("Watch")

    result = finish_by_rest([ana, bo], base, int(table_id), random.Random(3))
    ana.goto(f"{base}/")
    ana.click("#my-games")
    ana.wait_for_url(re.compile(r"/players/\d+$"))
    expect(ana.locator("#player-name")).to_have_text("Ana")
    entry = ana.locator(f'[data-game-id="{table_id}"]')
    place = result["ranks"][0]
    expect(entry).to_have_attribute("data-result", "won" if place == 1 else "lost")
    shared = result["ranks"].count(place) > 1
    score = result["scores"][0]
    expected = (f"{'Shared 1st place' if shared else 'Won'} with {score} point" if place == 1
                else f"{'Shared ' if shared else ''}2nd of 2 with {score} point")
    expect(entry.locator("[data-outcome]")).to_contain_text(expected)
    expect(ana.locator("#player-summary")).to_contain_text(f"1 finished game, {1 if place == 1 else 0} won")
    # The table was rated (two people): a first game moves 1000 to 1138 for a win, 927 for a loss,
    # 1000 + 40 (mu - 3 sigma) by openskill (tests/api/test_ratings.py); shared first place: 1032.
    shown = {(1, False): 1138, (2, False): 927, (1, True): 1032}[(place, shared)]
    expect(ana.locator('#player-ratings [data-ruleset="through-the-desert"] .rating-value')).to_have_text(str(shown))
    expect(ana.locator("#player-ratings svg.rating-chart polyline")).to_have_count(1)
    entry.locator("a", has_text="Bo").click()  # the opponent's name leads to their profile
    ana.wait_for_url(re.compile(r"/players/\d+$"))
    expect(ana.locator("#player-name")).to_have_text("Bo")
    ana.goto(f"{base}/tables/{table_id}")  # the result screen shows the change beside the place
    expect(ana.locator('[data-rating-change-seat="0"]')).to_have_text(f"{shown} ({'+' if shown > 1000 else '−'}{abs(shown - 1000)})")

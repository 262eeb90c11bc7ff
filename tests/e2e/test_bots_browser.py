"""A person against a bot in real Chromium: the host seats a bot from the waiting room, starts,
moves by clicking, and the bot answers through the server."""

from __future__ import annotations

import random

import pytest

from tests.e2e.test_through_the_desert_browser import play_one_move, sign_in, version_of

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def open_table(page, base: str, seats: int) -> str:
    """A public Through the Desert table of ``seats`` seats hosted by ``page``'s player; its id."""
    created = page.request.post(f"{base}/api/tables",
                                data={"ruleset": "through-the-desert", "seats": seats, "options": {}, "private": False})
    return str(created.json()["id"])



def test_host_plays_against_a_bot(live_server, chromium):
    page = sign_in(chromium, live_server, "Hana")
    table_id = open_table(page, live_server, seats=2)
    page.goto(f"{live_server}/tables/{table_id}")
    page.select_option('[data-bot-level="1"]', "easy")
    page.click('[data-action="add-bot-1"]')
    expect(page.locator('[data-seat="1"]')).to_contain_text("(bot)")
    page.click('[data-action="start"]')
    # the start player is drawn: when it is the bot, its move may come before the page reads the game
    expect(page.locator("#game")).to_have_attribute("data-status", "running")
    rng = random.Random(3)
    for _ in range(3):
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=15_000)
        before = version_of(page)
        play_one_move(page, live_server, table_id, rng, bots_follow=True)
        # The bot (seat 2 in the players list) answers by itself: the version moves past ours.
        expect(page.locator("#game")).not_to_have_attribute("data-version", str(before + 1), timeout=15_000)
    expect(page.locator(".player[data-seat='1']")).to_contain_text("(bot)")


def test_host_seats_an_easy_a_medium_and_a_strong_bot(live_server, chromium):
    """The bot-seat menu offers the three levels people choose from (the API's "random" level is
    for tests and scripts), in words with a line each; every level, seated from it, plays its moves
    through the server (the strong one in the leader's worker process)."""
    page = sign_in(chromium, live_server, "Levente")
    table_id = open_table(page, live_server, seats=4)
    page.goto(f"{live_server}/tables/{table_id}")
    menu = page.locator('[data-bot-level="1"]')
    expect(menu.locator("option").first).to_have_text("Easy bot")  # the waiting room is drawn once the catalogs are in
    labels = menu.locator("option").evaluate_all("options => options.map(option => [option.value, option.textContent, option.title])")
    assert [label[:2] for label in labels] == [["easy", "Easy bot"], ["medium", "Medium bot"], ["strong", "Strong bot"]]
    assert all(label[2] for label in labels), labels  # each with its line
    expect(page.locator('[data-bot-level-line="1"]')).to_contain_text("fair challenge")  # medium is preselected
    for seat, level, words in ((1, "easy", "beginner"), (2, "medium", "fair challenge"), (3, "strong", "several moves ahead")):
        page.select_option(f'[data-bot-level="{seat}"]', level)
        expect(page.locator(f'[data-bot-level-line="{seat}"]')).to_contain_text(words)
        page.click(f'[data-action="add-bot-{seat}"]')
        expect(page.locator(f'[data-seat="{seat}"]')).to_contain_text(f"(bot) · {level}")
    seats = page.request.get(f"{live_server}/api/tables/{table_id}").json()["seats"]
    assert [seat["bot_level"] for seat in seats] == [None, "easy", "medium", "strong"]
    page.click('[data-action="start"]')
    expect(page.locator("#game")).to_have_attribute("data-status", "running")  # the bots may move before the page reads the game
    rng = random.Random(5)
    for _ in range(2):
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=60_000)
        play_one_move(page, live_server, table_id, rng, bots_follow=True)
    # After our second move, the three bots have each answered our first one.
    log = page.request.get(f"{live_server}/api/games/{table_id}/log").json()
    movers = {entry["text"].split(" (bot)")[0] for entry in log if "(bot)" in entry["text"]}
    assert len(movers) == 3, movers


def test_a_random_bot_seated_through_the_api_is_named_by_its_level(live_server, chromium):
    """Nobody picks the "random" level in the waiting room, but a table whose seat has one (seated
    through the API, as tests and scripts do) names it like the others."""
    page = sign_in(chromium, live_server, "Rasmus")
    table_id = open_table(page, live_server, seats=3)
    assert page.request.post(f"{live_server}/api/tables/{table_id}/bots", data={"seat": 1, "level": "random"}).ok
    page.goto(f"{live_server}/tables/{table_id}")
    expect(page.locator('[data-seat="1"]')).to_contain_text("(bot) · random")
    options = page.locator('[data-bot-level="2"] option').evaluate_all("options => options.map(option => option.value)")
    assert options == ["easy", "medium", "strong"]


def test_bot_levels_chosen_in_the_menus_outlive_a_redraw(live_server, chromium):
    """The host picks strong for one empty seat and easy for another, then adds a bot to a third:
    the room redraws, and the two menus still say what was picked, so those bots get those levels."""
    page = sign_in(chromium, live_server, "Lucia")
    table_id = open_table(page, live_server, seats=4)
    page.goto(f"{live_server}/tables/{table_id}")
    page.select_option('[data-bot-level="2"]', "strong")
    page.select_option('[data-bot-level="3"]', "easy")
    page.click('[data-action="add-bot-1"]')
    expect(page.locator('[data-seat="1"]')).to_contain_text("(bot) · medium")
    expect(page.locator('[data-bot-level="2"]')).to_have_value("strong")
    expect(page.locator('[data-bot-level="3"]')).to_have_value("easy")
    expect(page.locator('[data-bot-level-line="2"]')).to_contain_text("several moves ahead")
    page.click('[data-action="add-bot-2"]')
    expect(page.locator('[data-seat="2"]')).to_contain_text("(bot) · strong")
    page.click('[data-action="add-bot-3"]')
    expect(page.locator('[data-seat="3"]')).to_contain_text("(bot) · easy")
    seats = page.request.get(f"{live_server}/api/tables/{table_id}").json()["seats"]
    assert [seat["bot_level"] for seat in seats] == [None, "medium", "strong", "easy"]


def test_the_host_is_asked_before_giving_their_own_seat_to_a_bot(live_server, chromium):
    """In the waiting room the host's own seat goes to a bot for the whole game (the host then
    watches): a dialog says so first; Cancel keeps the host seated, OK seats the bot."""
    page = sign_in(chromium, live_server, "Gianna")
    table_id = open_table(page, live_server, seats=2)
    me = page.request.get(f"{live_server}/api/auth/me").json()["id"]
    page.goto(f"{live_server}/tables/{table_id}")
    give = page.locator('[data-action="add-bot-0"]')
    expect(give).to_have_text("Give my seat to a bot")
    give.click()
    dialog = page.locator("dialog.confirm-dialog")
    expect(dialog).to_contain_text("Give your seat to a bot?")
    expect(dialog).to_contain_text("plays it for the whole game")
    expect(dialog).to_contain_text("watch")
    dialog.locator('[data-dialog="cancel"]').click()
    expect(dialog).to_have_count(0)
    page.wait_for_timeout(500)  # nothing was sent: the seat is still the host's
    seat = page.request.get(f"{live_server}/api/tables/{table_id}").json()["seats"][0]
    assert seat["account_id"] == me and not seat["bot"]
    expect(page.locator('[data-seat="0"]')).to_contain_text("(you)")

    page.select_option('[data-bot-level="0"]', "easy")
    give.click()
    page.locator('dialog.confirm-dialog [data-dialog="ok"]').click()
    expect(page.locator('[data-seat="0"]')).to_contain_text("(bot) · easy")
    seat = page.request.get(f"{live_server}/api/tables/{table_id}").json()["seats"][0]
    assert seat["account_id"] is None and seat["bot"] and seat["bot_level"] == "easy"

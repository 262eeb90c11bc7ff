"""A two-player Nimalia table in real Chromium, played by clicks up to the first round's scoring,
then to the end through the REST pipeline while the pages follow.

Both players choose at the same time (the draft is simultaneous).  Every placement is chosen
from the spaces the page highlights, and the test checks that those are exactly the server's
legal positions for the chosen card and rotation.  A player's hand and waiting choice never show
on the other player's page or a spectator's.  No rule code or internal id (an objective's "O12")
is in the text of a page while a card is placed or at the end.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.pages import (assert_no_codes, create_join_and_start, finish_by_rest, server_game, sign_in, version_of,
                             wait_for_version, wait_for_version_change)

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def choose_by_clicks(page, base: str, table_id: str, rng: random.Random) -> dict:
    """Pick a card, turn it, click a highlighted space, confirm; returns the move the page sent."""
    cards = page.locator("[data-hand-card]:not([disabled])")
    expect(cards.first).to_be_visible()
    tokens = cards.evaluate_all("buttons => buttons.map(button => button.dataset.handCard)")
    card = rng.choice(tokens)
    page.click(f'[data-hand-card="{card}"]')
    expect(page.locator(f'[data-hand-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-rotation]")).to_have_attribute("data-rotation", "0")  # a new hand starts unturned
    turns = rng.randrange(4)
    for turn in range(1, turns + 1):
        page.click('[data-action="rotate-right"]')
        expect(page.locator("[data-rotation]")).to_have_attribute("data-rotation", str(90 * turn))
    rotation = 90 * turns

    game = server_game(page, base, table_id)
    expected = sorted(f"{m['at'][0]},{m['at'][1]}" for m in game["legal"] if m["card"] == card and m["rotation"] == rotation)
    highlighted = page.locator(".nim-mine [data-anchor].legal")
    expect(highlighted).to_have_count(len(expected))
    assert sorted(highlighted.evaluate_all("cells => cells.map(cell => cell.dataset.anchor)")) == expected

    expect(page.locator('[data-action="confirm"]')).to_be_disabled()
    target = rng.choice(expected)
    page.click(f'.nim-mine [data-anchor="{target}"]')
    expect(page.locator(".nim-mine .nim-cell.preview")).to_have_count(4)
    assert_no_codes(page, f"Nimalia, placing card {card}")  # the hand, the preview, the log so far
    before = version_of(page)
    page.click('[data-action="confirm"]')
    wait_for_version_change(page, before)
    row, col = (int(part) for part in target.split(","))
    return {"type": "place", "card": card, "rotation": rotation, "at": [row, col]}


def test_two_players_draft_by_clicks_to_the_first_scoring(live_server, chromium):
    base = live_server
    rng = random.Random(33)
    alice = sign_in(chromium, base, "Alice")
    bob = sign_in(chromium, base, "Bob", width=420)

    alice.select_option("#ruleset", "nimalia")
    alice.select_option("#seats", "2")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = alice.url.rsplit("/", 1)[1]
    bob.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
    bob.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    start = alice.locator('[data-action="start"]')
    expect(start).to_be_enabled()
    start.click()
    players = [alice, bob]
    wait_for_version(players, 0)

    spectator_context = chromium.new_context(viewport={"width": 390, "height": 844})
    spectator_context.set_default_timeout(10_000)
    carol = spectator_context.new_page()
    carol.goto(f"{base}/tables/{table_id}")
    watchers = [*players, carol]
    wait_for_version(watchers, 0)
    for page in watchers:  # a page redraws when its socket goes live; click only after that
        expect(page.locator("body")).to_have_attribute("data-connection", "live")

    for page in watchers:
        expect(page.locator(".nim-objective")).to_have_count(4)
        expect(page.locator(".nim-status")).to_have_attribute("data-round", "1")
    expect(carol.locator("[data-hand-card]")).to_have_count(0)
    expect(carol.locator(".move-controls")).to_have_count(0)

    version = 0
    for step in (1, 2, 3):
        for page in watchers:
            expect(page.locator(".nim-status")).to_have_attribute("data-step", str(step))
        # both players are to act at once
        assert alice.locator("body").get_attribute("data-my-turn") == "true"
        assert bob.locator("body").get_attribute("data-my-turn") == "true"
        alice_hand = server_game(alice, base, table_id)["view"]["hand"]
        expect(alice.locator("[data-hand-card]")).to_have_count(4 - step)
        # From step 2 on Alice holds cards Bob passed her: his page says which, nobody else's does.
        passed = bob.locator('[data-player-seat="0"] [data-passed-on]')
        if step == 1:
            expect(passed).to_have_count(0)
        else:
            numbers = ", ".join(str(card["number"]) for card in alice_hand)
            expect(passed).to_have_text(f"Holds cards you passed: {numbers}")
        expect(carol.locator("[data-passed-on]")).to_have_count(0)

        first, second = (alice, bob) if step != 2 else (bob, alice)
        move = choose_by_clicks(first, base, table_id, rng)
        version += 1
        wait_for_version(watchers, version)
        # the choice waits face down: shown to its chooser only
        expect(first.locator(".nim-mine .pending-choice")).to_have_count(4)
        for page in watchers:
            if page is not first:
                assert move["card"] not in page.content()
        for page in (bob, carol):
            html = page.content()
            assert not [card["card"] for card in alice_hand if card["card"] in html]

        choose_by_clicks(second, base, table_id, rng)
        version += 1
        wait_for_version(watchers, version)
        # both choices are revealed together: every page draws every reserve as the server has it
        view = server_game(carol, base, table_id)["view"]
        for page in watchers:
            for seat in (0, 1):
                cells = page.locator(f'[data-reserve="{seat}"] .nim-cell:not(.empty)')
                expect(cells).to_have_count(len(view["players"][seat]["spaces"]))

    # the first round is scored: blue and green, with the per-round breakdown on every page
    game = server_game(carol, base, table_id)
    [record] = game["view"]["history"]
    assert [step["colour"] for step in record["steps"]] == ["blue", "green"]
    for page in watchers:
        expect(page.locator(".nim-status")).to_have_attribute("data-round", "2")
        expect(page.locator('[data-history-total="1"]')).to_be_visible()
        for seat, total in enumerate(record["after"]):
            expect(page.locator(f'[data-history-total="1"] td[data-seat="{seat}"]')).to_have_text(str(total))
            expect(page.locator(f'[data-nim-score="{seat}"] .nim-score-value')).to_have_text(str(total))
        for step in record["steps"]:
            row = page.locator(f'[data-history-round="1"][data-history-objective="{step["label"]}"]')
            expect(row).to_have_count(1)
    for page in players:
        expect(page.locator("[data-hand-card]")).to_have_count(3)  # round 2's new hand

    overflow = carol.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0

    # rounds 2 - 5 go through the REST pipeline; every page follows live to the end
    result = finish_by_rest(players, base, table_id, rng)
    for page in watchers:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator(".nim-status")).to_have_attribute("data-over", "true")
        expect(page.locator("[data-history-total]")).to_have_count(5)
        for seat, score in enumerate(result["scores"]):
            expect(page.locator(f'#result [data-score-seat="{seat}"]')).to_have_text(str(score))
            expect(page.locator(f'[data-nim-score="{seat}"] .nim-score-value')).to_have_text(str(score))
        expect(page.locator(".move-controls")).to_have_count(0)
        assert_no_codes(page, "Nimalia, the end")


def test_three_players_finish_a_game_by_clicks_alone(live_server, chromium):
    """A whole game: three browsers draft all five rounds by clicks (15 picks each, every
    placement among the highlighted legal spaces) until the game is scored on every page."""
    base = live_server
    rng = random.Random(7)
    ana, bo, cy = (sign_in(chromium, base, name) for name in ("Ana", "Bo", "Cy"))
    table_id = create_join_and_start(ana, [bo, cy], "nimalia")
    players = [ana, bo, cy]
    wait_for_version(players, 0)
    for page in players:
        expect(page.locator("body")).to_have_attribute("data-connection", "live")

    version = 0
    for round_number in range(1, 6):
        for step in (1, 2, 3):
            for page in players:
                expect(page.locator(".nim-status")).to_have_attribute("data-round", str(round_number))
                expect(page.locator(".nim-status")).to_have_attribute("data-step", str(step))
            for page in rng.sample(players, 3):  # simultaneous: any order
                choose_by_clicks(page, base, table_id, rng)
                version += 1
                wait_for_version(players, version)

    result = server_game(ana, base, table_id)["result"]
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("[data-history-total]")).to_have_count(5)
        for seat, score in enumerate(result["scores"]):
            expect(page.locator(f'#result [data-score-seat="{seat}"]')).to_have_text(str(score))
        for seat in range(3):  # 15 cards of 4 spaces, some covered: every reserve drawn as the server has it
            expect(page.locator(f'[data-reserve="{seat}"] .nim-cell:not(.empty)')).to_have_count(
                len(server_game(page, base, table_id)["view"]["players"][seat]["spaces"]))
        # the whole game's log, the scoring history and the result read in words
        expect(page.locator("#log li")).to_have_count(len(server_game(page, base, table_id)["log"]))
        assert_no_codes(page, "Nimalia, the end")

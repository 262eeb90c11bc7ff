"""The table looks and fits like a board game, in real Chromium.

* Every game's board is fully visible without scrolling it, at 1280 x 800 and on a 390 x 844
  phone (Through the Desert's there scrolls inside its frame, which fits): its bounding box fits the window, the page never scrolls sideways, and the phone's
  header stays on one line.
* The lobby shows a card per game and starts a 2-player table by default.
* Dark mode follows the system setting, the topbar toggle overrides it and is remembered
  (localStorage). (The web app manifest is checked in tests/api/test_web_app_manifest.py.)
* Heroes never offers a tactic card that is void for its side: the defender sees no Ambush and
  no card whose only payment is "no cost" but Hold.

Cheap by design: one signed-in page per size, tables started through the API with a bot.
"""

from __future__ import annotations

import pytest

from tests.e2e.pages import expect, server_game, sign_in
from tests.e2e.test_heroes_browser import steer_three_players_to_a_battle

BOARDS = {  # ruleset -> the element that is the board
    "through-the-desert": "#board svg.ttd-board",
    "nimalia": "#board .nim-mine .nim-grid",
    "nomadi": "#board svg.nomadi-board",
    "heroes": "#board svg.hx-map",
}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# On a phone Through the Desert's hexes are drawn big enough to tap (about 40 px) from the start:
# the board scrolls inside its frame, and the frame is what fits the window.
PHONE_BOARDS = {**BOARDS, "through-the-desert": "#board .ttd-board-frame"}


def start_with_bot(page, base: str, ruleset: str) -> str:
    """A running 2-seat table of ``ruleset``: the page's guest and a bot; its id."""
    created = page.request.post(f"{base}/api/tables", data={"ruleset": ruleset, "seats": 2, "options": {}})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    assert page.request.post(f"{base}/api/tables/{table_id}/bots", data={"seat": 1}).ok
    started = page.request.post(f"{base}/api/tables/{table_id}/start", data={})
    assert started.ok, started.text()
    return table_id


@pytest.mark.parametrize("size", SIZES)
def test_every_board_fits_the_window_without_scrolling_it(live_server, chromium, size):
    width, height = SIZES[size]
    phone = size == "phone"
    page = sign_in(chromium, live_server, f"Fit{size}", width=width, height=height, touch=phone, is_mobile=phone)
    for ruleset, board in (PHONE_BOARDS if phone else BOARDS).items():
        table_id = start_with_bot(page, live_server, ruleset)
        page.goto(f"{live_server}/tables/{table_id}")
        expect(page.locator(board)).to_be_visible()
        # measured in one step: a bot's move redraws the board between two calls
        page.wait_for_timeout(100)  # board-fit.js sizes the board on the next animation frame
        box = page.locator(board).evaluate(
            "e => { const r = e.getBoundingClientRect(); return {width: r.width, height: r.height, bottom: r.bottom + scrollY}; }")
        assert box["width"] <= width and box["height"] <= height, f"{ruleset} board {box} in {width}x{height}"
        if not phone:  # on a desktop the board shows whole below the banner and prompt, unscrolled
            assert box["bottom"] <= height, f"{ruleset} board ends at {box['bottom']} px in {width}x{height}"
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{ruleset}: the page scrolls sideways by {overflow} px"
        if phone:  # the header is one line: brand hidden, words shortened
            header = page.locator(".topbar").evaluate("e => [e.getBoundingClientRect().height, e.scrollWidth - e.clientWidth]")
            assert header[0] <= 60 and header[1] <= 0, f"{ruleset}: the header is {header[0]} px high, {header[1]} px too wide"
    # the lobby: a card per game with its rules, 2 players by default, the form on the first screen
    page.goto(f"{live_server}/")
    expect(page.locator("#game-cards [data-game-card]")).to_have_count(len(BOARDS))
    expect(page.locator('[data-game-card="nomadi"] a.game-card-rules')).to_have_attribute("href", "/rules/nomadi")
    expect(page.locator("#seats")).to_have_value("2")
    assert page.locator("#create-title").bounding_box()["y"] < 120
    expect(page.locator("#create-table")).to_be_visible()  # laid out (bounding_box is None until then)
    assert page.locator("#create-table").bounding_box()["y"] < 3 * height, "the form is near the top"
    page.locator('[data-game-card="heroes"] button').click()
    expect(page.locator("#ruleset")).to_have_value("heroes")
    expect(page.locator("#seats")).to_have_value("2")  # not "1 player (solo)"


def test_dark_mode_follows_the_system_and_the_toggle_is_remembered(live_server, chromium):
    page = sign_in(chromium, live_server, "Dusk", width=390, height=844, color_scheme="dark")
    background = "getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)"
    assert max(page.evaluate(background)) < 60, "the system asks for dark colours"
    page.locator("#theme-toggle").click()
    assert min(page.evaluate(background)) > 200, "the toggle switches to light"
    page.reload()
    expect(page.locator("#theme-toggle")).to_have_attribute("aria-pressed", "false")
    assert min(page.evaluate(background)) > 200, "the choice is remembered"


def test_the_heroes_defender_is_never_offered_a_void_card(live_server, chromium):
    base = live_server
    ana = sign_in(chromium, base, "Ana")
    bo = sign_in(chromium, base, "Bo")
    table_id, games = steer_three_players_to_a_battle(chromium, base, ana, bo)
    assert games[0]["view"]["phase"] == "tactics", "the steered game reached a battle's tactic choice"
    battle = games[0]["view"]["pending"]["battle"]
    defender = [ana, bo][battle["defender"]]
    legal = [move for move in server_game(defender, base, table_id)["legal"] if move["type"] == "tactic"]
    offered = {move["card"] for move in legal}
    assert "ambush" not in offered and "hold" in offered  # Ambush is for the attacker only
    defender.goto(f"{base}/tables/{table_id}")
    cards = defender.locator("#board .hx-cards [data-card]")
    expect(cards).to_have_count(len(offered))
    assert set(cards.evaluate_all("els => els.map(e => e.dataset.card)")) == offered
    for card in offered - {"hold"}:  # a card that does something costs something
        defender.locator(f'#board .hx-cards [data-card="{card}"]').click()
        expect(defender.locator("#board .hx-choices button").first).to_be_visible()
        labels = defender.locator("#board .hx-choices button").all_inner_texts()
        assert not [label for label in labels if "no cost" in label.lower()], f"{card}: {labels}"

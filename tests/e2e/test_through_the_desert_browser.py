"""A whole table of Through the Desert in real Chromium: lobby, seats, start, moves by clicking,
a spectator who sees the same board without controls, and a reload in the middle of the game.
At the end, the whole game's log and the result show no rule code or internal id.

Every move is chosen from the hexes the page highlights, and the test checks that those are
exactly the server's legal moves for the chosen colour (the client never decides a rule).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.e2e.pages import assert_no_codes, finish_by_rest, sign_in, version_of, wait_for_version, wait_for_version_past

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

LEADER_MOVES = 10  # 2 players x 5 leaders (Spec L-1)
CAMEL_MOVES = 7  # start player 1 camel (T-3), then 2 per turn
RELOAD_AFTER_CAMELS = 2
MAX_REST_MOVES = 400


def hex_keys(locator) -> list[str]:
    return sorted(locator.evaluate_all("elements => elements.map(element => element.dataset.hex)"))


def play_one_move(page, base: str, table_id: str, rng: random.Random, bots_follow: bool = False) -> str:
    """Pick a colour and a highlighted hex on `page` by clicking; returns the hex ("q,r").

    ``bots_follow``: bots hold the next seats, so the page may show their moves before it is seen
    showing ours alone; then the move is checked by its camel, not by the version or the last-move mark."""
    before = version_of(page)
    enabled = page.locator(".colour-buttons [data-colour]:not([disabled])")
    expect(enabled.first).to_be_visible()
    colours = enabled.evaluate_all("buttons => buttons.map(button => button.dataset.colour)")
    # a greyed colour says why (a leader placed already, an empty pile, no space for it)
    reasons = page.locator(".colour-buttons [data-colour][disabled]").evaluate_all("buttons => buttons.map(button => button.title)")
    assert all(re.match(r"^(You have no \w+ leader left to place|No \w+ camels are left in the pile|No space where a \w+ camel may go)\.$", reason)
               for reason in reasons), reasons
    colour = rng.choice(colours)
    page.click(f'[data-colour="{colour}"]')
    expect(page.locator(f'[data-colour="{colour}"]')).to_have_attribute("aria-pressed", "true")

    game = page.request.get(f"{base}/api/games/{table_id}").json()
    assert game["version"] == before
    expected = sorted(f"{m['hex'][0]},{m['hex'][1]}" for m in game["legal"] if m.get("colour") == colour)
    highlighted = page.locator("[data-hex].legal")
    expect(highlighted).to_have_count(len(expected))
    assert hex_keys(highlighted) == expected

    target = rng.choice(expected)
    page.click(f'[data-hex="{target}"]')
    if bots_follow:
        wait_for_version_past(page, before)
    else:
        wait_for_version([page], before + 1)
        expect(page.locator(f'.last-placed [data-last="{target}"]')).to_have_count(1)
    expect(page.locator(f'.camels [data-camel="{target}"][data-caravan="{colour}"]')).to_have_count(1)
    return target


def make_one_move_stale(page) -> dict:
    """Route the page's next WebSockets through a proxy that, once armed, sends a move one
    version behind, so the server answers with an error frame."""
    armed = {"next_move": False}

    def route(socket) -> None:
        server = socket.connect_to_server()

        def to_server(message) -> None:
            frame = json.loads(message)
            if frame.get("type") == "move" and armed["next_move"]:
                armed["next_move"] = False
                frame["version"] -= 1
                message = json.dumps(frame)
            server.send(message)

        socket.on_message(to_server)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    return armed


def send_stale_move_and_recover(page, armed) -> None:
    """The server refuses a stale move: the page shows a dismissible error and lets the player try again."""
    before = version_of(page)
    armed["next_move"] = True
    page.locator(".colour-buttons [data-colour]:not([disabled])").first.click()
    page.locator("[data-hex].legal").first.click()
    toast = page.locator('.toast[data-code="stale_version"]')
    expect(toast).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-pending", "false")
    expect(page.locator("[data-hex].legal").first).to_be_visible()  # input is enabled again
    assert version_of(page) == before
    toast.locator(".toast-close").click()
    expect(toast).to_have_count(0)


def mover(players):
    movers = [page for page in players if page.locator("body").get_attribute("data-my-turn") == "true"]
    assert len(movers) == 1, "exactly one player should be to move"
    return movers[0]


def board_summary(page) -> dict:
    return {
        "camels": sorted(page.locator(".camels [data-camel]").evaluate_all(
            "camels => camels.map(c => `${c.dataset.camel}/${c.dataset.seat}/${c.dataset.caravan}`)")),
        "last": sorted(page.locator(".last-placed [data-last]").evaluate_all("rings => rings.map(r => r.dataset.last)")),
        "wells": page.locator(".features .well").count(),
    }


def test_two_players_and_a_spectator_play_through_the_browser(live_server, chromium):
    base = live_server
    rng = random.Random(2024)
    alice = sign_in(chromium, base, "Alice")
    bob = sign_in(chromium, base, "Bob")
    bob_frames: dict[str, list] = {"sent": [], "received": []}
    bob.on("websocket", lambda socket: (socket.on("framesent", lambda text: bob_frames["sent"].append(text)),
                                        socket.on("framereceived", lambda text: bob_frames["received"].append(text))))

    # Alice creates a two-player table (the short piles and the immediate end, G-2: a shorter game
    # to finish) and lands in its waiting room.
    alice.select_option("#ruleset", "through-the-desert")
    alice.select_option("#seats", "2")
    alice.click("#options-fieldset summary")
    alice.select_option('[data-option="piles"]', label="Z-Man edition")
    alice.select_option('[data-option="end_trigger"]', label="Immediate")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = alice.url.rsplit("/", 1)[1]
    expect(alice.locator("#waiting-room")).to_be_visible()
    expect(alice.locator('[data-action="start"]')).to_be_disabled()

    # Bob finds it in the lobby list (refreshed every few seconds) and joins.
    bob.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
    bob.wait_for_url(re.compile(rf"/tables/{table_id}$"))

    # Alice sees the seat filled and starts; both pages switch to the live game.
    start = alice.locator('[data-action="start"]')
    expect(start).to_be_enabled()
    start.click()
    players = [alice, bob]
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
        expect(page.locator("svg.ttd-board")).to_be_visible()
    wait_for_version(players, 0)

    # Leader phase: each click sends exactly one of the highlighted legal placements.
    for _ in range(LEADER_MOVES):
        version = version_of(alice)
        page = mover(players)
        play_one_move(page, base, table_id, rng)
        wait_for_version(players, version + 1)
    # The page asked for legal in the grouped form (docs/api.md), got it, and offered
    # exactly the server's moves from it (play_one_move).
    hellos = [json.loads(text) for text in bob_frames["sent"] if '"hello"' in text]
    assert hellos and all(hello["legal_form"] == "grouped" for hello in hellos)
    received = [json.loads(text) for text in bob_frames["received"]]
    legal_lists = [frame["legal"] for frame in received if frame["type"] == "state" and frame["legal"]]
    assert legal_lists and all(set(group) == {"type", "count", "keys", "same", "columns"} for legal in legal_lists for group in legal)
    for page in players:
        expect(page.locator(".camels .camel.leader")).to_have_count(LEADER_MOVES)
        expect(page.locator(".ttd-phase")).to_have_attribute("data-phase", "camels")

    # A spectator opens the table page without signing in.
    spectator_context = chromium.new_context(viewport={"width": 390, "height": 844})
    spectator_context.set_default_timeout(10_000)
    carol = spectator_context.new_page()
    carol.goto(f"{base}/tables/{table_id}")
    watchers = players + [carol]
    wait_for_version(watchers, version_of(alice))
    expect(carol.locator("#turn .spectator-badge")).to_be_visible()

    # Camel phase, with a reload of Bob's page in the middle.
    reloaded = False
    bob_moved_after_reload = False
    for move in range(CAMEL_MOVES):
        if move == RELOAD_AFTER_CAMELS:
            version = version_of(bob)
            armed = make_one_move_stale(bob)
            bob.reload()
            wait_for_version([bob], version)
            expect(bob.locator("body")).to_have_attribute("data-connection", "live")
            reloaded = True
        version = version_of(alice)
        page = mover(players)
        if reloaded and page is bob and not bob_moved_after_reload:
            send_stale_move_and_recover(bob, armed)
        play_one_move(page, base, table_id, rng)
        bob_moved_after_reload |= reloaded and page is bob
        wait_for_version(watchers, version + 1)
        assert board_summary(carol) == board_summary(alice) == board_summary(bob)
    assert bob_moved_after_reload, "Bob should have moved after reloading"

    # The spectator sees the same board and no move controls at all.
    expect(carol.locator(".move-controls")).to_have_count(0)
    expect(carol.locator("[data-hex]")).to_have_count(0)
    expect(carol.locator("[data-colour]")).to_have_count(0)
    expect(carol.locator(".camels .camel")).to_have_count(LEADER_MOVES + CAMEL_MOVES)
    assert carol.locator("body").get_attribute("data-my-turn") == "false"

    # Each page's log matches the server's log for that viewer, including Bob's after the reload.
    for page in watchers:
        server_log = page.request.get(f"{base}/api/games/{table_id}").json()["log"]
        assert len(server_log) > 0
        expect(page.locator("#log li")).to_have_count(len(server_log))
        expect(page.locator("#log li").last).to_have_text(server_log[-1]["text"])
        assert_no_codes(page, "Through the Desert, camel phase")

    # Nothing overflows sideways at phone width.
    overflow = carol.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0

    # The rest of the game goes through the REST pipeline (as a script or bot would play it);
    # every page follows live and ends on the final result with its score breakdown.
    result = finish_by_rest(players, base, table_id, rng, limit=MAX_REST_MOVES)
    categories = len(result["breakdown"][0])
    for page in watchers:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#turn")).to_contain_text("Game over")
        for seat, score in enumerate(result["scores"]):
            expect(page.locator(f'#result [data-score-seat="{seat}"]')).to_have_text(str(score))
        expect(page.locator("#result tbody tr")).to_have_count(categories + 3)  # + total, place, rating (a rated table)
        expect(page.locator(".move-controls")).to_have_count(0)
        assert page.locator("body").get_attribute("data-my-turn") == "false"
        # the whole game's log and the result read in words, with no rule code or id
        expect(page.locator("#log li")).to_have_count(len(page.request.get(f"{base}/api/games/{table_id}").json()["log"]))
        assert_no_codes(page, "Through the Desert, the end")

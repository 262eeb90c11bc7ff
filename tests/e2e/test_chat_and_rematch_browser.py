"""Table chat and rematch in real Chromium: two players chat (markup shows as plain text), a
spectator of a players-only chat sees none of it, the game is finished through REST, one click on
"Rematch" starts the same table again, and both players reach it in the same seats.

Chat and rematch are the platform's, the same for every game: they run here with Through the
Desert and Heroes (the simplest table and the one with the most options). Every game's own page is
covered by its whole-game, replay, phone and table-look browser tests; the rematch's copy of a
game's options by ``tests/api/test_rematch.py``. Running this for all four games cost the suite a
minute of its 12.
"""

from __future__ import annotations

import random
import re
import uuid

import httpx
import pytest

from app.main import SESSION_COOKIE
from tests.e2e.pages import api, guest_page

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# Options that end a game of random moves soon (about 30 to 80 moves for two players).
QUICK_OPTIONS = {
    "through-the-desert": {"piles": "zman", "end_trigger": "immediate"},
    "heroes": {"round_limit": 4},
}
HTML_LOOKING = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold?</b>'
MAX_MOVES = 300


def started_table(players, base: str, ruleset: str) -> int:
    """A two-seat table of ``ruleset`` (spectators may not chat), both players seated, started."""
    host, guest = players
    table_id = api(host, base, "POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": QUICK_OPTIONS[ruleset]})["id"]
    api(guest, base, "POST", f"/api/tables/{table_id}/join", {})
    api(host, base, "POST", f"/api/tables/{table_id}/start", {})
    return table_id


def finish_by_rest(players, base: str, table_id: int, rng: random.Random) -> None:
    """Random legal moves through POST /api/games/{id}/moves, each made as the player to act, until
    the game is over.  Plain HTTP clients with the pages' session cookies: much quicker than
    sending each request through the browser."""
    clients = [httpx.Client(base_url=base, cookies={SESSION_COOKIE: session_cookie(page)}) for page in players]
    try:
        for _ in range(MAX_MOVES):
            for client in clients:
                game = client.get(f"/api/games/{table_id}").json()
                if game["status"] == "finished":
                    return
                if game["legal"]:
                    answer = client.post(f"/api/games/{table_id}/moves", json={
                        "id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})
                    assert answer.status_code == 200, answer.text
                    break
        raise AssertionError(f"the game did not end within {MAX_MOVES} moves")
    finally:
        for client in clients:
            client.close()


def session_cookie(page) -> str:
    return next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == SESSION_COOKIE)


def chat_texts(page):
    return page.locator("#chat-messages .chat-text")


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-input")).to_have_value("")


@pytest.mark.parametrize("ruleset", ["through-the-desert", "heroes"])
def test_players_chat_and_rematch_in_one_click(live_server, chromium, ruleset):
    base = live_server
    rng = random.Random(11)
    alice, bob = guest_page(chromium, base, "Alice"), guest_page(chromium, base, "Bob")
    players = [alice, bob]
    table_id = started_table(players, base, ruleset)
    spectator_context = chromium.new_context()
    spectator_context.set_default_timeout(10_000)
    carol = spectator_context.new_page()
    watchers = [alice, bob, carol]
    try:
        for page in watchers:
            page.goto(f"{base}/tables/{table_id}")
            expect(page.locator("body")).to_have_attribute("data-connection", "live")
            expect(page.locator("#chat-card")).to_be_visible()

        # The players chat; what looks like markup arrives as the very text that was typed.
        expect(alice.locator("#chat-input")).to_have_attribute("maxlength", "300")
        say(alice, "Hello Bob, good luck!")
        expect(chat_texts(bob)).to_have_text(["Hello Bob, good luck!"])
        say(bob, HTML_LOOKING)
        for page in players:
            expect(chat_texts(page)).to_have_text(["Hello Bob, good luck!", HTML_LOOKING])
            expect(page.locator("#chat-messages img, #chat-messages script, #chat-messages b")).to_have_count(0)
            assert page.evaluate("window.__pwned") is None
            expect(page.locator("#chat-messages .chat-name")).to_have_text(["Alice", "Bob"])

        # The spectator of a players-only chat reads nothing, cannot write, and is told why.
        expect(carol.locator("#chat-card")).to_have_attribute("data-readable", "false")
        expect(carol.locator("#chat-input")).to_be_disabled()
        expect(carol.locator("#chat-note")).to_contain_text("for its players")
        say(alice, "Carol cannot read this")
        expect(chat_texts(bob)).to_have_count(3)
        expect(carol.locator("#chat-messages .chat-message")).to_have_count(0)
        assert "Carol cannot read this" not in carol.content()

        # Finish the game; the players (not the spectator) are offered a rematch.
        finish_by_rest(players, base, table_id, rng)
        for page in watchers:  # the pages follow a flood of REST moves
            expect(page.locator("#game")).to_have_attribute("data-status", "finished", timeout=20_000)
        seats = {page: page.locator("#game").get_attribute("data-seat") for page in players}
        assert sorted(seats.values()) == ["0", "1"]
        for page in players:
            expect(page.locator("#rematch-button")).to_be_visible()
        expect(carol.locator("#rematch-button")).to_have_count(0)

        # Alice offers it and waits at the new table; Bob is asked (nobody is seated without accepting),
        # Carol gets a link; Bob's Accept takes his seat, and with everyone in, the game starts.
        alice.click("#rematch-button")
        alice.wait_for_url(re.compile(rf"/tables/(?!{table_id}$)\d+$"))
        new_id = int(alice.url.rsplit("/", 1)[1])
        expect(alice.locator("#waiting-note")).to_have_text("Waiting for Bob to accept.")
        expect(bob.locator("#rematch-offer")).to_have_text("Alice offers a rematch.")
        expect(carol.locator("#rematch-link")).to_have_text(f"Rematch offered: table {new_id}")
        expect(carol.locator("#rematch-accept")).to_have_count(0)
        bob.click("#rematch-accept")
        bob.wait_for_url(re.compile(rf"/tables/{new_id}$"))
        for page in players:
            expect(page.locator("#game")).to_have_attribute("data-status", "running")
            expect(page.locator("#game")).to_have_attribute("data-seat", seats[page])
            expect(page.locator("body")).to_have_attribute("data-connection", "live")
            expect(page.locator("#chat-messages .chat-message")).to_have_count(0)  # a new table, a new chat
        old = api(alice, base, "GET", f"/api/tables/{table_id}")
        new = api(alice, base, "GET", f"/api/tables/{new_id}")
        assert old["rematch_id"] == new_id and new["rematch_of"] == table_id
        assert new["ruleset"] == ruleset and new["options"] == old["options"]
        assert [(s["seat"], s["account_id"]) for s in new["seats"]] == [(s["seat"], s["account_id"]) for s in old["seats"]]
        say(bob, "again!")
        expect(chat_texts(alice)).to_have_text(["again!"])
    finally:
        spectator_context.close()
        for page in players:
            page.context.close()

"""The lobby and the seat around the board in real Chromium: "Your tables", accounts with a
password, leaving a running game to a bot (and coming back), and the move clock."""

from __future__ import annotations

import re
import time
import uuid

import pytest

from tests.e2e.test_through_the_desert_browser import sign_in, version_of
from tests.e2e.conftest import SERVER_START_SECONDS
from tests.support.server import ServerProcess

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def new_page(chromium, width: int = 1280):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(10_000)
    return context.new_page()


def create_table(page, base: str, **extra) -> str:
    body = {"ruleset": "through-the-desert", "seats": 2, "options": {}, "private": False, **extra}
    answer = page.request.post(f"{base}/api/tables", data=body)
    assert answer.ok, answer.text()
    return str(answer.json()["id"])


def test_your_tables_shows_a_private_table_to_its_creator(live_server, chromium):
    base = live_server
    hosting = sign_in(chromium, base, unique("Priv"))
    hosting.select_option("#ruleset", "through-the-desert")
    hosting.check("#private")
    hosting.click("#create-table")
    hosting.wait_for_url(re.compile(r"/tables/\d+\?invite="))
    table_id = re.search(r"/tables/(\d+)", hosting.url).group(1)
    expect(hosting.locator("#waiting-info")).to_contain_text("private")

    # Back in the lobby, the private table is under "Your tables" (and only there).
    hosting.click("#back-to-lobby")
    hosting.wait_for_url(f"{base}/")
    mine = hosting.locator(f'[data-my-table-id="{table_id}"]')
    expect(mine).to_be_visible()
    expect(mine).to_contain_text("private")
    expect(mine.locator("[data-table-status]")).to_have_text("Waiting for 1 more player")
    expect(hosting.locator(f'#tables [data-table-id="{table_id}"]')).to_have_count(0)

    # Someone else sees it nowhere.
    other = sign_in(chromium, base, unique("Other"))
    expect(other.locator("#mine-section")).to_be_visible()
    expect(other.locator("#tables-loading")).to_be_hidden()
    expect(other.locator(f'[data-my-table-id="{table_id}"]')).to_have_count(0)
    expect(other.locator(f'[data-table-id="{table_id}"]')).to_have_count(0)

    # The link opens the waiting room with the invite; the host leaving alone closes the table.
    mine.locator('[data-action="open"]').click()
    hosting.wait_for_url(re.compile(rf"/tables/{table_id}\?invite="))
    hosting.click('#waiting-actions [data-action="leave"]')
    expect(hosting.locator("#page-error")).to_be_visible()
    expect(hosting.locator("#page-error-title")).to_have_text("This table is closed")
    expect(hosting.locator("#page-error a[href='/']")).to_be_visible()

    # An unknown table says so plainly.
    other.goto(f"{base}/tables/987654")
    expect(other.locator("#page-error-title")).to_have_text("No such table")
    expect(other.locator("#back-to-lobby")).to_be_visible()


def test_register_log_in_and_log_out(live_server, chromium):
    base = live_server
    name = unique("Reg")
    page = new_page(chromium)
    page.goto(f"{base}/")

    page.click("#auth-open")
    expect(page.locator("#auth-panel")).to_be_visible()
    page.click("#auth-mode-register")
    expect(page.locator("#auth-submit")).to_have_text("Create account")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "short")
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_contain_text("8 to 128")
    page.fill("#auth-password", "correct horse battery")
    page.click("#auth-submit")
    expect(page.locator("#who-name")).to_have_text(name)
    expect(page.locator("#who")).to_have_attribute("data-guest", "false")
    expect(page.locator("#mine-section")).to_be_visible()

    # A registered account logs out at once (no guest warning) ...
    page.click("#logout")
    expect(page.locator("#guest-form")).to_be_visible()
    expect(page.locator("dialog")).to_have_count(0)
    expect(page.locator("#mine-section")).to_be_hidden()

    # ... and logs in again with its password; a wrong one is refused.
    page.click("#auth-open")
    expect(page.locator("#auth-submit")).to_have_text("Log in")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "wrong password")
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_contain_text("wrong password")
    page.fill("#auth-password", "correct horse battery")
    page.click("#auth-submit")
    expect(page.locator("#who-name")).to_have_text(name)
    page.reload()
    expect(page.locator("#who-name")).to_have_text(name)
    page.click("#logout")
    expect(page.locator("#guest-form")).to_be_visible()

    # A guest is asked first, and may change their mind.
    page.fill("#guest-name", "Guesty")
    page.click("#guest-login")
    expect(page.locator("#who")).to_have_attribute("data-guest", "true")
    page.click("#logout")
    dialog = page.locator("dialog.confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("As a guest you will lose access to your seats and games. Log out anyway?")
    dialog.locator('[data-dialog="cancel"]').click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#who-name")).to_have_text("Guesty")
    page.click("#logout")
    page.locator('dialog.confirm-dialog [data-dialog="ok"]').click()
    expect(page.locator("#guest-form")).to_be_visible()
    assert page.request.get(f"{base}/api/auth/me").status == 401


def test_leaving_a_running_game_hands_the_seat_to_a_bot_until_return(live_server, chromium):
    base = live_server
    alice = sign_in(chromium, base, "Alma")
    bob = sign_in(chromium, base, "Boris")
    table_id = create_table(alice, base)
    assert bob.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert alice.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    alice.goto(f"{base}/tables/{table_id}")
    bob.goto(f"{base}/tables/{table_id}")
    for page in (alice, bob):
        expect(page.locator("body")).to_have_attribute("data-connection", "live")
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
    bob_on_alices_page = alice.locator(".player[data-seat='1']")
    expect(bob_on_alices_page).to_have_attribute("data-online", "true")

    # Bob leaves (after confirming) and lands in the lobby, where the table says a bot plays for him.
    bob.click('[data-action="leave-game"]')
    expect(bob.locator("dialog.confirm-dialog")).to_contain_text("A bot will play for you until you come back")
    bob.click('dialog.confirm-dialog [data-dialog="ok"]')
    bob.wait_for_url(f"{base}/")
    expect(bob.locator(f'[data-my-table-id="{table_id}"] [data-table-status]')).to_contain_text("A bot is playing for you")

    # Alice sees it at once: Bob is away and a bot plays his seat.
    expect(bob_on_alices_page).to_have_attribute("data-takeover", "left")
    expect(bob_on_alices_page).to_contain_text("bot playing (left)")
    expect(bob_on_alices_page).to_have_attribute("data-online", "false")

    # The bot moves for Bob: play Alice's moves through the API until the bot has answered twice.
    bot_moves = 0
    for _ in range(8):
        game = alice.request.get(f"{base}/api/games/{table_id}").json()
        if game["to_act"] == [0]:
            expect(alice.locator("body")).to_have_attribute("data-my-turn", "true")
            expect(alice.locator("body")).to_have_attribute("data-favicon", "turn")
            answer = alice.request.post(f"{base}/api/games/{table_id}/moves",
                                        data={"id": str(uuid.uuid4()), "version": game["version"], "move": game["legal"][0]})
            assert answer.ok, answer.text()
        else:
            assert game["to_act"] == [1]
            expect(alice.locator("#game")).not_to_have_attribute("data-version", str(game["version"]), timeout=20_000)
            expect(alice.locator("#log li").last).to_contain_text("Boris")
            bot_moves += 1
            if bot_moves == 2:
                break
    assert bot_moves == 2

    # Bob comes back through "Your tables" and has his seat again.
    bob.locator(f'[data-my-table-id="{table_id}"] [data-action="open"]').click()
    expect(bob.locator("#game")).to_have_attribute("data-status", "running")
    # ...and is told that the bot moved for him meanwhile (the log marks its moves)
    expect(bob.locator('#toasts .toast[data-code="seat-back"]')).to_have_count(1)
    # at least the two answers seen above: a bot's turn may hold more than one move, and the page may
    # see two of them as one change of version
    expect(bob.locator('#toasts .toast[data-code="seat-back"]')).to_contain_text(
        re.compile(r"the bot played ([2-9]|\d{2,}) moves for you"))
    expect(bob_on_alices_page).to_have_attribute("data-takeover", "")
    expect(bob_on_alices_page).to_have_attribute("data-online", "true")
    expect(bob.locator("#seat-status")).to_be_hidden()
    expect(bob.locator('[data-action="resign"]')).to_be_visible()


def test_a_solo_table_proposes_no_clock_and_a_table_of_two_the_games_usual_one(live_server, chromium):
    """A clock that runs out hands the seat to a bot: at a solo table that would be the person's own
    game played for them while nobody waits, so the lobby proposes no time limit there; a time limit
    the person picked is kept."""
    page = sign_in(chromium, live_server, unique("Solo"))
    page.select_option("#ruleset", "heroes")
    expect(page.locator("#seats")).to_have_value("2")
    expect(page.locator("#move-seconds")).not_to_have_value("")  # the game's usual time per move
    page.select_option("#seats", "1")
    expect(page.locator("#move-seconds")).to_have_value("")  # No time limit
    page.select_option("#seats", "2")
    expect(page.locator("#move-seconds")).not_to_have_value("")

    # A time limit the person picked stays when the number of players changes (it fell back to
    # the game's usual one, unseen), and the hint says what no time limit means.
    page.select_option("#move-seconds", "")
    expect(page.locator("#pace-hint")).to_contain_text("No time limit")
    page.select_option("#seats", "3")
    expect(page.locator("#move-seconds")).to_have_value("")
    expect(page.locator("#pace-hint")).to_contain_text("No time limit")
    page.select_option("#move-seconds", "60")
    expect(page.locator("#pace-hint")).to_contain_text("runs out of time")
    page.select_option("#seats", "2")
    expect(page.locator("#move-seconds")).to_have_value("60")


def test_time_control_countdown_on_a_table_created_with_a_move_limit(live_server, chromium):
    base = live_server
    page = sign_in(chromium, base, unique("Clock"))
    page.select_option("#ruleset", "through-the-desert")
    page.select_option("#move-seconds", "60")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = page.url.rsplit("/", 1)[1]
    assert page.request.get(f"{base}/api/tables/{table_id}").json()["time_control"] == {"move_seconds": 60, "pace": "live"}
    expect(page.locator("#waiting-info")).to_contain_text("live · 1 min per move")
    page.select_option('[data-bot-level="1"]', "easy")
    page.click('[data-action="add-bot-1"]')
    page.click('[data-action="start"]')
    expect(page.locator("#game")).to_have_attribute("data-status", "running")
    expect(page.locator("#time-control")).to_contain_text("1 min per move")

    # Whoever is to act has a clock counting down from at most a minute (the bot answers fast,
    # so wait for our own turn, where the clock stands still long enough to watch).
    expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=15_000)
    clock = page.locator("#turn .countdown")
    expect(clock).to_have_text(re.compile(r"^(1:00|0:[0-5]\d)$"))
    row_clock = page.locator(".player[data-seat='0'] .countdown")
    expect(row_clock).to_be_visible()
    first = clock.text_content()
    expect(clock).not_to_have_text(first, timeout=3_000)  # it ticks
    expect(page.locator(".player[data-seat='1'] .countdown")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-favicon", "turn")
    expect(page.locator('link[rel="icon"]')).to_have_attribute("href", "/static/favicon-turn.svg")

    # Turn alerts are off by default; the choices are remembered across reloads.
    page.context.grant_permissions(["notifications"], origin=base)
    expect(page.locator("#alert-sound")).not_to_be_checked()
    page.check("#alert-sound")
    page.check("#alert-notify")
    expect(page.locator("#alert-notify")).to_be_checked()
    page.reload()
    expect(page.locator("#game")).to_have_attribute("data-status", "running")
    expect(page.locator("#alert-sound")).to_be_checked()
    expect(page.locator("#alert-notify")).to_be_checked()
    assert version_of(page) >= 0


def test_game_page_comes_back_within_seconds_after_a_server_restart(tmp_path, chromium):
    """The reconnect backoff is capped at ~3 s: once the server is back, so is the page."""
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/restart.db", log_path=tmp_path / "server.log", workdir=tmp_path)
    server.start(timeout=SERVER_START_SECONDS)
    try:
        base = server.base_url
        page = sign_in(chromium, base, "Rita")
        table_id = create_table(page, base)
        assert page.request.post(f"{base}/api/tables/{table_id}/bots", data={"seat": 1, "level": "random"}).ok
        assert page.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-connection", "live")

        server.kill()
        expect(page.locator("#reconnecting")).to_be_visible()
        # Stay down for six tries (a slow restart, ~10 s); a backoff growing to 15 s would leave the
        # page dark long after the server is back.
        expect(page.locator("body")).to_have_attribute("data-reconnect-tries", "6", timeout=20_000)
        server.start(timeout=SERVER_START_SECONDS)
        back_at = time.monotonic()
        expect(page.locator("body")).to_have_attribute("data-connection", "live", timeout=6_000)
        assert time.monotonic() - back_at < 4.5
        expect(page.locator("#connection")).to_be_hidden()
        expect(page.locator(".player[data-seat='0']")).to_have_attribute("data-online", "true")
    finally:
        server.stop()

"""The lobby shows running games with whose turn it is, and a player's profile page lists their
games with results; friends are followed from a profile, seen online in the lobby,
invited to a table and blocked; in real Chromium."""

from __future__ import annotations

import random
import re
import time
import uuid

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
    expect(entry).to_contain_text("Against Bo")
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
    # A solo game (Heroes against its Enemy) names nobody as the opponent: it says solo.
    solo_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "heroes", "seats": 1, "rated": False}).json()["id"]
    assert ana.request.post(f"{base}/api/tables/{solo_id}/start", data={}).ok
    ana.goto(f"{base}/")
    ana.click("#my-games")
    expect(ana.locator(f'[data-game-id="{solo_id}"]')).to_contain_text("Solo game")
    ana.goto(f"{base}/tables/{table_id}")  # the result screen shows the change beside the place
    expect(ana.locator('[data-rating-change-seat="0"]')).to_have_text(f"{shown} ({'+' if shown > 1000 else '−'}{abs(shown - 1000)})")


def registered(chromium, base: str, name: str):
    """A new browser context with a new registered account ``name``, on the lobby page."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{base}/")
    answer = page.request.post(f"{base}/api/auth/register", data={"name": name, "password": "friendly-password"})
    assert answer.ok, answer.text()
    page.reload()
    expect(page.locator("#who-name")).to_have_text(name)
    return page, answer.json()["id"]


def say(page, text: str) -> None:
    """Send ``text`` to the table chat from ``page`` and wait until the page shows it."""
    page.fill("#chat-input", text)
    page.click("#chat-send")
    expect(page.locator("#chat-messages")).to_contain_text(text)


def test_follow_a_friend_see_them_online_invite_them_and_block_their_chat(live_server, chromium):
    base = live_server
    suffix = uuid.uuid4().hex[:6]  # registered names are unique on the session's server
    ana, ana_id = registered(chromium, base, f"Ana{suffix}")
    bo, bo_id = registered(chromium, base, f"Bo{suffix}")

    # Bo has a game open (against a bot): that is being online.
    own = bo.request.post(f"{base}/api/tables", data={"ruleset": "through-the-desert", "seats": 2}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{own}/bots", data={"seat": 1, "level": "random"}).ok
    assert bo.request.post(f"{base}/api/tables/{own}/start", data={}).ok
    bo.goto(f"{base}/tables/{own}")
    expect(bo.locator("#game")).to_be_visible()

    # Ana follows Bo from his profile; her lobby's Friends list shows him online.
    ana.goto(f"{base}/players/{bo_id}")
    ana.click("#follow-player")
    expect(ana.locator("#follow-player")).to_have_text("Unfollow")
    friend = ana.locator(f'#friends-section [data-friend="{bo_id}"]')
    deadline = time.monotonic() + 30  # the server writes down open games every few seconds
    while True:
        ana.goto(f"{base}/")
        expect(friend).to_contain_text(f"Bo{suffix}")
        if friend.get_attribute("data-online") == "true" or time.monotonic() > deadline:
            break
        ana.wait_for_timeout(500)
    expect(friend).to_have_attribute("data-online", "true")
    expect(friend.locator(f'[data-friend-game="{own}"]')).to_be_visible()  # and his running game

    # Ana invites him to her new table from its waiting room; Bo joins from his lobby's Friends card.
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "through-the-desert", "seats": 3}).json()["id"]
    ana.goto(f"{base}/tables/{table_id}")
    ana.select_option("#invite-friend", str(bo_id))
    ana.click("#invite-friend-button")
    expect(ana.locator(".invite-friend [role=status]")).to_contain_text(f"Bo{suffix} is invited")
    bo.goto(f"{base}/")
    invitation = bo.locator(f'.invitation[data-invitation-table="{table_id}"]')
    expect(invitation).to_contain_text(f"Ana{suffix} invites you to Through the Desert")
    invitation.locator("[data-accept]").click()  # one click: his seat, then the table
    bo.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    expect(bo.locator('[data-action="leave"]')).to_be_visible()

    # Ana says hello in the chat; Bo sees it, blocks her from her profile, and sees her lines no more.
    say(ana, "Welcome, Bo!")
    expect(bo.locator("#chat-messages")).to_contain_text("Welcome, Bo!")
    bo.goto(f"{base}/players/{ana_id}")
    bo.click("#block-player")
    expect(bo.locator("#block-player")).to_have_text("Unblock")
    bo.goto(f"{base}/tables/{table_id}")
    say(bo, "Hello all")
    say(ana, "Still there?")
    say(bo, "Anyone?")  # sent after Ana's line: shown once that line would have been
    expect(bo.locator("#chat-messages")).not_to_contain_text("Welcome, Bo!")
    expect(bo.locator("#chat-messages")).not_to_contain_text("Still there?")


def test_a_finished_solo_game_reads_won_or_lost_at_the_table_and_on_the_profile(live_server, chromium):
    """Heroes against its Enemy, played out by random moves: alone at the table, the result's place
    reads "Won" or "Lost" (not "2nd" of one), and the profile says so in the same words."""
    base = live_server
    ana = sign_in(chromium, base, f"Solo {uuid.uuid4().hex[:6]}")
    created = ana.request.post(f"{base}/api/tables", data={"ruleset": "heroes", "seats": 1, "rated": False,
                                                            "options": {"round_limit": 4}})
    assert created.ok, created.text()
    table_id = created.json()["id"]
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    result = finish_by_rest([ana], base, table_id, random.Random(5), limit=400)
    won = result["ranks"][0] == 1
    ana.goto(f"{base}/tables/{table_id}")
    expect(ana.locator("#result-table tr.rank td:not(.rival)")).to_have_text("Won ★" if won else "Lost")
    ana.goto(f"{base}/")
    ana.click("#my-games")
    entry = ana.locator(f'[data-game-id="{table_id}"]')
    expect(entry).to_contain_text("Solo game")
    expect(entry.locator("[data-outcome]")).to_contain_text("Won with" if won else "Lost with")


def test_an_invitation_that_ended_since_the_lobby_drew_it_says_so_at_join(live_server, chromium):
    """The lobby learns of invitations by polling (the notice under the header, the Friends card):
    Ana invites Ben, then fills his seat with a bot and starts before his lobby looks again. His
    Join then says the invitation was withdrawn and drops it, instead of a bare refusal beside a
    live-looking offer."""
    base = live_server
    suffix = uuid.uuid4().hex[:6]
    ana, _ = registered(chromium, base, f"Ana{suffix}")
    ben, ben_id = registered(chromium, base, f"Ben{suffix}")
    assert ana.request.post(f"{base}/api/players/{ben_id}/follow").ok
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "through-the-desert", "seats": 2}).json()["id"]
    assert ana.request.post(f"{base}/api/tables/{table_id}/invitations", data={"account_id": ben_id}).ok

    ben.clock.install()  # the lobby's polls wait until the test lets them run
    ben.goto(f"{base}/")
    notice = ben.locator(f'#invitations [data-table-id="{table_id}"]')
    card = ben.locator(f'#friends-section .invitation[data-invitation-table="{table_id}"]')
    expect(notice).to_contain_text(f"Ana{suffix} invites you to Through the Desert")
    expect(card).to_be_visible()
    ben.clock.pause_at(time.time() + 1)

    assert ana.request.post(f"{base}/api/tables/{table_id}/bots", data={"seat": 1, "level": "random"}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    assert ben.request.get(f"{base}/api/invitations").json() == []

    notice.locator('[data-action="join-invitation"]').click()
    expect(notice).to_have_text("This invitation was withdrawn.")
    expect(notice.locator("button")).to_have_count(0)
    card.locator("[data-accept]").click()
    expect(ben.locator("#friends-section [data-friends-message]")).to_have_text("This invitation was withdrawn.")
    expect(card).to_have_count(0)
    ben.clock.run_for(21_000)
    expect(notice).to_have_count(0)  # the next look drops it
    assert ben.url == f"{base}/"

"""Nothing is played or rated without the person's consent, and everyone sees what was agreed, in
real Chromium:

(a) a rematch is an offer: Ben accepts it from the notice under the page header, Cleo declines it
    at the finished table; nobody is seated without accepting, and the proposer starts with a
    bot in Cleo's seat;
(b) the attack of a former opponent over the API (ask for a rematch, hand the other's seat to a
    bot, play it out) changes nobody's rating;
(c) at an untimed table a player who closed the tab stays away far longer than every away
    setting and no bot plays until the host hands the seat over; the log and the replay then
    say "Bo (bot)";
(d) the options agreed (Nomadi with Trading and Hidden Coins) are shown on the lobby card, in the
    invitation under the header, in the waiting room and in the game's header; the lobby form
    proposes each game's own live time per move.

A server of its own, whose players count as away after about two seconds (the smallest settings
it accepts for a 0.3 s presence refresh are 1.2 s), so no test waits for minutes.
"""

from __future__ import annotations

import random
import time
import re
import uuid
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from app.main import SESSION_COOKIE
from tests.e2e.conftest import running_server
from tests.e2e.pages import api, expect, guest_page, sign_in, version_of, wait_for_version_change

AWAY_SECONDS = 2
NOMADI = {"turn_limit": 12, "trading": True, "hidden_coins": True}
AGREED = "rated · options: Trading, Hidden Coins"


@pytest.fixture(scope="module")
def consent_server(tmp_path_factory):
    env = {"CARAVANSERAI_ABSENT_AFTER_SECONDS": str(AWAY_SECONDS), "CARAVANSERAI_TURN_BASED_ABSENT_AFTER_HOURS": "0.0006",
           "CARAVANSERAI_PRESENCE_REFRESH_SECONDS": "0.3", "CARAVANSERAI_CLOCK_TICK_SECONDS": "0.2",
           "CARAVANSERAI_BOT_DELAY_SECONDS": "0.1"}
    with running_server(tmp_path_factory.mktemp("consent-server"), lambda base_url: env) as base_url:
        yield base_url


def play_to_the_end(players, base: str, table_id: int, seed: int = 5) -> None:
    """Random legal moves over REST by whichever of ``players`` (pages) may move, until the game ends."""
    rng = random.Random(seed)
    clients = [httpx.Client(base_url=base, cookies={SESSION_COOKIE: next(
        cookie["value"] for cookie in page.context.cookies() if cookie["name"] == SESSION_COOKIE)}) for page in players]
    try:
        for _ in range(600):
            games = [client.get(f"/api/games/{table_id}").json() for client in clients]
            if games[0]["status"] == "finished":
                return
            movers = [(client, game) for client, game in zip(clients, games) if game["legal"]]
            if not movers:
                time.sleep(0.05)  # a bot is to move: give it the time (a loaded machine's bot is slower)
                continue
            client, game = movers[0]
            answer = client.post(f"/api/games/{table_id}/moves", json={
                "id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})
            assert answer.status_code in (200, 409), answer.text  # 409: a bot moved first
        raise AssertionError("the game did not end within 600 moves")
    finally:
        for client in clients:
            client.close()


def finished_table(host, others, base: str) -> int:
    table_id = api(host, base, "POST", "/api/tables", {"ruleset": "nomadi", "seats": 1 + len(others), "options": NOMADI})["id"]
    for page in others:
        api(page, base, "POST", f"/api/tables/{table_id}/join", {})
    api(host, base, "POST", f"/api/tables/{table_id}/start", {})
    play_to_the_end([host, *others], base, table_id)
    return table_id


def test_a_rematch_offer_accepted_by_one_and_declined_by_another_seats_nobody_who_did_not_accept(consent_server, chromium):
    base = consent_server
    ana, ben, cleo = (guest_page(chromium, base, name) for name in ("Ana", "Ben", "Cleo"))
    old_id = finished_table(ana, [ben, cleo], base)
    for page in (ana, ben, cleo):
        page.goto(f"{base}/tables/{old_id}")
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#rematch-button")).to_be_visible()

    ana.click("#rematch-button")  # an offer: Ana waits at the new table
    ana.wait_for_url(re.compile(rf"/tables/(?!{old_id}$)\d+$"))
    new_id = int(ana.url.rsplit("/", 1)[1])
    expect(ana.locator("#waiting-note")).to_have_text("Waiting for Ben, Cleo to accept.")
    expect(ana.locator("#waiting-seats .seat-held")).to_have_count(2)
    for page in (ben, cleo):  # at the finished table, each is asked
        expect(page.locator("#rematch-offer")).to_have_text("Ana offers a rematch.")
        expect(page.locator("#rematch-accept")).to_be_visible()

    cleo.click("#rematch-decline")
    expect(cleo.locator("#rematch-link")).to_have_text(f"You declined the rematch (table {new_id})")
    # Ben accepts from the notice under the header (on every page; here his lobby): one click seats him.
    ben.goto(f"{base}/")
    notice = ben.locator(f'#invitations [data-table-id="{new_id}"]')
    expect(notice).to_contain_text("Ana offers a rematch of Nomadi")
    expect(notice.locator("[data-invitation-terms]")).to_contain_text(f"live · no time limit · {AGREED}")
    notice.locator('[data-action="join-invitation"]').click()
    ben.wait_for_url(re.compile(rf"/tables/{new_id}$"))
    expect(ben.locator("#waiting-seats")).to_contain_text("Ben (you)")

    table = api(ana, base, "GET", f"/api/tables/{new_id}")
    assert table["status"] == "open"  # nobody plays before everyone agreed, or the host says so
    assert [(s["account_id"], s["held_for"]) for s in table["seats"]] == [
        (table["creator_id"], None), (api(ben, base, "GET", "/api/auth/me")["id"], None), (None, None)]
    expect(ana.locator("#waiting-note")).to_have_text("Waiting for 1 more player.")
    ana.click('[data-action="start-bots"]')
    for page in (ana, ben):
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
    seats = api(ana, base, "GET", f"/api/tables/{new_id}")["seats"]
    assert seats[2]["bot"] and seats[2]["account_id"] is None  # Cleo's seat: a bot, not Cleo
    assert api(cleo, base, "GET", f"/api/games/{new_id}")["seat"] is None


def test_a_former_opponent_cannot_move_your_rating_through_a_rematch(consent_server, chromium):
    """Ana and Vic finish a rated game.  Ana asks for a rematch, waits until Vic could count as
    away, tries to hand his seat to a bot and plays it out: Vic never accepted, so he is not
    seated and his rating does not move."""
    base = consent_server
    ana, vic = guest_page(chromium, base, "Ana"), guest_page(chromium, base, "Vic")
    old_id = finished_table(ana, [vic], base)
    vic_id = api(vic, base, "GET", "/api/auth/me")["id"]
    rating = next(s for s in api(ana, base, "GET", f"/api/tables/{old_id}/ratings")["seats"] if s["account_id"] == vic_id)
    assert rating["change"] is not None  # the first game was rated: Vic has a rating to lose

    new_id = api(ana, base, "POST", f"/api/tables/{old_id}/rematch")["id"]
    seat = next(s["seat"] for s in api(ana, base, "GET", f"/api/tables/{new_id}")["seats"] if s["held_for"])
    vic.goto(f"{base}/tables/{old_id}")
    expect(vic.locator("#rematch-accept")).to_be_visible()
    api(ana, base, "POST", f"/api/tables/{new_id}/bots", {"seat": seat, "level": "default"})
    # The offer is gone from Vic's open page without a reload (it looks again every few seconds).
    expect(vic.locator("#rematch-accept")).to_have_count(0, timeout=30_000)
    api(ana, base, "POST", f"/api/tables/{new_id}/start")
    assert vic_id not in [s["account_id"] for s in api(ana, base, "GET", f"/api/tables/{new_id}")["seats"]]
    refused = ana.request.post(f"{base}/api/tables/{new_id}/bots", data={"seat": seat})
    assert refused.status == 409  # nobody's seat to hand over: a bot sits there
    play_to_the_end([ana], base, new_id)
    after = api(vic, base, "GET", f"/api/players/{vic_id}")["ratings"][0]
    assert (after["rating"], after["games"]) == (rating["rating"], 1)  # unchanged, still one rated game
    assert vic_id not in [s["account_id"] for s in api(ana, base, "GET", f"/api/tables/{new_id}/ratings")["seats"]]


def test_an_untimed_table_waits_for_a_hand_over_and_the_log_and_replay_name_the_bot(consent_server, chromium):
    base = consent_server
    ana, bo = sign_in(chromium, base, "Ana"), sign_in(chromium, base, "Bo")
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": "through-the-desert", "seats": 2, "pace": "live"})["id"]
    api(bo, base, "POST", f"/api/tables/{table_id}/join", {})
    api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
    for page in (ana, bo):
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
    expect(ana.locator("#time-control")).to_contain_text("live · no time limit")
    game = api(ana, base, "GET", f"/api/games/{table_id}")
    while 1 not in game["to_act"]:  # Ana plays until it is Bo's move
        api(ana, base, "POST", f"/api/games/{table_id}/moves", {"id": str(uuid.uuid4()), "version": game["version"],
                                                                 "move": game["legal"][0]})
        game = api(ana, base, "GET", f"/api/games/{table_id}")
    waiting = game["version"]

    bo.context.close()  # Bo closes the tab
    notice = ana.locator('#away [data-away-seat="1"]')
    expect(notice).to_contain_text("Bo is away.", timeout=15_000)
    expect(notice).to_contain_text("Nobody's clock runs out here.")
    # Until Bo has been away three times longer than every away setting (live and turn-based), the
    # game waits for him: earlier releases let a bot take his seat one away time after he was found away.
    away_since = datetime.fromisoformat(api(ana, base, "GET", f"/api/tables/{table_id}")["seats"][1]["away_since"])
    while datetime.now(timezone.utc) < away_since + timedelta(seconds=3 * AWAY_SECONDS):
        game = api(ana, base, "GET", f"/api/games/{table_id}")
        assert game["version"] == waiting and game["players"][1]["takeover"] is None, "a bot played Bo's seat by itself"
        ana.wait_for_timeout(200)
    assert api(ana, base, "GET", f"/api/games/{table_id}")["version"] == waiting
    expect(ana.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "")

    notice.locator('[data-action="hand-over"]').click()  # the host hands the seat over: now a bot plays
    ana.locator("dialog.confirm-dialog [data-dialog='ok']").click()
    wait_for_version_change(ana, waiting)
    expect(ana.locator('.player[data-seat="1"]')).to_have_attribute("data-takeover", "away")
    bot_line = ana.locator(f'#log li[data-version="{waiting + 1}"]').first
    expect(bot_line).to_contain_text("Bo (bot)")
    expect(bot_line.locator('[data-bot="true"]').first).to_have_text("Bo (bot)")
    entry = next(e for e in api(ana, base, "GET", f"/api/games/{table_id}/log") if e["version"] == waiting + 1)
    assert entry["text"].startswith("Bo (bot) ") and entry["args"]["by"]["bot"] is True

    ana.goto(f"{base}/tables/{table_id}?version={waiting + 1}")  # the replay at that move says so too
    expect(ana.locator("#replay-board")).to_have_attribute("data-version", str(waiting + 1))
    expect(ana.locator("#log li.last-move").first).to_contain_text("Bo (bot)")
    assert version_of(ana) >= waiting + 1


def test_the_options_agreed_are_shown_on_the_lobby_card_the_invitation_the_waiting_room_and_the_header(consent_server, chromium):
    base = consent_server
    ana, ben = sign_in(chromium, base, "Ana"), sign_in(chromium, base, "Ben")
    # Each game proposes its own time per move for a live table; the host may choose another.
    ana.select_option("#ruleset", "heroes")
    expect(ana.locator("#move-seconds")).to_have_value("300")
    expect(ana.locator("#move-seconds option:checked")).to_have_text("5 min per move (usual)")
    ana.select_option("#ruleset", "nimalia")
    expect(ana.locator("#move-seconds")).to_have_value("60")
    ana.select_option("#ruleset", "nomadi")
    expect(ana.locator("#move-seconds")).to_have_value("120")
    ana.click("#options-fieldset summary")
    ana.check("#option-trading")
    ana.check("#option-hidden_coins")
    ana.click("#create-table")
    ana.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = ana.url.rsplit("/", 1)[1]
    expect(ana.locator("#waiting-info")).to_contain_text(f"2 players · live · 2 min per move · {AGREED}")

    # Ana invites Ben, her friend: the notice under his page's header says what he agrees to.
    ben_id = api(ben, base, "GET", "/api/auth/me")["id"]
    api(ana, base, "POST", f"/api/players/{ben_id}/follow")
    api(ana, base, "POST", f"/api/tables/{table_id}/invitations", {"account_id": ben_id})
    ben.reload()
    card = ben.locator(f'#tables [data-table-id="{table_id}"] [data-table-agreed]')
    expect(card).to_have_text("Rated · options: Trading, Hidden Coins")
    notice = ben.locator(f'#invitations [data-table-id="{table_id}"]')
    expect(notice).to_contain_text("Ana invites you to Nomadi")
    expect(notice.locator("[data-invitation-terms]")).to_have_text(
        f"Ana and 1 free seat · live · 2 min per move · {AGREED}")
    notice.locator('[data-action="join-invitation"]').click()  # one click: seated
    ben.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    expect(ben.locator("#waiting-seats")).to_contain_text("Ben (you)")
    expect(ben.locator("#waiting-info")).to_contain_text(AGREED)

    ana.click('[data-action="start"]')
    for page in (ana, ben):
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
        expect(page.locator("#table-agreed")).to_have_text(AGREED)
        expect(page.locator("#time-control")).to_contain_text("live · 2 min per move")

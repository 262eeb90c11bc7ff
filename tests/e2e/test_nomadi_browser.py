"""A table of Nomadi in real Chromium: two players place their stones and play dice turns by
clicking, one desert card is offered and answered through the dialogs, a spectator watches
without controls, and the game is finished through the REST pipeline.

Every click is checked against the server: the cells the page highlights for a stone are exactly
that stone's legal moves (the client never decides a rule), and a card's value shows only on the
page of the mover who inspected it. The offer dialogs, the whole game's log and the result show
no rule code or internal id.
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from tests.e2e.pages import (assert_no_codes, create_join_and_start, finish_by_rest, server_game, sign_in, version_of,
                             wait_for_version)
from tests.support.nomadi_steering import steer

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

PLACEMENTS = 16  # 2 players x 8 stones (Spec)
CLICKED_TURNS = 3
TURN_LIMIT = 20  # table option: keeps the REST finish short (Spec §5 #30), with turns to spare for an offer
MAX_STEERED_MOVES = 600
MAX_REST_MOVES = 800


def game_of(page, base: str, table_id: str) -> dict:
    return server_game(page, base, table_id)


def mover(players):
    movers = [page for page in players if page.locator("body").get_attribute("data-my-turn") == "true"]
    assert len(movers) == 1, "exactly one player should be to act"
    return movers[0]


def cell(key: list[int]) -> str:
    return f"{key[0]},{key[1]}"


def place_one_stone(page, base: str, table_id: str, rng: random.Random) -> None:
    before = version_of(page)
    game = game_of(page, base, table_id)
    expected = sorted(cell(move["cell"]) for move in game["legal"] if move["type"] == "place")
    targets = page.locator(".nomadi-board [data-target].legal")
    expect(targets).to_have_count(len(expected))
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.target)")) == expected
    page.click(f'.nomadi-board [data-target="{rng.choice(expected)}"]')
    wait_for_version([page], before + 1)


def use_one_die_by_clicking(page, base: str, table_id: str, rng: random.Random) -> dict:
    """Click a movable stone, check its highlighted cells against the server, click one."""
    before = version_of(page)
    game = game_of(page, base, table_id)
    moves = [move for move in game["legal"] if move["type"] == "move"]
    stone = cell(rng.choice(moves)["stone"])
    expected = sorted((cell(m["to"]), str(m["die"])) for m in moves if cell(m["stone"]) == stone)
    piece = page.locator(f'.nomadi-board [data-stone="{stone}"]')
    expect(piece).to_have_class(re.compile(r"\bmovable\b"))
    if piece.get_attribute("aria-pressed") != "true":
        piece.click()
    expect(piece).to_have_attribute("aria-pressed", "true")
    row, column = map(int, stone.split(","))  # the prompt names the cell as the board's edges and the log do
    expect(page.locator("#nomadi-prompt")).to_contain_text(f"move the stone on {'ABCDEFGHJKLMNPQRSTUVWXYZ'[column]}{row + 1} ")
    targets = page.locator(".nomadi-board [data-target].legal")
    expect(targets).to_have_count(len(expected))
    shown = targets.evaluate_all("els => els.map(e => [e.dataset.target, e.dataset.die])")
    assert sorted(shown) == [list(pair) for pair in expected]
    target, _ = rng.choice(expected)
    page.click(f'.nomadi-board [data-target="{target}"]')
    wait_for_version([page], before + 1)
    expect(page.locator(f'.nomadi-board [data-stone="{target}"]')).to_have_count(1)
    return game


def play_clicked_turn(players, base: str, table_id: str, rng: random.Random) -> None:
    """The seat to act rolls and uses dice by clicking until the turn passes (an offer, if one
    comes up, goes without a claim and is declined; neither dialog shows a code or an id)."""
    page = mover(players)
    before = version_of(page)
    page.click('[data-action="roll"]')
    wait_for_version(players, before + 1)
    expect(page.locator(".nomadi-dice [data-die-value]")).to_have_count(6)
    for _ in range(20):
        game = game_of(page, base, table_id)
        view = game["view"]
        if view["phase"] == "roll" or game["status"] == "finished":
            return
        if view["phase"] == "move":
            use_one_die_by_clicking(page, base, table_id, rng)
        elif view["phase"] == "claim":
            assert_no_codes(page, "Nomadi, the offer dialog")
            page.click('[data-action="offer"]')
        elif view["phase"] == "answer":
            owner = players[view["offer"]["owner"]]
            expect(owner.locator('[data-offer-stage="answer"]')).to_be_visible()
            assert_no_codes(owner, "Nomadi, the answer dialog")
            owner.click('[data-action="decline"]')
        wait_for_version(players, game["version"] + 1)
    raise AssertionError("the turn did not end")


def post(page, base: str, table_id: str, game: dict, move: dict) -> None:
    answer = page.request.post(
        f"{base}/api/games/{table_id}/moves",
        data={"id": str(uuid.uuid4()), "version": game["version"], "move": move},
    )
    assert answer.ok, answer.text()


def steer_to_an_offer(players, base: str, table_id: str, rng: random.Random) -> tuple[object, object]:
    """Play steered moves through REST until a card must be offered; returns (mover page, owner page)."""
    for _ in range(MAX_STEERED_MOVES):
        games = [game_of(page, base, table_id) for page in players]
        if games[0]["view"]["phase"] == "claim":
            seat = games[0]["view"]["current"]
            owner = games[0]["view"]["offer"]["owner"]
            return players[seat], players[owner]
        assert games[0]["status"] == "running", "the game ended before a card was offered"
        page, game = next((page, game) for page, game in zip(players, games) if game["legal"])
        post(page, base, table_id, game, steer(game, rng))
    raise AssertionError(f"no card was offered within {MAX_STEERED_MOVES} moves")


def test_two_players_roll_move_and_offer_a_card_through_the_browser(live_server, chromium):
    base = live_server
    rng = random.Random(4)
    alice = sign_in(chromium, base, "Alice", height=1000)
    bob = sign_in(chromium, base, "Bob", height=1000)

    # Alice creates a two-player Nomadi table: she begins (host option), 40 turns at most.
    alice.select_option("#ruleset", "nomadi")
    alice.select_option("#seats", "2")
    alice.click("#options-fieldset summary")
    alice.select_option('[data-option="first_player"]', label="Host")
    alice.fill('[data-option="turn_limit"]', str(TURN_LIMIT))
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = alice.url.rsplit("/", 1)[1]
    bob.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
    bob.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    start = alice.locator('[data-action="start"]')
    expect(start).to_be_enabled()
    start.click()
    players = [alice, bob]
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
        expect(page.locator("svg.nomadi-board")).to_be_visible()
        expect(page.locator(".nomadi-board [data-card]")).to_have_count(18)
        expect(page.locator(".nomadi-board .chasm")).to_have_count(1)
        expect(page.locator('.nomadi-board [data-kind="water"]')).to_have_count(9)
    wait_for_version(players, 0)
    assert mover(players) is alice

    # Placement: every click is one of the highlighted start cells.
    for _ in range(PLACEMENTS):
        version = version_of(alice)
        place_one_stone(mover(players), base, table_id, rng)
        wait_for_version(players, version + 1)
    for page in players:
        expect(page.locator(".nomadi-board [data-stone]")).to_have_count(PLACEMENTS)
        expect(page.locator(".nomadi-phase")).to_have_attribute("data-phase", "roll")
    # a red die's meaning is in the legend too, not only in a tooltip a phone cannot show
    expect(alice.locator("#board .nomadi-legend")).to_contain_text("red die = no stone can use it now")

    # A few dice turns by clicking: roll, then stone and destination for each die.
    for _ in range(CLICKED_TURNS):
        play_clicked_turn(players, base, table_id, rng)
    assert game_of(alice, base, table_id)["view"]["turn"] >= CLICKED_TURNS

    # A spectator opens the table without signing in.
    spectator_context = chromium.new_context(viewport={"width": 390, "height": 844})
    spectator_context.set_default_timeout(10_000)
    carol = spectator_context.new_page()
    carol.goto(f"{base}/tables/{table_id}")
    watchers = players + [carol]
    wait_for_version(watchers, version_of(alice))
    expect(carol.locator(".move-controls")).to_have_count(0)
    expect(carol.locator(".nomadi-board [data-target]")).to_have_count(0)
    expect(carol.locator(".nomadi-board .stone.movable")).to_have_count(0)

    # Steer the caravan (through REST) until another player's stone lands on a card.
    mover_page, owner_page = steer_to_an_offer(players, base, table_id, rng)
    wait_for_version(watchers, game_of(mover_page, base, table_id)["version"])  # the pages follow the REST moves
    game = game_of(mover_page, base, table_id)
    offer = game["view"]["offer"]
    inspected = offer["inspected"]
    cards_before = game["view"]["players"][offer["owner"]]["cards"]
    dialog = mover_page.locator('[data-offer-stage="claim"]')
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-inspected]")).to_have_attribute("data-inspected", inspected)
    for page in (owner_page, carol):  # only the mover has seen the card
        expect(page.locator('[data-offer-stage="claim"]')).to_have_count(0)
        assert inspected not in page.content()
        expect(page.locator(".nomadi-board .offer-ring")).to_have_count(1)
    for page in watchers:  # the offer dialog and the note name no card id ("card-08")
        assert_no_codes(page, "Nomadi, a card to offer")

    # The mover claims +3 (true or not) and offers; the owner sees the claim, not the value.
    version = version_of(mover_page)
    dialog.locator('[data-claim="+3"]').click()
    expect(dialog.locator('[data-claim="+3"]')).to_have_attribute("aria-pressed", "true")
    dialog.locator('[data-action="offer"]').click()
    wait_for_version(watchers, version + 1)
    answer = owner_page.locator('[data-offer-stage="answer"]')
    expect(answer).to_be_visible()
    expect(answer).to_contain_text("claiming it is worth +3")
    # the turn banner and the players' panel say what the game's panel says: the owner is to answer
    expect(owner_page.locator("#turn .turn-text")).to_have_text("Your turn to answer")
    for page in watchers:
        expect(page.locator(f'#players [data-seat="{offer["owner"]}"] .badge-turn')).to_have_text("to answer")
        expect(page.locator(f'[data-player-seat="{offer["owner"]}"] .badge-turn')).to_have_text("to answer")
    assert inspected not in owner_page.content() and inspected not in carol.content()
    expect(carol.locator('[data-offer-stage="answer-watch"]')).to_contain_text("claiming it is worth +3")
    for page in watchers:
        assert_no_codes(page, "Nomadi, a card offered")
    expect(mover_page.locator('[data-action="offer"]')).to_have_count(0)

    # The owner accepts: the card is theirs, and the turn goes back to the mover's dice (or on).
    answer.locator('[data-action="accept"]').click()
    wait_for_version(watchers, version + 2)
    owner_seat = offer["owner"]
    for page in watchers:
        held = page.locator(f'[data-player-seat="{owner_seat}"] [data-cards]')
        expect(held).to_have_attribute("data-cards", str(cards_before + 1))
        expect(page.locator('[data-offer-stage="answer"]')).to_have_count(0)
    card_id = offer["card"]
    expect(owner_page.locator(f'.nomadi-my-cards [data-held-card="{card_id}"]')).to_have_count(1)
    expect(mover_page.locator(f'.nomadi-my-cards [data-held-card="{card_id}"]')).to_have_count(0)
    after = game_of(owner_page, base, table_id)
    assert after["view"]["phase"] in ("move", "roll")

    # Each page's log matches the server's log for that viewer.
    for page in watchers:
        server_log = game_of(page, base, table_id)["log"]
        expect(page.locator("#log li")).to_have_count(len(server_log))
        expect(page.locator("#log li").last).to_have_text(server_log[-1]["text"])

    # Nothing overflows sideways at phone width.
    assert carol.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0

    # The rest of the game through REST; every page ends on the final result.
    result = finish_by_rest(players, base, table_id, rng, limit=MAX_REST_MOVES)
    for page in watchers:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        for seat, score in enumerate(result["scores"]):
            expect(page.locator(f'#result [data-score-seat="{seat}"]')).to_have_text(str(score))
        expect(page.locator("#result tbody tr")).to_have_count(2 + 3)  # coins, cards, total, place, rating (a rated table)
        expect(page.locator(".move-controls")).to_have_count(0)
        # the whole game's log and the result read in words, with no rule code or id
        expect(page.locator("#log li")).to_have_count(len(game_of(page, base, table_id)["log"]))
        assert_no_codes(page, "Nomadi, the end")


def test_three_players_finish_a_game_by_clicks_alone(live_server, chromium):
    """A whole game: three browsers place every stone and play every dice turn by clicks
    (offers go without a claim and are declined by their owner's click) until the game is scored;
    the shortest turn limit (10 dice turns, Spec §5 #30) keeps it short."""
    base = live_server
    rng = random.Random(11)
    ana, bo, cy = (sign_in(chromium, base, name, height=1000) for name in ("Ana", "Bo", "Cy"))

    def host_begins_and_ten_turns(page) -> None:
        page.select_option('[data-option="first_player"]', label="Host")
        page.fill('[data-option="turn_limit"]', "10")

    table_id = create_join_and_start(ana, [bo, cy], "nomadi", host_begins_and_ten_turns)
    players = [ana, bo, cy]
    wait_for_version(players, 0)
    assert [player["name"] for player in game_of(ana, base, table_id)["players"]] == ["Ana", "Bo", "Cy"]

    for _ in range(3 * 5):  # five stones each with three players
        version = version_of(ana)
        place_one_stone(mover(players), base, table_id, rng)
        wait_for_version(players, version + 1)
    turns = 0
    while game_of(ana, base, table_id)["status"] == "running":
        assert turns < 10, "the game outlived its turn limit"
        play_clicked_turn(players, base, table_id, rng)
        turns += 1

    result = game_of(ana, base, table_id)["result"]
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        for seat, score in enumerate(result["scores"]):
            expect(page.locator(f'#result [data-score-seat="{seat}"]')).to_have_text(str(score))
        expect(page.locator(".move-controls")).to_have_count(0)
        assert_no_codes(page, "Nomadi, three players, the end")

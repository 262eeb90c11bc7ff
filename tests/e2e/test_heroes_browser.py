"""Heroes of Land, Air & Sea in real Chromium, every move made by clicks in the renderer's own
controls (static/js/renderers/heroes.js); the server's `legal` decides what may be clicked.

(a) Two players play one full round: the first player places the round's Nomad on a highlighted
    region (the highlighted regions are exactly the legal ones), takes Tax, the other follows it
    with a Serf, and the round is played out by clicks until round 2 begins.
(b) Three players with Wandering Nomads and the shortest round limit play the whole game by
    clicks only, until every page shows the final result. At the start of (a) and the end of (b),
    at 1280 x 800, the map's names are 11 px or more and no word or count of a region touches its
    hexagon's edge.
(c) A battle: North and East march at each other (steered through REST, quick), then both choose
    their tactic cards by clicks in secret (the other page shows only that a card was chosen),
    the reveal shows both cards, and any conscripts and casualties are chosen by clicks.
(d) Three players with Mercenary Nomads and the shortest round limit play the whole game by clicks
    only; the clicking policy hires the Nomad Mercenary when a Recruit offers it, marches its
    figures, and fires it once (through the confirmation); the card, its holder and the figures on
    the map are checked on every page.
(e) Solo: the host makes a 1-seat table in the lobby form ("1 player (solo)") and plays the whole
    game against the Enemy with Wandering Nomads by clicks; the Enemy's board, its current card
    and the compass arrow follow the server's view after every move, and a spectator watches.

Each move is chosen from the server's legal moves of the page's seat and then made through the
page: the action button, a highlighted origin region, an army, a highlighted destination; a
tactic card and its payment; losses and a retreat; Follow/Muster choices or Skip.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from collections import deque

import pytest

from tests.e2e.pages import assert_no_codes, create_join_and_start, server_game, sign_in, version_of, wait_for_version

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

ROUND_LIMIT = 4  # the option's minimum (docs/heroes.md): the shortest whole game
MAX_CLICKED_MOVES = 400
UNITS = ("serf", "warrior", "hero", "mercenary")  # the renderer's army keys (data-army, data-units)


def quick_options(page) -> None:
    """Lobby form: the host begins, the fewest rounds, the core edition (these tests click the core
    game's moves; the full edition's have their own tests below)."""
    page.select_option('[data-option="first_player"]', label="Host")
    page.fill('[data-option="round_limit"]', str(ROUND_LIMIT))
    page.select_option('[data-option="edition"]', label="Core")


def guest_page(chromium, base: str, name: str):
    """A browser page signed in as guest ``name`` through the API (quicker than the lobby form)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    page = context.new_page()
    assert page.request.post(f"{base}/api/auth/guest", data={"name": name}).ok
    return page


def move_json(move: dict) -> str:
    """A move as the renderer writes it into data-move (JSON.stringify of the legal move)."""
    return json.dumps(move, separators=(",", ":"), ensure_ascii=False)


def army(move: dict) -> str:
    return ",".join(str(move.get(kind, 0)) for kind in UNITS)


def losses(move: dict) -> str:
    return ",".join(str(move.get(kind, 0)) for kind in (*UNITS, "nomad"))


def region(page, region_id: str):
    return page.locator(f'#board .hx-map [data-region="{region_id}"]')


def choice(page, move: dict):
    return page.locator(f"#board .hx-controls [data-move='{move_json(move)}']")


def press(page, selector: str) -> None:
    """Click a toggle button unless it is already pressed (a single option is chosen for us)."""
    button = page.locator(f"#board {selector}")
    if button.get_attribute("aria-pressed") != "true":
        button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def click_march(page, move: dict) -> None:
    if move["worker"] == "token":
        press(page, f'[data-action-slot="{move["slot"]}"]')
    elif page.locator("#board [data-worker]").count():
        press(page, f'[data-worker="{move["worker"]}"]')
    if not page.locator(f'#board [data-army="{army(move)}"]').count():
        origin = region(page, move["origin"])
        expect(origin).to_have_attribute("data-target-kind", "origin")
        origin.click()
    press(page, f'[data-army="{army(move)}"]')
    destination = region(page, move["destination"])
    expect(destination).to_have_attribute("data-target-kind", "destination")
    destination.click()


def click_move(page, move: dict) -> None:
    """Make ``move`` (one of the page's legal moves) through the page's controls; a choice among
    buttons (a tactic card's payments, losses, follows) is read for codes first."""
    kind = move["type"]
    if kind == "place_nomad":
        target = region(page, move["region"])
        expect(target).to_have_attribute("data-target-kind", "nomad")
        target.click()
    elif kind == "march":
        click_march(page, move)
    elif kind in ("skip", "pass"):
        page.locator(f'#board [data-action="{kind}"]').click()
    elif kind == "fire_mercenary":  # destructive: a button, then the confirmation
        page.locator('#board [data-action="fire-mercenary"]').click()
        assert_no_codes(page, "Heroes, firing the Nomad Mercenary")
        page.locator('#board [data-action="fire-mercenary-confirm"]').click()
    else:
        if kind == "tactic":
            press(page, f'[data-card="{move["card"]}"]')
        elif kind == "casualties":
            press(page, f'[data-losses="{losses(move)}"]')
        elif kind in ("recruit", "build", "tax") and move.get("worker") == "token":
            press(page, f'[data-action-slot="{kind}"]')
        # else follows and conscripts: one button per legal move
        expect(choice(page, move)).to_be_visible()
        assert_no_codes(page, f"Heroes, choosing a {kind}")
        choice(page, move).click()


def pick(legal: list[dict], rng: random.Random, prefer_quick: bool) -> dict:
    """A move type at random, then a move of it (a march has many more entries than a tax)."""
    by_type: dict[str, list[dict]] = {}
    for move in legal:
        by_type.setdefault(move["type"], []).append(move)
    types = sorted(by_type)
    if prefer_quick and "skip" in by_type and rng.random() < 0.7:
        return by_type["skip"][0]
    return rng.choice(by_type[rng.choice(types)])


def wait_for_version_change(page, before: int, equal: bool = False) -> None:
    """Wait (polling every animation frame, quicker than expect's back-off) until the page shows a
    version other than ``before`` (``equal``: exactly ``before``)."""
    page.wait_for_function(
        "([version, equal]) => (document.getElementById('game').dataset.version === version) === equal",
        arg=[str(before), equal],
    )


def play_one_move_by_clicks(players, base: str, table_id: str, rng: random.Random, prefer_quick: bool = True) -> dict:
    """A seat to act makes one of its legal moves by clicks; returns its game before the move."""
    to_act = server_game(players[0], base, table_id)["to_act"]
    assert to_act, "nobody may move"
    page = players[min(to_act)]
    game = server_game(page, base, table_id)
    wait_for_version_change(page, game["version"], equal=True)
    move = pick(game["legal"], rng, prefer_quick)
    click_move(page, move)
    wait_for_version_change(page, game["version"])
    return game


# Every word and number of a region, in CSS px on the page: its size (font size times the map's
# scale) and how far its box stays inside the region's hexagon (from the inner side of its edge).
MAP_TEXTS = """() => {
  const svg = document.querySelector('#board svg.hx-map');
  const scale = svg.getScreenCTM().a; // CSS px a map unit (the map keeps its shape inside its box)
  const texts = [];
  for (const region of svg.querySelectorAll('.hx-region')) {
    const hex = region.querySelector('polygon.hx-hex');
    const corners = hex.getAttribute('points').split(' ').map((point) => point.split(',').map(Number));
    const [cx, cy] = [0, 1].map((axis) => corners.reduce((sum, corner) => sum + corner[axis], 0) / 6);
    const edge = parseFloat(getComputedStyle(hex).strokeWidth) / 2;
    for (const text of region.querySelectorAll('text')) {
      const box = text.getBBox();
      let inside = Infinity;
      // the glyphs' own height: the middle 60 % of the text's box (the box holds the font's whole ascent and descent)
      const [top, bottom] = [box.y + box.height * 0.2, box.y + box.height * 0.8];
      for (const [x, y] of [[box.x, top], [box.x + box.width, top], [box.x, bottom], [box.x + box.width, bottom]]) {
        corners.forEach(([x1, y1], index) => {
          const [x2, y2] = corners[(index + 1) % 6];
          const length = Math.hypot(x2 - x1, y2 - y1);
          const towardsCentre = Math.sign((cx - x1) * (y2 - y1) - (cy - y1) * (x2 - x1));
          inside = Math.min(inside, (towardsCentre * ((x - x1) * (y2 - y1) - (y - y1) * (x2 - x1))) / length - edge);
        });
      }
      texts.push({ region: region.dataset.region, kind: text.getAttribute('class'), text: text.textContent,
                   px: parseFloat(getComputedStyle(text).fontSize) * scale, inside: inside * scale });
    }
  }
  return texts;
}"""


def assert_map_readable(page, where: str) -> None:
    """At 1280 x 800 every region's name and capital level is 11 px or more, and every word and
    number of a region (its name, a capital's level, an army's counts) stays inside the region's
    hexagon, 1 px or more clear of its edge (a count once touched a capital's thick edge)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")  # board-fit.js
    texts = page.evaluate(MAP_TEXTS)
    assert any("hx-unit-count" in text["kind"] for text in texts), f"{where}: no army on the map"
    small = [text for text in texts if text["kind"] in ("hx-region-label", "hx-capital-level") and text["px"] < 11]
    assert small == [], f"{where}: labels under 11 px: {small}"
    cramped = [text for text in texts if text["inside"] < 1]
    assert cramped == [], f"{where}: texts at or over their hexagon's edge: {cramped}"


def test_two_players_play_a_round_with_a_nomad_and_a_follow_by_clicks(live_server, chromium):
    base = live_server
    rng = random.Random(3)
    ana = sign_in(chromium, base, "Ana", height=1000)
    bo = sign_in(chromium, base, "Bo", height=1000)
    table_id = create_join_and_start(ana, [bo], "heroes", quick_options)
    players = [ana, bo]
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
        expect(page.locator("#board svg.hx-map")).to_be_visible()
        expect(page.locator("#board .hx-map [data-region]")).to_have_count(28)  # four continents of 7 regions (unclaimed ones are open land)
        expect(page.locator("#board .hx-player")).to_have_count(2)
        expect(page.locator('#board .hx-player [data-slot="sail"]').first).to_have_attribute("data-fill", "disabled")
        expect(page.locator("#board .hx-tax-track li")).to_have_count(3)
    assert_map_readable(ana, "Heroes, the start (each capital's Courtyard of two kinds)")
    ana.set_viewport_size({"width": 1280, "height": 1000})

    # The Nomad: Ana (first player) sees exactly the legal regions highlighted; Bo none.
    game = server_game(ana, base, table_id)
    assert game["view"]["phase"] == "nomad"
    legal_regions = sorted(move["region"] for move in game["legal"])
    highlighted = ana.locator('#board .hx-map [data-region].legal[data-target-kind="nomad"]')
    expect(highlighted).to_have_count(len(legal_regions))
    assert sorted(highlighted.evaluate_all("els => els.map(e => e.dataset.region)")) == legal_regions
    expect(bo.locator("#board .hx-map .legal")).to_have_count(0)
    nomad_region = legal_regions[0]
    region(ana, nomad_region).click()
    for page in players:
        expect(region(page, nomad_region)).to_have_attribute("data-nomad", "true")
        expect(page.locator("#board .hx")).to_have_attribute("data-phase", "action")

    # Ana taxes Ore; Bo is asked to follow and does so with a Serf.
    version = version_of(ana)
    ana.click('#board [data-action-slot="tax"]')
    ana.click('#board .hx-controls [data-choice="ore"]')
    wait_for_version([bo], version + 1)
    expect(bo.locator("#hx-prompt")).to_have_text(re.compile(r"^Follow the Tax of Ana with a Serf"))
    expect(bo.locator('#board [data-action="skip"]')).to_be_visible()
    follow = next(m for m in server_game(bo, base, table_id)["legal"] if m["type"] == "tax" and m["worker"] == "serf")
    choice(bo, follow).click()
    wait_for_version([bo], version + 2)
    after = server_game(bo, base, table_id)["view"]
    assert after["players"][0]["bar"]["tax"] == "token"
    assert after["players"][1]["bar"]["tax"] == "serf"
    for page in players:
        expect(page.locator('#board .hx-player[data-player-seat="1"] [data-slot="tax"]')).to_have_attribute("data-fill", "serf")
        expect(page.locator('#board .hx-player[data-player-seat="0"] [data-slot="tax"]')).to_have_attribute("data-fill", "token")

    # The rest of the round by clicks, until round 2 begins.
    for _ in range(80):
        if server_game(ana, base, table_id)["view"]["round"] >= 2:
            break
        play_one_move_by_clicks(players, base, table_id, rng)
    else:
        raise AssertionError("round 1 did not end")
    for page in players:
        expect(page.locator("#board .hx")).to_have_attribute("data-round", "2")


def test_three_players_finish_a_game_with_wandering_nomads_by_clicks(live_server, chromium):
    base = live_server
    rng = random.Random(11)
    players = [guest_page(chromium, base, name) for name in ("Ana", "Bo", "Cy")]
    # the lobby form is covered above: this table is made through the API, to spend the time on moves
    created = players[0].request.post(f"{base}/api/tables", data={
        "ruleset": "heroes", "seats": 3, "options": {"first_player": "host", "round_limit": ROUND_LIMIT, "nomads": "wandering", "edition": "core"}})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    for page in players[1:]:
        assert page.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert players[0].request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    for page in players:
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-connection", "live")
        expect(page.locator("#board .hx-map [data-region]")).to_have_count(28)
        expect(page.locator("#board .hx-player")).to_have_count(3)
    nomads_placed = 0
    for _ in range(MAX_CLICKED_MOVES):
        game = server_game(players[0], base, table_id)
        if game["status"] == "finished":
            break
        nomads_placed += game["view"]["phase"] == "nomad"
        play_one_move_by_clicks(players, base, table_id, rng)
    else:
        raise AssertionError(f"the game did not end within {MAX_CLICKED_MOVES} clicked moves")
    assert nomads_placed >= 1
    final = server_game(players[0], base, table_id)
    assert final["result"] is not None
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-table [data-score-seat]")).to_have_count(3)
        expect(page.locator("#board .hx-controls")).to_have_count(0)
        expect(page.locator("#board .hx")).to_have_attribute("data-phase", "over")
        expect(page.locator("#log li")).to_have_count(len(server_game(page, base, table_id)["log"]))  # the whole game, in words
        assert_no_codes(page, "Heroes, wandering Nomads, the end")
    # the result above the map no longer shrinks it to the window's last 60 % (names at 9.7 px)
    assert_map_readable(players[0], "Heroes, the end of a game of three")
    for page in players:
        page.context.close()


# -- (c) a battle -------------------------------------------------------------------------------

BATTLE_PHASES = ("tactics", "conscripts", "casualties")
MAX_STEERED_MOVES = 200


def distances_to(view: dict, targets: set[str]) -> dict[str, int]:
    """Land steps from every region to the nearest of ``targets`` (the view's map, ferries included)."""
    adjacent = {region["id"]: region.get("adjacent", []) for region in view["map"]["regions"]}
    distance = {target: 0 for target in targets}
    queue = deque(targets)
    while queue:
        here = queue.popleft()
        for there in adjacent.get(here, []):
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return distance


def steer_to_battle(game: dict, seat: int, enemy: int | None) -> dict:
    """A legal move of ``seat`` that brings a battle with ``enemy`` nearer (``enemy`` None: a
    bystander that never marches); the rules stay on the server, this only chooses among legal."""
    legal = game["legal"]
    view = game["view"]
    marches = [move for move in legal if move["type"] == "march"]
    if enemy is not None and marches:
        targets = {region for region, entry in view["regions"].items()
                   if sum(entry["units"].get(str(enemy), {}).values()) or entry["tower"] == enemy}
        targets.add(view["players"][enemy]["capital"])
        distance = distances_to(view, targets)
        best = min(marches, key=lambda move: (distance.get(move["destination"], 99), -sum(move[k] for k in UNITS)))
        if distance.get(best["destination"], 99) < distance.get(best["origin"], 99):
            return best
    for kind in ("skip", "tax", "recruit", "pass"):
        for move in legal:
            if move["type"] == kind:
                return move
    return next((move for move in legal if move["type"] != "march"), legal[0])


def steer_three_players_to_a_battle(chromium, base: str, ana, bo) -> tuple[str, list[dict]]:
    """A 3-player table (Ana, Bo and Cy, who plays by REST only) steered by legal moves until a
    battle between North and East (joined by a ferry; West stays home); its id and every
    seat's ``GET /api/games`` answer at that point."""
    cy = chromium.new_context().request
    assert cy.post(f"{base}/api/auth/guest", data={"name": "Cy"}).ok
    created = ana.request.post(f"{base}/api/tables", data={
        "ruleset": "heroes", "seats": 3, "options": {"first_player": "host", "nomads": "none", "edition": "core"}})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert cy.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    requests = [ana.request, bo.request, cy]
    enemies = {0: 1, 1: 0, 2: None}
    for _ in range(MAX_STEERED_MOVES):
        games = [request.get(f"{base}/api/games/{table_id}").json() for request in requests]
        assert games[0]["status"] == "running", "the game ended before a battle"
        if games[0]["view"]["phase"] in BATTLE_PHASES:
            return table_id, games
        seat = min(games[0]["to_act"])
        answer = requests[seat].post(f"{base}/api/games/{table_id}/moves", data={
            "id": str(uuid.uuid4()), "version": games[seat]["version"], "move": steer_to_battle(games[seat], seat, enemies[seat])})
        assert answer.ok, answer.text()
    raise AssertionError(f"no battle within {MAX_STEERED_MOVES} moves")


def test_a_battle_tactic_cards_chosen_in_secret_and_revealed_by_clicks(live_server, chromium):
    base = live_server
    rng = random.Random(5)
    ana, bo = guest_page(chromium, base, "Ana"), guest_page(chromium, base, "Bo")
    table_id, games = steer_three_players_to_a_battle(chromium, base, ana, bo)
    battle = games[0]["view"]["pending"]["battle"]
    assert {battle["attacker"], battle["defender"]} == {0, 1}, "the battle is between North and East"
    players = [ana, bo]
    for page in players:
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-connection", "live")
        expect(page.locator("#board .hx-battle")).to_have_attribute("data-battle-region", battle["region"])

    if games[0]["view"]["phase"] == "tactics":
        # Each side's page offers the 7 cards; the first to choose is seen to have chosen, not what.
        first, second = (players[battle["attacker"]], players[battle["defender"]])
        first_seat, second_seat = battle["attacker"], battle["defender"]
        for page, seat in zip(players, (0, 1)):  # the cards that can work for this side
            cards = {m["card"] for m in server_game(page, base, table_id)["legal"] if m["type"] == "tactic"}
            expect(page.locator("#board .hx-cards [data-card]")).to_have_count(len(cards))
        mine = pick([m for m in server_game(first, base, table_id)["legal"] if m["type"] == "tactic"], rng, False)
        version = version_of(first)
        click_move(first, mine)
        for page in players:
            wait_for_version([page], version + 1)
            expect(page.locator(f'#board [data-chosen-seat="{first_seat}"]')).to_have_attribute("data-chosen", "true")
        expect(first.locator("#board .hx-mine")).to_have_attribute("data-mine", mine["card"])
        expect(first.locator("#board .hx-cards")).to_have_count(0)  # chosen: nothing more to do
        expect(second.locator("#board .hx-mine")).to_have_count(0)  # the other side sees no card
        hidden = server_game(second, base, table_id)["view"]["pending"]
        assert "mine" not in hidden and "choices" not in hidden, "the other side's view holds no choice"
        theirs = pick([m for m in server_game(second, base, table_id)["legal"] if m["type"] == "tactic"], rng, False)
        click_move(second, theirs)
        expect(second.locator("#game")).not_to_have_attribute("data-version", str(version + 1))
        # The reveal: both cards by name, on both pages.
        names = {seat: server_game(ana, base, table_id)["view"]["tactic_cards"][move["card"]]["name"]
                 for seat, move in ((first_seat, mine), (second_seat, theirs))}
        for page in players:
            panel = page.locator("#board .hx-battle")
            for seat, name in names.items():
                expect(panel).to_contain_text(f"{('Ana', 'Bo')[seat]}: {name}")
            assert_no_codes(page, "Heroes, the tactic cards revealed")

    # Conscripts and casualties, if the battle asks for them, by clicks.
    for _ in range(10):
        if server_game(ana, base, table_id)["view"]["phase"] not in BATTLE_PHASES:
            break
        play_one_move_by_clicks(players, base, table_id, rng, prefer_quick=False)
    else:
        raise AssertionError("the battle did not end")
    phase = server_game(ana, base, table_id)["view"]["phase"]
    for page in players:
        expect(page.locator("#board .hx")).to_have_attribute("data-phase", phase)
        expect(page.locator("#board .hx-cards")).to_have_count(0)


# -- (d) Mercenary Nomads -----------------------------------------------------------------------

def pick_for_mercenary(game: dict, rng: random.Random, fired: bool) -> dict:
    """The clicking policy of (d), among the legal moves only: hire the Nomad Mercenary when a
    Recruit offers it; while it is in the supply, Tax what the seat has least of (it costs 3 of
    each) and neither Recruit nor Build; fire it once, when its figures have left the Courtyard (or in the last round); else a
    move with its figures when there is one, else ``pick``."""
    legal, view = game["legal"], game["view"]
    hire = [move for move in legal if move.get("unit") == "mercenary"]
    if hire:
        return hire[0]
    if view["mercenary"]["owner"] is None:  # save up: Tax, else nothing that costs resources
        resources = view["players"][game["seat"]]["resources"]
        taxes = [move for move in legal if move["type"] == "tax"]
        if taxes:
            return min(taxes, key=lambda move: resources[move["resource"]])
        legal = [move for move in legal if move["type"] not in ("recruit", "build")] or legal
    fire = [move for move in legal if move["type"] == "fire_mercenary"]
    capital = view["players"][game["seat"]]["capital"]
    abroad = any(entry["units"].get(str(game["seat"]), {}).get("mercenary")
                 for region_id, entry in view["regions"].items() if region_id != capital)
    if fire and not fired and (abroad or view["round"] == ROUND_LIMIT):
        return fire[0]
    legal = [move for move in legal if move["type"] != "fire_mercenary"]
    with_figures = [move for move in legal if move.get("mercenary")]
    if with_figures:
        return rng.choice(with_figures)
    return pick(legal, rng, prefer_quick=True)


def expect_mercenary(pages, view: dict) -> None:
    """Every page shows the card where the view has it, and the holder's figures on the map."""
    owner = view["mercenary"]["owner"]
    for page in pages:
        expect(page.locator("#board .hx-mercenary")).to_have_attribute("data-mercenary-owner", "" if owner is None else str(owner))
        expect(page.locator("#board .hx-merc-held")).to_have_count(0 if owner is None else 1)
        expect(page.locator("#board .hx-map [data-mercenary]")).to_have_count(
            sum(1 for entry in view["regions"].values() for units in entry["units"].values() if units.get("mercenary")))
    if owner is not None:
        board = pages[0].locator(f'#board .hx-player[data-player-seat="{owner}"] .hx-merc-held')
        expect(board).to_have_attribute("data-mercenary-alive", str(view["mercenary"]["alive"]))


def test_three_players_finish_a_game_with_mercenary_nomads_by_clicks(live_server, chromium):
    base = live_server
    rng = random.Random(7)
    players = [guest_page(chromium, base, name) for name in ("Ana", "Bo", "Cy")]
    created = players[0].request.post(f"{base}/api/tables", data={
        "ruleset": "heroes", "seats": 3, "options": {"first_player": "host", "round_limit": ROUND_LIMIT, "nomads": "mercenary", "edition": "core"}})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    for page in players[1:]:
        assert page.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert players[0].request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    for page in players:
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-connection", "live")
    expect(players[0].locator("#board .hx-mercenary .hx-merc-card.in-supply")).to_contain_text("3 Ore + 3 Mana + 3 Food")
    expect(players[0].locator("#board .hx-legend")).to_contain_text("spear and tent = a figure of the Nomad Mercenary")

    hired = fired = marched = 0
    for _ in range(MAX_CLICKED_MOVES):
        to_act = server_game(players[0], base, table_id)["to_act"]
        if not to_act:
            break
        page = players[min(to_act)]
        game = server_game(page, base, table_id)
        wait_for_version_change(page, game["version"], equal=True)
        move = pick_for_mercenary(game, rng, fired > 0)
        if move.get("unit") == "mercenary" and move["worker"] == "token":
            press(page, '[data-action-slot="recruit"]')
        if move.get("unit") == "mercenary":
            expect(choice(page, move)).to_contain_text(re.compile(r"Nomad Mercenary, 3 figures \(3 Ore \+ 3 Mana \+ 3 Food\)"))
        click_move(page, move)
        wait_for_version_change(page, game["version"])
        if move.get("unit") == "mercenary" or move["type"] == "fire_mercenary":
            view = server_game(page, base, table_id)["view"]
            expect_mercenary(players, view)
            if move["type"] == "fire_mercenary":
                fired += 1
                assert view["mercenary"]["owner"] is None
            else:
                hired += 1
                capital = view["players"][game["seat"]]["capital"]
                expect(region(page, capital).locator(f'[data-units-seat="{game["seat"]}"]')).to_have_attribute("data-mercenary", "3")
        marched += move["type"] == "march" and move["mercenary"] > 0
    else:
        raise AssertionError(f"the game did not end within {MAX_CLICKED_MOVES} clicked moves")
    assert hired >= 1, "the Nomad Mercenary was never recruited"
    final = server_game(players[0], base, table_id)
    assert final["status"] == "finished" and final["result"] is not None
    for page in players:
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-table [data-score-seat]")).to_have_count(3)
        expect(page.locator("#board .hx-controls")).to_have_count(0)
        expect(page.locator("#log li")).to_have_count(len(server_game(page, base, table_id)["log"]))  # the whole game, in words
        assert_no_codes(page, "Heroes, Mercenary Nomads, the end")
    expect_mercenary(players, final["view"])
    print(f"Mercenary Nomads by clicks: hired {hired}, fired {fired}, marches with figures {marched}")
    for page in players:
        page.context.close()


# -- (e) solo against the Enemy ----------------------------------------------------------------

def expect_enemy_board(page, view: dict) -> None:
    """The Enemy's board shows the view's current card (the last filled Hero slot), its arrow on
    the compass, the track step, the deck size and the VP."""
    solo = view["solo"]
    filled = [card for card in solo["slots"] if card is not None]
    board = page.locator("#board .hx-enemy")
    expect(board).to_be_visible()
    if filled:
        current = view["enemy_cards"][str(filled[-1])]
        expect(board.locator("[data-current-card]")).to_have_attribute("data-current-card", str(current["id"]))
        expect(board.locator("svg.hx-compass")).to_have_attribute("data-arrow", current["arrow"])
        expect(board.locator("svg.hx-compass")).to_have_attribute("aria-label", f"Compass arrow: {current['arrow']}")
    expect(board.locator("[data-enemy-track]")).to_have_attribute("data-enemy-track", str(solo["track"]))
    expect(board.locator("[data-deck-size]")).to_have_attribute("data-deck-size", str(solo["deck_size"]))
    expect(board.locator("[data-score]")).to_have_attribute("data-score", str(view["players"][1]["score"]))


def test_solo_against_the_enemy_with_wandering_nomads_finished_by_clicks(live_server, chromium):
    base = live_server
    rng = random.Random(5)
    ana = sign_in(chromium, base, "Ana", height=1000)
    ana.select_option("#ruleset", "heroes")
    expect(ana.locator("#seats option").first).to_have_text("1 player (solo)")
    table_id = create_join_and_start(ana, [], "heroes", quick_options)
    watcher = guest_page(chromium, base, "Vi")
    watcher.goto(f"{base}/tables/{table_id}")
    for page in (ana, watcher):
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
        expect(page.locator("#board .hx-map [data-region]")).to_have_count(21)  # A-S1: South is out of play
        expect(page.locator("#board .hx-player")).to_have_count(2)  # your board and the Enemy's
    assert "deck" not in server_game(watcher, base, table_id)["view"]["solo"]
    moved_nomads = enemy_battles = 0
    for _ in range(MAX_CLICKED_MOVES):
        game = server_game(ana, base, table_id)
        if game["status"] == "finished":
            break
        wait_for_version_change(ana, game["version"], equal=True)
        expect_enemy_board(ana, game["view"])
        move = pick(game["legal"], rng, prefer_quick=True)
        moved_nomads += move["type"] == "move_nomad"
        enemy_battles += move["type"] == "tactic"
        click_move(ana, move)
        wait_for_version_change(ana, game["version"])
    else:
        raise AssertionError(f"the solo game did not end within {MAX_CLICKED_MOVES} clicked moves")
    assert moved_nomads >= 1
    final = server_game(ana, base, table_id)
    assert "the Enemy" in final["result"]["reason"]
    expect_enemy_board(watcher, server_game(watcher, base, table_id)["view"])
    log = ana.request.get(f"{base}/api/games/{table_id}/log").json()
    assert any(entry["text"].startswith("The Enemy (Hero 1, card ") for entry in log)
    for page in (ana, watcher):
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-table [data-score-seat]")).to_have_count(1)
        expect(page.locator("#board .hx")).to_have_attribute("data-phase", "over")
        assert_no_codes(page, "Heroes solo, the end")
        # what the player was measured against: the Enemy's column beside theirs, the running
        # score named as the game names it (not "Score" above "Total")
        enemy = final["result"]["rivals"][0]
        expect(page.locator('#result-table thead th[data-rival="0"]')).to_have_text("The Enemy")
        expect(page.locator('#result-table tr.total td[data-rival="0"]')).to_have_text(str(enemy["score"]))
        expect(page.locator("#result-table tbody th").first).to_have_text("VP during play")
    # the reason is a template with its scores as arguments: the page fills them in, in each reader's language
    expect(ana.locator("#result-reason")).to_have_text(final["result"]["reason"])
    ana.locator("#language-chooser").select_option("fr")
    expect(ana.locator("html")).to_have_attribute("lang", "fr")
    expect(ana.locator("#result-reason")).to_contain_text(f"l'Ennemi, {final['result']['scores'][0]} PV à ")
    expect(ana.locator('#result-table thead th[data-rival="0"]')).to_have_text("L'Ennemi")
    expect(ana.locator("#result-table tbody th").first).to_have_text("PV en cours de partie")
    for page in (ana, watcher):
        page.context.close()

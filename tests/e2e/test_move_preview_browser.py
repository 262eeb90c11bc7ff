"""Every renderer previews every move before "Confirm" (static/js/move-preview.js), in real Chromium.

With "Confirm my moves" on, a move chosen on the board is held: the move bar names it in one
sentence in the log's words, and the board draws its ghost (an element with ``data-preview``,
the move's type, in ``#board``). For each game, Ana (in the browser) plays a real two-player game
against Bo (through REST); whenever one of her legal moves is of a type not yet seen, the page
holds it, the test reads the sentence and finds the ghost, then presses Confirm and sees the
server play exactly that move (the version moves on, her legal moves change or the log grows).
Other moves are chosen at random (seeded) through REST, preferring a type not yet seen, so the
game reaches each kind of move. Through the Desert's leader and camel and Nomadi's stone move and
roll are held by clicks as a player does; the other types through the board's ``choose-move``
event, which takes only a move of ``legal`` and goes the renderer's way (table.js).

The refusals: Undo, once gone, says why where its button was ("another player has acted since your
last move", or that a roll cannot be taken back); a move or undo refused by the server (a frame
changed on its way to carry another version) is explained in a notice; a join refused in the
lobby and a chat closed to a spectator say why. Last, a Heroes solo table starts with no waiting
room, invite link or chat, its unit figures are 16 px high, and its greyed slots say why.
"""

from __future__ import annotations

import json
import random
import re
import uuid

import pytest

from tests.e2e.pages import api, server_game, sign_in, wait_for_version

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

MAX_REST_MOVES = 600
"""A limit on the moves one game's drive plays before it gives up on the types not yet seen."""
PLACEHOLDER = re.compile(r"\{\w*\}|undefined|null|NaN|\[object")


def started(ana, bo, base: str, ruleset: str, options: dict) -> str:
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": options})["id"]
    api(bo, base, "POST", f"/api/tables/{table_id}/join", {})
    api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
    return str(table_id)


def rest_move(page, base: str, table_id: str, game: dict, move: dict) -> None:
    answer = page.request.post(f"{base}/api/games/{table_id}/moves",
                               data={"id": str(uuid.uuid4()), "version": game["version"], "move": move})
    assert answer.ok, answer.text()


def hold(page, move: dict) -> None:
    """Offer ``move`` to the page's board as a renderer does on a click (held: the setting is on)."""
    page.evaluate("move => document.getElementById('board').dispatchEvent(new CustomEvent('choose-move', {detail: move}))", move)


def check_preview(page, move: dict) -> str:
    """The move bar names the held move and the board shows its ghost; returns the sentence."""
    bar = page.locator("#move-bar")
    expect(bar).to_have_attribute("data-state", "confirming")
    sentence = page.locator("#move-bar-question").inner_text().strip()
    assert sentence and sentence != "Play this move?", f"{move}: no sentence"
    assert not PLACEHOLDER.search(sentence), f"{move}: {sentence!r}"
    assert not sentence.startswith(("Play ", "Type")), f"{move}: not in the log's words: {sentence!r}"
    ghosts = page.locator(f'#board [data-preview="{move["type"]}"]')
    expect(ghosts.first).to_be_attached()
    return sentence


def confirm(page, version: int) -> None:
    page.click("#confirm-move")
    page.wait_for_function("v => Number(document.getElementById('game')?.dataset.version) > v", arg=version, timeout=10_000)


def drive(ana, bo, base: str, table_id: str, wanted: set[str], rng: random.Random, by_click=None,
          prefer=lambda move, game: False, enough: set[str] | None = None, extra: int = 120) -> dict[str, str]:
    """Play the game until Ana has previewed and confirmed a move of every type in ``wanted`` (or
    the game ends, or the limit): returns {type: sentence}. ``by_click(page, game, move_type)``
    holds a move by clicks and returns it, or None to hold one through ``choose-move``; the moves
    played through REST are ``prefer``'s (those that open the way to other types) half the time.
    Once the types of ``enough`` are seen, at most ``extra`` more moves look for the rest."""
    seen: dict[str, str] = {}
    ana.goto(f"{base}/tables/{table_id}")
    left = MAX_REST_MOVES
    while left > 0:
        left -= 1
        if enough is not None and enough <= set(seen):
            left, enough = min(left, extra), None
        games = [server_game(ana, base, table_id), server_game(bo, base, table_id)]
        if games[0]["status"] != "running" or wanted <= set(seen):
            break
        new = [move for move in games[0]["legal"] if move["type"] in wanted and move["type"] not in seen]
        if new:
            move_type = new[0]["type"]
            wait_for_version([ana], games[0]["version"])
            held = by_click(ana, games[0], move_type) if by_click else None
            if held is None:
                held = rng.choice([move for move in new if move["type"] == move_type])
                hold(ana, held)
            seen[move_type] = check_preview(ana, held)
            confirm(ana, games[0]["version"])
            continue
        page, game = next(((page, game) for page, game in zip((ana, bo), games) if game["legal"]), (None, None))
        if page is None:  # nobody to move right now (a bot or the server is acting)
            ana.wait_for_timeout(100)
            continue
        legal = game["legal"]
        fresh = [move for move in legal if move["type"] in wanted and move["type"] not in seen]
        marches = [move for move in legal if move["type"] == "march"]  # battles bring their own moves
        preferred = [move for move in legal if prefer(move, game)]
        pool = (preferred if preferred and rng.random() < 0.5 else fresh if fresh and rng.random() < 0.5
                else marches if marches and rng.random() < 0.3 else legal)
        rest_move(page, base, table_id, game, rng.choice(pool))
    return seen


@pytest.fixture()
def players(live_server, chromium):
    ana = sign_in(chromium, live_server, "Ana", width=1280, height=800)
    api(ana, live_server, "POST", "/api/account/settings", {"confirm_moves": True})
    context = chromium.new_context()
    context.set_default_timeout(10_000)
    bo = context.new_page()
    api(bo, live_server, "POST", "/api/auth/guest", {"name": "Bo"})
    return ana, bo


def test_through_the_desert_previews_every_move(live_server, players):
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "through-the-desert", {"first_player": "host", "palm_placement": "choose", "piles": "zman"})

    def by_click(page, game, move_type):
        if move_type not in ("leader", "camel"):
            return None
        move = next(move for move in game["legal"] if move["type"] == move_type)
        page.click(f'#board [data-colour="{move["colour"]}"]')
        page.click(f'#board .legal[data-hex="{move["hex"][0]},{move["hex"][1]}"]')
        return move

    seen = drive(ana, bo, base, table_id, {"palm", "leader", "camel"}, random.Random(7), by_click)
    assert set(seen) == {"palm", "leader", "camel"}, seen
    assert re.fullmatch(r"Place the (pink|green|yellow|purple|turquoise) leader on [A-N]\d+\.", seen["leader"]), seen
    assert re.fullmatch(r"Place a (pink|green|yellow|purple|turquoise) camel on [A-N]\d+\.", seen["camel"]), seen
    assert re.fullmatch(r"Plant a palm tree on [A-N]\d+\.", seen["palm"]), seen


def test_nomadi_previews_every_move_and_undo_says_why_it_is_gone(live_server, players):
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "nomadi", {"first_player": "host", "card_placement": "players", "trading": True, "voluntary_pass": True})

    def by_click(page, game, move_type):
        if move_type == "roll":
            page.click('#board [data-action="roll"]')
            return {"type": "roll"}
        if move_type == "move":
            move = max((move for move in game["legal"] if move["type"] == "move"), key=lambda move: move["die"])
            page.click(f'#board [data-stone="{move["stone"][0]},{move["stone"][1]}"]')
            page.click(f'#board .targets [data-target="{move["to"][0]},{move["to"][1]}"]')
            chooser = page.locator(f'#board [data-choose-die="{move["die"]}"]')
            if chooser.count():
                chooser.click()
            return move
        return None

    def onto_a_card(move, game):
        """A die move of another player's stone onto a face-down card: an offer follows."""
        if move["type"] != "move":
            return False
        cards = {tuple(card["cell"]) for card in game["view"].get("cards", [])}
        owner = next((stone["owner"] for stone in game["view"]["stones"] if stone["cell"] == move["stone"]), None)
        return tuple(move["to"]) in cards and owner != game["seat"]

    wanted = {"place_card", "place", "roll", "move", "end_turn", "offer", "accept", "decline", "gift"}
    common = {"place_card", "place", "roll", "move", "end_turn", "gift"}
    seen = drive(ana, bo, base, table_id, wanted, random.Random(11), by_click, prefer=onto_a_card, enough=common, extra=150)
    # the card offers need a stone moved onto a face-down card: the common moves are always there
    assert common <= set(seen), seen
    print(f"nomadi: previewed {sorted(seen)}; not reached {sorted(wanted - set(seen))}")
    assert seen["roll"] == "Roll the dice."
    assert re.fullmatch(r"Move (your|\w+'s) stone from [A-Z]\d+ to [A-Z]\d+ with a [1-6]\.", seen["move"]), seen
    assert re.fullmatch(r"Place a stone on [A-Z]\d+\.", seen["place"]), seen
    assert re.fullmatch(r"Lay a face-down card on [A-Z]\d+\.", seen["place_card"]), seen


def test_nimalia_previews_its_card(live_server, players):
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "nimalia", {})
    ana.goto(f"{base}/tables/{table_id}")
    game = server_game(ana, base, table_id)
    wait_for_version([ana], game["version"])
    move = game["legal"][0]
    # Nimalia asks itself ("Place card"): its own preview uses the same hook and ghost
    ana.locator(f'#board [data-hand-card="{move["card"]}"]').first.click()
    for _ in range([0, 90, 180, 270].index(move["rotation"])):
        ana.click('#board [data-action="rotate-right"]')
    ana.click(f'#board [data-anchor="{move["at"][0]},{move["at"][1]}"]')
    expect(ana.locator('#board [data-preview="place"]')).to_have_count(4)
    expect(ana.locator("#nim-prompt")).to_contain_text(re.compile(r"Place card \d+, turned \d+°, its top-left space at row -?\d+, column -?\d+"))
    ana.click('#board [data-action="confirm"]')
    expect(ana.locator("#board [data-preview]")).to_have_count(0)


def heroes_types(full: bool) -> set[str]:
    core = {"place_nomad", "move_nomad", "recruit", "build", "tax", "march", "pass", "fire_mercenary", "skip", "tactic", "conscript", "casualties"}
    return core | ({"research", "scribe", "discard_spell", "cast", "interrupt", "combat_spell", "sail", "fly"} if full else set())


def opens_the_way(move: dict, game: dict) -> bool:
    """A Heroes move after which other kinds of move come: the Mercenary hired (then fired), the
    vessels' buildings and the vessels (then Sail and Fly), a march or voyage (then battles)."""
    what = move.get("unit") or move.get("what")
    return (move["type"] in ("recruit", "build") and what in ("mercenary", "sea_vessel", "air_vessel", "sea_dock", "wyvern_roost")) \
        or move["type"] in ("sail", "fly")


@pytest.mark.parametrize(("edition", "nomads", "always"), [
    ("core", "wandering", {"place_nomad", "recruit", "build", "tax", "march"}),
    ("full", "mercenary", {"recruit", "build", "tax", "march", "research"}),
])
def test_heroes_previews_every_move_it_reaches(live_server, players, edition, nomads, always):
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "heroes", {"first_player": "host", "nomads": nomads, "round_limit": 30, "edition": edition})
    seen = drive(ana, bo, base, table_id, heroes_types(edition == "full"), random.Random(5), prefer=opens_the_way)
    # random play reaches the battles' and spells' moves in most games, not in every one; these always
    assert always <= set(seen), seen
    print(f"heroes {edition}: previewed {sorted(seen)}; not reached {sorted(heroes_types(edition == 'full') - set(seen))}")
    assert all(not sentence.startswith("Play ") for sentence in seen.values())


def test_generic_renderer_previews_a_move(live_server, players):
    """The generic renderer (a game without its own): Through the Desert's moves drawn by it."""
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "through-the-desert", {"first_player": "host"})
    ana.route(re.compile(r".*/static/js/renderers/through-the-desert\.js.*"), lambda route: route.abort())
    ana.goto(f"{base}/tables/{table_id}")
    game = server_game(ana, base, table_id)
    wait_for_version([ana], game["version"])
    button = ana.locator("#board .generic-moves [data-move]").first
    move = json.loads(button.get_attribute("data-move"))
    button.click()
    sentence = check_preview(ana, move)
    assert sentence.startswith("Leader: ")
    expect(ana.locator("#board .generic-moves .move-ghost")).to_have_count(1)
    confirm(ana, game["version"])


def test_undo_and_refusals_say_why(live_server, players):
    ana, bo = players
    base = live_server
    table_id = started(ana, bo, base, "nomadi", {"first_player": "host", "card_placement": "random"})
    tamper = {"frame": None}  # the next frame of this type goes with a version the game is not at: refused

    def between(ws):
        server = ws.connect_to_server()

        def from_page(message):
            frame = json.loads(message) if isinstance(message, str) else None
            if frame and frame.get("type") == tamper["frame"]:
                tamper["frame"] = None
                frame["version"] += 7
                message = json.dumps(frame)
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    ana.route_web_socket(re.compile(r".*/ws/games/.*"), between)
    ana.goto(f"{base}/tables/{table_id}")
    game = server_game(ana, base, table_id)
    wait_for_version([ana], game["version"])
    ana.uncheck("#confirm-moves")  # moves go at once: this test is about what happens after them
    toasts = ana.locator("#toasts .toast")

    # a move the server refuses (it was for an older version) is explained, and nothing changes
    tamper["frame"] = "move"
    place = next(move for move in game["legal"] if move["type"] == "place")
    ana.click(f'#board .targets [data-target="{place["cell"][0]},{place["cell"][1]}"]')
    expect(toasts.last).to_have_text(re.compile(r"Your move was not played: the game moved on before it arrived .*new position\."))
    assert server_game(ana, base, table_id)["version"] == game["version"]
    ana.click(f'#board .targets [data-target="{place["cell"][0]},{place["cell"][1]}"]')
    expect(ana.locator("#undo-move")).to_be_visible()
    # an undo the server refuses says so too
    tamper["frame"] = "undo"
    ana.click("#undo-move")
    expect(toasts.last).to_have_text(re.compile(r"Your move was not taken back: the game moved on before it arrived"))
    # Bo places: the button goes, and the bar says why in the server's words
    game = server_game(bo, base, table_id)
    rest_move(bo, base, table_id, game, game["legal"][0])
    expect(ana.locator("#undo-gone")).to_have_text("Undo is no longer possible: another player has acted since your last move.")
    expect(ana.locator("#undo-move")).to_have_count(0)
    # to Ana's roll: a roll shows dice, so it cannot be taken back, and the bar says so
    for _ in range(40):
        games = [server_game(ana, base, table_id), server_game(bo, base, table_id)]
        if any(move["type"] == "roll" for move in games[0]["legal"]):
            break
        page, game = next((page, game) for page, game in zip((ana, bo), games) if game["legal"])
        rest_move(page, base, table_id, game, game["legal"][0])
    wait_for_version([ana], games[0]["version"])
    ana.click('#board [data-action="roll"]')
    expect(ana.locator("#undo-gone")).to_contain_text("Undo is no longer possible: your last move cannot be taken back")


def test_heroes_solo_table_starts_at_once_with_large_figures_and_explained_slots(live_server, chromium):
    """A solo table (Heroes against the Enemy) has no waiting room, invite link or chat; the unit
    figures are at least 16 px high on a desktop map; a greyed Action Bar slot says why."""
    base = live_server
    ana = sign_in(chromium, base, "Ana", width=1280, height=800)
    ana.select_option("#ruleset", "heroes")
    ana.select_option("#seats", "1")
    ana.click("#options-fieldset summary")
    ana.select_option('[data-option="edition"]', label="Core")
    ana.click("#create-table")
    ana.wait_for_url(re.compile(r"/tables/\d+$"))
    expect(ana.locator("#game")).to_have_attribute("data-status", "running")
    expect(ana.locator("#waiting-room")).to_be_hidden()
    expect(ana.locator("#invite-link")).to_be_hidden()
    expect(ana.locator("#chat-card")).to_be_hidden()
    heights = ana.evaluate("[...document.querySelectorAll('#board .hx-map .unit-figure')].map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 16, heights
    greyed = ana.locator("#board .hx-slot.slot-disabled")
    expect(greyed.first).to_have_attribute("title", re.compile(r"not in the core edition"))
    expect(greyed.first).to_contain_text("not in core")


def test_lobby_join_and_chat_refusals_say_why(live_server, chromium, players):
    """A join the server refuses (the table filled meanwhile) and a chat a spectator may not write
    in are explained on the page, not dropped."""
    ana, bo = players
    base = live_server
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": "nomadi", "seats": 2, "options": {}})["id"]
    cy = sign_in(chromium, base, "Cy")
    join = cy.locator(f'[data-table-id="{table_id}"] [data-action="join"]')
    expect(join).to_be_visible()
    api(bo, base, "POST", f"/api/tables/{table_id}/join", {})  # the last seat goes while Cy's list is open
    join.click()
    expect(cy.locator("#tables-message")).to_contain_text(re.compile(r"failed: \S"))
    api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
    cy.goto(f"{base}/tables/{table_id}")  # a spectator: this table's chat is for its players
    expect(cy.locator("#chat-note")).to_be_visible()
    assert cy.locator("#chat-note").inner_text().strip(), "the chat says nothing about why Cy cannot write"
    expect(cy.locator("#chat-input")).to_be_disabled()

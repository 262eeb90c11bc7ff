"""Every renderer previews every move before "Confirm" (static/js/move-preview.js), in real Chromium.

With "Confirm my moves" on, a move chosen on the board is held: the move bar names it in one
sentence in the log's words, and the board draws its ghost (an element with ``data-preview``,
the move's type, in ``#board``). For each game, Ana (in the browser) plays a real two-player game
against Bo (through REST); whenever one of her legal moves is of a type not yet seen, the page
holds it, the test reads the sentence and finds the ghost, then presses Confirm and sees the
server play exactly that move. The line of play comes from the table's seed
(tests/e2e/move_paths.py): a search in-process over the same ruleset finds moves that bring Ana
every type, the rare ones included (a lost battle's casualties, an Interrupt spell, a Nomadi card
accepted), and the test plays it through the server, Ana's other moves and Bo's through REST.
Through the Desert's leader and camel and Nomadi's stone move and roll are held by clicks as a
player does; the other types through the board's ``choose-move`` event, which takes only a move of
``legal`` and goes the renderer's way (table.js). Heroes needs three tables for all its types: the
core edition with wandering Nomads, the full edition, and a solo game (the Nomad a player moves).

The refusals: Undo, once gone, says why where its button was ("another player has acted since your
last move", or that a roll cannot be taken back); a move or undo refused by the server (a frame
changed on its way to carry another version) is explained in a notice; a join refused in the
lobby and a chat closed to a spectator say why. Last, a Heroes solo table starts with no waiting
room, invite link or chat, its unit figures are 16 px high, and its greyed slots say why.
"""

from __future__ import annotations

import json
import re
import typing
import uuid

import pytest

from app.rulesets.heroes import moves as heroes_moves
from app.rulesets.registry import Registry
from tests.e2e.move_paths import path_to_every_type, table_seed
from tests.e2e.pages import api, guest_page, server_game, sign_in, wait_for_version

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

TABLES = 3  # tables tried before the search's failure to reach every type fails the test
PLACEHOLDER = re.compile(r"\{\w*\}|undefined|null|NaN|\[object")


def started(ana, bo, base: str, ruleset: str, options: dict) -> str:
    table_id = api(ana, base, "POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": options})["id"]
    api(bo, base, "POST", f"/api/tables/{table_id}/join", {})
    api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
    return str(table_id)


def rest_move(page, base: str, table_id: str, version: int, move: dict) -> int:
    """POST ``move`` at ``version``; returns the game's version after it (the server judges the move:
    a line that left the server's game is refused here)."""
    answer = page.request.post(f"{base}/api/games/{table_id}/moves",
                               data={"id": str(uuid.uuid4()), "version": version, "move": move})
    assert answer.ok, f"{move}: {answer.text()}"
    return int(answer.json()["version"])


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


def play_line(pages: list, base: str, database, start, ruleset: str, options: dict, wanted: set[str],
              rare: tuple[str, ...] = (), by_click=None) -> dict[str, str]:
    """Start a table (``start()``: its id) and play it (``pages[seat]`` the player at each seat, Ana
    at 0 in the browser) through a line that brings Ana a move of every type of ``wanted``
    (tests/e2e/move_paths.py, from the table's seed; a seed from which the search finds no such
    line, rare, gives way to another table): her first move of each type is held in the browser,
    previewed and confirmed; every other move goes through REST. Returns {type: the preview's
    sentence}. ``by_click(page, move)`` holds ``move`` by clicks as a player does and returns True,
    or returns False to hold it through ``choose-move``."""
    rules = Registry.discover().get(ruleset)
    ana = pages[0]
    for _ in range(TABLES):
        table_id = str(start())
        assert [server_game(page, base, table_id)["seat"] for page in pages] == list(range(len(pages)))
        line = path_to_every_type(rules, len(pages), options, table_seed(database, table_id), wanted, rare)
        if not line.missing:
            break
    assert not line.missing, f"no line of play found to {sorted(line.missing)} from {TABLES} tables' seeds"
    ana.goto(f"{base}/tables/{table_id}")
    seen: dict[str, str] = {}
    version = server_game(ana, base, table_id)["version"]
    for index, (seat, move) in enumerate(line.moves):
        if index not in line.firsts:
            # the other moves in a chain, each at the version the last answer gave: reading the
            # whole game before each (its view and grouped legal moves) was most of the test's time
            version = rest_move(pages[seat], base, table_id, version, rules.dump_move(move))
            continue
        game = server_game(pages[seat], base, table_id)
        assert game["status"] == "running" and game["version"] == version, (game["status"], game["version"], version)
        sent = next((legal for legal in game["legal"] if rules.parse_move(legal) == move), None)
        assert sent is not None, f"{move} is not legal on the server: the line left the server's game"
        wait_for_version([ana], game["version"])
        if not (by_click and by_click(ana, sent)):
            hold(ana, sent)
        seen[sent["type"]] = check_preview(ana, sent)
        confirm(ana, game["version"])
        version = int(ana.locator("#game").get_attribute("data-version"))  # the version after her move
    return seen


@pytest.fixture()
def players(live_server, chromium):
    """Ana in the browser at 1280x800 with "Confirm my moves" on, and Bo, who plays through REST."""
    ana = sign_in(chromium, live_server, "Ana", width=1280, height=800)
    api(ana, live_server, "POST", "/api/account/settings", {"confirm_moves": True})
    context = chromium.new_context()
    context.set_default_timeout(10_000)
    bo = context.new_page()
    api(bo, live_server, "POST", "/api/auth/guest", {"name": "Bo"})
    return ana, bo


def test_through_the_desert_previews_every_move(live_server, live_server_workdir, players):
    ana, bo = players
    base = live_server
    options = {"first_player": "host", "palm_placement": "choose", "piles": "zman"}

    def by_click(page, move):
        if move["type"] not in ("leader", "camel"):
            return False
        page.click(f'#board [data-colour="{move["colour"]}"]')
        page.click(f'#board .legal[data-hex="{move["hex"][0]},{move["hex"][1]}"]')
        return True

    seen = play_line([ana, bo], base, live_server_workdir / "e2e.db",
                     lambda: started(ana, bo, base, "through-the-desert", options), "through-the-desert", options,
                     {"palm", "leader", "camel"}, by_click=by_click)
    assert set(seen) == {"palm", "leader", "camel"}, seen
    assert re.fullmatch(r"Place the (pink|green|yellow|purple|turquoise) leader on [A-N]\d+\.", seen["leader"]), seen
    assert re.fullmatch(r"Place a (pink|green|yellow|purple|turquoise) camel on [A-N]\d+\.", seen["camel"]), seen
    assert re.fullmatch(r"Plant a palm tree on [A-N]\d+\.", seen["palm"]), seen


def test_through_the_desert_previews_the_leader_given_back(live_server, live_server_workdir, chromium, players):
    """With five players a leader is given back first (option "choose"): that move is previewed too."""
    ana, bo = players
    base = live_server
    others = [guest_page(chromium, base, name) for name in ("Cy", "Dee", "Eli")]
    options = {"first_player": "host", "leader_return": "choose"}

    def start() -> str:
        table_id = api(ana, base, "POST", "/api/tables", {"ruleset": "through-the-desert", "seats": 5, "options": options})["id"]
        for page in [bo, *others]:
            api(page, base, "POST", f"/api/tables/{table_id}/join", {})
        api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
        return str(table_id)

    seen = play_line([ana, bo, *others], base, live_server_workdir / "e2e.db", start, "through-the-desert",
                     options, {"return_leader"})
    assert re.fullmatch(r"Return the (pink|green|yellow|purple|turquoise) leader\.", seen["return_leader"]), seen


def test_nomadi_previews_every_move(live_server, live_server_workdir, players):
    ana, bo = players
    base = live_server
    options = {"first_player": "host", "card_placement": "players", "trading": True, "voluntary_pass": True}

    def by_click(page, move):
        if move["type"] == "roll":
            page.click('#board [data-action="roll"]')
            return True
        if move["type"] == "move":
            page.click(f'#board [data-stone="{move["stone"][0]},{move["stone"][1]}"]')
            page.click(f'#board .targets [data-target="{move["to"][0]},{move["to"][1]}"]')
            chooser = page.locator(f'#board [data-choose-die="{move["die"]}"]')
            if chooser.count():
                chooser.click()
            return True
        return False

    wanted = {"place_card", "place", "roll", "move", "end_turn", "offer", "accept", "decline", "gift"}
    seen = play_line([ana, bo], base, live_server_workdir / "e2e.db", lambda: started(ana, bo, base, "nomadi", options),
                     "nomadi", options, wanted,
                     rare=("accept", "offer", "decline"), by_click=by_click)
    assert set(seen) == wanted, seen
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
    prompt = re.compile(r"Place card \d+, turned \d+°, its top-left space at row (\d+), column (\d+)")
    expect(ana.locator("#nim-prompt")).to_contain_text(prompt)
    # the row and column are the drawn grid's, from 1 at its top left (the rules' own start at the
    # first card and run negative): the clicked space is there
    row, col = map(int, prompt.search(ana.locator("#nim-prompt").inner_text()).groups())
    grid = ana.locator(".nim-reserve.mine .nim-grid")
    columns = int(grid.get_attribute("data-cols"))
    cells = grid.locator("[data-cell]").evaluate_all("cells => cells.map(cell => cell.dataset.cell)")
    assert cells[(row - 1) * columns + (col - 1)] == f'{move["at"][0]},{move["at"][1]}', (row, col, move["at"])
    ana.click('#board [data-action="confirm"]')
    expect(ana.locator("#board [data-preview]")).to_have_count(0)


HEROES_TYPES = {kind.model_fields["type"].default for kind in typing.get_args(typing.get_args(heroes_moves.Move)[0])}
"""Every type of Heroes move (app/rulesets/heroes/moves.py); the three tables below reach them all."""
HEROES_TABLES = {
    # Wandering Nomads are placed on the map; "pass" comes when no action is left (never in the
    # full edition, where Research always is); the battles' moves come here, the full edition's
    # own moves (spells, vessels, the Mercenary) at the second table
    "core, wandering": (2, {"first_player": "host", "nomads": "wandering", "round_limit": 30, "edition": "core"},
                        {"place_nomad", "recruit", "build", "tax", "march", "pass", "skip", "tactic", "conscript",
                         "casualties"}, ("pass", "casualties", "conscript")),
    "full, mercenary": (2, {"first_player": "host", "nomads": "mercenary", "round_limit": 30, "edition": "full"},
                        {"recruit", "build", "tax", "march", "fire_mercenary", "research", "scribe", "discard_spell",
                         "cast", "interrupt", "combat_spell", "sail", "fly"}, ("fly", "interrupt", "combat_spell")),
    # the Nomad the player moves is the solo game's (Nomads solo rules, NS-4)
    "solo": (1, {"edition": "core"}, {"move_nomad"}, ()),
}


def test_heroes_tables_cover_every_move_type():
    assert set().union(*(wanted for _, _, wanted, _ in HEROES_TABLES.values())) == HEROES_TYPES


@pytest.mark.timeout(900)  # a loaded machine: the search and some two hundred moves through the server
@pytest.mark.parametrize("table", sorted(HEROES_TABLES))
def test_heroes_previews_every_move(live_server, live_server_workdir, players, table):
    ana, bo = players
    base = live_server
    seats, options, wanted, rare = HEROES_TABLES[table]

    def start() -> str:
        table_id = api(ana, base, "POST", "/api/tables", {"ruleset": "heroes", "seats": seats, "options": options})["id"]
        if seats == 2:
            api(bo, base, "POST", f"/api/tables/{table_id}/join", {})
        api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
        return str(table_id)

    seen = play_line([ana, bo][:seats], base, live_server_workdir / "e2e.db", start, "heroes", options, wanted, rare)
    assert set(seen) == wanted, seen
    assert all(not sentence.startswith("Play ") for sentence in seen.values()), seen


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
    # Bo places: the button goes, with no note (another player's move is plain to see)
    game = server_game(bo, base, table_id)
    rest_move(bo, base, table_id, game["version"], game["legal"][0])
    wait_for_version([ana], game["version"] + 1)
    expect(ana.locator("#undo-move")).to_have_count(0)
    expect(ana.locator("#undo-gone")).to_have_count(0)
    # to Ana's roll: a roll shows dice, so it cannot be taken back; no Undo was offered before it,
    # and a roll is final by nature: the bar says nothing
    for _ in range(40):
        games = [server_game(ana, base, table_id), server_game(bo, base, table_id)]
        if any(move["type"] == "roll" for move in games[0]["legal"]):
            break
        page, game = next((page, game) for page, game in zip((ana, bo), games) if game["legal"])
        rest_move(page, base, table_id, game["version"], game["legal"][0])
    wait_for_version([ana], games[0]["version"])
    ana.click('#board [data-action="roll"]')
    wait_for_version([ana], games[0]["version"] + 1)
    expect(ana.locator("#undo-move")).to_have_count(0)
    expect(ana.locator("#undo-gone")).to_have_count(0)


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
    # Cy's list stays as it is (the lobby reads it again every 3 s, which could take the button away
    # before the click): the last seat goes while Cy's list is open
    listed = cy.request.get(f"{base}/api/tables")
    cy.route(f"{base}/api/tables", lambda route: route.fulfill(response=listed))
    api(bo, base, "POST", f"/api/tables/{table_id}/join", {})
    join.click()
    expect(cy.locator("#tables-message")).to_contain_text(re.compile(r"failed: \S"))
    cy.unroute(f"{base}/api/tables")
    api(ana, base, "POST", f"/api/tables/{table_id}/start", {})
    cy.goto(f"{base}/tables/{table_id}")  # a spectator: this table's chat is for its players
    expect(cy.locator("#chat-note")).to_be_visible()
    assert cy.locator("#chat-note").inner_text().strip(), "the chat says nothing about why Cy cannot write"
    expect(cy.locator("#chat-input")).to_be_disabled()

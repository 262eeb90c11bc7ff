"""Replays, the last move highlighted, and a move made by keyboard alone, for every game, in real
Chromium.

Two players play a few random legal moves through REST; then Alice's table page:
(b) highlights what the last move touched and the newest log entry;
(c) makes one move with the keyboard only (Tab to reach, Enter or Space to activate, no mouse):
    the server is one version further and holds exactly that move, which is now highlighted;
(a) opens the replay, steps with the arrow keys to a middle version and draws exactly what
    GET /api/games/{id}/replay?version=n answers; the address carries ?version=n and a reload
    lands there again; a live move meanwhile does not move the replay; "Back to live" shows the
    latest version.
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from tests.e2e.pages import sign_in, wait_for_version

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

MAX_SETUP_MOVES = 300
MAX_TABS = 400


# -- REST helpers -------------------------------------------------------------------------------


def game_as(request, base: str, table_id: str) -> dict:
    answer = request.get(f"{base}/api/games/{table_id}")
    assert answer.ok, answer.text()
    return answer.json()


def replay_at(request, base: str, table_id: str, version: int) -> dict:
    answer = request.get(f"{base}/api/games/{table_id}/replay?version={version}")
    assert answer.ok, answer.text()
    return answer.json()


def post_move(request, base: str, table_id: str, version: int, move: dict) -> None:
    answer = request.post(f"{base}/api/games/{table_id}/moves", data={"id": str(uuid.uuid4()), "version": version, "move": move})
    assert answer.ok, answer.text()


def random_move(players, base: str, table_id: str, rng: random.Random, only_seat: int | None = None) -> int:
    """One random legal move by a seat that may move (``only_seat``: that seat); the new version."""
    for seat, request in enumerate(players):
        if only_seat is not None and seat != only_seat:
            continue
        game = game_as(request, base, table_id)
        if game["legal"]:
            post_move(request, base, table_id, game["version"], rng.choice(game["legal"]))
            return game["version"] + 1
    raise AssertionError("nobody may move")


def open_two_player_table(chromium, base: str, ruleset: str, options: dict):
    """Alice (a page, seat 0) and Bob (a browser context used for REST only, seat 1) at a started table."""
    alice = sign_in(chromium, base, "Alice", height=1000)
    bob_context = chromium.new_context()
    bob = bob_context.request
    assert bob.post(f"{base}/api/auth/guest", data={"name": "Bob"}).ok
    created = alice.request.post(f"{base}/api/tables", data={"ruleset": ruleset, "seats": 2, "options": options, "private": False})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    assert bob.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    started = alice.request.post(f"{base}/api/tables/{table_id}/start", data={})
    assert started.ok, started.text()
    return alice, bob_context, table_id


# -- keyboard helpers ---------------------------------------------------------------------------


def focused_matches(page, selector: str) -> bool:
    return page.evaluate("selector => Boolean(document.activeElement && document.activeElement.matches(selector))", selector)


def tab_to(page, selector: str, backwards: bool = False) -> dict:
    """Press Tab (Shift+Tab) until the focused element matches ``selector``; its data attributes."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        if focused_matches(page, selector):
            return page.evaluate("() => ({...document.activeElement.dataset})")
    raise AssertionError(f"Tab never reached {selector}")


def focus_outline_visible(page) -> bool:
    """The focused element shows a focus cue: an outline, or the focus blue on (a part of) an SVG piece."""
    return page.evaluate(
        """() => {
            const element = document.activeElement;
            const style = getComputedStyle(element);
            if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
            return [element, ...element.querySelectorAll('*')].some(part => getComputedStyle(part).stroke === 'rgb(42, 127, 255)');
        }"""
    )


# -- per game: the setup, one keyboard move, and what the boards must show ----------------------


def cell(pair) -> str:
    return f"{pair[0]},{pair[1]}"


class ThroughTheDesert:
    ruleset = "through-the-desert"
    options: dict = {}

    @staticmethod
    def ready(alice_game: dict) -> bool:
        return alice_game["version"] >= 5 and bool(alice_game["legal"])

    @staticmethod
    def keyboard_move(page, game: dict) -> dict:
        colour = tab_to(page, ".colour-buttons [data-colour]:not([disabled])")["colour"]
        page.keyboard.press("Enter")
        expect(page.locator(f'[data-colour="{colour}"]')).to_have_attribute("aria-pressed", "true")
        assert focused_matches(page, f'[data-colour="{colour}"]'), "the focus stays on the chosen colour"
        hexagon = tab_to(page, "#board [data-hex].legal")["hex"]
        assert focus_outline_visible(page)
        page.keyboard.press("Space")
        return {"colour": colour, "hex": [int(part) for part in hexagon.split(",")]}

    @staticmethod
    def check_move_on_server(before: dict, after: dict, move: dict) -> None:
        legal = [{"colour": m["colour"], "hex": m["hex"]} for m in before["legal"] if "colour" in m]
        assert move in legal
        camels = [c for c in after["view"]["camels"] if c["hex"] == move["hex"]]
        assert len(camels) == 1 and camels[0]["colour"] == move["colour"] and camels[0]["seat"] == 0

    @staticmethod
    def check_highlight(page, move: dict) -> None:
        expect(page.locator(f'#board .camels [data-camel="{cell(move["hex"])}"]')).to_have_class(re.compile(r"\blast-move\b"))
        expect(page.locator("#board .camels .last-move")).to_have_count(1)

    @staticmethod
    def check_board(page, board: str, view: dict) -> None:
        camels = page.locator(f"{board} .camels [data-camel]")
        expect(camels).to_have_count(len(view["camels"]))
        drawn = sorted(camels.evaluate_all("els => els.map(e => `${e.dataset.camel}/${e.dataset.seat}/${e.dataset.caravan}`)"))
        assert drawn == sorted(f"{cell(c['hex'])}/{c['seat']}/{c['colour']}" for c in view["camels"])
        expect(page.locator(f"{board} .features .well")).to_have_count(len(view["wells"]))


class Nimalia:
    ruleset = "nimalia"
    options: dict = {}

    @staticmethod
    def ready(alice_game: dict) -> bool:
        # Bob has chosen his card of this step, Alice not yet: the page shows Bob's face-down pick
        players = alice_game["view"]["players"]
        return alice_game["version"] >= 5 and players[1]["chosen"] and not players[0]["chosen"]

    @staticmethod
    def keyboard_move(page, game: dict) -> dict:
        card = tab_to(page, ".nim-hand [data-hand-card]:not([disabled])")["handCard"]
        page.keyboard.press("Enter")
        expect(page.locator(f'[data-hand-card="{card}"]')).to_have_attribute("aria-pressed", "true")
        assert focused_matches(page, f'[data-hand-card="{card}"]')
        anchor = tab_to(page, ".nim-mine [data-anchor]")["anchor"]
        assert focus_outline_visible(page)
        page.keyboard.press("Enter")  # preview there
        expect(page.locator(".nim-mine .nim-cell.preview")).to_have_count(4)
        assert focused_matches(page, f'.nim-mine [data-anchor="{anchor}"]'), "the focus stays on the previewed space"
        page.keyboard.press("Enter")  # and place
        return {"type": "place", "card": card, "rotation": 0, "at": [int(part) for part in anchor.split(",")]}

    @staticmethod
    def check_move_on_server(before: dict, after: dict, move: dict) -> None:
        assert move in before["legal"]
        placed = after["view"]["players"][0]["cards"][-1]  # both have chosen: the cards are revealed
        assert (placed["card"], placed["rotation"], placed["at"]) == (move["card"], move["rotation"], move["at"])

    @staticmethod
    def check_highlight(page, move: dict) -> None:
        row, col = move["at"]
        footprint = [f"{r},{c}" for r, c in ((row, col), (row, col + 1), (row + 1, col), (row + 1, col + 1))]
        for position in footprint:
            expect(page.locator(f'#board [data-reserve="0"] [data-cell="{position}"]')).to_have_class(re.compile(r"\blast-move\b"))
        expect(page.locator('#board [data-reserve="0"] .nim-cell.last-move')).to_have_count(4)
        expect(page.locator('#board [data-reserve="1"] .nim-cell.last-move')).to_have_count(4)  # Bob's card, revealed too

    @staticmethod
    def check_board(page, board: str, view: dict) -> None:
        for player in view["players"]:
            cells = page.locator(f'{board} [data-reserve="{player["seat"]}"] .nim-cell:not(.empty)')
            expect(cells).to_have_count(len(player["spaces"]))
            drawn = sorted(cells.evaluate_all("els => els.map(e => `${e.dataset.cell}/${e.dataset.animal}`)"))
            assert drawn == sorted(f"{cell(s['at'])}/{s['animal']}" for s in player["spaces"])
            if board == "#replay-board":  # a spectator's board: every reserve, each saying whether its player has chosen
                expect(page.locator(f'{board} .nim-reserve[data-player-seat="{player["seat"]}"]')).to_have_attribute(
                    "data-chosen", "true" if player["chosen"] else "false")
        expect(page.locator(f"{board} .nim-status")).to_have_attribute("data-round", str(view["round"]))
        expect(page.locator(f"{board} .nim-status")).to_have_attribute("data-step", str(view["step"]))


class Nomadi:
    ruleset = "nomadi"
    options = {"first_player": "host", "turn_limit": 40}

    @staticmethod
    def ready(alice_game: dict) -> bool:
        return alice_game["view"]["phase"] == "move" and any(m["type"] == "move" for m in alice_game["legal"])

    @staticmethod
    def keyboard_move(page, game: dict) -> dict:
        # a stone and a destination that only one die reaches (no "which die?" question)
        moves = [m for m in game["legal"] if m["type"] == "move"]
        single = [m for m in moves if sum(o["stone"] == m["stone"] and o["to"] == m["to"] for o in moves) == 1]
        chosen = single[0]
        stone, target = cell(chosen["stone"]), cell(chosen["to"])
        tab_to(page, f'#board .stone.movable[data-stone="{stone}"]')
        assert focus_outline_visible(page)
        page.keyboard.press("Enter")
        expect(page.locator(f'#board [data-stone="{stone}"]')).to_have_attribute("aria-pressed", "true")
        assert focused_matches(page, f'#board [data-stone="{stone}"]'), "the focus stays on the chosen stone"
        tab_to(page, f'#board [data-target="{target}"].legal')
        page.keyboard.press("Enter")
        return chosen

    @staticmethod
    def check_move_on_server(before: dict, after: dict, move: dict) -> None:
        assert move in before["legal"]
        last = after["view"]["moved"][-1]
        assert (last["from"], last["to"], last["die"]) == (move["stone"], move["to"], move["die"])

    @staticmethod
    def check_highlight(page, move: dict) -> None:
        expect(page.locator(f'#board .stones [data-stone="{cell(move["to"])}"]')).to_have_class(re.compile(r"\blast-move\b"))
        expect(page.locator("#board .stones .last-move")).to_have_count(1)
        used = page.locator("#board .nomadi-dice .die.last-move")
        expect(used).to_have_count(1)
        expect(used).to_have_attribute("data-die-value", str(move["die"]))

    @staticmethod
    def check_board(page, board: str, view: dict) -> None:
        stones = page.locator(f"{board} .stones [data-stone]")
        expect(stones).to_have_count(len([s for s in view["stones"] if s["cell"]]))
        drawn = sorted(stones.evaluate_all("els => els.map(e => `${e.dataset.stone}/${e.dataset.owner}`)"))
        assert drawn == sorted(f"{cell(s['cell'])}/{s['owner']}" for s in view["stones"] if s["cell"])
        expect(page.locator(f"{board} .cards [data-card]")).to_have_count(len(view["cards"]))
        expect(page.locator(f"{board} .nomadi-dice [data-die-value]")).to_have_count(len(view["dice"]))


class Heroes:
    ruleset = "heroes"
    options = {"first_player": "host", "round_limit": 4}

    @staticmethod
    def ready(alice_game: dict) -> bool:
        # Alice's own turn with the Tax slot open: Tab to "Tax", Enter, Tab to a resource, Enter;
        # and a last move that touched the board (a round's collection or a spell drawn touches
        # nothing a freshly loaded page can mark: it has no earlier view to compare resources with)
        last = alice_game["view"]["last"] or {}
        touched = bool(last.get("regions") or last.get("slots") or last.get("battle")
                       or (last.get("move") or {}).get("type") in ("recruit", "build", "tax", "march"))
        return alice_game["version"] >= 5 and touched and any(
            m["type"] == "tax" and m["worker"] == "token" for m in alice_game["legal"])

    @staticmethod
    def keyboard_move(page, game: dict) -> dict:
        tab_to(page, '#board [data-action-slot="tax"]')
        assert focus_outline_visible(page)
        page.keyboard.press("Enter")
        expect(page.locator('#board [data-action-slot="tax"]')).to_have_attribute("aria-pressed", "true")
        assert focused_matches(page, '#board [data-action-slot="tax"]'), "the focus stays on the chosen action"
        resource = tab_to(page, "#board .hx-controls [data-choice][data-move]")["choice"]
        page.keyboard.press("Enter")
        return {"type": "tax", "resource": resource, "worker": "token"}

    @staticmethod
    def check_move_on_server(before: dict, after: dict, move: dict) -> None:
        assert move in before["legal"]
        assert after["view"]["players"][0]["bar"]["tax"] == "token"

    @staticmethod
    def check_highlight(page, move: dict) -> None:
        slot = page.locator('#board .hx-player[data-player-seat="0"] [data-slot="tax"]')
        expect(slot).to_have_class(re.compile(r"\blast-move\b"))
        expect(page.locator('#board .hx-player[data-player-seat="0"] [data-resource="{}"]'.format(move["resource"]))).to_have_class(re.compile(r"\blast-move\b"))

    @staticmethod
    def check_board(page, board: str, view: dict) -> None:
        drawn = sorted(page.locator(f"{board} .hx-map [data-units-seat]").evaluate_all(
            "els => els.map(e => `${e.closest('[data-region]').dataset.region}/${e.dataset.unitsSeat}/${e.dataset.units}`)"))
        expected = sorted(
            f"{region}/{seat}/{units.get('serf', 0)},{units.get('warrior', 0)},{units.get('hero', 0)},{units.get('mercenary', 0)}"
            for region, entry in view["regions"].items()
            for seat, units in entry["units"].items()
            if sum(units.values())
        )
        assert drawn == expected
        nomads = sorted(region for region, entry in view["regions"].items() if entry["nomad"])
        assert sorted(page.locator(f'{board} .hx-map [data-region][data-nomad="true"]').evaluate_all("els => els.map(e => e.dataset.region)")) == nomads
        for seat, player in enumerate(view["players"]):
            bar = page.locator(f'{board} .hx-player[data-player-seat="{seat}"] [data-slot]')
            assert bar.evaluate_all("els => els.map(e => e.dataset.fill)") == [
                player["bar"][slot] or "open" for slot in ("recruit", "build", "research", "tax", "march_1", "march_2", "sail", "fly", "cast")]


GAMES = {"through-the-desert": ThroughTheDesert, "nimalia": Nimalia, "nomadi": Nomadi, "heroes": Heroes}


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_last_move_and_keyboard_play(live_server, chromium, name):
    game_kind = GAMES[name]
    base = live_server
    rng = random.Random(10)
    alice, bob_context, table_id = open_two_player_table(chromium, base, game_kind.ruleset, game_kind.options)
    bob = bob_context.request
    players = [alice.request, bob]

    # A few random legal moves through REST, until Alice is to move in the situation we want.
    for _ in range(MAX_SETUP_MOVES):
        if game_kind.ready(game_as(alice.request, base, table_id)):
            break
        seat = 1 if name == "nimalia" and not game_as(bob, base, table_id)["view"]["players"][1]["chosen"] else None
        random_move(players, base, table_id, rng, only_seat=seat)
    else:
        raise AssertionError("the setup never reached Alice's move")
    version = game_as(alice.request, base, table_id)["version"]

    alice.goto(f"{base}/tables/{table_id}")
    wait_for_version([alice], version)
    expect(alice.locator("body")).to_have_attribute("data-connection", "live")
    expect(alice.locator("#board")).to_have_attribute("data-version", str(version))

    # (b) Straight after loading: what the last move touched and its log entries are highlighted.
    expect(alice.locator("#board .last-move").first).to_be_attached()
    log = game_as(alice.request, base, table_id)["log"]
    newest = [entry["text"] for entry in log if entry["version"] == log[-1]["version"]]
    expect(alice.locator("#log li.last-move")).to_have_text(newest)
    expect(alice.locator("#log li").last).to_have_class(re.compile(r"\blast-move\b"))

    # (c) One move by keyboard alone; the server has exactly that move.
    before = game_as(alice.request, base, table_id)
    move = game_kind.keyboard_move(alice, before)
    wait_for_version([alice], version + 1)
    after = game_as(alice.request, base, table_id)
    assert after["version"] == version + 1
    game_kind.check_move_on_server(before, after, move)
    game_kind.check_highlight(alice, move)
    expect(alice.locator("#log li.last-move").last).to_have_attribute("data-version", str(version + 1))
    expect(alice.locator(f'#log li.last-move:not([data-version="{version + 1}"])')).to_have_count(0)
    latest = version + 1

    # (a) The replay: open it, step with the arrow keys to a middle version.
    middle = latest // 2
    alice.click("#replay-open")
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {latest} of {latest}")
    expect(alice.locator("#replay-board")).to_have_attribute("data-version", str(latest))
    expect(alice.locator("#board")).to_be_hidden()
    alice.keyboard.press("ArrowLeft")  # the focus is on the slider, which steps itself
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {latest - 1} of {latest}")
    alice.evaluate("document.activeElement.blur()")  # from now on the page's own keys
    for _ in range(latest - 1 - (middle - 1)):
        alice.keyboard.press("ArrowLeft")
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {middle - 1} of {latest}")
    alice.keyboard.press("ArrowRight")
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {middle} of {latest}")
    expect(alice.locator("#replay-board")).to_have_attribute("data-version", str(middle))
    assert alice.url.endswith(f"/tables/{table_id}?version={middle}")

    spectator_view = replay_at(alice.request, base, table_id, middle)["view"]
    game_kind.check_board(alice, "#replay-board", spectator_view)
    # read-only: no move controls, nothing to press on the board, no hand
    expect(alice.locator("#replay-board .move-controls, #replay-board [role=button], #replay-board button")).to_have_count(0)
    expect(alice.locator("#log li.last-move")).to_have_text([e["text"] for e in log if e["version"] == middle])
    expect(alice.locator("#log li.log-future")).to_have_count(len([e for e in after["log"] if e["version"] > middle]))

    # Live moves keep arriving, but the replay stays where it is.
    live = random_move(players, base, table_id, rng)
    wait_for_version([alice], live)
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {middle} of {live}")
    expect(alice.locator("#replay-board")).to_have_attribute("data-version", str(middle))

    # The address is shareable: a reload opens the replay at the same move.
    alice.reload()
    expect(alice.locator("#replay-label")).to_have_text(f"Replay: move {middle} of {live}")
    expect(alice.locator("#replay-board")).to_have_attribute("data-version", str(middle))
    game_kind.check_board(alice, "#replay-board", spectator_view)

    # Back to live: the latest position, and the address forgets the replay.
    alice.click("#replay-live")
    expect(alice.locator("#replay-board")).to_be_hidden()
    expect(alice.locator("#board")).to_have_attribute("data-version", str(live))
    assert alice.url.endswith(f"/tables/{table_id}")
    latest_view = replay_at(alice.request, base, table_id, live)["view"]
    if name != "nimalia":  # Nimalia's live board is Alice's own view (her hand and waiting choice)
        game_kind.check_board(alice, "#board", latest_view)
    else:
        expect(alice.locator("#board .nim-status")).to_have_attribute("data-step", str(latest_view["step"]))
    alice.context.close()
    bob_context.close()

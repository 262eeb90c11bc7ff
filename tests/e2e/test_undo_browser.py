"""Confirm and undo in real Chromium, on a two-player Nomadi table: placing a
stone may be taken back (Spec R-10), rolling the dice may not (R-13).

Alice turns "Confirm my moves" on (off by default on a desktop), cancels a held move, confirms
one, takes it back with Undo, and finds Undo gone, and refused by the server, once Bob has placed
and after her roll.  Bob's phone-sized touch screen has the setting on by default.  The setting is
the account's: a second browser of Alice's (her session cookie in a fresh context, with storage of
its own) shows what she chose in the first, against that device's own default.  A choice the
account could not take stays in that browser and is sent again when the page loads next.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest

from tests.e2e.pages import create_join_and_start, server_game, sign_in, version_of, wait_for_version

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def undo_by_rest(page, base: str, table_id: str) -> tuple[int, str]:
    """POST /api/games/{id}/undo as the page's user: ``(status, error code or "")``."""
    game = server_game(page, base, table_id)
    answer = page.request.post(f"{base}/api/games/{table_id}/undo",
                               data={"id": str(uuid.uuid4()), "version": game["version"]})
    return answer.status, (answer.json().get("error") or {}).get("code", "") if not answer.ok else ""


def move_by_rest(page, base: str, table_id: str, move: dict) -> None:
    game = server_game(page, base, table_id)
    answer = page.request.post(f"{base}/api/games/{table_id}/moves",
                               data={"id": str(uuid.uuid4()), "version": game["version"], "move": move})
    assert answer.ok, answer.text()


def same_account(chromium, page, width: int = 1280, height: int = 900, touch: bool = False, **context_options):
    """A second browser of ``page``'s account: a fresh context (its own local storage) given the
    same session cookie, on no page yet."""
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=touch, **context_options)
    context.set_default_timeout(10_000)
    context.add_cookies(page.context.cookies())
    return context.new_page()


def confirm_setting_of(page, base: str):
    """The account's ``confirm_moves`` (``GET /api/auth/me`` as the page's user)."""
    return page.request.get(f"{base}/api/auth/me").json()["confirm_moves"]


def test_confirm_cancel_undo_and_refusals(live_server, chromium):
    base = live_server
    alice = sign_in(chromium, base, "Alice", height=1000)
    bob = sign_in(chromium, base, "Bob", width=390, height=844, touch=True, is_mobile=True)
    alice.select_option("#ruleset", "nomadi")
    alice.select_option("#seats", "2")
    alice.click("#options-fieldset summary")
    alice.select_option('[data-option="first_player"]', label="Host")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = alice.url.rsplit("/", 1)[1]
    bob.goto(f"{base}/tables/{table_id}")
    bob.locator('[data-action="join"]').tap()
    alice.locator('[data-action="start"]').click()
    wait_for_version([alice, bob], 0)

    expect(bob.locator("#confirm-moves")).to_be_checked()  # a touch screen: on by default
    setting = alice.locator("#confirm-moves")
    expect(setting).not_to_be_checked()
    setting.check()
    expect(setting).to_have_attribute("data-saved", "account")
    assert confirm_setting_of(alice, base) is True

    # Alice's other computer (a desktop too, so off by default) has the account's choice: on.
    desk = same_account(chromium, alice)
    desk.goto(f"{base}/tables/{table_id}")
    expect(desk.locator("#confirm-moves")).to_be_checked()
    expect(desk.locator("#confirm-moves")).to_have_attribute("data-saved", "account")
    desk.context.close()

    # A held move: nothing is sent until Confirm; Cancel drops it.
    target = alice.locator(".nomadi-board [data-target].legal").first
    cell = target.get_attribute("data-target")
    target.click()
    expect(alice.locator("#move-bar")).to_have_attribute("data-state", "confirming")
    alice.click("#cancel-move")
    expect(alice.locator("#move-bar")).to_have_attribute("data-state", "idle")
    assert version_of(alice) == 0 and server_game(alice, base, table_id)["version"] == 0
    alice.click(f'.nomadi-board [data-target="{cell}"]')
    alice.click("#confirm-move")
    wait_for_version([alice, bob], 1)
    expect(alice.locator(f'.nomadi-board [data-stone="{cell}"]')).to_have_count(1)

    # Undo: the stone goes back, Alice places again; Bob never had an Undo of hers.
    expect(bob.locator("#undo-move")).to_have_count(0)
    alice.click("#undo-move")
    wait_for_version([alice, bob], 2)
    expect(alice.locator(f'.nomadi-board [data-stone="{cell}"]')).to_have_count(0)
    expect(alice.locator("body")).to_have_attribute("data-my-turn", "true")
    expect(alice.locator("#log li").last).to_have_text("Alice takes back their last move")
    expect(alice.locator("#undo-move")).to_have_count(0)
    expect(alice.locator("#undo-gone")).to_have_count(0)  # her own take-back: nothing to explain
    alice.click(f'.nomadi-board [data-target="{cell}"]')
    alice.click("#confirm-move")
    wait_for_version([alice, bob], 3)
    expect(alice.locator("#undo-move")).to_be_visible()

    # Bob places: Alice's stone can no longer be taken back. His move reaches her page while she
    # is pressing "Confirm my moves": the bar is drawn again (Undo gives way to why it is gone) and
    # her click still turns the setting off.
    box = setting.bounding_box()
    alice.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    alice.mouse.down()
    move_by_rest(bob, base, table_id, server_game(bob, base, table_id)["legal"][0])
    wait_for_version([alice, bob], 4)
    expect(alice.locator("#undo-move")).to_have_count(0)
    alice.mouse.up()
    expect(setting).not_to_be_checked()
    expect(setting).to_have_attribute("data-saved", "account")
    setting.check()
    expect(setting).to_have_attribute("data-saved", "account")
    assert undo_by_rest(alice, base, table_id) == (409, "not_reversible")

    # The rest of the placement by REST, then Alice rolls: a roll is never taken back.
    for _ in range(100):
        games = [server_game(page, base, table_id) for page in (alice, bob)]
        if games[0]["view"]["phase"] == "roll":
            break
        page, game = next((page, game) for page, game in zip((alice, bob), games) if game["legal"])
        move_by_rest(page, base, table_id, game["legal"][0])
    rolled = server_game(alice, base, table_id)["version"] + 1
    setting.uncheck()  # straight from the board again
    expect(setting).to_have_attribute("data-saved", "account")
    wait_for_version([alice], rolled - 1)
    alice.click('[data-action="roll"]')
    wait_for_version([alice], rolled)
    expect(alice.locator("#move-bar")).to_have_attribute("data-state", "idle")
    expect(alice.locator("#undo-move")).to_have_count(0)
    assert undo_by_rest(alice, base, table_id) == (409, "not_reversible")
    assert server_game(alice, base, table_id)["version"] == rolled

    # Alice's phone (on by default there) follows the account: off.
    phone = same_account(chromium, alice, width=390, height=844, touch=True, is_mobile=True)
    phone.goto(f"{base}/tables/{table_id}")
    expect(phone.locator("#confirm-moves")).not_to_be_checked()
    expect(bob.locator("#confirm-moves")).to_be_checked()  # Bob's own account never chose: his phone's default
    phone.context.close()


def test_a_choice_the_account_did_not_take_stays_in_this_browser_and_is_sent_again(live_server, chromium):
    base = live_server
    cora = sign_in(chromium, base, "Cora", height=1000)
    table_id = create_join_and_start(cora, [], "heroes")
    setting = cora.locator("#confirm-moves")
    expect(setting).not_to_be_checked()
    expect(setting).to_have_attribute("data-saved", "device")
    cora.route("**/api/account/settings", lambda route: route.abort())
    setting.check()
    expect(setting).to_have_attribute("data-saved", "unsaved")
    assert confirm_setting_of(cora, base) is None
    cora.reload()  # the account still says null, and the request still fails: this browser's choice holds
    expect(setting).to_be_checked()
    expect(setting).to_have_attribute("data-saved", "unsaved")
    cora.unroute("**/api/account/settings")
    cora.reload()  # sent again, and taken
    expect(setting).to_have_attribute("data-saved", "account")
    expect(setting).to_be_checked()
    assert confirm_setting_of(cora, base) is True
    # Off while the account cannot be reached: this browser's newer choice beats the account's older one.
    cora.route("**/api/account/settings", lambda route: route.abort())
    setting.uncheck()
    expect(setting).to_have_attribute("data-saved", "unsaved")
    cora.reload()
    expect(setting).to_have_attribute("data-saved", "unsaved")
    expect(setting).not_to_be_checked()
    assert confirm_setting_of(cora, base) is True
    cora.unroute("**/api/account/settings")
    cora.reload()
    expect(setting).to_have_attribute("data-saved", "account")
    expect(setting).not_to_be_checked()
    assert confirm_setting_of(cora, base) is False
    assert server_game(cora, base, table_id)["status"] == "running"


# the tops, in the page, of the board's area (the game's prompt, dice and board, under the move
# bar) and of the board itself
TOPS = "['#board', '#board .game-board'].map(s => document.querySelector(s).getBoundingClientRect().top + window.scrollY)"
SCREENS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844, "touch": True, "is_mobile": True, "device_scale_factor": 2},
}


def hide_undo_when_asked(page) -> dict:
    """Route ``page``'s game socket through the test: while ``switch["on"]``, a state frame that
    offers Undo arrives saying it may not (as for a move that showed something new). The switch."""
    switch = {"on": False}

    def between(ws):
        server = ws.connect_to_server()

        def from_server(message):
            frame = json.loads(message) if isinstance(message, str) else None
            if switch["on"] and frame and frame.get("type") == "state" and frame.get("undo"):
                frame["undo"] = False
                message = json.dumps(frame)
            ws.send(message)

        ws.on_message(lambda message: server.send(message))
        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), between)
    return switch


def use_a_die_by_clicking(page, base: str, table_id: str) -> None:
    """Click the first movable stone the server lists, then its first target."""
    before = version_of(page)
    move = next(move for move in server_game(page, base, table_id)["legal"] if move["type"] == "move")
    stone = page.locator(f'.nomadi-board [data-stone="{move["stone"][0]},{move["stone"][1]}"]')
    if stone.get_attribute("aria-pressed") != "true":
        stone.click()
    page.click(f'.nomadi-board [data-target="{move["to"][0]},{move["to"][1]}"]')
    wait_for_version([page], before + 1)


@pytest.mark.parametrize("screen", SCREENS)
def test_undo_notice_only_after_my_own_move_took_undo_away_and_the_board_never_moves(live_server, chromium, screen):
    """No note at the start of a turn (another player acted: plain to see) nor after a roll (a roll
    shows dice: it is final by nature); a short note, in Undo's place, when a move of mine took away
    the Undo offered before it. The move bar never pushes the board's area down, on a desktop and a
    phone; on a desktop, where the prompt and the dice stand beside the board, the board stays put."""
    base = live_server
    ana = sign_in(chromium, base, "Ana", **SCREENS[screen])
    bo = sign_in(chromium, base, "Bo")
    options = {"first_player": "host", "card_placement": "random"}
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "nomadi", "seats": 2, "options": options}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    switch = hide_undo_when_asked(ana)
    ana.goto(f"{base}/tables/{table_id}")
    expect(ana.locator("body")).to_have_attribute("data-connection", "live")
    ana.locator("#confirm-moves").uncheck()  # moves go at once: this test is about what follows them
    # the stones placed through REST while Ana's page is open: her Undo comes and goes as Bo places
    for _ in range(100):
        games = [server_game(page, base, table_id) for page in (ana, bo)]
        if any(move["type"] == "roll" for move in games[0]["legal"]):
            break
        page, game = next((page, game) for page, game in zip((ana, bo), games) if game["legal"])
        move_by_rest(page, base, table_id, game["legal"][0])
    wait_for_version([ana], games[0]["version"])
    expect(ana.locator("#undo-gone")).to_have_count(0)
    expect(ana.locator("#move-bar")).to_have_attribute("data-state", "idle")
    tops = {"turn start": ana.evaluate(TOPS)}

    ana.click('[data-action="roll"]')
    wait_for_version([ana], games[0]["version"] + 1)
    expect(ana.locator("#undo-gone")).to_have_count(0)
    tops["after the roll"] = ana.evaluate(TOPS)

    use_a_die_by_clicking(ana, base, table_id)
    expect(ana.locator("#undo-move")).to_be_visible()
    tops["after a die, Undo offered"] = ana.evaluate(TOPS)

    switch["on"] = True  # the next die shows something new: Undo goes
    use_a_die_by_clicking(ana, base, table_id)
    expect(ana.locator("#undo-move")).to_have_count(0)
    expect(ana.locator("#undo-gone")).to_have_text("This move cannot be undone.")
    expect(ana.locator("#move-bar")).to_have_attribute("data-state", "undo-gone")
    tops["after a die, Undo gone"] = ana.evaluate(TOPS)
    areas = [area for area, _ in tops.values()]
    assert max(areas) - min(areas) <= 1, f"the board's area moved: {tops}"
    if screen == "desktop":
        boards = [board for _, board in tops.values()]
        assert max(boards) - min(boards) <= 1, f"the board moved: {tops}"


def test_on_a_phone_the_nomadi_board_stays_put_while_a_stone_is_picked_and_dropped(live_server, chromium):
    """The prompt above the board on one column says two lines ("use your dice...") or three ("click
    a highlighted cell to move the stone on ..."): it keeps three lines' room while dice are used."""
    base = live_server
    ana = sign_in(chromium, base, "Ana", **SCREENS["phone"])
    bo = sign_in(chromium, base, "Bo")
    options = {"first_player": "host", "card_placement": "random"}
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "nomadi", "seats": 2, "options": options}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    for _ in range(100):  # the stones placed through REST, up to Ana's roll
        games = [server_game(page, base, table_id) for page in (ana, bo)]
        if any(move["type"] == "roll" for move in games[0]["legal"]):
            break
        page, game = next((page, game) for page, game in zip((ana, bo), games) if game["legal"])
        move_by_rest(page, base, table_id, game["legal"][0])
    move_by_rest(ana, base, table_id, {"type": "roll"})
    ana.goto(f"{base}/tables/{table_id}")
    expect(ana.locator("body")).to_have_attribute("data-connection", "live")
    expect(ana.locator("#nomadi-prompt")).to_contain_text("one at a time")
    before = ana.evaluate(TOPS)[1]
    move = next(move for move in server_game(ana, base, table_id)["legal"] if move["type"] == "move")
    stone = ana.locator(f'.nomadi-board [data-stone="{move["stone"][0]},{move["stone"][1]}"]')
    stone.click()
    expect(ana.locator("#nomadi-prompt")).to_contain_text("Click a highlighted cell")
    picked = ana.evaluate(TOPS)[1]
    stone.click()  # dropped again
    expect(ana.locator("#nomadi-prompt")).to_contain_text("one at a time")
    dropped = ana.evaluate(TOPS)[1]
    assert abs(picked - before) <= 1 and abs(dropped - before) <= 1, (before, picked, dropped)

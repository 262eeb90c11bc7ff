"""Every game on a phone: at 375 px wide the table page has no horizontal scrolling
(checked on a full-page screenshot, whose width is the page's), and a move can be made by touch.

Tap targets: on a 390 x 844 phone every visible control of the lobby and the
table page (buttons, links, fields, a checkbox's label, a game's hand and reserve spaces) is at
least 44 x 44 CSS px, but for the few inline text links named in SMALL_ON_PURPOSE; a board whose
spaces are smaller offers a zoom control that makes every highlighted space at least 44 px.

The phone is Chromium's mobile emulation (touch events, a 375 x 812 viewport); every tap goes to
one of the elements the page marks as legal, and the server's version tells that the move went in.
"""

from __future__ import annotations

import re
import struct

import pytest

from tests.e2e.pages import api, server_game, sign_in, version_of

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

SCALE = 2  # device pixels per CSS pixel
TAP_PX = 44  # the least width and height of a tap target (WCAG 2.5.5; Apple's and Google's guidance)
TAP_PHONE = {"width": 390, "height": 844}  # a common phone's viewport
# Controls that stay smaller on purpose: inline links inside text, each with a 44 px way to the same place.
SMALL_ON_PURPOSE = {
    "a.table-name": "a table's name in a lobby list: the row's Play / Join / Watch button is its tap target",
    "a.seat-name": "a player's name inside a seat chip, an inline link to the profile (also reached from the table)",
    "a.log-rule": "a log line's rule mark, inline after the sentence; the header's Rules link opens the same page",
}
# Spaces of an SVG board: measured highlighted and zoomed, by assert_board_zooms_to_tap_size.
SVG_BOARD_SPACES = "#board svg *"
# What a person can tap; a checkbox or radio is tapped through its whole label, so the label is measured.
TAP_TARGETS = """([exempt, tapPx]) => {
  const found = [];
  for (const e of document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])')) {
    if (e.matches(exempt)) continue;
    const target = ['checkbox', 'radio'].includes(e.type) ? (e.closest('label') || document.querySelector(`label[for="${e.id}"]`) || e) : e;
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(target).visibility === 'hidden') continue;
    if (box.width < tapPx || box.height < tapPx) {
      const name = (target.innerText || target.getAttribute('aria-label') || target.id || target.className.baseVal || target.className || '').trim().slice(0, 40);
      found.push(`${target.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return found;
}"""
LEGAL_SVG_SPACES = "#board svg .legal"
ZOOM_CONTROLS = '#board [data-action="zoom-board"], #board [data-action="zoom"]'


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (PNG spec 11.2.2: bytes 16-24, big-endian)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def phone_page(chromium, base: str, name: str):
    return sign_in(chromium, base, name, width=375, height=812, touch=True, is_mobile=True, device_scale_factor=SCALE)


def small_tap_targets(page) -> list[str]:
    """The visible controls of ``page`` smaller than TAP_PX either way on the TAP_PHONE screen (the
    page is measured at that size and given its own size back), but for SMALL_ON_PURPOSE and the
    spaces of an SVG board."""
    viewport = page.viewport_size
    page.set_viewport_size(TAP_PHONE)
    try:
        page.evaluate("() => new Promise(requestAnimationFrame)")  # board-fit.js resizes on the next frame
        exempt = ", ".join([*SMALL_ON_PURPOSE, SVG_BOARD_SPACES])
        return page.evaluate(TAP_TARGETS, [exempt, TAP_PX])
    finally:
        page.set_viewport_size(viewport)


def space_sizes(page) -> list[tuple[float, float]]:
    return page.locator(LEGAL_SVG_SPACES).evaluate_all(
        "spaces => spaces.map(space => { const box = space.getBoundingClientRect(); return [box.width, box.height]; })")


def assert_board_zooms_to_tap_size(page, ruleset: str) -> None:
    """The highlighted spaces of an SVG board are tap targets, or the board's zoom control makes
    them so (pinch-zoom or a zoom control for the board; 44 px tap targets)."""
    viewport = page.viewport_size
    page.set_viewport_size(TAP_PHONE)
    try:
        sizes = space_sizes(page)
        if all(min(box) >= TAP_PX for box in sizes):
            return
        zoom = page.locator(ZOOM_CONTROLS)
        expect(zoom).to_have_count(1)
        assert min(zoom.bounding_box()["height"], zoom.bounding_box()["width"]) >= TAP_PX
        zoom.tap()
        expect(zoom).to_have_attribute("aria-pressed", "true")
        zoomed = space_sizes(page)
        assert zoomed and min(min(box) for box in zoomed) >= TAP_PX, f"{ruleset}: zoomed spaces {zoomed[:3]}"
        zoom.tap()  # back to the whole board
        expect(zoom).to_have_attribute("aria-pressed", "false")
    finally:
        page.set_viewport_size(viewport)


def show_legal_spaces(page, ruleset: str) -> None:
    """The taps before a space can be chosen: a caravan colour, a card from the hand."""
    if ruleset == "through-the-desert":
        page.locator(".colour-buttons [data-colour]:not([disabled])").first.tap()
    elif ruleset == "nimalia":
        page.locator("[data-hand-card]:not([disabled])").first.tap()


BOARD_TOP = "document.querySelector('#board .game-board').getBoundingClientRect().top + window.scrollY"  # in the page


def tap_a_move(page, ruleset: str) -> None:
    """One legal move by taps only, in each game's own controls (after ``show_legal_spaces``), then
    *Confirm* (a touch screen confirms moves by default; Nimalia's own preview asks already).
    While *Confirm* waits, the board has not moved: the tapped space stays under the finger and
    the board's last row on the screen."""
    board_top = page.evaluate(BOARD_TOP)
    if ruleset == "through-the-desert":
        page.locator("[data-hex].legal").first.tap()
    elif ruleset == "nimalia":
        page.locator(".nim-mine [data-anchor].legal").first.tap()
        page.locator('[data-action="confirm"]').tap()
    elif ruleset == "heroes":
        page.locator(".hx-map [data-region].legal").first.tap()  # the first player places the round's Nomad
    else:
        page.locator(".nomadi-board [data-target].legal").first.tap()
    if ruleset != "nimalia":
        expect(page.locator("#confirm-move")).to_be_visible()
        page.evaluate("() => new Promise(requestAnimationFrame)")  # board-fit.js resizes on the next frame
        assert abs(page.evaluate(BOARD_TOP) - board_top) <= 2, f"{ruleset}: the board moved while Confirm waits"
        page.locator("#confirm-move").tap()


def assert_no_horizontal_scrolling(page, where: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{where}: {overflow} px of horizontal scrolling"
    # one CSS pixel a pixel: a long page (a rules page) at the device's scale is a picture of many
    # megapixels, which a loaded machine took more than the default 10 s to take
    width, _ = png_size(page.screenshot(full_page=True, scale="css", timeout=60_000))
    assert width == 375, f"{where}: the full page is {width} px wide"


@pytest.mark.parametrize("ruleset", ["through-the-desert", "nimalia", "nomadi", "heroes"])
def test_a_game_fits_a_phone_and_plays_by_touch(live_server, chromium, ruleset):
    base = live_server
    ana, bo = phone_page(chromium, base, "Ana"), phone_page(chromium, base, "Bo")
    assert_no_horizontal_scrolling(ana, "lobby")
    assert small_tap_targets(ana) == [], "lobby"
    options = {"first_player": "host"} if ruleset in ("nomadi", "heroes") else {}
    created = ana.request.post(f"{base}/api/tables", data={"ruleset": ruleset, "seats": 2, "options": options})
    table_id = created.json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    for page in (ana, bo):
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("#game")).to_have_attribute("data-version", "0")
        expect(page.locator("body")).to_have_attribute("data-connection", "live")
    mover = next(page for page in (ana, bo) if server_game(page, base, table_id)["legal"])
    assert_no_horizontal_scrolling(mover, f"{ruleset} table")

    show_legal_spaces(mover, ruleset)
    assert small_tap_targets(mover) == [], f"{ruleset} table"
    assert_board_zooms_to_tap_size(mover, ruleset)
    tap_a_move(mover, ruleset)
    expect(mover.locator("#game")).to_have_attribute("data-version", re.compile(r"^[1-9]\d*$"))
    assert server_game(mover, base, table_id)["version"] == version_of(mover) >= 1
    assert_no_horizontal_scrolling(mover, f"{ruleset} after a move")
    mover.goto(f"{base}/")  # the lobby with this table among "My games", its Play and Copy link
    expect(mover.locator(f'#mine [data-my-table-id="{table_id}"]')).to_be_visible()
    assert small_tap_targets(mover) == [], f"lobby with a {ruleset} table"


@pytest.mark.parametrize("ruleset", ["nomadi", "through-the-desert"])
def test_a_move_held_for_confirm_on_a_later_turn_leaves_the_board_where_it_was(live_server, chromium, ruleset):
    """On a later turn (Undo went when the other player acted: the bar says nothing of it), the bar
    holding a move for Confirm keeps the room of the bar it replaces, so the board stays put."""
    base = live_server
    ana, bo = phone_page(chromium, base, "Ana"), phone_page(chromium, base, "Bo")
    options = {"first_player": "host"} if ruleset == "nomadi" else {}
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": ruleset, "seats": 2, "options": options}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    ana.goto(f"{base}/tables/{table_id}")
    expect(ana.locator("body")).to_have_attribute("data-connection", "live")
    pages = {0: ana, 1: bo}
    ana_moved = bo_after = False  # Through the Desert draws who starts: Bo may move first
    for _ in range(12):  # moves through the API until Ana is to move again after Bo acted after her
        game = server_game(ana, base, table_id)
        if bo_after and game["to_act"] == [0]:
            break
        mover = pages[game["to_act"][0]]
        mine = server_game(mover, base, table_id)
        api(mover, base, "POST", f"/api/games/{table_id}/moves",
            {"id": f"m{mine['version']}", "version": mine["version"], "move": mine["legal"][0]})
        ana_moved = ana_moved or mover is ana
        bo_after = bo_after or (mover is bo and ana_moved)
    expect(ana.locator("#game")).to_have_attribute("data-version", str(server_game(ana, base, table_id)["version"]))
    expect(ana.locator("#undo-gone")).to_have_count(0)
    show_legal_spaces(ana, ruleset)
    tap_a_move(ana, ruleset)  # measures the board while Confirm waits
    expect(ana.locator("#move-bar")).not_to_have_attribute("data-state", "confirming")


BOX = "selector => { const r = document.querySelector(selector).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def test_the_french_pages_fit_a_phone(live_server, chromium):
    """French words are longer than English ones ("Se déconnecter", "Toutes les règles"): the
    lobby, a rules page and a table's page of a French phone have no horizontal scrolling."""
    base = live_server
    ana = sign_in(chromium, base, "Amélie", width=375, height=812, touch=True, is_mobile=True,
                  device_scale_factor=SCALE, locale="fr-FR")
    expect(ana.locator("html")).to_have_attribute("lang", "fr")
    assert_no_horizontal_scrolling(ana, "French lobby")
    ana.goto(f"{base}/rules/heroes")
    assert_no_horizontal_scrolling(ana, "French rules page")
    created = ana.request.post(f"{base}/api/tables", data={"ruleset": "heroes", "seats": 2, "options": {}})
    ana.goto(f"{base}/tables/{created.json()['id']}")
    expect(ana.locator("#waiting-room")).to_be_visible()
    assert_no_horizontal_scrolling(ana, "French waiting room")
    # the header keeps room for the game's name beside the French links (it was cut to nothing)
    title = ana.locator("#table-title")
    expect(title).to_have_text("Heroes of Land, Air & Sea")
    assert title.evaluate("e => e.getBoundingClientRect().width") >= 60
    # the game: the whole map is on the screen, its frame and its drawing (a report had it cut on the right)
    assert ana.request.post(f"{base}/api/tables/{created.json()['id']}/bots", data={"seat": 1, "level": "easy"}).ok
    ana.click('[data-action="start"]')
    expect(ana.locator(".hx-map-frame .hx-map")).to_be_visible()
    width = ana.viewport_size["width"]
    frame, drawing = ana.evaluate(BOX, ".hx-map-frame"), ana.evaluate(BOX, ".hx-map-frame .hx-map")
    assert 0 <= frame[0] and frame[2] <= width, f"the map's frame {frame} leaves the {width} px screen"
    assert frame[0] <= drawing[0] and drawing[2] <= frame[2], f"the map {drawing} is cut by its frame {frame}"
    assert_no_horizontal_scrolling(ana, "French Heroes game")
    # signed out, the table's header keeps the guest name box readable (it was 57 px: "Votre")
    context = ana.context.browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True,
                                              device_scale_factor=SCALE, locale="fr-FR")
    visitor = context.new_page()
    visitor.goto(f"{base}/tables/{created.json()['id']}")
    expect(visitor.locator("#guest-name")).to_be_visible()
    assert visitor.locator("#guest-name").evaluate("e => e.getBoundingClientRect().width") >= 120
    assert_no_horizontal_scrolling(visitor, "French table, signed out")
    context.close()


@pytest.mark.parametrize("locale", ["fr-FR", "en-GB"])
def test_undo_joins_the_line_above_the_board_without_pushing_the_reserve_down(live_server, chromium, locale):
    """On a 390 x 844 phone, "Undo my move" ("Annuler mon coup") appears after one's move on the line
    of "Replay" and "Confirm my moves", within the screen: the board, Nimalia's reserve at its top,
    is not pushed down (the button on a line of its own moved it 51 px, and back when it went)."""
    base = live_server
    page = sign_in(chromium, base, "Noémie", width=TAP_PHONE["width"], height=TAP_PHONE["height"], touch=True,
                   is_mobile=True, device_scale_factor=SCALE, locale=locale)
    other = chromium.new_context().new_page()
    assert other.request.post(f"{base}/api/auth/guest", data={"name": "Octave"}).ok
    table_id = page.request.post(f"{base}/api/tables", data={"ruleset": "nimalia", "seats": 2, "options": {}}).json()["id"]
    assert other.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert page.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    page.goto(f"{base}/tables/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-my-turn", "true")
    expect(page.locator("#replay-open")).to_be_visible()
    expect(page.locator("#confirm-moves")).to_be_visible()
    # from the top of Replay's line to the board (the banners above change their words with the move)
    controls = "() => document.getElementById('board').getBoundingClientRect().top - document.getElementById('replay').getBoundingClientRect().top"
    controls_before = page.evaluate(controls)
    game = server_game(page, base, str(table_id))
    assert page.request.post(f"{base}/api/games/{table_id}/moves",
                             data={"id": "undo-fit-1", "version": game["version"], "move": game["legal"][0]}).ok
    expect(page.locator("#undo-move")).to_be_visible()  # Octave has not chosen yet: the move may be taken back
    page.wait_for_function("version => document.getElementById('game').dataset.version === version", arg=str(game["version"] + 1))
    undo, replay = page.evaluate(BOX, "#undo-move"), page.evaluate(BOX, "#replay")
    assert 0 <= undo[0] and undo[2] <= TAP_PHONE["width"], f"Undo leaves the screen: {undo}"
    assert undo[1] == replay[1], f"Undo {undo} is not on Replay's line {replay}"
    assert undo[3] - undo[1] >= TAP_PX and undo[2] - undo[0] >= TAP_PX, f"Undo is no tap target: {undo}"
    controls_after = page.evaluate(controls)
    assert controls_after == controls_before, f"the board, with the reserve, moved down {controls_after - controls_before} px"


def test_the_longest_name_leaves_every_page_the_phones_width(live_server, chromium):
    """A name may be 32 characters of one word ("WWWW..."): the header cuts it short, and the lobby's
    table list, the waiting room's seats and the profile wrap it, so no page of a phone scrolls
    sideways, for its owner or for anyone who sees it."""
    base = live_server
    longest = "W" * 32
    owner = phone_page(chromium, base, longest)
    created = owner.request.post(f"{base}/api/tables", data={"ruleset": "nimalia", "seats": 3, "options": {}})
    table_id = created.json()["id"]
    owner.goto(f"{base}/")
    expect(owner.locator(".table-item", has_text=longest).first).to_be_visible()
    assert_no_horizontal_scrolling(owner, "lobby of the long name")
    owner.goto(f"{base}/tables/{table_id}")
    expect(owner.locator("#waiting-room")).to_be_visible()
    assert_no_horizontal_scrolling(owner, "waiting room")
    me = owner.request.get(f"{base}/api/auth/me").json()
    owner.goto(f"{base}/players/{me['id']}")
    expect(owner.locator("#player-name")).to_have_text(longest)
    assert_no_horizontal_scrolling(owner, "profile")
    other = phone_page(chromium, base, "Ana")
    expect(other.locator(".table-item", has_text=longest).first).to_be_visible()
    assert_no_horizontal_scrolling(other, "another person's lobby")


# How much wider than the select's box its chosen option's words are, in CSS px (the select's own
# font; its padding and arrow, about 24 px, left out): above 0, the words are cut.
CLIPPED_OPTION = """select => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
  return context.measureText(select.selectedOptions[0].text).width - room;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_lobby_time_limit_of_the_longest_game_fits_a_phone(live_server, chromium, locale):
    """The usual time limit of Heroes of Land, Air & Sea (the longest game name) is marked "(usual)",
    not "(usual for Heroes of Land, Air & Sea)", which a 390 px phone cut short."""
    base = live_server
    page = sign_in(chromium, base, "Ana", width=TAP_PHONE["width"], height=TAP_PHONE["height"], touch=True,
                   is_mobile=True, device_scale_factor=SCALE, locale=locale)
    page.select_option("#ruleset", "heroes")
    page.select_option("#seats", "2")
    chosen = page.locator("#move-seconds option:checked")
    expect(chosen).to_have_text("5 min per move (usual)" if locale == "en-GB" else re.compile(r"\(habituel\)$"))
    clipped = page.locator("#move-seconds").evaluate(CLIPPED_OPTION)
    assert clipped <= 0, f"{chosen.inner_text()!r} is cut by {clipped:.0f} px"


def test_the_game_log_comes_before_alerts_and_chat_on_a_phone_only(live_server, chromium):
    """On one column (a phone) the game log follows the players, before the turn alerts and the
    chat, not at the very bottom of the page; a desktop keeps its side column's order."""
    base = live_server
    ana = sign_in(chromium, base, "Ana", width=TAP_PHONE["width"], height=TAP_PHONE["height"], touch=True,
                  is_mobile=True, device_scale_factor=SCALE)
    bo = sign_in(chromium, base, "Bo")
    table_id = ana.request.post(f"{base}/api/tables", data={"ruleset": "nomadi", "seats": 2, "options": {}}).json()["id"]
    assert bo.request.post(f"{base}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    tops = "['#players', '#log', '#alerts-card', '#chat-card'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    for page in (ana, bo):
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("#chat-card")).to_be_visible()
        expect(page.locator("#alerts-card")).to_be_visible()
    players, log, alerts, chat = ana.evaluate(tops)
    assert players < log < alerts < chat, f"phone: players {players}, log {log}, alerts {alerts}, chat {chat}"
    players, log, alerts, chat = bo.evaluate(tops)
    assert players < alerts < chat < log, f"desktop: players {players}, log {log}, alerts {alerts}, chat {chat}"

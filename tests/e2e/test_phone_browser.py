"""Every game on a phone (issue 10): at 375 px wide the table page has no horizontal scrolling
(checked on a full-page screenshot, whose width is the page's), and a move can be made by touch.

The phone is Chromium's mobile emulation (touch events, a 375 x 812 viewport); every tap goes to
one of the elements the page marks as legal, and the server's version tells that the move went in.
"""

from __future__ import annotations

import re
import struct

import pytest

from tests.e2e.pages import server_game, sign_in, version_of

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

SCALE = 2  # device pixels per CSS pixel


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (PNG spec 11.2.2: bytes 16-24, big-endian)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def phone_page(chromium, base: str, name: str):
    return sign_in(chromium, base, name, width=375, height=812, touch=True, is_mobile=True, device_scale_factor=SCALE)


def tap_a_move(page, ruleset: str) -> None:
    """One legal move by taps only, in each game's own controls, then *Confirm* (issue 20: a touch
    screen confirms moves by default; Nimalia's own preview asks already)."""
    if ruleset == "through-the-desert":
        page.locator(".colour-buttons [data-colour]:not([disabled])").first.tap()
        page.locator("[data-hex].legal").first.tap()
    elif ruleset == "nimalia":
        page.locator("[data-hand-card]:not([disabled])").first.tap()
        page.locator(".nim-mine [data-anchor].legal").first.tap()
        page.locator('[data-action="confirm"]').tap()
    elif ruleset == "heroes":
        page.locator(".hx-map [data-region].legal").first.tap()  # the first player places the round's Nomad
    else:
        page.locator(".nomadi-board [data-target].legal").first.tap()
    if ruleset != "nimalia":
        page.locator("#confirm-move").tap()


def assert_no_horizontal_scrolling(page, where: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{where}: {overflow} px of horizontal scrolling"
    width, _ = png_size(page.screenshot(full_page=True))
    assert width == 375 * SCALE, f"{where}: the full page is {width / SCALE} px wide"


@pytest.mark.parametrize("ruleset", ["through-the-desert", "nimalia", "nomadi", "heroes"])
def test_a_game_fits_a_phone_and_plays_by_touch(live_server, chromium, ruleset):
    base = live_server
    ana, bo = phone_page(chromium, base, "Ana"), phone_page(chromium, base, "Bo")
    assert_no_horizontal_scrolling(ana, "lobby")
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

    tap_a_move(mover, ruleset)
    expect(mover.locator("#game")).to_have_attribute("data-version", re.compile(r"^[1-9]\d*$"))
    assert server_game(mover, base, table_id)["version"] == version_of(mover) >= 1
    assert_no_horizontal_scrolling(mover, f"{ruleset} after a move")

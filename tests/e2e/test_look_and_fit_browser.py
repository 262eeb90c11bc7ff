"""Every page is readable and fits, measured in real Chromium rather than eyeballed.

* axe-core (bundled by axe-playwright-python) finds no serious or critical violation on the lobby,
  a profile, a rules page, a replay and each game's main states (tests/e2e/moments.py), in the light
  and in the dark colour scheme: colour contrast to WCAG AA, every control and image named.
* The keyboard focus is visible: the element that Tab reaches draws an outline or a ring.
* At the busiest moments the board, the prompt and the controls of the current step are within the
  window without scrolling, at 1280 x 800 and on a 390 x 844 phone, and Through the Desert's hexes
  are big enough to tap on the phone without "Larger board".

The moments are set up once for the module; one page per guest and size visits them in turn and
switches the colour scheme in place (``emulate_media``), so the whole file loads each page a few times.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.moments import Moments, set_up
from tests.e2e.pages import expect

pytestmark = pytest.mark.e2e

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")

BLOCKING = ("serious", "critical")
re_time = re.compile(r"^(\d{1,2} \w+ )?\d{1,2}:\d{2}( ?[AP]M)?$")
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


@pytest.fixture(scope="module")
def moments(live_server, chromium) -> Moments:
    return set_up(chromium, live_server)


class Visitor:
    """One page per guest, reused for every moment that guest looks at."""

    def __init__(self, chromium, moments: Moments, **context) -> None:
        self._chromium, self._moments, self._context, self._pages = chromium, moments, context, {}

    def open(self, moment: str):
        """The page of ``moment``'s guest, at ``moment``'s address, loaded and (on a table) live."""
        who, path = self._moments.pages[moment]
        if who not in self._pages:
            context = self._chromium.new_context(storage_state=self._moments.storage[who], **self._context)
            context.set_default_timeout(10_000)
            self._pages[who] = context.new_page()
        page = self._pages[who]
        page.goto(f"{self._moments.base}{path}")
        if path.startswith("/tables/"):
            page.wait_for_selector('body[data-connection="live"]')
            expect(page.locator(self._moments.boards.get(moment, "#board > *")).first).to_be_visible()
        page.wait_for_timeout(250)  # the board's size and the last move's highlight settle
        return page


def blocking_violations(page) -> list[str]:
    """axe-core's serious and critical violations on ``page``, one line per element."""
    results = axe_playwright.Axe().run(page, options={"resultTypes": ["violations", "incomplete"]})
    lines = []
    for violation in results.response["violations"]:
        if violation["impact"] in BLOCKING:
            for node in violation["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())[:220]
                lines.append(f"{violation['id']} {node['target']}: {summary}")
    # axe leaves text in its background's own colour "to review" (it might be hidden on purpose);
    # here it never is: the dark-mode turn banner once drew its words so.
    for review in results.response["incomplete"]:
        if review["id"] == "color-contrast":
            for node in review["nodes"]:
                if any((check.get("data") or {}).get("messageKey") == "equalRatio" for check in node["any"]):
                    lines.append(f"color-contrast {node['target']}: text in its background's colour")
    return lines


def focus_is_visible(page) -> list[str]:
    """Tab through the first few controls; those that draw neither an outline nor a ring."""
    hidden = []
    page.locator("body").focus()
    for _ in range(6):
        page.keyboard.press("Tab")
        seen = page.evaluate("""() => {
            const e = document.activeElement;
            if (!e || e === document.body) return null;
            const s = getComputedStyle(e);
            const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== 'none';
            return ring ? '' : (e.id || e.className || e.tagName) + '';
        }""")
        if seen:
            hidden.append(seen)
    return hidden


def test_every_page_has_no_serious_accessibility_violation_in_light_and_dark(moments, chromium):
    visitor = Visitor(chromium, moments, **SIZES["desktop"])
    found = []
    for moment in moments.pages:
        page = visitor.open(moment)
        found += [f"{moment} (light): {line}" for line in blocking_violations(page)]
        found += [f"{moment}: focus not drawn on {element}" for element in focus_is_visible(page)]
        # Reloaded in the dark scheme: Chromium does not always recompute light-dark() colours of
        # an open page when only the media feature changes.
        page.emulate_media(color_scheme="dark")
        page = visitor.open(moment)
        found += [f"{moment} (dark): {line}" for line in blocking_violations(page)]
        page.emulate_media(color_scheme="light")
    assert found == [], "\n".join(found)


# The parts of each busiest moment that must show together: the board, the prompt and the
# controls of the current step (CSS selectors; every one must be on the page).
STEP_PARTS = {
    "through-the-desert": ("#board .ttd-board-frame", "#ttd-prompt"),
    "nimalia-draft": ("#board .nim-mine .nim-grid", "#nim-prompt", "#board .nim-hand", "#board .nim-objectives"),
    "nomadi-offer": ("#board svg.nomadi-board", "#nomadi-prompt", "#board [data-offer-stage]"),
    "heroes-core": ("#board svg.hx-map", "#hx-prompt"),
    "heroes-solo": ("#board svg.hx-map", "#hx-prompt", "#board .hx-controls"),
    "heroes-battle": ("#board svg.hx-map", "#hx-prompt", "#board .hx-cards"),
}
TAP_TARGET_PX = 36  # a Through the Desert hex on a phone, without "Larger board"


def boxes(page, selectors) -> dict[str, dict]:
    """The page-relative boxes (top, bottom, left, right in CSS px) of ``selectors``' first matches."""
    return page.evaluate("""selectors => Object.fromEntries(selectors.map(s => {
        const e = document.querySelector(s);
        if (!e) return [s, null];
        const r = e.getBoundingClientRect();
        return [s, {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right}];
    }))""", list(selectors))


@pytest.mark.parametrize("size", SIZES)
def test_the_board_prompt_and_controls_of_each_step_show_together(moments, chromium, size):
    visitor = Visitor(chromium, moments, **SIZES[size])
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    misfits = []
    for moment, parts in STEP_PARTS.items():
        page = visitor.open(moment)
        found = boxes(page, parts)
        missing = [selector for selector, box in found.items() if box is None]
        assert not missing, f"{moment}: not on the page: {missing}"
        top = min(box["top"] for box in found.values())
        bottom = max(box["bottom"] for box in found.values())
        right = max(box["right"] for box in found.values())
        # on a desktop all of it shows as the page opens; on a phone one scroll position shows it all
        if (bottom if size == "desktop" else bottom - top) > height or right > width:
            misfits.append(f"{moment}: {found}")
        if moment == "through-the-desert" and size == "phone":
            hex_width = page.locator("#board svg.ttd-board .space").first.evaluate("e => e.getBoundingClientRect().width")
            if hex_width < TAP_TARGET_PX:
                misfits.append(f"{moment}: hexes {hex_width:.0f} px wide, under {TAP_TARGET_PX}")
    assert misfits == [], "\n".join(misfits)


def test_a_rules_page_draws_its_example_and_old_rule_links_still_land(live_server, chromium):
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    for ruleset in ("through-the-desert", "nimalia", "nomadi", "heroes"):
        page.goto(f"{live_server}/rules/{ruleset}")
        board = page.locator('.rules-picture[data-drawn="true"] .rules-picture-board > *')
        expect(board).to_be_visible()
        box = board.bounding_box()
        assert box["width"] > 150 and box["height"] > 100, f"{ruleset}: the example is drawn {box}"
        assert board.evaluate("e => e.querySelectorAll('*').length") > 20, f"{ruleset}: the example has pieces"
        # the picture and the two minutes fit the first screen
        two_minutes = page.locator("#how-to-play-in-2-minutes").locator("xpath=..")
        assert two_minutes.bounding_box()["y"] < 400
    # a § link of an older page (or a bookmark) still lands on its rule
    page.goto(f"{live_server}/rules/nomadi#R-30b")
    page.wait_for_url(f"{live_server}/rules/nomadi/reference#R-30b")
    expect(page.locator('[id="R-30b"]')).to_be_visible()
    page.goto(f"{live_server}/rules/nomadi#goal-of-the-game")  # an anchor of the players' page stays
    expect(page.locator("#goal-of-the-game")).to_be_visible()
    assert page.url.endswith("/rules/nomadi#goal-of-the-game")


def test_the_smaller_points_chat_times_spectators_links_and_tap_targets(moments, chromium):
    base = moments.base
    path = moments.pages["nomadi-offer"][1]
    player = Visitor(chromium, moments, **SIZES["desktop"]).open("nomadi-offer")
    # a spectator's page asks for no chat it may not read (the chat is for the players by default)
    watcher = chromium.new_context(storage_state=moments.storage["Cy"], viewport={"width": 1280, "height": 800}).new_page()
    refused = []
    watcher.on("response", lambda answer: refused.append(answer.url) if answer.status == 403 else None)
    watcher.goto(f"{base}{path}")
    watcher.wait_for_selector('body[data-connection="live"]')
    expect(watcher.locator("#chat-note")).to_contain_text("players only")
    # the players see that someone watches
    expect(player.locator("#spectators")).to_have_text("1 watching")
    expect(player.locator("#spectators svg.icon-eye")).to_have_count(1)
    # chat lines show their time
    assert player.request.post(f"{base}/api/tables/{path.rsplit('/', 1)[1]}/chat", data={"text": "good luck"}).ok
    expect(player.locator("#chat-messages li").last.locator("time.chat-time")).to_have_text(re_time)
    watcher.wait_for_timeout(500)
    assert refused == [], f"the spectator's page was refused: {refused}"
    # a profile's game titles look like links
    profile = Visitor(chromium, moments, **SIZES["desktop"]).open("profile")
    title = profile.locator("a.table-name").first
    expect(title).to_be_visible()
    assert "underline" in title.evaluate("e => getComputedStyle(e).textDecorationLine")
    # on a phone the § rule links and the lobby's name links are 44 px tall
    phone = Visitor(chromium, moments, **SIZES["phone"])
    page = phone.open("nomadi-offer")
    rule = page.locator("#log a.log-rule").first
    rule.scroll_into_view_if_needed()
    assert rule.bounding_box()["height"] >= 44 and rule.bounding_box()["width"] >= 44, rule.bounding_box()
    page = phone.open("lobby")
    names = page.locator(".seat-chip a.seat-name")
    expect(names.first).to_be_attached()
    heights = names.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights

"""A board's look comes from its renderer's stylesheet file, in real Chromium.

Each renderer keeps its styles in ``static/js/renderers/<name>.css`` (never in a string of its
module, nor in app.css) and links that file before the module finishes loading, so the table never
draws the board unstyled: at the moment the board's root element enters the page, the file's rules
already apply. Cheap: one signed-in page, one table per game with a bot.
"""

from __future__ import annotations

import pytest

from tests.e2e.pages import api, expect, sign_in

pytestmark = pytest.mark.e2e

# ruleset -> the board's root element: a grid by its renderer's stylesheet, a block without it
# (app.css does not style these)
ROOTS = {"through-the-desert": "#board .ttd", "nimalia": "#board .nim", "nomadi": "#board .nomadi", "heroes": "#board .hx"}

# Records the board root's display at the moment it is first attached, before anything else runs.
FIRST_DRAW = """
window.firstDrawDisplay = null;
new MutationObserver((records, observer) => {
  const root = document.querySelector(%r);
  if (!root) return;
  window.firstDrawDisplay = getComputedStyle(root).display;
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


@pytest.mark.parametrize("ruleset", ROOTS)
def test_a_board_is_styled_by_its_stylesheet_from_its_first_draw(live_server, chromium, ruleset):
    page = sign_in(chromium, live_server, "Stylist")
    table_id = api(page, live_server, "POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": {}})["id"]
    api(page, live_server, "POST", f"/api/tables/{table_id}/bots", {"seat": 1})
    api(page, live_server, "POST", f"/api/tables/{table_id}/start", {})
    page.add_init_script(FIRST_DRAW % ROOTS[ruleset])
    page.goto(f"{live_server}/tables/{table_id}")
    expect(page.locator(ROOTS[ruleset])).to_be_visible()
    assert page.evaluate("window.firstDrawDisplay") == "grid", "the board was drawn before its stylesheet applied"
    rules = page.evaluate(
        "href => [...document.styleSheets].filter(sheet => sheet.href && sheet.href.endsWith(href))"
        ".map(sheet => sheet.cssRules.length)",
        f"/static/js/renderers/{ruleset}.css",
    )
    assert len(rules) == 1 and rules[0] > 10, f"{ruleset}.css linked once, with its rules: {rules}"

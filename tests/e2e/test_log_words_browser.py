"""In real Chromium, a log line names things in words and carries its rule as
a small link whose tooltip names the rule and which opens the rule on the game's rules page; no
rule code is part of the line's text.

A solo Heroes game with wandering Nomads is made through the API (the lobby form has its own
tests) and played by REST until a logged move cites a rule; the page then shows it.
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from tests.e2e.pages import assert_no_codes, code_leaks, server_game, sign_in

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

LEAKS = [  # internal codes, and what a renderer writes for a value it could not format
    "Final result (G-1)", "Bo moves 3 camels (R-17)", "a gift (R-30b)", "Nomad wanders (NW-1)", "enclosed (E-5)",
    "South is out of play A-S3", "see spec 1.7", "Spec §5", "Bo offers card-08", "Objective O12", "{seat1} takes Tax",
    "a camel on (-2, 11)", "worth undefined", "Hero null", "[object Object]", "NaN coins",
]
FINE = [  # names the boards show, scores and ratings, words that merely contain the letters
    "Bo places a stone on N17", "Ana: Hex E7", "Rating 1138 (+138) 927 (−73)", "Place 1st ★ 2nd", "Nomads",
    "Round 2 of 4", "Annulled? No: 3 Ore + 3 Mana + 3 Food", "Great savannah (blue) 8 16 18", "12:30",
]


def test_the_scan_finds_every_code_of_the_issue_and_no_board_name():
    assert [line for line in LEAKS if not code_leaks(line)] == []
    assert code_leaks("\n".join(FINE)) == []


def test_a_log_line_links_its_rule_in_a_tooltip_and_shows_no_code(live_server, chromium):
    base = live_server
    page = sign_in(chromium, base, "Ana")
    created = page.request.post(f"{base}/api/tables", data={
        "ruleset": "heroes", "seats": 1, "options": {"nomads": "wandering", "round_limit": 4}})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    assert page.request.post(f"{base}/api/tables/{table_id}/start", data={}).ok
    rng = random.Random(20)
    for _ in range(40):  # the Enemy's opening already cites NS-1; a few moves at most
        game = server_game(page, base, table_id)
        if any(entry["rule"] for entry in game["log"]) or game["status"] != "running":
            break
        answer = page.request.post(f"{base}/api/games/{table_id}/moves",
                                   data={"id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})
        assert answer.ok, answer.text()
    cited = [entry for entry in game["log"] if entry["rule"]]
    assert cited, "a logged move cites a rule"

    page.goto(f"{base}/tables/{table_id}")
    expect(page.locator("#log li").first).to_be_visible()
    link = page.locator("#log li a.log-rule").first
    rule = cited[0]["rule"]
    expect(link).to_have_attribute("href", f"/rules/heroes/reference#{rule}")
    expect(link).to_have_attribute("title", re.compile(rf"Rule {re.escape(rule)}"))
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) == len(game["log"])
    # a line's names (players, places, cards) run on in its sentence, none on a line of its own
    displays = page.locator("#log li .log-arg").evaluate_all("spans => spans.map(span => getComputedStyle(span).display)")
    assert displays and set(displays) == {"inline"}, displays
    # every kind of argument, a card's too (this log may hold none yet), as log-text.js marks it
    kinds = page.locator("#log li").first.evaluate("""line => ['player', 'place', 'card', 'words', 'number'].map(kind => {
        const span = document.createElement('span');
        span.className = `log-arg log-${kind}`;
        line.append(span);
        const shown = getComputedStyle(span).display;
        span.remove();
        return shown; })""")
    assert kinds == ["inline"] * 5, kinds
    assert code_leaks("\n".join(lines)) == []
    assert_no_codes(page, "a Heroes solo table with a rule-citing log")
    href = link.get_attribute("href")
    rules_page = page.request.get(f"{base}{href.split('#')[0]}").text()
    assert f'id="{rule}"' in rules_page

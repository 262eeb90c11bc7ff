"""Issue 20, item 3, in real Chromium: a log line names things in words and carries its rule as
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

from tests.e2e.pages import server_game, sign_in

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

CODE = re.compile(r"\b[A-Z]{1,3}-[A-Z]?\d+[a-z]?\b|card-\d+|\bO\d+\b|\(\s*-?\d+\s*,\s*-?\d+\s*\)")


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
    expect(link).to_have_attribute("href", f"/rules/heroes#{rule}")
    expect(link).to_have_attribute("title", re.compile(rf"Rule {re.escape(rule)}"))
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) == len(game["log"])
    assert [line for line in lines if CODE.search(line)] == []
    href = link.get_attribute("href")
    rules_page = page.request.get(f"{base}{href.split('#')[0]}").text()
    assert f'id="{rule}"' in rules_page

"""A fifth game from outside the platform, played in real Chromium: the server loads it as an
extra ruleset (no code of the platform names it), the lobby offers it, and the generic renderer
(the view as text, each legal move a button) plays it to its result."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import running_server
from tests.e2e.pages import create_join_and_start, expect, sign_in, version_of, wait_for_version

FIFTH_GAME = "tests.support.three_in_a_row.rules:ThreeInARow"


@pytest.fixture(scope="module")
def fifth_game_server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("fifth-game"),
                        lambda base_url: {"CARAVANSERAI_EXTRA_RULESETS": json.dumps([FIFTH_GAME])}) as base_url:
        yield base_url


def mark(page, cell: int) -> None:
    """Click the generic renderer's button for marking ``cell`` (its data-move is the move's JSON)."""
    page.locator(".generic-moves button").filter(has_text=f"cell: {cell}").first.click()


def test_two_people_play_the_fifth_game_from_the_lobby_to_its_result(fifth_game_server, chromium):
    ana = sign_in(chromium, fifth_game_server, "Ana")
    bo = sign_in(chromium, fifth_game_server, "Bo")
    expect(ana.locator('#ruleset option[value="toy-three-in-a-row"]')).to_have_count(1)
    create_join_and_start(ana, [bo], "toy-three-in-a-row")
    wait_for_version([ana, bo], 0)

    # Ana takes the diagonal 0-4-8 while Bo marks 1 and 2: Ana wins on the fifth move.
    for ply, cell in enumerate([0, 1, 4, 2, 8]):
        mover = (ana, bo)[ply % 2]
        expect(mover.locator("body")).to_have_attribute("data-my-turn", "true")
        mark(mover, cell)
        wait_for_version([ana, bo], ply + 1)

    for page in (ana, bo):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-reason")).to_contain_text("Ana has three in a row")
    assert version_of(ana) == 5
    expect(ana.locator("#log")).to_contain_text("Ana marked centre")

"""Shared steps of the browser tests: a signed-in page, the game's version on it, the server's view,
and the scan of what a player reads for rule codes and internal ids."""

from __future__ import annotations

import itertools
import random
import re
import uuid

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# What must never reach a player's eyes: a rule code ("R-17", "G-1", "NW-1",
# "A-S3", "(R-30b)", "spec 1.7", "§ 5"), an internal id ("card-08", an objective's "O12", a seat
# placeholder "{seat1}"), a raw coordinate pair "(-2, 11)", and the words a renderer writes when
# it formats a missing or unformatted value. Names the boards show ("N17", "Hex E7") do not match.
CODE_OR_ID = re.compile(
    r"\b[A-Z]{1,3}-[A-Z]?\d+[a-z]?\b"  # rule codes: R-17, G-1, NW-1, E-5, A-S3, R-30b
    r"|\b[Ss]pec\.?\s*§?\s*\d|§\s*\d"  # spec 1.7, Spec §5
    r"|\bcard-\d+|\bO\d+\b"  # card ids, objective ids
    r"|\{\w*\}"  # a template placeholder left unfilled
    r"|\(\s*-?\d+\s*,\s*-?\d+\s*\)"  # raw coordinates
    r"|\bundefined\b|\bnull\b|\bNaN\b|\[object \w+\]"
)
# The parts of a table page a player reads: the game (turn banner, board with its offer and choice
# dialogs, players, result, log) and any open modal dialog. Attributes (a rule link's tooltip) are
# not text, so rule references may stay there; the chat is people's own words and is left out.
READ_TEXT = "#game, dialog[open]"


def code_leaks(text: str) -> list[str]:
    """The lines of ``text`` that show a rule code or an internal id (``CODE_OR_ID``)."""
    return [line.strip() for line in text.splitlines() if CODE_OR_ID.search(line)]


def assert_no_codes(page, where: str = "") -> None:
    """The rendered text (``innerText``) of ``page``'s game and open dialogs shows no rule code or
    internal id; ``where`` names the moment in the failure message."""
    text = page.evaluate("selector => [...document.querySelectorAll(selector)].map(e => e.innerText).join('\\n')", READ_TEXT)
    leaks = code_leaks(text)
    assert leaks == [], f"{where or page.url}: rule codes or internal ids in the page's text: {leaks}"


def sign_in(chromium, base: str, name: str, width: int = 1280, height: int = 900, touch: bool = False, **context_options):
    """A new browser context signed in as guest ``name`` on the lobby page (by a tap when ``touch``;
    ``context_options`` go to ``new_context``, e.g. ``is_mobile``)."""
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=touch, **context_options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{base}/")
    page.fill("#guest-name", name)
    (page.tap if touch else page.click)("#guest-login")
    expect(page.locator("#who-name")).to_have_text(name)
    return page


def api(page, base: str, method: str, path: str, body: dict | None = None) -> dict:
    """One REST call with the page's session; fails the test on an error answer."""
    answer = page.request.fetch(f"{base}{path}", method=method, data=body)
    assert answer.ok, f"{method} {path}: {answer.status} {answer.text()}"
    return answer.json()


def guest_page(chromium, base: str, name: str):
    """A new browser context signed in as guest ``name`` through the API (no lobby visit: quicker)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    api(page, base, "POST", "/api/auth/guest", {"name": name})
    return page


def version_of(page) -> int:
    """The game version the page shows."""
    return int(page.locator("#game").get_attribute("data-version"))


def wait_for_version(pages, version: int, timeout_ms: float = 10_000) -> None:
    """Wait until every page shows ``version``, polling every animation frame: ``expect`` backs off
    to a second between tries, which added up to minutes over the browser tests."""
    for page in pages:
        page.wait_for_function("version => document.getElementById('game')?.dataset.version === version",
                               arg=str(version), timeout=timeout_ms)


def wait_for_version_past(page, before: int, timeout_ms: float = 10_000) -> None:
    """Wait (every animation frame) until ``page`` shows a version above ``before``."""
    page.wait_for_function("version => Number(document.getElementById('game')?.dataset.version) > version",
                           arg=before, timeout=timeout_ms)


def wait_for_version_change(page, before: int, timeout_ms: float = 10_000) -> None:
    """Wait (every animation frame) until ``page`` shows a version other than ``before``."""
    page.wait_for_function("version => document.getElementById('game')?.dataset.version !== version",
                           arg=str(before), timeout=timeout_ms)


def server_game(page, base: str, table_id: str) -> dict:
    """``GET /api/games/{id}`` as the page's user."""
    return page.request.get(f"{base}/api/games/{table_id}").json()


def finish_by_rest(players, base: str, table_id, rng: random.Random, limit: int = 200) -> dict:
    """Random legal moves through POST /api/games/{id}/moves, by whichever of ``players`` (pages,
    in seat order) may move, until the game is over; returns its result."""
    for _ in range(limit):
        games = (server_game(page, base, table_id) for page in players)  # read one by one, up to the mover
        first = next(games)
        if first["status"] == "finished":
            return first["result"]
        page, game = next((page, game) for page, game in zip(players, itertools.chain([first], games)) if game["legal"])
        answer = page.request.post(
            f"{base}/api/games/{table_id}/moves",
            data={"id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])},
        )
        assert answer.ok, answer.text()
    raise AssertionError(f"the game did not end within {limit} moves")


def create_join_and_start(host, others, ruleset: str, choose_options=None) -> str:
    """``host`` creates a table of ``ruleset`` for everyone in the lobby form (``choose_options(page)``
    sets options there), ``others`` join from the lobby list in order, ``host`` starts (a solo table
    starts by itself); the table id."""
    host.select_option("#ruleset", ruleset)
    host.select_option("#seats", str(1 + len(others)))
    if choose_options:
        host.click("#options-fieldset summary")
        choose_options(host)
    host.click("#create-table")
    host.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = host.url.rsplit("/", 1)[1]
    for page in others:
        page.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
        page.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    if others:
        host.locator('[data-action="start"]').click()
    else:  # a solo table starts by itself: no waiting room
        expect(host.locator("#game")).to_have_attribute("data-status", "running")
    return table_id

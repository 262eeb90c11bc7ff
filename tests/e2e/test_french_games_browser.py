"""One game of each ruleset that speaks French, played in French in real Chromium from the lobby
to the result screen, with no English on the page but names.

Amélie signs in, picks *Français* in the header's chooser (which also saves her account's
setting), creates a two-seat table of the game in the lobby form; Bruno (a French account that
plays through REST only) joins; Amélie starts it from the waiting room, plays her first moves
through the page (each one held by the board's ``choose-move`` event with "Confirm my moves" on,
so the move bar says the move in words, then confirmed by a click), and the rest of the game goes
through REST (``finish_by_rest``) while her page follows to the result.

The English scan (``english_phrases``, ``english_on``): every English msgid of the client catalog
and of the French games' catalogs whose French translation differs is cut at its placeholders
(``"{name} is away."`` gives ``is away``); each literal piece of two words or more is an English
phrase, unless it also occurs in some French translation of those catalogs (a piece such as
``"Nomadi"`` or a shared borrowing is then no sign of English). The rendered text of the page
(``innerText`` of the body, and the tooltips, accessible names, placeholders and image texts of
its elements) must contain none of them as whole words, case aside, once names are
taken out of it (the players' names and every game's title: a title is its name and stays as
written, docs/i18n.md). Place labels ("H12") and single words ("Table", "Options") are never
phrases, so words the two languages share cannot fail the scan. Decision: a single English word
is not looked for (too many are French words too: "place", "message", "points"); a whole
sentence or a two-word label left in English is what a French reader would notice.

The scan runs at four moments: the lobby, the waiting room, the game with a move held in the
move bar and a log, and the result screen. The rulesets come from the registry (those whose
``languages`` include "fr"), so a game joins this test as soon as it declares French. A last test
checks the result's line for a player who abandoned the game, said in French from its parts.
"""

from __future__ import annotations

import functools
import io
import os
import random
import re
import uuid
from collections.abc import Set as AbstractSet
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.rulesets.registry import Registry
from tests.e2e.conftest import running_server
from tests.e2e.pages import api, finish_by_rest, server_game, sign_in, wait_for_version, wait_for_version_change

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

ROOT = Path(__file__).resolve().parents[2]
CLIENT_PO = ROOT / "app" / "i18n" / "locales" / "fr" / "client.po"
REGISTRY = Registry.discover()
FRENCH_GAMES = sorted(ruleset.name for ruleset in REGISTRY.all() if "fr" in type(ruleset).languages and ruleset.listed)
HOST, GUEST = "Amélie", "Bruno"  # names that are no English words
BROWSER_MOVES = 3  # the host's moves made through the page; the rest go through REST
MAX_REST_MOVES = 1000
# The lobby form's options that keep a game short, where the game has them (the field's
# data-option name: the value typed or chosen).
SHORT_OPTIONS = {"nomadi": {"turn_limit": "10"}, "heroes": {"round_limit": "4"}}
PLACEHOLDER = re.compile(r"\{\w*\}")
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """A server of this module's own: the shared one's lobby lists other tests' tables, among them
    games that do not speak French yet (their English is expected there, and not what this scans)."""
    with running_server(tmp_path_factory.mktemp("french-server")) as base_url:
        yield base_url


def catalog_pairs(po_text: str) -> list[tuple[list[str], list[str]]]:
    """(English forms, French forms) of each entry of the .po text ``po_text``; the French forms
    are empty where the entry is fuzzy or untranslated (the page then shows the English)."""
    catalog = read_po(io.StringIO(po_text))
    pairs = []
    for message in catalog:
        if not message.id:
            continue
        english = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        french = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string or ""]
        french = [] if message.fuzzy or not any(french) else [form for form in french if form]
        pairs.append((english, french))
    return pairs


def pieces(msgid: str) -> list[str]:
    """The literal pieces of ``msgid`` between its placeholders, trimmed to their first and last
    letter, that hold two words or more (``"{who} left the table."`` gives ``["left the table"]``)."""
    found = []
    for part in PLACEHOLDER.split(msgid):
        match = re.search(r"[A-Za-z].*[A-Za-z]", part, re.S)
        if match and len(WORD.findall(match.group())) >= 2:
            found.append(" ".join(match.group().split()))
    return found


@functools.cache
def french_phrases() -> frozenset[str]:
    """``english_phrases`` of the client's and the French games' catalogs, worked out once."""
    return frozenset(english_phrases(french_catalogs()))


def english_phrases(catalogs: list[str]) -> set[str]:
    """The English phrases a French page must not show (the module's docstring): the two-word
    pieces of every msgid whose French differs or is missing, less those found in any French
    translation of the same catalogs."""
    pairs = [pair for po_text in catalogs for pair in catalog_pairs(po_text)]
    french_text = " \n ".join(form for _, french in pairs for form in french).lower()
    phrases = set()
    for english, french in pairs:
        if french and french == english:
            continue  # the same in both languages (a name, a number form)
        for msgid in english:
            for piece in pieces(msgid):
                if not _as_words(piece.lower(), french_text):
                    phrases.add(piece)
    return phrases


def _as_words(phrase: str, text: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words.  A plain substring search first:
    thousands of phrases, each a fresh regular expression over the whole French text, took most
    of a minute."""
    return phrase in text and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def french_catalogs() -> list[str]:
    """The texts of the client's French catalog and of each French-speaking game's."""
    return [CLIENT_PO.read_text(encoding="utf-8")] + [type(REGISTRY.get(name)).locale_file("fr") for name in FRENCH_GAMES]


def english_on(text: str, phrases: AbstractSet[str], names: list[str]) -> list[str]:
    """The phrases of ``phrases`` that ``text`` shows as whole words (case aside), once each of
    ``names`` is taken out of it; sorted."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " \u2022 ")
    text = " ".join(text.split()).lower()
    return sorted(phrase for phrase in phrases if _as_words(phrase.lower(), text))


def page_text(page) -> str:
    """What a reader meets on the page: its rendered text, and the words of its tooltips, accessible
    names, placeholders and image texts (``title``, ``aria-label``, ``placeholder``, ``alt``)."""
    return page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')].flatMap(
            (element) => ['title', 'aria-label', 'placeholder', 'alt'].map((name) => element.getAttribute(name) || ''))
    ].join('\\n')""")


def test_the_scan_finds_english_and_lets_shared_words_and_names_pass():
    phrases = french_phrases()
    assert "Your turn" in phrases or "Leave table" in phrases, sorted(phrases)[:40]
    if "nimalia" in FRENCH_GAMES:  # a game's catalog counts too: its result's reason
        assert "After 5 rounds" in phrases and "has the most points" in phrases
    assert english_on("Partie en cours\nYour turn\nH12", {"Your turn"}, []) == ["Your turn"]
    assert english_on("C'est à vous — your turn", {"Your turn"}, []) == ["Your turn"]
    # names, words shared by both languages and place labels are no English
    assert english_on("Through the Desert · Table · Options · Nomadi · H12 · Amélie", phrases,
                      ["Through the Desert"]) == []
    assert not [phrase for phrase in phrases if len(WORD.findall(phrase)) < 2]
    assert pieces("{who} left the table.") == ["left the table"]
    assert pieces("{n} camels") == []


def titles() -> list[str]:
    return [ruleset.title for ruleset in REGISTRY.all()]


@pytest.mark.parametrize("ruleset", FRENCH_GAMES)
def test_a_french_game_from_the_lobby_to_the_result_shows_no_english(live_server, chromium, ruleset):
    base = live_server
    rng = random.Random(2026)
    phrases = french_phrases()
    names = [HOST, GUEST, *titles()]
    seen: dict[str, list[str]] = {}

    def scan(page, moment: str) -> None:
        text = page_text(page)
        if os.environ.get("FRENCH_SCAN_DUMP"):
            with open(os.environ["FRENCH_SCAN_DUMP"], "a", encoding="utf-8") as dump:
                dump.write(f"\n===== {ruleset}: {moment}\n{text}\n")
        leaks = english_on(text, phrases, names)
        if leaks:
            seen[moment] = leaks

    host = sign_in(chromium, base, HOST, locale="en-US")
    # The scan is no formality: the same lobby in English shows English phrases.
    assert english_on(page_text(host), phrases, names), "the English lobby shows no English phrase"
    host.locator("#language-chooser").select_option("fr")
    expect(host.locator("html")).to_have_attribute("lang", "fr")
    assert api(host, base, "GET", "/api/auth/me")["language"] == "fr"
    api(host, base, "POST", "/api/account/settings", {"confirm_moves": True})
    expect(host.locator(f'#ruleset option[value="{ruleset}"]')).to_be_attached()
    scan(host, "the lobby")

    guest_context = chromium.new_context(locale="fr-FR")
    guest_context.set_default_timeout(10_000)
    guest = guest_context.new_page()
    api(guest, base, "POST", "/api/auth/guest", {"name": GUEST})
    api(guest, base, "POST", "/api/account/settings", {"language": "fr"})

    host.select_option("#ruleset", ruleset)
    host.select_option("#seats", "2")
    short = SHORT_OPTIONS.get(ruleset, {})
    if short:
        host.click("#options-fieldset summary")
        for name, value in short.items():
            field = host.locator(f'[data-option="{name}"]')
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    scan(host, "the lobby's form")
    host.click("#create-table")
    host.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = host.url.rsplit("/", 1)[1]
    api(guest, base, "POST", f"/api/tables/{table_id}/join", {})
    start = host.locator('[data-action="start"]')
    expect(start).to_be_enabled()
    scan(host, "the waiting room")
    start.click()
    wait_for_version([host], 0)
    expect(host.locator("body")).to_have_attribute("data-connection", "live")
    scan(host, "the game's start")

    players = [host, guest]
    moved = 0
    for _ in range(200):
        game = server_game(host, base, table_id)
        assert game["status"] == "running"
        if game["legal"]:  # the host's move, through the page
            wait_for_version([host], game["version"])
            move = rng.choice(game["legal"])
            host.evaluate("move => document.getElementById('board').dispatchEvent("
                          "new CustomEvent('choose-move', {detail: move}))", move)
            # Held in the move bar for Confirm, or sent at once by a game whose board has its own
            # Confirm (Nimalia's placement: the move bar then does not ask again).
            host.wait_for_function(
                "v => document.getElementById('move-bar')?.dataset.state === 'confirming'"
                " || Number(document.getElementById('game')?.dataset.version) > v", arg=game["version"])
            if host.locator("#move-bar").get_attribute("data-state") == "confirming":
                scan(host, f"a move held in the move bar ({move['type']})")
                host.click("#confirm-move")
            host.wait_for_function("v => Number(document.getElementById('game')?.dataset.version) > v",
                                   arg=game["version"], timeout=10_000)
            scan(host, f"after a move ({move['type']})")
            moved += 1
            if moved == BROWSER_MOVES:
                break
        else:  # the guest's move, through REST
            mover = next(page for page in players if server_game(page, base, table_id)["legal"])
            other = server_game(mover, base, table_id)
            answer = mover.request.post(f"{base}/api/games/{table_id}/moves", data={
                "id": str(uuid.uuid4()), "version": other["version"],
                "move": rng.choice(other["legal"])})
            assert answer.ok, answer.text()
    assert moved == BROWSER_MOVES
    expect(host.locator("#log li").first).to_be_visible()
    scan(host, "mid-game, with a log")

    finish_by_rest(players, base, table_id, rng, limit=MAX_REST_MOVES)
    expect(host.locator("#game")).to_have_attribute("data-status", "finished")
    expect(host.locator("#result")).to_be_visible()
    scan(host, "the result screen")

    assert seen == {}, f"{ruleset}: English phrases on a French page: {seen}"


def test_the_result_says_who_abandoned_in_the_readers_language(live_server, chromium):
    """Bruno leaves at once; a bot plays his seat to the end while Amélie plays hers through REST.
    The result screen says that he abandoned, why and from which move in French (the server's
    ``text`` of the entry stays English for the API's readers), and the players card's label for
    his seat wraps inside the card instead of running over it (measured with the longest one, "remplacé
    par un bot (temps dépassé)")."""
    base = live_server
    rng = random.Random(7)
    host = sign_in(chromium, base, HOST, locale="fr-FR")
    api(host, base, "POST", "/api/account/settings", {"language": "fr"})
    guest = sign_in(chromium, base, GUEST, locale="fr-FR")
    table_id = api(host, base, "POST", "/api/tables", {"ruleset": "nomadi", "seats": 2, "options": {"turn_limit": 10}})["id"]
    api(guest, base, "POST", f"/api/tables/{table_id}/join", {})
    api(host, base, "POST", f"/api/tables/{table_id}/start", {})
    api(guest, base, "POST", f"/api/tables/{table_id}/leave", {})
    host.goto(f"{base}/tables/{table_id}")
    for _ in range(MAX_REST_MOVES):
        game = server_game(host, base, table_id)
        if game["status"] == "finished":
            break
        if game["legal"]:
            answer = host.request.post(f"{base}/api/games/{table_id}/moves", data={
                "id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})
            assert answer.ok, answer.text()
        else:  # the bot's turn: until its move reaches Amélie's page
            wait_for_version_change(host, game["version"], timeout_ms=30_000)
    abandoned = server_game(host, base, table_id)["result"]["abandoned"]
    assert [(entry["seat"], entry["takeover"]) for entry in abandoned] == [(1, "left")]
    assert abandoned[0]["text"] == f"{GUEST}: abandoned (left), a bot played from move {abandoned[0]['from_version']}"
    expect(host.locator("#result")).to_be_visible()
    expect(host.locator('#result-abandoned [data-abandoned-seat="1"]')).to_have_text(
        f"{GUEST}\u00a0: abandon (a quitté la table), un bot a joué à partir du coup {abandoned[0]['from_version']}")
    label = host.locator('.player[data-seat="1"] [data-takeover-label]')
    expect(label).to_have_text("remplacé par un bot (parti)")
    # the longest label the row shows (a seat that ran out of time), in this very row
    card_right, label_right = label.evaluate(
        "e => { e.textContent = 'remplacé par un bot (temps dépassé)';"
        " return [e.closest('.player').getBoundingClientRect().right, e.getBoundingClientRect().right]; }")
    assert label_right <= card_right + 0.5, f"the label runs {label_right - card_right:.0f} px past its player's row"


def test_two_people_of_one_name_are_told_apart_in_the_readers_words(live_server, chromium):
    """The server tells two guests called Zoé apart by their seat ("Zoé (seat 2)"); a French page
    says it in French wherever it names them: the players card, whose turn it is, the lobby."""
    base = live_server
    first = sign_in(chromium, base, "Zoé", locale="fr-FR")
    second = sign_in(chromium, base, "Zoé", locale="fr-FR")
    table_id = api(first, base, "POST", "/api/tables", {"ruleset": "through-the-desert", "seats": 2,
                                                       "options": {"first_player": "host"}})["id"]
    api(second, base, "POST", f"/api/tables/{table_id}/join", {})
    api(first, base, "POST", f"/api/tables/{table_id}/start", {})
    assert [player["name"] for player in server_game(second, base, table_id)["players"]] == ["Zoé (seat 1)", "Zoé (seat 2)"]
    second.goto(f"{base}/tables/{table_id}")
    expect(second.locator('.player[data-seat="0"] .player-name')).to_have_text("Zoé (place 1)")
    expect(second.locator('.player[data-seat="1"] .player-name')).to_have_text("Zoé (place 2) (vous)")
    expect(second.locator("#turn")).to_contain_text("Zoé (place 1)")
    second.goto(f"{base}/")
    expect(second.locator(f'[data-my-table-id="{table_id}"]')).to_contain_text("Zoé (place 1)")  # my games, whose turn it is
    assert "(seat" not in page_text(second)

"""The browser client's catalog (app/i18n/locales/fr/client.po) against the client's code.

Every string the client shows goes through ``t()`` / ``tn()`` (static/js/i18n.js) or, in the HTML
shells, is marked ``data-i18n`` / ``data-i18n-attrs`` (static/js/words.js, translatePage); these
tests extract them the way gettext tools do (Babel's JavaScript extractor, keywords ``t`` and
``tn``) and fail on a msgid with no French, on a French text with a placeholder its msgid lacks,
and on an entry the client no longer uses.  A game renderer's strings may live in its ruleset's
catalog (app/rulesets/<game>/locales/fr.po) instead (docs/i18n.md).
"""

from __future__ import annotations

import json

import pytest

from app import i18n
from tests.i18n.client_extract import (
    CLIENT_PO,
    LITERAL_CALL,
    PLACEHOLDER,
    ROOT,
    STATIC,
    client_scripts,
    game_catalogs,
    html_messages,
    is_game_renderer,
    js_messages,
)



@pytest.fixture(scope="module")
def client() -> i18n.Messages:
    return i18n.parse_po(CLIENT_PO.read_text(encoding="utf-8"), "fr")


@pytest.fixture(scope="module")
def used() -> dict[str | tuple[str, str], set[str]]:
    return {**js_messages(client_scripts()), **html_messages()}


def _has(catalog: i18n.Messages, key: str | tuple[str, str]) -> bool:
    return key[0] in catalog.plural if isinstance(key, tuple) else key in catalog.singular


def test_the_extraction_finds_the_client_strings(used):
    # the extractor really reads the code: strings of several kinds and files are among its finds
    assert "Your turn" in used and "Seat {n}" in used
    assert ("{n} player", "{n} players") in used
    assert "Waiting for players" in used and "Chat message" in used  # an HTML text and an aria-label


def test_every_client_string_has_french(client, used):
    games = game_catalogs()
    missing = sorted(
        f"{key!r} ({', '.join(sorted(files))})" for key, files in used.items()
        if not _has(client, key) and not any(_has(game, key) for game in games)
    )
    assert not missing, "no French in app/i18n/locales/fr/client.po for:\n" + "\n".join(missing)


def test_no_game_catalog_says_a_platform_string_otherwise(client):
    # A game's catalog is looked up before the client's on its tables (static/js/i18n.js), so an
    # entry of the same msgid would change the platform's words there: Heroes' "free" (of cost,
    # "gratuit") once made every free seat of a Heroes table "gratuit" instead of "libre".
    clashes = sorted(f"{key!r}: {client.singular[key]!r} here, {game.singular[key]!r} in a game's catalog"
                     for game in game_catalogs() for key in game.singular
                     if key in client.singular and game.singular[key] != client.singular[key])
    assert not clashes, "give the game's entry the platform's words or another msgid:\n" + "\n".join(clashes)


def literal_calls(path) -> set[str]:
    """The literal first arguments of t( and tn( in ``path`` as a plain reading finds them (comments aside)."""
    code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith(("//", "*", "/*")))
    return {json.loads(literal) for literal in LITERAL_CALL.findall(code)}


def test_every_renderer_string_has_french_in_the_client_or_a_game_catalog(client):
    # the games' renderers: what the extractor finds, and the literal calls it cannot see (inside a
    # template literal's ${…}), looked up as a singular or a plural entry
    catalogs = [client, *game_catalogs()]
    renderers = [path for path in sorted((STATIC / "js" / "renderers").glob("*.js")) if is_game_renderer(path)]
    keys: set[str | tuple[str, str]] = set(js_messages(renderers))
    seen = {key if isinstance(key, str) else key[0] for key in keys}
    keys |= {literal for path in renderers for literal in literal_calls(path) if literal not in seen}

    def known(key) -> bool:
        if isinstance(key, tuple):
            return any(_has(catalog, key) for catalog in catalogs)
        return any(key in catalog for catalog in catalogs)

    missing = sorted(repr(key) for key in keys if not known(key))
    assert not missing, "no French for these renderer strings:\n" + "\n".join(missing)


def test_no_literal_call_in_the_platform_escapes_the_extractor():
    # A t("…") the extractor cannot see (one inside a template literal's ${…} with an object
    # argument, say) would not be checked as a message: compute it into a variable first.
    for path in client_scripts():
        extracted = {key if isinstance(key, str) else key[0] for key in js_messages([path])}
        unseen = sorted(literal_calls(path) - extracted)
        assert not unseen, f"{path.relative_to(ROOT)}: t()/tn() calls the extractor missed: {unseen}"


def test_french_texts_use_only_their_msgids_placeholders(client):
    wrong = []
    for msgid, text in client.singular.items():
        if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(msgid)):
            wrong.append(f"{msgid!r} -> {text!r}")
    for msgid, forms in client.plural.items():
        # the plural form says everything; the singular may leave the count out ("la dernière partie")
        names = set(PLACEHOLDER.findall(msgid))
        wrong.extend(f"{msgid!r} -> {form!r}" for form in forms if not set(PLACEHOLDER.findall(form)) <= names)
        if set(PLACEHOLDER.findall(forms[-1])) != names:
            wrong.append(f"{msgid!r} -> {forms[-1]!r}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_the_catalog_holds_no_entry_the_client_no_longer_uses(client, used):
    singular = {key for key in used if isinstance(key, str)}
    plural = {key[0] for key in used if isinstance(key, tuple)}
    stale = sorted(set(client.singular) - singular) + sorted(set(client.plural) - plural)
    assert not stale, "client.po entries no code uses (remove them, or fix the msgid):\n" + "\n".join(map(repr, stale))


def test_the_french_is_french_where_it_says_whose_turn_it_is(client):
    # a few entries checked by hand, so a catalog of English copies cannot pass
    assert client.get("Your turn") == "À vous de jouer"
    assert client.nget("{n} player", 1) == "{n} joueur" and client.nget("{n} player", 2) == "{n} joueurs"
    assert client.nget("{n} player", 0) == "{n} joueur"  # French counts zero as singular
    assert client.get("{n}st") == "{n}er" and client.get("{n}th") == "{n}e"

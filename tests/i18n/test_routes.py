"""GET /i18n/{lang}/client.json and /i18n/{lang}/games/{name}.json: the catalogs the browser loads."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


@pytest.fixture(scope="module")
def web(tmp_path_factory, migrated_sqlite_file):
    # the routes read no database: one app for the module (an app start costs about a second)
    path = tmp_path_factory.mktemp("i18n") / "test.db"
    path.write_bytes(migrated_sqlite_file.read_bytes())
    with TestClient(create_app(make_settings(f"sqlite+aiosqlite:///{path}"))) as test_client:
        yield test_client


def test_the_french_client_catalog_is_json_with_an_etag(web):
    answer = web.get("/i18n/fr/client.json")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert body["language"] == "fr" and body["plural_categories"] == ["one", "other"]
    assert isinstance(body["messages"], dict)
    assert answer.headers["cache-control"] == "no-cache" and answer.headers["etag"].startswith('"')
    again = web.get("/i18n/fr/client.json", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_english_catalogs_are_empty(web):
    assert web.get("/i18n/en/client.json").json()["messages"] == {}
    assert web.get("/i18n/en/games/through-the-desert.json").json()["messages"] == {}


def test_a_game_that_does_not_speak_the_language_answers_an_empty_catalog(web):
    answer = web.get("/i18n/fr/games/toy-race.json")  # a toy ruleset: English only
    assert answer.status_code == 200 and answer.json()["messages"] == {}


@pytest.mark.parametrize(("path", "reader", "words"), [
    ("/i18n/de/client.json", "de", "no such language: de"),
    ("/i18n/de/games/nimalia.json", "en", "no such language: de"),
    ("/i18n/fr/games/chess.json", "fr", "jeu inconnu\u00a0: chess"),  # said in the reader's language
    ("/i18n/fr/games/chess.json", "en", "no such game: chess"),
])
def test_an_unknown_language_or_game_is_a_clear_404(web, path, reader, words):
    answer = web.get(path, headers={"accept-language": reader})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found" and words in answer.json()["error"]["message"]


def test_a_game_catalog_holds_its_templates_and_its_renderers_words(web):
    body = web.get("/i18n/fr/games/through-the-desert.json").json()
    assert body["language"] == "fr" and body["plural_categories"] == ["one", "other"]
    messages = body["messages"]
    assert messages["Camels per pile"] == "Chameaux par pile"  # the options form
    assert messages["{seat2} placed {camel} on {hex}"] == "{seat2} a posé {camel} en {hex}"  # the log
    assert messages["Camel piles"] == "Piles de chameaux"  # the renderer
    assert messages["{n} pt"] == ["{n}\u00a0pt", "{n}\u00a0pts"]  # a plural entry


def test_a_game_catalog_says_an_entry_a_bot_made_for_a_person(web):
    """bot_log writes "<template> — played by {by}" for an entry that does not name the mover."""
    messages = web.get("/i18n/fr/games/through-the-desert.json").json()["messages"]
    assert messages["The pink pile is empty: the game ends at once — played by {by}"] == (
        "La pile rose est vide\u00a0: la partie se termine aussitôt — joué par {by}")
    assert messages["{seat1} placed {camel} on {hex} — played by {by}"] == "{seat1} a posé {camel} en {hex} — joué par {by}"


def test_a_game_catalog_says_the_entries_the_platform_writes_into_every_log(web):
    """An undo is the platform's entry, not the game's: every game's catalog says it, for each seat."""
    for game, seats in (("through-the-desert", 5), ("nimalia", 4), ("nomadi", 5), ("heroes", 4)):
        messages = web.get(f"/i18n/fr/games/{game}.json").json()["messages"]
        for seat in range(seats):
            assert messages[f"{{seat{seat}}} takes back their last move"] == f"{{seat{seat}}} reprend son dernier coup", game
    assert not any("takes back" in msgid for msgid in web.get("/i18n/en/games/nimalia.json").json()["messages"])


def test_a_game_catalog_says_a_reason_without_its_rule_code_as_the_result_sends_it(web):
    """A result's reason reaches the browser with its rule code moved to ``rule``
    (``views.result_payload``): the catalog holds the reason without the code, said without it."""
    messages = web.get("/i18n/fr/games/nomadi.json").json()["messages"]
    assert messages["the turn limit was reached (A-30)"] == "la limite de tours a été atteinte (A-30)"
    assert messages["the turn limit was reached"] == "la limite de tours a été atteinte"
    assert messages["the third stone reached the goal"] == "le troisième pion a atteint l'arrivée"

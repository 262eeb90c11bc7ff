"""The HTML shells' marked words in the reader's language on the server (app/api/page_words.py):
each data-i18n text and data-i18n-attrs attribute becomes its French from the client catalog, so a
French page arrives French before any script runs; English pages are served as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import i18n
from app.api.page_words import translate_shell
from app.main import create_app
from tests.conftest import make_settings
from tests.i18n.client_extract import STATIC, MarkedText

SHELLS = sorted(path.name for path in STATIC.glob("*.html"))


def marked(text: str) -> list[str]:
    parser = MarkedText()
    parser.feed(text)
    return parser.msgids


@pytest.mark.parametrize("name", SHELLS)
def test_every_marked_word_of_a_shell_becomes_its_french(name):
    english = (STATIC / name).read_text(encoding="utf-8")
    catalog = i18n.platform_catalog("fr", "client")
    french = translate_shell(english, "fr")
    assert marked(french) == [catalog.get(msgid) or msgid for msgid in marked(english)]
    assert french != english


@pytest.mark.parametrize("name", SHELLS)
def test_an_english_shell_is_served_as_written(name):
    english = (STATIC / name).read_text(encoding="utf-8")
    assert translate_shell(english, "en") == english


def test_only_marked_elements_change_and_markup_survives():
    shell = ('<p class="x" data-i18n>\n  Waiting for players\n</p><b>Waiting for players</b>'
             '<ul aria-label="Seats" data-i18n-attrs="aria-label" title="Seats"></ul><p data-i18n><b>Chat</b></p>')
    assert translate_shell(shell, "fr") == (
        '<p class="x" data-i18n>En attente de joueurs</p><b>Waiting for players</b>'
        '<ul aria-label="Places" data-i18n-attrs="aria-label" title="Seats"></ul><p data-i18n><b>Chat</b></p>')


@pytest.fixture(scope="module")
def web(tmp_path_factory, migrated_sqlite_file):
    path: Path = tmp_path_factory.mktemp("pages") / "test.db"
    path.write_bytes(migrated_sqlite_file.read_bytes())
    with TestClient(create_app(make_settings(f"sqlite+aiosqlite:///{path}"))) as test_client:
        yield test_client


def test_the_lobby_page_is_french_for_a_french_browser(web):
    page = web.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5", "Accept": "text/html"}).text
    assert '<html lang="fr" data-language="fr">' in page
    assert "<title data-i18n>Caravanserai — salon</title>" in page and ">Nouvelle table<" in page
    assert ">New table<" not in page
    english = web.get("/", headers={"Accept-Language": "en-GB", "Accept": "text/html"}).text
    assert ">New table<" in english


def test_the_not_found_page_is_french_too(web):
    answer = web.get("/no/such/page", headers={"Accept-Language": "fr", "Accept": "text/html"})
    assert answer.status_code == 404 and ">Rien ici<" in answer.text

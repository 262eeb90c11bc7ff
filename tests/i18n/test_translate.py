"""app/i18n: reading catalogs, translating with placeholders and plurals, choosing a language."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app import i18n

PO = r'''
msgid ""
msgstr ""
"Language: fr\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "{name} joined"
msgstr "{name} a rejoint la table"

msgid "Sign in"
msgstr ""

#, fuzzy
msgid "Log out"
msgstr "Se déconnecter"

msgid "{n} camel"
msgid_plural "{n} camels"
msgstr[0] "{n} chameau"
msgstr[1] "{n} chameaux"
'''


@pytest.fixture
def catalog() -> i18n.Messages:
    return i18n.parse_po(PO, "fr")


def test_a_catalog_holds_its_translations_and_leaves_out_empty_and_fuzzy_ones(catalog):
    assert catalog.get("{name} joined") == "{name} a rejoint la table"
    assert "Sign in" not in catalog and "Log out" not in catalog
    assert "{n} camel" in catalog


def test_translate_fills_placeholders_and_falls_back_to_english(catalog):
    assert i18n.translate("fr", "{name} joined", catalog, name="Ana") == "Ana a rejoint la table"
    assert i18n.translate("fr", "Sign in", catalog) == "Sign in"  # empty msgstr: English
    assert i18n.translate("en", "{name} joined", catalog, name="Ana") == "Ana joined"
    assert i18n.translate("de", "{name} joined", catalog, name="Ana") == "Ana joined"  # not supported: English
    # a name is never read as a placeholder; an unknown placeholder stays
    assert i18n.translate("fr", "{name} joined", catalog, name="{name}") == "{name} a rejoint la table"
    assert i18n.translate("fr", "{who} left", catalog) == "{who} left"


def test_plural_forms_follow_the_catalogs_rule(catalog):
    # French (n > 1): 0 and 1 take the singular; English (n != 1): only 1 does
    assert [i18n.ntranslate("fr", "{n} camel", "{n} camels", n, catalog) for n in (0, 1, 2, 10)] == [
        "0 chameau", "1 chameau", "2 chameaux", "10 chameaux"]
    assert [i18n.ntranslate("en", "{n} camel", "{n} camels", n, catalog) for n in (0, 1, 2)] == [
        "0 camels", "1 camel", "2 camels"]


def test_the_server_catalog_is_read_from_the_package():
    assert i18n.translate("fr", "no such game: {name}", name="chess") == "jeu inconnu\u00a0: chess"
    assert i18n.ntranslate("fr", "{n} game", "{n} games", 3) == "3 parties"
    with pytest.raises(ValueError):
        i18n.platform_catalog("de")


def test_the_client_json_lists_plural_categories_for_intl_plural_rules(catalog):
    body = catalog.as_json()
    assert body["language"] == "fr" and body["plural_categories"] == ["one", "other"]
    assert body["messages"]["{n} camel"] == ["{n} chameau", "{n} chameaux"]
    assert body["messages"]["{name} joined"] == "{name} a rejoint la table"
    assert i18n.Messages(language="en").as_json()["plural_categories"] == ["one", "other"]


@pytest.mark.parametrize(("header", "expected"), [
    ("fr-CA,fr;q=0.9,en;q=0.8", "fr"),
    ("en-GB,en;q=0.9,fr;q=0.8", "en"),
    ("de-DE,de;q=0.9,fr;q=0.5", "fr"),  # the first wish this server has
    ("de, en;q=0.1, fr;q=0.3", "fr"),  # by quality, not by order
    ("fr;q=0, en", "en"),  # q=0: not wanted
    ("FR", "fr"),
    ("", "en"),
    (None, "en"),
    ("*", "en"),
    ("xx;q=abc, ;;, fr", "fr"),  # a malformed part is skipped
])
def test_negotiation_picks_the_first_supported_wish(header, expected):
    assert i18n.negotiate(header) == expected


def test_a_request_language_is_the_account_then_the_cookie_then_the_browser():
    assert i18n.choose("fr", "en", "en") == "fr"
    assert i18n.choose(None, "fr", "en") == "fr"
    assert i18n.choose(None, None, "fr-BE") == "fr"
    assert i18n.choose("xx", "zz", None) == "en"


def test_numbers_and_dates_in_the_language_form():
    assert i18n.format_number("en", 1234.5) == "1,234.5"
    assert i18n.format_number("fr", 1234.5) == "1\u202f234,5"
    moment = datetime(2026, 3, 5, 14, 7, tzinfo=timezone.utc)
    assert i18n.format_datetime("fr", moment, "d MMMM yyyy", tzinfo=timezone.utc) == "5 mars 2026"
    assert i18n.format_datetime("en", moment, "d MMMM yyyy", tzinfo=timezone.utc) == "5 March 2026"

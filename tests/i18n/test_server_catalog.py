"""The extraction check of the server's messages: every error message, e-mail, notice and digest
text in the code (``AppError``, ``translate``, ``ntranslate``, ``N_``; tests/i18n/extract.py) has
an entry in each language's ``server.po``, keeps its placeholders, and no message is built in
code (an f-string) where no catalog could hold it."""

from __future__ import annotations

import re

import pytest

from app import i18n
from tests.i18n.extract import server_strings

PLACEHOLDER = re.compile(r"\{(\w+)\}")
FOUND = server_strings()
LANGUAGES = [language for language in i18n.SUPPORTED if language != i18n.DEFAULT]


def test_the_extractor_finds_the_messages_it_should():
    assert "it is not your turn" in FOUND.msgids  # AppError("not_your_turn", "it is not your turn")
    assert "no table {table_id}" in FOUND.msgids  # a template with parameters
    assert "Hello {name}," in FOUND.msgids  # translate() in the e-mails
    assert FOUND.plurals["due in {n} day"] == "due in {n} days"  # ntranslate()
    assert "the chat of this table is for its players only" in FOUND.msgids  # N_()


def test_no_message_is_built_in_code():
    assert FOUND.not_literal == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_server_message_has_an_entry(language):
    catalog = i18n.platform_catalog(language, "server")
    missing = sorted(f"{where}: {msgid!r}" for msgid, where in FOUND.msgids.items() if msgid not in catalog)
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_translations_keep_the_placeholders(language, domain):
    catalog = i18n.platform_catalog(language, domain)
    wrong = [msgid for msgid, text in catalog.singular.items()
             if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(msgid))]
    wrong += [msgid for msgid, forms in catalog.plural.items()
              if any(not set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(msgid)) | {"n"} for form in forms)]
    assert wrong == []


def test_a_message_in_code_outside_the_catalog_fails_the_check(tmp_path):
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "x.py").write_text(
        'def f(name):\n    raise AppError("conflict", "a new refusal")\n'
        'def g(name):\n    raise AppError("conflict", f"{name} is built in code")\n')
    found = server_strings(tmp_path)
    assert list(found.msgids) == ["a new refusal"] and "a new refusal" not in i18n.platform_catalog("fr", "server")
    assert len(found.not_literal) == 1 and "built in code" in found.not_literal[0]

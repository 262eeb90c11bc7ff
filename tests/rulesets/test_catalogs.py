"""Each installed ruleset's languages (docs/i18n.md): the conformance kit's catalog check
(``app/rulesets/testing.py``, ``check_catalogs``) over every ruleset that declares a language
besides English, and Through the Desert's French as the example a reader can check by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from app import i18n
from app.rulesets.registry import Registry
from app.rulesets.testing import check_catalogs, declared_catalogs
from app.rulesets import through_the_desert
from app.rulesets.base import IllegalMove
from app.rulesets.through_the_desert.rules import ThroughTheDesert
from app.services.errors import AppError

RULESETS = Registry.discover().all()
SPEAKING = [ruleset for ruleset in RULESETS if len(type(ruleset).languages) > 1]


def test_through_the_desert_speaks_french():
    assert ThroughTheDesert.languages == ("en", "fr")
    assert "through-the-desert" in {ruleset.name for ruleset in SPEAKING}


@pytest.mark.parametrize("ruleset", SPEAKING, ids=lambda ruleset: ruleset.name)
def test_every_text_the_game_shows_has_an_entry_in_each_declared_language(ruleset):
    texts = check_catalogs(ruleset)
    assert ruleset.summary in texts  # the options form and the summary are looked for too


@pytest.mark.parametrize("ruleset", SPEAKING, ids=lambda ruleset: ruleset.name)
def test_a_catalog_keeps_the_placeholders_of_its_msgids(ruleset):
    for language, catalog in declared_catalogs(ruleset).items():
        wrong = [msgid for msgid, text in catalog.singular.items() if sorted(_names(text)) != sorted(_names(msgid))]
        assert wrong == [], f"{ruleset.name} {language}"


def _names(text: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", text)


def test_a_log_entry_of_through_the_desert_in_french():
    """A camel on a well at 2 players, its template and arguments translated as the client does:
    worked out by hand from locales/fr.po."""
    catalog = i18n.ruleset_catalog(ThroughTheDesert, "fr")
    template = i18n.translate("fr", "{seat1} placed {camel} on {hex} and took a well worth {values}", catalog)
    camel = i18n.translate("fr", "a pink camel", catalog)
    sentence = template.replace("{seat1}", "Ben").replace("{camel}", camel).replace("{hex}", "F7").replace("{values}", "2")
    assert sentence == "Ben a posé un chameau rose en F7 et a pris un puits valant 2"
    assert i18n.translate("fr", "the last purple camel was taken (G-1)", catalog) == "le dernier chameau violet a été pris (G-1)"
    assert i18n.translate("fr", "the turquoise caravan", catalog) == "la caravane turquoise"


def illegal_move_templates(package: Path) -> list[str]:
    """The literal messages of every ``IllegalMove(...)`` in a ruleset's package (an f-string there
    is listed as ``None``: a message built in code that no catalog can hold)."""
    found: list[str] = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove" and node.args:
                message = node.args[0]
                found.append(message.value if isinstance(message, ast.Constant) else None)
    return found


def test_through_the_desert_says_why_a_move_is_refused_in_french():
    templates = illegal_move_templates(Path(through_the_desert.__file__).parent)
    catalog = i18n.ruleset_catalog(ThroughTheDesert, "fr")
    assert None not in templates and len(templates) > 20
    assert [template for template in templates if template not in catalog] == []
    refusal = AppError.from_game(IllegalMove("P-7: you have no {colour} leader on the board", colour="green"), ThroughTheDesert)
    assert refusal.code == "illegal_move" and refusal.message == "P-7: you have no green leader on the board"
    assert refusal.message_in("fr") == "P-7\u00a0: vous n'avez pas de chef vert sur le plateau"

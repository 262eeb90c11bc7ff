"""The French catalogs of Nimalia, Nomadi and Heroes (``locales/fr.po``, docs/i18n.md): the kit's
check that every text a game shows has an entry (``check_catalogs``), and that every literal
its renderer passes to ``t()``/``tn()`` (``static/js/renderers/<game>.js``) has one too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.i18n import parse_po
from app.rulesets.base import Ruleset
from app.rulesets.heroes.rules import Heroes
from app.rulesets.nimalia.rules import Nimalia
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import check_catalogs

RENDERERS = Path(__file__).resolve().parents[2] / "static" / "js" / "renderers"
GAMES: list[tuple[type[Ruleset], tuple[str, ...]]] = [
    (Nimalia, ("nimalia.js",)),
    (Nomadi, ("nomadi.js",)),
    (Heroes, ("heroes.js", "heroes-full.js")),
]
"""Each game and its renderers.  Heroes ships a catalog of its names, options and renderer
strings but does not declare French yet: most of its log lines still write values into their
templates, so the kit's check runs on the games that declare it."""
CALL = re.compile(r"""\bt\(\s*("(?:[^"\\]|\\.)*")|\btn\(\s*("(?:[^"\\]|\\.)*")""")
"""A ``t("...")`` or ``tn("...", ...)`` call with a literal msgid (a plural entry is keyed by its singular)."""


def renderer_msgids(source: str) -> set[str]:
    """The literal msgids of the ``t()`` and ``tn()`` calls of a renderer's source."""
    return {json.loads(next(group for group in match.groups() if group)) for match in CALL.finditer(source)}


def test_renderer_msgids_reads_t_and_tn_literals():
    source = 't("Round {round}", { round }) + tn("{n} coin", "{n} coins", 2) + t(name) + notit("x")'
    assert renderer_msgids(source) == {"Round {round}", "{n} coin"}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_class", [game for game, _ in GAMES if "fr" in game.languages], ids=lambda game: game.name)
def test_every_text_a_game_shows_has_a_french_entry(ruleset_class):
    assert "fr" in ruleset_class.languages
    texts = check_catalogs(ruleset_class(), seeds=(1, 2))
    assert len(texts) > 20  # the games were played: templates, arguments, options


@pytest.mark.parametrize("ruleset_class,renderers", GAMES, ids=lambda value: getattr(value, "name", ""))
def test_every_renderer_string_has_a_french_entry(ruleset_class, renderers):
    catalog = parse_po(ruleset_class.locale_file("fr") or "", "fr")
    for renderer in renderers:
        msgids = renderer_msgids((RENDERERS / renderer).read_text(encoding="utf-8"))
        assert len(msgids) > 20, f"{renderer} says next to nothing through t()"
        missing = sorted(msgid for msgid in msgids if msgid not in catalog)
        assert not missing, f"{renderer}: {missing}"

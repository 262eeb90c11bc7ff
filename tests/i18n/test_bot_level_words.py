"""The bot levels as the host reads them when seating a bot (``static/js/bot-levels.js``): one
line each, in a board-gamer's words, that tell the levels apart as ``app/bots/players.py`` plays
them (easy: a few moves looked at and some random ones; medium: the best-looking move now;
strong: a search ahead over what it cannot know), in English and in French."""

from __future__ import annotations

import json
import re

from app import i18n
from app.bots.players import LEVELS
from tests.i18n.client_extract import ROOT

BOT_LEVELS_JS = ROOT / "static" / "js" / "bot-levels.js"
CLIENT_PO = ROOT / "app" / "i18n" / "locales" / "fr" / "client.po"
ENTRY = re.compile(r"""\{ value: "(\w+)".*?line: \(\) => t\(("(?:[^"\\]|\\.)*")\)""", re.S)


def level_lines() -> dict[str, str]:
    """Level -> its English line, in the order the host sees them."""
    return {value: json.loads(line) for value, line in ENTRY.findall(BOT_LEVELS_JS.read_text(encoding="utf-8"))}


def test_each_level_says_who_it_suits_and_only_the_strong_one_looks_ahead():
    """Easy and medium both read "one move ahead", and strong "searches ... over what it cannot see"."""
    lines = level_lines()
    assert tuple(lines) == LEVELS
    assert "beginner" in lines["easy"] and "fair" in lines["medium"] and "experienced" in lines["strong"]
    assert [level for level, line in lines.items() if "ahead" in line] == ["strong"]
    assert not any(jargon in line.lower() for line in lines.values() for jargon in ("search", "glance", "step"))
    assert len(set(lines.values())) == 3


def test_each_level_line_has_its_own_french():
    french = i18n.parse_po(CLIENT_PO.read_text(encoding="utf-8"), "fr")
    for level, line in level_lines().items():
        assert french.get(line) not in (None, line), level

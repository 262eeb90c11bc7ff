"""Every rule the Heroes code cites is defined in its rules reference (issue 22, item 2).

A stopgap for Heroes alone: the shared check over every ruleset replaces it at merge.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "rulesets" / "heroes"
CODE = re.compile(r"\b(?:NS0|NW|NS|NB|NC|NM)-\d+\b|\bA-[WBCSM]\d+\b|\bN-A\d+\b")
SECTIONS = re.compile(r"\bspecs? (\d+(?:\.\d+)*(?:(?:, | and |-|/)\d+(?:\.\d+)+)*)", re.IGNORECASE)
DEFINED = re.compile(r"^(?:- \*\*(\S+?)\*\*|#+ (\S+))", re.MULTILINE)


def cited() -> set[str]:
    """The codes and section numbers cited by the package's code and data."""
    found = set()
    for path in [*PACKAGE.glob("*.py"), *PACKAGE.glob("data/*.json")]:
        text = path.read_text()
        found.update(CODE.findall(text))
        for run in SECTIONS.findall(text):
            found.update(re.findall(r"\d+(?:\.\d+)*", run))
    return found


def defined() -> set[str]:
    """The codes and section numbers the reference defines (a bold code opening a list item, or a
    heading opening with a code or a section number)."""
    text = (PACKAGE / "reference.md").read_text()
    return {(bold or heading).rstrip(".") for bold, heading in DEFINED.findall(text)}


def test_every_cited_rule_of_heroes_is_in_its_reference():
    assert {"NW-1", "NS-4", "A-S1", "N-A13", "1.7", "1.8.3", "2.6"} <= cited()
    assert sorted(cited() - defined()) == []

"""Every rule a ruleset's code cites is written down in its rules reference.

A ruleset's ``reference.md`` (package data beside its rules) defines rule codes and section numbers
(``app/rulesets/reference.py``); its modules cite them in docstrings, comments and messages.  A
newcomer must be able to follow any citation to its text, so a code cited but not defined fails.
"""

from __future__ import annotations

from importlib import resources

import pytest

from app.api.rules_pages import RulesBook, render_page
from app.rulesets.reference import Anchored, citations, defined
from app.rulesets.registry import Registry
from tests.support.documented_toy import DocumentedToyRace
from tests.support.toy_rulesets import ToyRace



def discovered():
    """Every installed ruleset (each ships its reference)."""
    return [pytest.param(ruleset, id=ruleset.name) for ruleset in Registry.discover().all()]


def sources(ruleset) -> dict[str, str]:
    """The text of every Python module of the ruleset's package, by path inside the package."""
    package = resources.files(type(ruleset).__module__.rpartition(".")[0])
    found: dict[str, str] = {}

    def walk(folder, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".py"):
                found[prefix + entry.name] = entry.read_text(encoding="utf-8")

    walk(package, "")
    return found


@pytest.mark.parametrize("ruleset", discovered())
def test_every_rule_code_the_code_cites_is_in_the_reference(ruleset):
    reference = type(ruleset).reference()
    assert reference is not None, f"{ruleset.name} has no reference.md beside its rules"
    codes = defined(reference)

    missing = {name: sorted(citations(text, codes) - codes) for name, text in sources(ruleset).items()}

    assert not {name: cited for name, cited in missing.items() if cited}, "cited, but not in the reference"


@pytest.mark.parametrize("ruleset", discovered())
def test_each_rule_code_is_defined_once(ruleset):
    reference = type(ruleset).reference()
    assert reference is not None

    twice = sorted(code for code, count in Anchored(reference).codes.items() if count > 1)

    assert not twice


@pytest.mark.parametrize("ruleset", discovered())
def test_every_rule_code_is_an_anchor_of_the_page(ruleset):
    reference = type(ruleset).reference()
    assert reference is not None

    html = render_page(reference, ruleset.title).html

    assert [code for code in sorted(defined(reference)) if f'id="{code}"' not in html] == []


def test_codes_and_section_numbers_are_found_where_the_format_says():
    text = """# Game

- **E-5** Enclosure is checked after every camel.
  - **L-2a** Not on a well.
- Not a **E-6** definition: the code must open the item.
- **D2** A bare code.

### 1.7 The Action Bar

### S-3 A heading code
"""
    assert defined(text) == {"E-5", "L-2a", "D2", "1.7", "S-3"}


def test_a_citation_the_reference_lacks_is_reported():
    codes = {"E-5", "D2", "1.7"}
    source = '"""Spec E-5 and E-6; spec 1.7 and §2.3; see D2 and D7; NS0-1..NS0-3."""'

    assert citations(source, codes) - codes == {"E-6", "2.3", "D7", "NS0-1", "NS0-3"}


def test_bare_codes_count_only_when_the_reference_has_bare_codes_of_those_letters():
    source = "level L2 of the capital; rule D3 of the round"

    assert citations(source, {"E-5"}) == set()
    assert citations(source, {"D1"}) == {"D3"}


def test_rules_codes_and_section_numbers_become_anchors_and_sections_become_cards():
    page = render_page("# Toy\n\nLead.\n\n## Goal of the game\n\n- **R-30b** Offer it.\n\n### 1.7 Bar\n\n"
                       "| a | b |\n|---|---|\n| 1 | 2 |\n", "fallback")

    assert '<li id="R-30b">' in page.html
    assert '<h3 id="1.7">' in page.html
    assert '<p class="lead">Lead.</p>' in page.html
    assert '<section class="card" aria-labelledby="goal-of-the-game">' in page.html
    assert '<a href="#goal-of-the-game">Goal of the game</a>' in page.html
    assert '<div class="table-scroll">\n<table class="score-table">' in page.html


def test_a_reference_is_text_never_markup():
    page = render_page("# Toy\n\n<script>alert(1)</script>\n\n## Goal <b>x</b>\n", "fallback")

    assert "<script>" not in page.html and "<b>" not in page.html
    assert "&lt;script&gt;" in page.html


def test_a_ruleset_with_a_reference_gets_a_page_and_one_without_gets_none():
    book = RulesBook(Registry([DocumentedToyRace(), ToyRace()]))

    documented = book.page("toy-documented")

    assert DocumentedToyRace.reference().startswith("# Documented toy race")
    assert ToyRace.reference() is None
    assert documented is not None and '<li id="TR-1">' in documented.html and '<h3 id="1.1">' in documented.html
    assert book.page("toy-race") is None and book.page("no-such-game") is None
    index = book.index()
    assert 'href="/rules/toy-documented"' in index and "Race to ten, with its rules written down." in index
    assert "/rules/toy-race" not in index


def test_a_mention_of_a_rule_in_the_text_links_to_it():
    page = render_page("# Toy\n\n## Rules\n\n- **R-22** Never back.\n- **R-34** Start again? No (R-22); not R-2 or T-R-22.\n\n"
                       "### About R-22\n", "fallback")

    assert '<li id="R-34"><strong>R-34</strong> Start again? No (<a href="#R-22">R-22</a>); not R-2 or T-R-22.</li>' in page.html
    assert '<strong>R-22</strong> Never back.' in page.html  # the definition itself is not a link
    assert '<h3 id="about-r-22">About R-22</h3>' in page.html  # nor is a heading, which the contents repeat

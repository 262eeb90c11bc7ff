"""The rules pages: ``GET /rules/{ruleset}`` renders the game's rules for players (``reference.md``
of its package up to "About the numbered rules"), opening with "How to play in 2 minutes" and its
example position; ``GET /rules/{ruleset}/reference`` the numbered rules the log's § marks link to;
``GET /rules`` lists the games that have one, and nothing else under ``/rules/`` is ever served."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from app.rulesets.reference import defined
from app.rulesets.registry import Registry

TITLES = {"through-the-desert": "Through the Desert", "nimalia": "Nimalia", "nomadi": "Nomadi", "heroes": "Heroes of Land, Air & Sea"}
GAMES = [pytest.param(name, title, id=name) for name, title in TITLES.items()]
# Codes the code cites, one of each kind the format knows (list item, nested item, bare code, section).
SAMPLE_ANCHORS = {"through-the-desert": {"E-5", "L-2a", "3.7"}, "nimalia": {"D2", "D-2", "O15", "0", "2.3"},
                  "nomadi": {"R-30b", "A-30", "N4", "2.4"}, "heroes": {"1.7", "NW-1", "NS0-1", "A-S1"}}
SECTIONS = ("Goal of the game", "Setup", "step by step", "Scoring and game end", "Table options", "How to play it here")


class Outline(HTMLParser):
    """The parts of a page the tests look at: lang, title, headings (level, text) and the text."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = None
        self.title = ""
        self.headings: list[tuple[int, str]] = []
        self.text: list[str] = []
        self.ids: set[str] = set()
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        if dict(attrs).get("id"):
            self.ids.add(dict(attrs)["id"])
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag == "title" or (len(tag) == 2 and tag[0] == "h" and tag[1] in "123456"):
            self._open = tag
            if tag != "title":
                self.headings.append((int(tag[1]), ""))

    def handle_endtag(self, tag):
        if tag == self._open:
            self._open = None

    def handle_data(self, data):
        self.text.append(data)
        if self._open == "title":
            self.title += data
        elif self._open:
            level, text = self.headings[-1]
            self.headings[-1] = (level, text + data)


def outline(html: str) -> Outline:
    parser = Outline()
    parser.feed(html)
    return parser


def humanise(name: str) -> str:
    """The label options-form.js gives a field or a choice without a title."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:]


def option_labels(ruleset_name: str) -> list[str]:
    """Every table option's label and every choice's label, as the lobby's options form shows them."""
    schema = Registry.discover().get(ruleset_name).Options.model_json_schema()
    labels = []
    for name, field in schema["properties"].items():
        labels.append(field.get("title") or humanise(name))
        choices = field.get("choice_labels") or {}
        labels += [choices.get(choice) or humanise(choice) for choice in field.get("enum", []) if isinstance(choice, str)]
    return labels


@pytest.mark.parametrize("ruleset, title", GAMES)
def test_each_game_has_an_accessible_rules_page(client, ruleset, title):
    answer = client.get(f"/rules/{ruleset}")

    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    page = outline(answer.text)
    assert page.lang == "en"
    assert title in page.title
    assert [text for level, text in page.headings if level == 1] == [title]
    levels = [level for level, _ in page.headings]
    assert all(later <= earlier + 1 for earlier, later in zip(levels, levels[1:])), "a heading level is skipped"
    section_titles = [" ".join(text.split()) for level, text in page.headings if level == 2]
    for section in SECTIONS:
        assert any(section in heading for heading in section_titles), f"no section {section!r}"


@pytest.mark.parametrize("ruleset, title", GAMES)
def test_each_rules_page_names_the_table_options_as_the_lobby_labels_them(client, ruleset, title):
    text = " ".join("".join(outline(client.get(f"/rules/{ruleset}").text).text).split())

    missing = [label for label in option_labels(ruleset) if label not in text]

    assert not missing, f"the rules page of {ruleset} does not mention {missing}"


@pytest.mark.parametrize("ruleset, title", GAMES)
def test_every_rule_code_the_code_cites_is_an_anchor_of_the_page(client, ruleset, title):
    """``/rules/nomadi#R-30b`` lands on the rule: each code the reference defines, and so each code
    the ruleset's code cites (tests/rulesets/test_rules_references.py), is an element id."""
    reference = type(Registry.discover().get(ruleset)).reference()

    numbered = outline(client.get(f"/rules/{ruleset}/reference").text)

    assert defined(reference) - numbered.ids == set()
    assert SAMPLE_ANCHORS[ruleset] <= numbered.ids


@pytest.mark.parametrize("ruleset, title", GAMES)
def test_the_players_page_opens_with_two_minutes_and_a_picture_and_leaves_the_numbers_apart(client, ruleset, title):
    html = client.get(f"/rules/{ruleset}").text
    page = outline(html)

    first = [text for level, text in page.headings if level == 2][0]
    assert first == "How to play in 2 minutes"
    example = json.loads(re.search(r'<script type="application/json" class="rules-example">(.*?)</script>', html, re.S).group(1))
    assert example["view"] and example["legal"] == [] and example["players"]
    assert '<script type="module" src="/static/js/rules-picture.js">' in html
    assert f'href="/rules/{ruleset}/reference"' in html
    assert not any("About the numbered rules" in text for _, text in page.headings)
    # a rule named in the players' words links to the numbered page, never to an anchor here
    assert not re.search(r'href="#[A-Z]+-?\d', html)
    numbered = client.get(f"/rules/{ruleset}/reference")
    assert numbered.status_code == 200 and f'href="/rules/{ruleset}"' in numbered.text


@pytest.mark.parametrize("ruleset, title", GAMES)
def test_no_rules_page_carries_notes_for_developers(client, ruleset, title):
    text = client.get(f"/rules/{ruleset}").text + client.get(f"/rules/{ruleset}/reference").text

    assert "How the server keeps a game" not in text and "Test positions for the move generator" not in text


def test_rules_index_links_every_game_with_a_reference(client):
    answer = client.get("/rules")

    assert answer.status_code == 200
    for ruleset in TITLES:
        assert f'href="/rules/{ruleset}"' in answer.text
    assert 'href="/rules/toy-race"' not in answer.text  # an installed ruleset without a reference


@pytest.mark.parametrize("path", [
    "/rules/chess",
    "/rules/Nimalia",
    "/rules/nimalia.html",
    "/rules/index",
    "/rules/reference.md",
    "/rules/toy-race",  # an installed ruleset without a rules reference
    "/rules/%2e%2e",
    "/rules/..%2Fmain.py",
    "/rules/%2e%2e%2f%2e%2e%2fpyproject.toml",
    "/rules/..%5C..%5Cpyproject.toml",
    "/rules/nimalia%2F..%2Fnomadi",
    "/rules/nimalia%00",
    "/rules/x/../../pyproject.toml",
    "/rules/toy-race/reference",
    "/rules/chess/reference",
])
def test_unknown_names_and_path_tricks_are_not_found(client, path):
    answer = client.get(path, headers={"accept": "text/html"})

    assert answer.status_code == 404
    assert "Nothing here" in answer.text  # the site's 404 page, not a file from elsewhere

"""Rules references: each game's rules in Markdown, and the rule codes they define and the code cites.

A ruleset ships its rules reference as package data, ``reference.md`` beside its ``rules.py``
(:meth:`Ruleset.reference <app.rulesets.base.Ruleset.reference>` reads it); ``/rules/<game>`` renders
it and the code cites its rules by code.  The format (``docs/rules/README.md``):

* a **rule code** (``E-5``, ``R-30b``, ``NS0-1``, ``A-S1``, ``D2``) is defined by a list item that starts
  with it in bold (``- **E-5** Enclosure is checked ...``) or by a heading that starts with it
  (``### E-5 ...``);
* a **section number** (``1.7``, ``3``) is defined by a heading that starts with it (``### 1.7 The Action Bar``);
* every code and section number becomes the HTML anchor of its list item or heading, so
  ``/rules/nomadi#R-30b`` and ``/rules/heroes#1.7`` land on the rule; other headings get a slug.

Citations in a ruleset's code (docstrings, comments and messages alike) are found by
:func:`citations`: every hyphenated code (``E-5``, ``NW-8``), every bare code (``D2``, ``O15``)
whose letters start some bare code the reference defines (so a reference without bare codes
leaves ``L2``-like words alone), and every section number after ``spec``, ``section`` or ``§``.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin

__all__ = ["CODE", "SECTION", "Anchored", "citations", "defined", "markdown"]

CODE = r"[A-Z]{1,3}[0-9]?-?[A-Z]{0,2}[0-9]+[a-z]?"
SECTION = r"[0-9]+(?:\.[0-9]+)*"
_CODE = re.compile(rf"{CODE}")
_HEADING_CODE = re.compile(rf"({CODE}|{SECTION})\.?(?:\s|$)")
_HYPHENATED = re.compile(r"\b[A-Z]{1,3}[0-9]?-[A-Z]{0,2}[0-9]+[a-z]?\b")
_BARE = re.compile(r"\b([A-Z]{1,2})[0-9]{1,2}[a-z]?\b")
_BARE_DEFINITION = re.compile(r"([A-Z]{1,2})[0-9]{1,2}[a-z]?")
_SECTION_CITATION = re.compile(rf"(?:\b[Ss]pec(?:'s)?\s+(?:§\s*|section\s+)?|\b[Ss]ection\s+|§\s*)({SECTION})")


@functools.cache
def markdown() -> MarkdownIt:
    """The one Markdown dialect of every reference: CommonMark with tables and definition lists,
    raw HTML off (a reference is text, never markup to pass through)."""
    return MarkdownIt("commonmark", {"html": False}).enable("table").use(deflist_plugin)


class Anchored:
    """A reference parsed into Markdown tokens, every code, section and heading carrying its ``id``.

    ``tokens`` is markdown-it's block token stream; ``codes`` maps each rule code and section
    number to how often it is defined (a well-formed reference defines each once).
    """

    def __init__(self, text: str) -> None:
        self.tokens: list[Token] = markdown().parse(text)
        self.codes: dict[str, int] = {}
        used: set[str] = set()
        for index, token in enumerate(self.tokens):
            if token.type == "heading_open":
                title = self.tokens[index + 1].content
                code = _heading_code(title)
                token.attrSet("id", code or _unique(_slug(title), used))
            elif token.type == "list_item_open":
                code = _item_code(self.tokens, index)
                if code is None:
                    continue
                token.attrSet("id", code)
            else:
                continue
            if code is not None:
                self.codes[code] = self.codes.get(code, 0) + 1
            used.add(str(token.attrGet("id")))


def defined(text: str) -> set[str]:
    """Every rule code and section number the reference ``text`` defines."""
    return set(Anchored(text).codes)


def citations(source: str, codes: set[str]) -> set[str]:
    """The rule codes and section numbers that ``source`` (a module's text) cites, given the
    ``codes`` its reference defines (they decide which bare codes count; see the module docstring)."""
    bare_prefixes = {match.group(1) for code in codes if (match := _BARE_DEFINITION.fullmatch(code))}
    cited = set(_HYPHENATED.findall(source))
    cited |= {match.group(0) for match in _BARE.finditer(source) if match.group(1) in bare_prefixes}
    cited |= {match.group(1) for match in _SECTION_CITATION.finditer(source)}
    return cited


def _heading_code(title: str) -> str | None:
    match = _HEADING_CODE.match(title)
    return match.group(1) if match else None


def _item_code(tokens: list[Token], index: int) -> str | None:
    """The code a list item opening at ``tokens[index]`` starts with in bold, if any."""
    if index + 2 >= len(tokens) or tokens[index + 1].type != "paragraph_open":
        return None
    children = [child for child in tokens[index + 2].children or [] if not (child.type == "text" and not child.content)]
    if len(children) >= 3 and [child.type for child in children[:3]] == ["strong_open", "text", "strong_close"]:
        if _CODE.fullmatch(children[1].content):
            return children[1].content
    return None


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


def _unique(slug: str, used: set[str]) -> str:
    candidate, number = slug, 2
    while candidate in used:
        candidate, number = f"{slug}-{number}", number + 1
    return candidate

"""The rules pages: ``GET /rules`` lists the games, ``GET /rules/{name}`` renders one game's rules reference.

Each page is the ruleset's own ``reference.md`` (:meth:`Ruleset.reference`) rendered on the server:
the first heading is the page title, the paragraph under it the lead, and every second-level
section a card with an entry in the page's table of contents; rule codes and section numbers are
anchors (``/rules/nimalia#D2``, see ``app/rulesets/reference.py``).  A request's name is only ever
a key of the registry, never part of a path, so nothing but a reference is served under ``/rules/``;
a ruleset without a reference has no page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from starlette.exceptions import HTTPException

from app.rulesets.reference import SECTION, Anchored, markdown
from app.rulesets.registry import Registry, UnknownRuleset

router = APIRouter(include_in_schema=False)
_SECTION = re.compile(SECTION)


@dataclass(frozen=True)
class RulesPage:
    """One game's rendered rules: ``title`` and ``lead`` as HTML fragments, ``html`` the whole page."""

    title: str
    lead: str
    html: str


class RulesBook:
    """The rules pages of a registry's rulesets, each rendered on first request and kept.

    Held by the app for its lifetime (the registry never changes while it runs).
    """

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._pages: dict[str, RulesPage | None] = {}

    def page(self, name: str) -> RulesPage | None:
        """The page of the ruleset called ``name``, or ``None`` (no such ruleset, or no reference)."""
        if name not in self._pages:
            try:
                ruleset = self._registry.get(name)
            except UnknownRuleset:
                return None
            text = type(ruleset).reference()
            self._pages[name] = None if text is None else render_page(text, ruleset.title)
        return self._pages[name]

    def index(self) -> str:
        """The ``/rules`` page: every listed ruleset that has a reference, with its lead."""
        entries = []
        for ruleset in self._registry.all():
            page = self.page(ruleset.name) if ruleset.listed else None
            if page is None:
                continue
            players = (f"{ruleset.min_players}–{ruleset.max_players}" if ruleset.min_players != ruleset.max_players
                       else str(ruleset.min_players))
            entries.append(f'<li><a href="/rules/{escape(ruleset.name)}"><strong>{page.title}</strong></a> · {players} players'
                           f'\n  <p class="muted">{page.lead}</p></li>')
        games = "\n".join(entries) or '<li class="muted">No game with a rules reference is installed.</li>'
        body = (f'<h1>Rules of the games</h1>\n<p class="lead">The rules of each game in our own words, with its table '
                f'options, the controls of this server and the numbered rules the code follows.</p>\n'
                f'<section class="card" aria-labelledby="games">\n<h2 id="games">Games</h2>\n'
                f'<ul class="game-list">\n{games}\n</ul>\n</section>')
        return _document("Rules of the games", body, back_to_all=False)


def rules_book(request: Request) -> RulesBook:
    """The app's :class:`RulesBook` (made in the lifespan, beside the registry)."""
    return request.app.state.rules_book


Book = Annotated[RulesBook, Depends(rules_book)]


@router.get("/rules")
async def rules_index(book: Book) -> HTMLResponse:
    return HTMLResponse(book.index())


@router.get("/rules/{name}")
async def rules_page(name: str, book: Book) -> HTMLResponse:
    page = book.page(name)
    if page is None:
        raise HTTPException(404, "no such page")
    return HTMLResponse(page.html)


def render_page(text: str, fallback_title: str) -> RulesPage:
    """A reference's Markdown as a whole rules page; ``fallback_title`` when it has no first-level heading."""
    anchored = Anchored(text)
    tokens = anchored.tokens
    _link_codes(tokens, {code for code in anchored.codes if not _SECTION.fullmatch(code)})
    renderer = PageRenderer()
    options = markdown().options

    def html(part: list[Token]) -> str:
        return renderer.render(part, options, {})

    title_html, lead_html, start = escape(fallback_title), "", 0
    if len(tokens) > 2 and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        title_html, start = renderer.renderInline(tokens[1].children or [], options, {}), 3
        if len(tokens) > 5 and tokens[3].type == "paragraph_open":
            tokens[3].attrSet("class", "lead")
            lead_html = renderer.renderInline(tokens[4].children or [], options, {})
    sections = _sections(tokens[start:])
    intro, cards = sections[0], sections[1:]
    toc = "\n".join(f'<li><a href="#{escape(str(card[0].attrGet("id") or ""))}">'
                    f'{renderer.renderInline(card[1].children or [], options, {})}</a></li>' for card in cards)
    body = [f"<h1>{title_html}</h1>", html(intro)]
    if cards:
        body.append(f'<nav aria-label="On this page">\n<ul class="rules-toc">\n{toc}\n</ul>\n</nav>')
    for card in cards:
        body.append(f'<section class="card" aria-labelledby="{escape(str(card[0].attrGet("id") or ""))}">\n'
                    f"{html(card)}</section>")
    title_text = tokens[1].content if start else fallback_title
    return RulesPage(title=title_html, lead=lead_html, html=_document(f"{title_text} — rules", "\n".join(body)))


def _link_codes(tokens: list[Token], codes: set[str]) -> None:
    """Make every mention of one of ``codes`` in running text a link to its rule (``(R-22)`` becomes
    ``<a href="#R-22">``); headings, bold text (where codes are defined), links and code spans stay."""
    if not codes:
        return
    mention = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(codes, key=len, reverse=True))) + r")(?![\w-])")
    for index, token in enumerate(tokens):
        if token.type != "inline" or (index and tokens[index - 1].type == "heading_open"):
            continue
        children, depth = [], 0
        for child in token.children or []:
            depth += {"strong_open": 1, "link_open": 1, "strong_close": -1, "link_close": -1}.get(child.type, 0)
            if child.type != "text" or depth or not mention.search(child.content):
                children.append(child)
                continue
            for number, part in enumerate(mention.split(child.content)):
                if number % 2 == 0:
                    if part:
                        children.append(Token("text", "", 0, content=part))
                    continue
                children += [Token("link_open", "a", 1, attrs={"href": f"#{part}"}),
                             Token("text", "", 0, content=part), Token("link_close", "a", -1)]
        token.children = children


def _sections(tokens: list[Token]) -> list[list[Token]]:
    """``tokens`` cut before every second-level heading; the first part is what precedes the first."""
    parts: list[list[Token]] = [[]]
    for token in tokens:
        if token.type == "heading_open" and token.tag == "h2":
            parts.append([])
        parts[-1].append(token)
    return parts


class PageRenderer(RendererHTML):
    """markdown-it's HTML renderer with the site's table look (``app.css``: ``.table-scroll``, ``.score-table``)."""

    def table_open(self, tokens, idx, options, env):
        tokens[idx].attrSet("class", "score-table")
        return '<div class="table-scroll">\n' + self.renderToken(tokens, idx, options, env)

    def table_close(self, tokens, idx, options, env):
        return self.renderToken(tokens, idx, options, env) + "</div>\n"


def _document(title: str, body: str, back_to_all: bool = True) -> str:
    """A whole HTML page in the site's frame (header, ``app.css``) around ``body``."""
    all_rules = '\n    <a class="topbar-link" href="/rules">All rules</a>' if back_to_all else ""
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · Caravanserai</title>
  <link rel="stylesheet" href="/static/app.css">
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body class="page-rules">
  <header class="topbar">
    <a class="brand" href="/">Caravanserai</a>
    <a class="topbar-link" href="/">← Back to lobby</a>{all_rules}
  </header>
  <main class="rules-page">
{body}
  </main>
</body>
</html>
"""

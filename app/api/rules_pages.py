"""The rules pages: ``GET /rules`` lists the games, ``GET /rules/{name}`` renders one game's rules for
players and ``GET /rules/{name}/reference`` its numbered rules.

Each page comes from the ruleset's own ``reference.md`` (:meth:`Ruleset.reference`) rendered on the
server: the first heading is the page title, the paragraph under it the lead, and every
second-level section a card with an entry in the page's table of contents.  A reference with a
section "About the numbered rules" is cut there: what comes before is the players' page (it opens
with "How to play in 2 minutes", whose picture the game's own renderer draws in the browser from a
fixed example position, ``static/js/rules-picture.js``), the rest the numbered reference, where
rule codes and section numbers are anchors (``/rules/nimalia/reference#D2``, see
``app/rulesets/reference.py``).  Older links to ``/rules/nimalia#D2`` still land on the rule: the
players' page sends an anchor it does not have on to the reference.  A request's name is only
ever a key of the registry, never part of a path, so nothing but a reference is served under
``/rules/``; a ruleset without a reference has no page.

Languages (docs/i18n.md): a page is in the reader's language (the chooser's cookie, else
``Accept-Language``).  The players' part comes from the ruleset's ``rules.<lang>.md`` when it
declares that language and ships one (:meth:`Ruleset.players_rules`), the page's own words from
``server.po``; the numbered rules stay English, which the translated page says where it links them.
A game without a translation of its rules gets the English page.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from html import escape, unescape
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from starlette.exceptions import HTTPException

from app import i18n
from app.i18n import N_, translate
from app.rulesets.reference import SECTION, Anchored, markdown
from app.rulesets.registry import Registry, UnknownRuleset

router = APIRouter(include_in_schema=False)
_SECTION = re.compile(SECTION)
NUMBERED_RULES = "\n## About the numbered rules"  # where a reference's part for players ends
EXAMPLE_MOVES = 12  # moves played into the example position the players' page draws
EXAMPLE_SEED = 7
EXAMPLE_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli")


@dataclass(frozen=True)
class RulesPage:
    """One game's rendered rules: ``title`` and ``lead`` as HTML fragments, ``html`` the whole page
    (for players, when the reference has a numbered part), ``reference`` the whole page of the
    numbered rules (``None`` when the reference is not cut in two)."""

    title: str
    lead: str
    html: str
    reference: str | None = None


class RulesBook:
    """The rules pages of a registry's rulesets, each rendered on first request and kept.

    Held by the app for its lifetime (the registry never changes while it runs).
    """

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._pages: dict[tuple[str, str], RulesPage | None] = {}

    def page(self, name: str, language: str = i18n.DEFAULT) -> RulesPage | None:
        """The page of the ruleset called ``name`` in ``language`` (English where the game has no
        ``rules.<language>.md``), or ``None`` (no such ruleset, or no reference)."""
        if (name, language) not in self._pages:
            try:
                ruleset = self._registry.get(name)
            except UnknownRuleset:
                return None
            text = type(ruleset).reference()
            players = (type(ruleset).players_rules(language)
                       if language != i18n.DEFAULT and language in type(ruleset).languages else None)
            self._pages[name, language] = None if text is None else render_page(
                text, ruleset.title, name, lambda: example_frame(ruleset), language=language if players else i18n.DEFAULT,
                players_text=players, page_language=language)
        return self._pages[name, language]

    def index(self, language: str = i18n.DEFAULT) -> str:
        """The ``/rules`` page in ``language``: every listed ruleset that has a reference, with its lead."""
        entries = []
        for ruleset in self._registry.all():
            page = self.page(ruleset.name, language) if ruleset.listed else None
            if page is None:
                continue
            players = (translate(language, "{low}–{high} players", low=ruleset.min_players, high=ruleset.max_players)
                       if ruleset.min_players != ruleset.max_players
                       else i18n.ntranslate(language, "{n} player", "{n} players", ruleset.min_players))
            entries.append(f'<li><a href="/rules/{escape(ruleset.name)}"><strong>{page.title}</strong></a> · {escape(players)}'
                           f'\n  <p class="muted">{page.lead}</p></li>')
        none = escape(translate(language, "No game with a rules reference is installed."))
        games = "\n".join(entries) or f'<li class="muted">{none}</li>'
        title = escape(translate(language, "Rules of the games"))
        lead = escape(translate(language, "The rules of each game in our own words, with its table options, the controls "
                                          "of this server and the numbered rules the code follows."))
        body = (f'<h1>{title}</h1>\n<p class="lead">{lead}</p>\n'
                f'<section class="card" aria-labelledby="games">\n<h2 id="games">{escape(translate(language, "Games"))}</h2>\n'
                f'<ul class="game-list">\n{games}\n</ul>\n</section>')
        return _document(translate(language, "Rules of the games"), body, back_to_all=False, language=language)


def rules_book(request: Request) -> RulesBook:
    """The app's :class:`RulesBook` (made in the lifespan, beside the registry)."""
    return request.app.state.rules_book


Book = Annotated[RulesBook, Depends(rules_book)]


VARY = {"Vary": "Cookie, Accept-Language"}


@router.get("/rules")
async def rules_index(book: Book, request: Request) -> HTMLResponse:
    return HTMLResponse(book.index(i18n.connection_language(request)), headers=VARY)


@router.get("/rules/{name}")
async def rules_page(name: str, book: Book, request: Request) -> HTMLResponse:
    page = book.page(name, i18n.connection_language(request))
    if page is None:
        raise HTTPException(404, N_("no such page"))
    return HTMLResponse(page.html, headers=VARY)


@router.get("/rules/{name}/reference")
async def numbered_rules_page(name: str, book: Book) -> HTMLResponse:
    page = book.page(name)
    if page is None or page.reference is None:
        raise HTTPException(404, N_("no such page"))
    return HTMLResponse(page.reference)


def example_frame(ruleset) -> dict:
    """A fixed example position of ``ruleset`` as the table page's renderers take it (the shape of a
    replay's frame, seen from seat 0 with no legal moves): a 2-player game (or the fewest players
    it allows) after ``EXAMPLE_MOVES`` moves chosen by a seeded generator among the legal ones."""
    players = max(2, ruleset.min_players) if ruleset.max_players >= 2 else ruleset.min_players
    state = ruleset.setup(players, ruleset.parse_options({}), EXAMPLE_SEED)
    chooser = random.Random(EXAMPLE_SEED)
    for _ in range(EXAMPLE_MOVES):
        seats = sorted(ruleset.to_act(state))
        if not seats or ruleset.result(state) is not None:
            break
        seat = chooser.choice(seats)
        moves = ruleset.legal_moves(state, seat)
        if not moves:
            break
        state, _ = ruleset.apply(state, seat, chooser.choice(moves))
    return {"type": "state", "version": EXAMPLE_MOVES, "seat": 0, "status": "running", "view": ruleset.view(state, 0),
            "legal": [], "to_act": sorted(ruleset.to_act(state)),
            "players": [{"seat": seat, "name": EXAMPLE_NAMES[seat % len(EXAMPLE_NAMES)]} for seat in range(players)]}


def render_page(text: str, fallback_title: str, name: str | None = None, example=None, language: str = i18n.DEFAULT,
                players_text: str | None = None, page_language: str | None = None) -> RulesPage:
    """A reference's Markdown as a rules page; ``fallback_title`` when it has no first-level heading.

    With the ruleset's ``name``, a reference that has a section "About the numbered rules" becomes
    two pages: the players' part (``html``; ``example()`` gives the frame its picture is drawn
    from) and the numbered rules (``reference``, always English).  ``players_text`` is the players'
    part in ``language`` (``rules.<lang>.md``) in place of the reference's; ``page_language`` the
    language of the page's own words (default ``language``)."""
    page_language = page_language or language
    cut = text.find(NUMBERED_RULES) if name is not None else -1
    if cut < 0:
        return _render(text, fallback_title, language=page_language)
    players = _render(players_text if players_text is not None else text[:cut], fallback_title,
                      codes_at=f"/rules/{name}/reference", name=name, example=example, language=page_language,
                      translated=players_text is not None)
    players_title = unescape(re.sub(r"<[^>]+>", "", players.title))
    numbered = _render(f"# {players_title}: the numbered rules\n\nThe rules the server's code follows, numbered: the game log's "
                       f"§ marks link here. [How to play {players_title}](/rules/{name}) is the place to learn the game.\n"
                       + text[cut:], fallback_title, back_to=(f"/rules/{name}", f"Rules of {players_title}"))
    return RulesPage(title=players.title, lead=players.lead, html=players.html, reference=numbered.html)


def _render(text: str, fallback_title: str, codes_at: str = "", name: str | None = None, example=None,
            back_to: tuple[str, str] | None = None, language: str = i18n.DEFAULT, translated: bool = False) -> RulesPage:
    """One page of ``text``; rule mentions link to ``codes_at#CODE``; with ``name`` the players'
    page (its picture, the link to the numbered rules, old anchors sent on)."""
    anchored = Anchored(text)
    tokens = anchored.tokens
    _link_codes(tokens, {code for code in anchored.codes if not _SECTION.fullmatch(code)}, codes_at)
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
    cards_html: list[str] = []
    for number, card in enumerate(cards):
        card_html = html(card)
        if name is not None and number == 0 and example is not None:
            heading_end = card_html.index("</h2>") + len("</h2>")
            card_html = card_html[:heading_end] + _picture(name, example(), language) + card_html[heading_end:]
        cards_html.append(f'<section class="card" aria-labelledby="{escape(str(card[0].attrGet("id") or ""))}">\n'
                        f"{card_html}</section>")
    on_this_page = escape(translate(language, "On this page"))
    nav = [f'<nav aria-label="{on_this_page}">\n<ul class="rules-toc">\n{toc}\n</ul>\n</nav>'] if cards else []
    lead_tokens = 3 if lead_html else 0
    if name is not None and cards_html:  # the players' page: the lead, then the two minutes, on the first screen
        body = [f"<h1>{title_html}</h1>", html(intro[:lead_tokens]), cards_html[0], html(intro[lead_tokens:]), *nav,
                *cards_html[1:]]
    else:
        body = [f"<h1>{title_html}</h1>", html(intro), *nav, *cards_html]
    title_text = tokens[1].content if start else fallback_title
    scripts = ""
    if name is not None:
        words = escape(translate(language, "Every rule numbered, as the server's code follows it (the game log's § marks "
                                           "open these):"))
        link = escape(translate(language, "the numbered rules of {title}", title=title_text))
        english = ' lang="en" hreflang="en"' if language != i18n.DEFAULT else ""
        note = f" {escape(translate(language, '(in English)'))}" if translated else ""
        body.append(f'<p class="card rules-numbered-link">{words} <a href="/rules/{escape(name)}/reference"{english}>'
                    f'{link}</a>{note}.</p>')
        scripts = '\n  <script type="module" src="/static/js/rules-picture.js"></script>'
    page_title = title_text if title_text.endswith("rules") else translate(language, "{title} — rules", title=title_text)
    return RulesPage(title=title_html, lead=lead_html,
                     html=_document(page_title, "\n".join(body), back_to=back_to, scripts=scripts, name=name,
                                    language=language))


def _picture(name: str, frame: dict, language: str = i18n.DEFAULT) -> str:
    """The figure the players' page draws the example position into (rules-picture.js), with that
    position as JSON (never closing the script element it sits in)."""
    data = json.dumps(frame, separators=(",", ":")).replace("</", "<\\/")
    label = escape(translate(language, "An example position, drawn as at the table"))
    caption = escape(translate(language, "An example position after a few moves, drawn as the table shows it."))
    return (f'\n<figure class="rules-picture" data-ruleset="{escape(name)}">\n'
            f'<div class="rules-picture-board" role="img" aria-label="{label}"></div>\n'
            f'<figcaption class="muted">{caption}</figcaption>\n'
            f'<script type="application/json" class="rules-example">{data}</script>\n</figure>\n')


def _link_codes(tokens: list[Token], codes: set[str], page: str = "") -> None:
    """Make every mention of one of ``codes`` in running text a link to its rule on ``page`` (this
    page when empty: ``(R-22)`` becomes ``<a href="#R-22">``); headings, bold text (where codes are
    defined), links and code spans stay."""
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
                children += [Token("link_open", "a", 1, attrs={"href": f"{page}#{part}"}),
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


def _document(title: str, body: str, back_to_all: bool = True, back_to: tuple[str, str] | None = None,
              scripts: str = "", name: str | None = None, language: str = i18n.DEFAULT) -> str:
    """A whole HTML page in the site's frame (header, ``app.css``) around ``body``; ``back_to`` is
    (address, words) of one more header link, ``scripts`` the page's script elements; the frame's
    words and the root element's ``lang`` in ``language``."""
    all_rules = (f'\n    <a class="topbar-link" href="/rules">{escape(translate(language, "All rules"))}</a>'
                 if back_to_all else "")
    if back_to is not None:
        all_rules += f'\n    <a class="topbar-link" href="{escape(back_to[0])}">{escape(back_to[1])}</a>'
    ruleset = f' data-ruleset="{escape(name)}"' if name is not None else ""
    return f"""<!doctype html>
<html lang="{language}" data-language="{language}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · Caravanserai</title>
  <link rel="stylesheet" href="/static/app.css">
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">{scripts}
  <script type="module" src="/static/js/language-chooser.js"></script>
</head>
<body class="page-rules"{ruleset}>
  <header class="topbar">
    <a class="brand" href="/">Caravanserai</a>
    <a class="topbar-link" href="/">{escape(translate(language, "← Back to lobby"))}</a>{all_rules}
  </header>
  <main class="rules-page">
{body}
  </main>
</body>
</html>
"""

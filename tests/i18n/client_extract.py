"""Finding the browser client's strings (tests/i18n/test_client_catalog.py, test_page_words.py): the
msgids of ``t()`` / ``tn()`` calls in static/js by Babel's JavaScript extractor, the calls it cannot
see, and the words the HTML shells mark with ``data-i18n`` / ``data-i18n-attrs`` (as
static/js/words.js and app/api/page_words.py read them)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.extract import extract

from app import i18n

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
CLIENT_PO = ROOT / "app" / "i18n" / "locales" / "fr" / "client.po"
KEYWORDS = {"t": None, "tn": (1, 2)}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A literal first argument of t( or tn( as a plain reading of the source finds it (a cross-check of
# the extractor, which skips calls it cannot parse, such as one inside a template literal's ${}).
LITERAL_CALL = re.compile(r"(?<![\w.$])tn?\(\s*(\"(?:[^\"\\\n]|\\.)*\")")
VOID = {"meta", "link", "input", "br", "img", "hr", "source"}


def is_game_renderer(path: Path) -> bool:
    return path.parent.name == "renderers" and path.name != "generic.js"


def client_scripts() -> list[Path]:
    """The platform's modules: static/js and the generic renderer (not the games' renderers)."""
    return [path for path in sorted((STATIC / "js").rglob("*.js")) if not is_game_renderer(path)]


def js_messages(paths: list[Path]) -> dict[str | tuple[str, str], set[str]]:
    """msgid (a plural entry: (singular, plural)) -> the files that use it, by Babel's extractor."""
    found: dict[str | tuple[str, str], set[str]] = {}
    for path in paths:
        with path.open("rb") as source:
            for _line, message, _comments, _context in extract(
                "javascript", source, keywords=KEYWORDS, options={"parse_template_string": True}
            ):
                key = message if isinstance(message, str) else (message[0], message[1])
                found.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    return found


class MarkedText(HTMLParser):
    """The msgids of an HTML shell: the text of each data-i18n element (whitespace collapsed) and
    each attribute data-i18n-attrs names, as words.js translatePage reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[bool, list[str]]] = []
        self.msgids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name in (attributes.get("data-i18n-attrs") or "").split():
            value = attributes.get(name)
            assert value, f"data-i18n-attrs names {name!r}, which the <{tag}> lacks"
            self.msgids.append(value)
        if tag not in VOID:
            self.stack.append(("data-i18n" in attributes, []))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        marked, parts = self.stack.pop()
        text = "".join(parts)
        if self.stack:
            self.stack[-1][1].append(text)
        if marked:
            self.msgids.append(re.sub(r"[ \t\n\r\f]+", " ", text).strip(" "))

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1][1].append(data)


def html_messages() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for page in sorted(STATIC.glob("*.html")):
        parser = MarkedText()
        parser.feed(page.read_text(encoding="utf-8"))
        for msgid in parser.msgids:
            found.setdefault(msgid, set()).add(str(page.relative_to(ROOT)))
    return found


def game_catalogs() -> list[i18n.Messages]:
    return [i18n.parse_po(path.read_text(encoding="utf-8"), "fr") for path in sorted((ROOT / "app" / "rulesets").glob("*/locales/fr.po"))]

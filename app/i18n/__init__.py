"""Languages (docs/i18n.md): gettext catalogs read with Babel at run time, and the choice of a language.

One source of truth per string: the English text in the code is the msgid, and each other language
lives in a ``.po`` file read with :func:`babel.messages.pofile.read_po` when first needed (no
compiled ``.mo`` files, no build step).  Placeholders are ``{name}``, as in the games' log templates.

* Platform catalogs: ``app/i18n/locales/<lang>/server.po`` (what the server says to people: error
  messages, e-mails, push notices, the digest) and ``app/i18n/locales/<lang>/client.po`` (the
  strings of ``static/js``), read with :func:`platform_catalog`.
* A ruleset's catalog: ``locales/<lang>.po`` beside its package (:meth:`Ruleset.catalog`).

:func:`translate` and :func:`ntranslate` never fail on a missing entry: a msgid with no
translation (or a fuzzy or empty one) is said in English, so a half-translated catalog still
gives whole sentences.  The checks that catalogs are complete are tests (``tests/i18n``) and the
conformance kit (``app/rulesets/testing.py``), not run-time errors.
"""

from __future__ import annotations

import functools
import gettext
import importlib.resources
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from babel.core import Locale, UnknownLocaleError, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

if TYPE_CHECKING:
    from app.rulesets.base import Ruleset

SUPPORTED: tuple[str, ...] = ("en", "fr")
"""The languages of the platform, English first: the language of the msgids and the fallback."""
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
"""Each supported language in its own words, as the chooser lists it (never translated)."""
LANGUAGE_COOKIE = "caravanserai_lang"
"""The cookie that keeps a browser's choice of language (for a visitor with no account setting)."""
DOMAINS = ("server", "client")
"""The platform's catalogs: what the server says, and what the browser client says."""
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


@dataclass(frozen=True)
class Messages:
    """One language's translations from one ``.po`` file, ready for look-ups.

    ``singular`` maps a msgid to its text; ``plural`` maps the singular msgid of a plural entry to
    its forms (as many as ``nplurals``); ``plural_index(n)`` is the catalog's own ``Plural-Forms``
    rule (index of the form for ``n``), ``plural_forms`` the header's text.  Entries marked fuzzy and
    empty translations are left out (they fall back to English).
    """

    language: str
    singular: Mapping[str, str] = field(default_factory=dict)
    plural: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    plural_forms: str = "nplurals=2; plural=(n != 1);"
    plural_index: Callable[[int], int] = field(default=lambda n: int(n != 1))

    def get(self, msgid: str) -> str | None:
        """The translation of a singular msgid, or ``None``."""
        return self.singular.get(msgid)

    def nget(self, singular: str, n: int) -> str | None:
        """The form for ``n`` of the plural entry keyed by ``singular``, or ``None``."""
        forms = self.plural.get(singular)
        if not forms:
            return None
        index = self.plural_index(n)
        return forms[index] if 0 <= index < len(forms) else forms[-1]

    def __contains__(self, msgid: object) -> bool:
        return msgid in self.singular or msgid in self.plural

    def categories(self) -> list[str]:
        """The CLDR plural category of each form, in form order, for a client that picks a form
        with ``Intl.PluralRules``: the locale's categories in CLDR order, trimmed to ``nplurals``
        with ``other`` last (French: ``["one", "other"]``; a category not listed takes the last)."""
        nplurals = _nplurals(self.plural_forms)
        try:
            tags = Locale.parse(self.language).plural_form.tags
        except (UnknownLocaleError, ValueError):
            tags = frozenset({"one"})
        ordered = [tag for tag in CLDR_ORDER if tag in tags and tag != "other"]
        return [*ordered[: max(0, nplurals - 1)], "other"]

    def as_json(self) -> dict[str, Any]:
        """The form the browser client loads (``static/js/i18n.js``): ``{"language", "plural_forms",
        "plural_categories", "messages"}``, where ``messages`` maps a msgid to its text, or the
        singular msgid of a plural entry to the list of its forms."""
        messages: dict[str, Any] = dict(self.singular)
        messages.update({key: list(forms) for key, forms in self.plural.items()})
        return {"language": self.language, "plural_forms": self.plural_forms,
                "plural_categories": self.categories(), "messages": messages}


def _nplurals(plural_forms: str) -> int:
    for part in plural_forms.split(";"):
        key, _, value = part.strip().partition("=")
        if key.strip() == "nplurals" and value.strip().isdigit():
            return int(value)
    return 2


def parse_po(text: str, language: str) -> Messages:
    """The :class:`Messages` of a ``.po`` file's text (Babel's ``read_po``); raises Babel's
    ``PoFileError`` on a file that is no gettext catalog."""
    catalog: Catalog = read_po(_Lines(text), locale=language, abort_invalid=True)
    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or message.context:
            continue
        if isinstance(message.id, (list, tuple)):
            forms = tuple(message.string or ())
            if forms and all(forms):
                plural[message.id[0]] = forms
        elif isinstance(message.string, str) and message.string:
            singular[message.id] = message.string
    expression = catalog.plural_expr
    return Messages(language=language, singular=singular, plural=plural, plural_forms=catalog.plural_forms,
                    plural_index=gettext.c2py(expression))


class _Lines:
    """A text as the iterable of byte lines ``read_po`` reads."""

    def __init__(self, text: str) -> None:
        self._lines = text.encode("utf-8").splitlines(keepends=True)

    def __iter__(self):
        return iter(self._lines)


EMPTY = {language: Messages(language=language) for language in SUPPORTED}


@functools.cache
def platform_catalog(language: str, domain: str = "server") -> Messages:
    """The platform's catalog ``app/i18n/locales/<language>/<domain>.po``, read once; an empty one
    for English (the msgids are English) and for a file that is not there.  Raises ``ValueError``
    for a language not in :data:`SUPPORTED` or an unknown domain."""
    if language not in SUPPORTED or domain not in DOMAINS:
        raise ValueError(f"no catalog {language}/{domain}")
    try:
        text = importlib.resources.files(__name__).joinpath("locales", language, f"{domain}.po").read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return EMPTY[language]
    return parse_po(text, language)


def fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with each ``{name}`` replaced by ``params[name]`` (in one pass: a value is never read
    as a placeholder); an unknown placeholder stays
    as written (a translation never fails on a typo), braces not around a name are kept."""
    if not params or "{" not in text:
        return text
    return _PLACEHOLDER_SUB(lambda match: str(params[match.group(1)]) if match.group(1) in params else match.group(0), text)


_PLACEHOLDER_SUB = re.compile(r"\{(\w+)\}").sub


_RULESET_CATALOGS: dict[tuple[type, str], Messages] = {}


def ruleset_catalog(ruleset_class: type[Ruleset[Any]], language: str | None) -> Messages:
    """A ruleset's catalog in ``language`` (its ``locales/<language>.po``, :meth:`Ruleset.locale_file`),
    read once; empty for English, for a language it does not ship, or one not supported."""
    lang = normalize(language)
    if lang is None or lang == DEFAULT:
        return EMPTY[DEFAULT]
    found = _RULESET_CATALOGS.get((ruleset_class, lang))
    if found is None:
        text = ruleset_class.locale_file(lang)
        found = _RULESET_CATALOGS[ruleset_class, lang] = EMPTY[lang] if text is None else parse_po(text, lang)
    return found


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message to translate where it is written, and give it back unchanged: it
    is translated where it reaches a person (the gettext convention, for texts kept in a value
    first, such as a refusal's reason).  The extraction check (``tests/i18n``) reads these marks."""
    return msgid


def normalize(language: str | None) -> str | None:
    """A supported language for a tag such as ``"fr"``, ``"FR"`` or ``"fr-CA"``, or ``None``."""
    if not language:
        return None
    base = language.strip().replace("_", "-").split("-")[0].lower()
    return base if base in SUPPORTED else None


def translate(language: str | None, msgid: str, catalog: Messages | None = None, /, **params: Any) -> str:
    """``msgid`` in ``language`` with its ``{name}`` placeholders filled from ``params``.

    Looks in ``catalog`` (a ruleset's) first, then the server catalog; a msgid found in neither
    (or a language not supported, or ``None``) is said in English.  Example:
    ``translate("fr", "{name} joined", name="Ana") -> "Ana a rejoint la table"``.
    """
    lang = normalize(language) or DEFAULT
    text = None
    if lang != DEFAULT:
        if catalog is not None:
            text = catalog.get(msgid)
        if text is None:
            text = platform_catalog(lang).get(msgid)
    return fill(text if text is not None else msgid, params)


def ntranslate(language: str | None, singular: str, plural: str, n: int, catalog: Messages | None = None, /,
               **params: Any) -> str:
    """The form for ``n`` of a plural message, placeholders filled (``n`` is also the ``{n}``
    parameter unless ``params`` names it).  English: ``singular`` for 1, else ``plural``.
    Example: ``ntranslate("fr", "{n} game", "{n} games", 2) -> "2 parties"``."""
    lang = normalize(language) or DEFAULT
    params = {"n": n, **params}
    text = None
    if lang != DEFAULT:
        if catalog is not None:
            text = catalog.nget(singular, n)
        if text is None:
            text = platform_catalog(lang).nget(singular, n)
    if text is None:
        text = singular if n == 1 else plural
    return fill(text, params)


def parse_accept_language(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (by ``q``, then
    order), those with ``q=0`` left out: ``"fr-CA,fr;q=0.8,en;q=0.5" -> ["fr-CA", "fr", "en"]``.
    A malformed part is skipped, never an error."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in rest.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            weighted.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(accept_language: str | None, available: tuple[str, ...] = SUPPORTED) -> str:
    """The language to speak to a browser that sent ``accept_language``: the first of its wishes
    that ``available`` has (a regional tag matches its language, ``fr-CA`` -> ``fr``; Babel's
    :func:`~babel.core.negotiate_locale`), else English."""
    wished = parse_accept_language(accept_language)
    found = negotiate_locale(wished, list(available), sep="-")
    return normalize(found) or DEFAULT


def choose(account_language: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The language of one request: the account's setting, else the browser's choice kept in the
    :data:`LANGUAGE_COOKIE`, else ``Accept-Language`` (:func:`negotiate`), else English."""
    return normalize(account_language) or normalize(cookie) or negotiate(accept_language)


def connection_language(connection: Any) -> str:
    """The language of a request or socket (Starlette's ``HTTPConnection``: anything with
    ``cookies`` and ``headers``) without the account: the chooser's cookie, else
    ``Accept-Language``.  The pages set the cookie to the account's setting when it has one
    (``app/api/pages.py``), so this follows the account in its browsers."""
    cookies, headers = getattr(connection, "cookies", None), getattr(connection, "headers", None)
    return choose(None, cookies.get(LANGUAGE_COOKIE) if cookies is not None else None,
                  headers.get("accept-language") if headers is not None else None)


def format_number(language: str | None, number: float) -> str:
    """``number`` as ``language`` writes it (Babel): ``1234.5 -> "1,234.5"`` / ``"1 234,5"``."""
    from babel.numbers import format_decimal

    return format_decimal(number, locale=normalize(language) or DEFAULT)


def format_datetime(language: str | None, moment: Any, format: str = "medium", tzinfo: Any = None) -> str:
    """A date and time as ``language`` writes it (Babel's ``format_datetime``; ``format`` is one of
    ``short``, ``medium``, ``long``, ``full`` or a CLDR pattern; ``tzinfo`` the zone to show it in)."""
    from babel.dates import format_datetime as babel_format_datetime

    return babel_format_datetime(moment, format=format, tzinfo=tzinfo, locale=normalize(language) or DEFAULT)


__all__ = ["N_", "DEFAULT", "LANGUAGE_COOKIE", "LANGUAGE_NAMES", "Messages", "SUPPORTED", "choose", "connection_language", "fill", "format_datetime",
           "format_number", "negotiate", "normalize", "ntranslate", "parse_accept_language", "parse_po",
           "platform_catalog", "ruleset_catalog", "translate"]

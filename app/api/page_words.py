"""The words of the site's HTML shells (``static/*.html``) in the reader's language, on the server.

The shells mark their text for translation as the browser client reads it
(``static/js/words.js``, ``translatePage``): an element with ``data-i18n`` holds plain text, its
English msgid (whitespace collapsed); ``data-i18n-attrs="aria-label title"`` names attributes whose
values are msgids.  The French lives in the client's catalog (``app/i18n/locales/fr/client.po``),
the one the browser loads.  Translating them here too means a page arrives in its language: no
English flashes before the scripts run, and a browser without JavaScript reads it as well.  The
client translates the same elements again once its modules run; a text already translated is no
msgid, so that changes nothing.

Only the shells' own markup is read (no general HTML parser is needed): a marked element holds
text and no other element; anything else is left as it is, for the client.
"""

from __future__ import annotations

import html
import re

from app import i18n

_MARKED_TEXT = re.compile(r"(<(?P<tag>[a-zA-Z][\w-]*)\b(?P<attrs>[^<>]*?)\sdata-i18n(?=[\s>])(?P<rest>[^<>]*)>)(?P<text>[^<]*)(?P<close></(?P=tag)>)")
_SPACES = re.compile(r"[ \t\n\r\f]+")  # ASCII white space: a no-break space is part of a (French) text
_MARKED_ATTRS = re.compile(r"<[a-zA-Z][\w-]*\b[^<>]*\sdata-i18n-attrs=\"(?P<names>[^\"]*)\"[^<>]*>")


def translate_shell(text: str, language: str) -> str:
    """``text`` (a shell's HTML) with its marked words in ``language`` (module docstring); the text
    unchanged for English, or where the client catalog lacks an entry (the msgid is English)."""
    if i18n.normalize(language) in (None, i18n.DEFAULT):
        return text
    catalog = i18n.platform_catalog(i18n.normalize(language) or i18n.DEFAULT, "client")

    def words(msgid: str) -> str:
        return catalog.get(msgid) or msgid

    def element(match: re.Match[str]) -> str:
        msgid = _SPACES.sub(" ", html.unescape(match.group("text"))).strip(" ")
        if not msgid:
            return match.group(0)
        return f"{match.group(1)}{html.escape(words(msgid), quote=False)}{match.group('close')}"

    def attributes(match: re.Match[str]) -> str:
        tag = match.group(0)
        for name in match.group("names").split():
            tag = re.sub(
                rf'(\s{re.escape(name)}=")([^"]*)(")',
                lambda found: found.group(1) + html.escape(words(html.unescape(found.group(2))), quote=True) + found.group(3),
                tag,
                count=1,
            )
        return tag

    return _MARKED_ATTRS.sub(attributes, _MARKED_TEXT.sub(element, text))

"""The site's pages (``static/*.html``) in the reader's language.

Each page is the static file with its ``<html lang="en">`` rewritten to the language of the
request, ``<html lang="fr" data-language="fr">``: the browser client reads ``data-language``
(``static/js/i18n.js``) and loads that catalog, screen readers read the right language.  The
language is the account's setting when it has one, else the chooser's cookie, else
``Accept-Language`` (:func:`app.i18n.choose`).  When the account's setting differs from the
cookie, the answer sets the cookie to it, so the browser's other requests (the API's error
messages, the game socket) follow the account without reading it again.  Pages vary with the
cookie and ``Accept-Language``; they are never cached without revalidation.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app import i18n
from app.api.deps import OptionalAccount, Session
from app.db.models import Account, Table
from app.api.page_words import translate_shell
from app.paths import STATIC_DIR

router = APIRouter(include_in_schema=False)
ENGLISH_ROOT = '<html lang="en">'
COOKIE_SECONDS = 60 * 60 * 24 * 365


def localized_html(text: str, language: str) -> str:
    """``text`` (a page's HTML) with its root element saying ``language``: ``<html lang="fr"
    data-language="fr">``; a page without the English root element is left as it is."""
    return text.replace(ENGLISH_ROOT, f'<html lang="{language}" data-language="{language}">', 1)


def page_response(request: Request, path: Path, account_language: str | None = None, status: int = 200) -> HTMLResponse:
    """The page at ``path`` in the request's language (module docstring)."""
    cookie = request.cookies.get(i18n.LANGUAGE_COOKIE)
    language = i18n.choose(account_language, cookie, request.headers.get("accept-language"))
    page = translate_shell(localized_html(path.read_text(encoding="utf-8"), language), language)  # its marked words too
    response = HTMLResponse(page, status_code=status,
                            headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"})
    if i18n.normalize(account_language) and i18n.normalize(cookie) != language:
        set_language_cookie(response, language, request.url.scheme == "https")
    return response


def set_language_cookie(response, language: str | None, secure: bool = False) -> None:
    """Keep ``language`` in the browser's :data:`app.i18n.LANGUAGE_COOKIE` (a year), or forget it
    (``None``).  Not ``HttpOnly``: the chooser (``static/js/language-chooser.js``) writes it too."""
    if language is None:
        response.delete_cookie(i18n.LANGUAGE_COOKIE, path="/")
    else:
        response.set_cookie(i18n.LANGUAGE_COOKIE, language, max_age=COOKIE_SECONDS, path="/", samesite="lax",
                            secure=secure, httponly=False)


@router.get("/")
async def lobby_page(request: Request, account: OptionalAccount) -> HTMLResponse:
    return page_response(request, STATIC_DIR / "index.html", account.language if account else None)


MAX_ID = 2**63 - 1
"""The largest row id a database holds (PostgreSQL's ``bigint``); a longer number names no row."""


async def _exists(session: Session, model: type[Account] | type[Table], row_id: str) -> bool:
    """Whether ``row_id`` (the path's text) is the id of a row of ``model``."""
    if not row_id.isascii() or not row_id.isdigit() or not 0 < int(row_id) <= MAX_ID:
        return False
    return await session.get(model, int(row_id)) is not None


@router.get("/players/{player_id}")
async def player_page(player_id: str, request: Request, account: OptionalAccount, session: Session) -> HTMLResponse:
    # An unknown player: the page itself says so in words; the status says so to everything else.
    status = 200 if await _exists(session, Account, player_id) else 404
    return page_response(request, STATIC_DIR / "player.html", account.language if account else None, status)


@router.get("/reset-password")
async def reset_password_page(request: Request) -> HTMLResponse:
    return page_response(request, STATIC_DIR / "reset.html")


@router.get("/tables/{table_id}")
async def table_page(table_id: str, request: Request, account: OptionalAccount, session: Session) -> HTMLResponse:
    # An unknown table: the page itself says "no such table" in words (as the API does), and the
    # status says so to everything else (a link checker, a search engine).  A private table's page
    # is 200 whoever asks, as its id alone lets nobody in.
    status = 200 if await _exists(session, Table, table_id) else 404
    return page_response(request, STATIC_DIR / "table.html", account.language if account else None, status)

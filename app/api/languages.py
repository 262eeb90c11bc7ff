"""The catalogs the browser client loads (``static/js/i18n.js``, docs/i18n.md).

* ``GET /i18n/{lang}/client.json``: the platform's client catalog (``app/i18n/locales/<lang>/client.po``);
* ``GET /i18n/{lang}/games/{name}.json``: a ruleset's catalog (its ``locales/<lang>.po``).

Both answer ``{"language", "plural_forms", "plural_categories", "messages"}``
(:meth:`app.i18n.Messages.as_json`); English and a game that does not speak the language answer
an empty ``messages`` (the client then shows the English msgids).  A game's catalog also holds
each template's form "… — played by {by}" that the log gives an entry a bot made for a person
(``app/services/games/bot_log.py``), the entries the platform writes into every game's log (an
undo), and each msgid written with a rule code (a result's reason,
``"the turn limit was reached (A-30)"``) also in the form without it, as the wire sends it
(``split_rule``: the platform moves a reason's code into ``rule``).  An unsupported language or an
unknown game is a 404 ``not_found`` that says which.  Answers carry an ``ETag`` and
``Cache-Control: no-cache``: a browser keeps them and revalidates cheaply (304), and never mixes
catalogs of two releases, as with ``/static`` (app/main.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response

from app import i18n
from app.rulesets.base import split_rule
from app.rulesets.registry import UnknownRuleset
from app.services.games.bot_log import PLAYED_BY
from app.services.games.undo import UNDO_SENTENCE, undo_template
from app.services.errors import AppError

router = APIRouter(include_in_schema=False)


def _answer(request: Request, body: dict[str, Any]) -> Response:
    content = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)


def _language(lang: str) -> str:
    """``lang`` when the server speaks it; else ``AppError(not_found)`` naming the languages it speaks."""
    if lang not in i18n.SUPPORTED:
        raise AppError("not_found", "no such language: {lang} (this server speaks {languages})",
                       lang=lang[:16], languages=", ".join(i18n.SUPPORTED))
    return lang


@router.get("/i18n/{lang}/client.json")
async def client_catalog(lang: str, request: Request) -> Response:
    """The browser client's catalog in ``lang``."""
    return _answer(request, i18n.platform_catalog(_language(lang), "client").as_json())


@router.get("/i18n/{lang}/games/{name}.json")
async def game_catalog(lang: str, name: str, request: Request) -> Response:
    """The catalog of the ruleset called ``name`` in ``lang`` (empty where the game does not speak it)."""
    language = _language(lang)
    try:
        ruleset = request.app.state.ctx.registry.get(name)
    except UnknownRuleset:
        raise AppError("not_found", "no such game: {name}", name=name[:64]) from None
    if language not in type(ruleset).languages:
        return _answer(request, i18n.Messages(language=language).as_json())
    body = i18n.ruleset_catalog(type(ruleset), language).as_json()
    body["messages"].update(_platform_entries(type(ruleset).max_players, language))
    body["messages"].update(_played_by(body["messages"], language))
    body["messages"] = {**_without_rule_codes(body["messages"]), **body["messages"]}
    return _answer(request, body)


def _platform_entries(seats: int, language: str) -> dict[str, str]:
    """The log entries the platform writes into a game's log, said in ``language`` from the server
    catalog: an undo, ``"{seat1} takes back their last move"``, for each of the game's ``seats``
    (none in English, where the template is already the words)."""
    if language == i18n.DEFAULT:
        return {}
    return {undo_template(seat): i18n.translate(language, UNDO_SENTENCE, player=f"{{seat{seat}}}")
            for seat in range(seats)}


def _without_rule_codes(messages: dict[str, Any]) -> dict[str, Any]:
    """Each entry whose msgid carries a rule code, keyed and said without it: a result's reason
    reaches the browser with its code moved to ``rule`` (``services/games/views.result_payload``),
    so ``"the turn limit was reached (A-30)"`` is looked up as ``"the turn limit was reached"``, and
    its translation must not show the code either."""
    found: dict[str, Any] = {}
    for msgid, text in messages.items():
        words, rule = split_rule(msgid)
        if rule is not None and isinstance(text, str):
            found[words] = split_rule(text)[0]
    return found


def _played_by(messages: dict[str, Any], language: str) -> dict[str, str]:
    """Each entry's form as the log writes it when a bot made the move for a person and the entry
    does not name the mover (``bot_log.PLAYED_BY``): ``"{seat0} took a well — played by {by}"``,
    said as the server catalog says the suffix, the ``{by}`` placeholder kept."""
    suffixed = i18n.translate(language, "{sentence} — played by {by}", sentence="\0")
    return {PLAYED_BY.format(sentence=msgid): suffixed.replace("\0", text)
            for msgid, text in messages.items() if isinstance(text, str)}

"""The one error type the services raise; the API and WebSocket layers turn it into wire errors."""

from __future__ import annotations

from typing import Any

from app.i18n import fill, ruleset_catalog, translate

STATUS_BY_CODE = {
    "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_seated": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "illegal_move": 409,
    "stale_version": 409,
    "table_full": 409,
    "conflict": 409,
    "not_reversible": 409,
    "payload_too_large": 413,
    "rate_limited": 429,
    "unavailable": 503,
}


class AppError(Exception):
    """A refused request: ``code`` is a wire error code (docs/architecture.md), ``message`` is for people.

    ``message`` is the English text; it is written as a template with ``{name}`` placeholders
    filled from ``params`` (``AppError("not_found", "no table {id}", id=7)``), so the template is a
    msgid of ``app/i18n/locales/<lang>/server.po`` and the API and socket layers say it in the
    reader's language (:meth:`message_in`).  The code stays an English identifier.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        self.template = message
        self.params = params
        self.message = fill(message, params)
        super().__init__(self.message)
        self.code = code
        self.game: Any = None  # the ruleset class whose catalog says the message first

    @classmethod
    def from_game(cls, refusal: Any, ruleset_class: type) -> AppError:
        """The error for a ruleset's :class:`~app.rulesets.base.IllegalMove` or ``MalformedMove``:
        its code, template and parameters, said with the game's catalog first."""
        error = cls(refusal.code, getattr(refusal, "template", refusal.message), **getattr(refusal, "params", {}))
        error.game = ruleset_class
        return error

    def message_in(self, language: str | None) -> str:
        """The message in ``language`` (English where the catalogs have no entry); for a game's
        refusal, a parameter that is one of the game's msgids (a colour, a phase) is translated too."""
        if self.game is None or not language:
            return translate(language, self.template, **self.params)
        catalog = ruleset_catalog(self.game, language)
        # a game's words among the parameters (a colour, a phase) are said in the language too
        params = {name: catalog.get(value) or value if isinstance(value, str) else value for name, value in self.params.items()}
        return translate(language, self.template, catalog, **params)

    @property
    def status(self) -> int:
        """The HTTP status that fits the code."""
        return STATUS_BY_CODE.get(self.code, 400)

    def body(self, language: str | None = None) -> dict:
        """``{"error": {"code", "message"}}``, the message in ``language`` (default English)."""
        return {"error": {"code": self.code, "message": self.message_in(language)}}

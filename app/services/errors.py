"""The one error type the services raise; the API and WebSocket layers turn it into wire errors."""

from __future__ import annotations

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
    """A refused request: ``code`` is a wire error code (docs/architecture.md), ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        """The HTTP status that fits the code."""
        return STATUS_BY_CODE.get(self.code, 400)

    def body(self) -> dict:
        """``{"error": {"code", "message"}}``."""
        return {"error": {"code": self.code, "message": self.message}}

"""Request guards: rate limits (the ``limits`` library) and cross-site request refusal.

Rate limits are counted in a store every worker and instance shares (``app/db/rate_limits.py``:
the database on PostgreSQL, memory on SQLite's single process, or Redis), in fixed windows.
Exceeding one answers 429 ``rate_limited``.  Only REST requests are limited here: moves over a
WebSocket are held by that socket's frame budget (``app/realtime/endpoint.py``) and never wait
for the store.  Cross-site protection: the session cookie is ``SameSite=Lax`` already; on
top, a state-changing ``/api`` request whose ``Origin`` names another site is refused, and so
is one whose body is not JSON (HTML forms cannot send JSON across sites without CORS).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from limits import parse
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter

from app.api.deps import Ctx, CurrentAccount
from app.config import Settings
from app.services.errors import AppError

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class RateLimits:
    """Named limits from the settings (``"30/minute"`` syntax), counted per key in ``storage``.

    Fixed windows: up to N requests from a key's first one until the period has passed (so at
    most 2N in any span of one period); the only strategy every store offers alike.
    """

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.storage = storage
        self._limiter = FixedWindowRateLimiter(storage)
        self._rules = {
            "auth": parse(settings.rate_limit_auth),
            "tables": parse(settings.rate_limit_tables),
            "moves": parse(settings.rate_limit_moves),
            "chat": parse(settings.rate_limit_chat),
            "replays": parse(settings.rate_limit_replays),
        }

    async def hit(self, rule: str, *keys: object) -> None:
        """Count one request against ``rule`` for each key; raises ``AppError(rate_limited)``."""
        for key in keys:
            if not await self._limiter.hit(self._rules[rule], rule, str(key)):
                raise AppError("rate_limited", "too many requests ({rule}); wait a little and try again", rule=self._rules[rule])


def client_address(request: Request) -> str:
    """The caller's IP address (uvicorn resolves ``X-Forwarded-For`` from trusted proxies)."""
    return request.client.host if request.client else "unknown"


def limited(rule: str):
    """A dependency that counts the request against ``rule`` per client address and per account."""

    async def check(request: Request, ctx: Ctx) -> None:
        keys: list[object] = [f"ip:{client_address(request)}"]
        account_id = request.session.get("account_id")
        if account_id is not None:
            keys.append(f"account:{account_id}")
        await request.app.state.rate_limits.hit(rule, *keys)

    return Depends(check)


AuthLimit = Annotated[None, limited("auth")]
TablesLimit = Annotated[None, limited("tables")]
MovesLimit = Annotated[None, limited("moves")]
ReplaysLimit = Annotated[None, limited("replays")]


async def _chat_limit(request: Request, account: CurrentAccount) -> None:
    # Per account only: people who share an address (a family, a café) each get their own allowance.
    await request.app.state.rate_limits.hit("chat", f"account:{account.id}")


ChatLimit = Annotated[None, Depends(_chat_limit)]
"""Chat messages, counted per logged-in account (``rate_limit_chat``); unauthorized without a login."""


def same_site(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header names the site the request was sent to (``Host``)."""
    return urlsplit(origin).netloc.lower() == host.lower()


def refuse_cross_site(method: str, path: str, headers) -> AppError | None:
    """The error for a state-changing API request from another site or with a non-JSON body, else None."""
    if method in SAFE_METHODS or not path.startswith("/api/"):
        return None
    origin = headers.get("origin")
    if origin and origin != "null" and not same_site(origin, headers.get("host", "")):
        return AppError("forbidden", "cross-site requests are refused")
    if origin == "null":
        return AppError("forbidden", "cross-site requests are refused")
    content_type = headers.get("content-type", "")
    if content_type and not content_type.split(";")[0].strip().lower() == "application/json":
        return AppError("bad_request", "send JSON (Content-Type: application/json)")
    return None

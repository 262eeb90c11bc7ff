"""The security headers on every HTTP answer, sent by the server itself.

A host behind nginx, Traefik or a bare load balancer gets them too, not only one behind the
shipped ``Caddyfile``.  They are the Caddyfile's (which sets them again, in place of these, so
none is sent twice): ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``,
``Referrer-Policy: same-origin`` (table links carry private invite codes), a
``Permissions-Policy`` that turns off what the client never uses, and a
``Content-Security-Policy`` that fits the browser client (scripts only from the site, no inline
script, inline styles for the board renderers, sockets to the site's own host, no framing;
FastAPI's API explorer pages get the looser policy its CDN needs).  ``Strict-Transport-Security``
only when ``cookie_secure`` says the site is HTTPS.  A header a route set itself is kept.  Pure
ASGI: WebSocket scopes pass through untouched (no wrapper around their frames).
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SITE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; "
               "connect-src 'self'{sockets}; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
API_DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
                   "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
                   "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
                   "https://cdn.redoc.ly; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
                   "frame-ancestors 'none'")
API_DOCS_PATHS = ("/docs", "/redoc")
COMMON = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
          (b"referrer-policy", b"same-origin"),
          (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"))
HSTS = (b"strict-transport-security", b"max-age=31536000")
_PLAIN_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
"""A Host header safe to write into the policy (a name or address and a port, nothing else)."""


def content_security_policy(path: str, host: str | None) -> str:
    """The policy for an answer to ``path`` asked of ``host`` (the request's Host header): the
    site's, naming ``ws://host wss://host`` for the game sockets (older browsers do not count them
    as ``'self'``) when the host is a plain name or address, or the API explorer's."""
    if path in API_DOCS_PATHS or path.startswith("/docs/"):
        return API_DOCS_POLICY
    sockets = f" ws://{host} wss://{host}" if host and _PLAIN_HOST.match(host) else ""
    return SITE_POLICY.format(sockets=sockets)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer that lacks them (see the module docstring)."""

    def __init__(self, app: ASGIApp, https: bool) -> None:
        self.app = app
        self._fixed = COMMON + ((HSTS,) if https else ())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                host = next((value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"host"), None)
                policy = (b"content-security-policy", content_security_policy(scope["path"], host).encode("latin-1"))
                headers += [(name, value) for name, value in (*self._fixed, policy) if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

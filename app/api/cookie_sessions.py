"""The signed session cookie (Starlette's ``SessionMiddleware``), with nothing on a WebSocket's frames.

Starlette's middleware wraps ``send`` for every connection, so each frame a socket sends passed
through a function that only ever acts on an HTTP answer's headers (to write ``Set-Cookie``): a
WebSocket cannot set a cookie after its handshake.  A profile of the server with 500 games
moving found every frame going through such wrappers; here a socket's cookie is decoded once,
at connect, into ``scope["session"]`` exactly as Starlette decodes it, and its ``send`` and
``receive`` reach the endpoint as the server gave them.
"""

from __future__ import annotations

import json
from base64 import b64decode

from itsdangerous.exc import BadSignature
from starlette.middleware.sessions import Session, SessionMiddleware
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send


class CookieSessions(SessionMiddleware):
    """``SessionMiddleware`` (same settings, same cookie) for HTTP; for a WebSocket, the session is
    read at connect and the connection is passed on unwrapped.

    ``scope["session"]`` of a socket is the cookie's content (an empty session when there is no
    cookie, or its signature is wrong or older than ``max_age``), as Starlette's middleware reads it.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await super().__call__(scope, receive, send)
            return
        scope["session"] = self.read_cookie(scope)
        await self.app(scope, receive, send)

    def read_cookie(self, scope: Scope) -> Session:
        """The session the connection's cookie holds (Starlette's decoding: a timestamp-signed,
        base64-encoded JSON object), or an empty one."""
        cookie = HTTPConnection(scope).cookies.get(self.session_cookie)
        if cookie is None:
            return Session()
        try:
            data = self.signer.unsign(cookie.encode("utf-8"), max_age=self.max_age)
        except BadSignature:
            return Session()
        return Session(json.loads(b64decode(data)))

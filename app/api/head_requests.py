"""``HEAD`` wherever ``GET`` works: uptime checkers and link checkers ask with ``HEAD``.

FastAPI routes answer only the methods they name, so ``HEAD /healthz`` was a 405. RFC 9110 9.3.2:
a ``HEAD`` answer is the ``GET`` answer's status and headers without its body. Pure ASGI, outermost,
so every route, the static files and the error pages get it alike.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """Pass each ``HEAD`` request on as ``GET`` and send its answer without the body.

    The headers, ``Content-Length`` included, stay those of the ``GET`` answer, as the RFC asks.
    The server (uvicorn) still sees a ``HEAD`` and writes no body either.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a streamed body's middle parts: dropped, the last one ends the answer
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)

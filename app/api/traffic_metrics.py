"""Counting the traffic for ``/metrics`` (issue 18): HTTP requests and their latency by route, and
WebSocket connections.

Pure ASGI, so it sees every answer, error pages included.  HTTP requests are labelled with the
route template (``/api/games/{game_id}``), never the raw path, so no client can create new series
by asking for new addresses; requests no route matches share the label ``unmatched``, and a
mounted app (``/static``) is ``/static/{path}``.  A WebSocket counts as connected when the
endpoint accepts it and as disconnected when the endpoint returns.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNMATCHED = "unmatched"


class TrafficMetrics:
    """Count each HTTP request (``http_requests``, ``http_seconds``) and each WebSocket
    (``websocket_connects``/``_disconnects``, ``websockets_open``) in the app's ``Metrics``.

    ``status_of_error(exc)``: the status the app's last-resort handler answers for an exception
    that leaves the routes (that handler runs outside every middleware, so the status is not seen here).
    """

    def __init__(self, app: ASGIApp, status_of_error: Callable[[BaseException], int]) -> None:
        self.app = app
        self.status_of_error = status_of_error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ctx = getattr(scope["app"].state, "ctx", None) if "app" in scope else None
        if ctx is None:  # no lifespan ran (an app driven without its lifespan): nothing to count into
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(ctx.metrics, scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(ctx.metrics, scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, metrics, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        except BaseException as exc:
            status = self.status_of_error(exc) if isinstance(exc, Exception) else 500
            raise
        finally:
            route = route_template(scope)
            metrics.http_requests.labels(scope["method"], route, str(status)).inc()
            metrics.http_seconds.labels(scope["method"], route).observe(time.perf_counter() - started)

    async def _websocket(self, metrics, scope: Scope, receive: Receive, send: Send) -> None:
        accepted = closed_by_server = False

        async def send_and_note(message: Message) -> None:
            nonlocal accepted, closed_by_server
            if message["type"] == "websocket.accept":
                accepted = True
                metrics.websocket_connects.inc()
                metrics.websockets_open.inc()
            elif message["type"] == "websocket.close":
                closed_by_server = True
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            if accepted:
                metrics.websockets_open.dec()
                metrics.websocket_disconnects.labels("server" if closed_by_server else "client").inc()


def route_template(scope: Scope) -> str:
    """The matched route's path template, ``<mount>/{path}`` for a mounted app, else ``unmatched``."""
    route = scope.get("route")
    if route is not None and getattr(route, "path", None):
        return route.path
    if scope.get("endpoint") is not None and scope.get("root_path"):
        return f"{scope['root_path']}/{{path}}"
    return UNMATCHED

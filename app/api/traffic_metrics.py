"""Counting the traffic for ``/metrics``: HTTP requests and their latency by route, and
WebSocket connections.

Pure ASGI, so it sees every answer, error pages included.  HTTP requests are labelled with the
route template (``/api/games/{game_id}``), never the raw path, so no client can create new series
by asking for new addresses; requests no route matches share the label ``unmatched``, and a
mounted app (``/static``) is ``/static/{path}``.

WebSockets are counted by the endpoint (``app/realtime/endpoint.py``, with :func:`socket_accepted`
and :func:`socket_ended`), not here: a middleware sees them only by wrapping ``send``, which puts a
call on every frame.  A socket counts as connected when the endpoint accepts it and as
disconnected when the endpoint returns.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNMATCHED = "unmatched"


class TrafficMetrics:
    """Count each HTTP request (``http_requests``, ``http_seconds``) in the app's ``Metrics``;
    WebSocket connections pass through untouched (their endpoint counts them).

    ``status_of_error(exc)``: the status the app's last-resort handler answers for an exception
    that leaves the routes (that handler runs outside every middleware, so the status is not seen here).
    """

    def __init__(self, app: ASGIApp, status_of_error: Callable[[BaseException], int]) -> None:
        self.app = app
        self.status_of_error = status_of_error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ctx = getattr(scope["app"].state, "ctx", None) if "app" in scope else None
        if ctx is None or scope["type"] != "http":  # sockets count in their endpoint; no lifespan: no metrics
            await self.app(scope, receive, send)
        else:
            await self._http(ctx.metrics, scope, receive, send)

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


def socket_accepted(metrics) -> None:
    """A WebSocket is being accepted: ``websocket_connects`` and ``websockets_open`` go up."""
    metrics.websocket_connects.inc()
    metrics.websockets_open.inc()


def socket_ended(metrics, closed_by_server: bool) -> None:
    """An accepted WebSocket's endpoint returned: ``websockets_open`` goes down and
    ``websocket_disconnects`` counts it as closed by the ``server`` (the app sent a close frame)
    or the ``client`` (the peer left or stopped answering pings)."""
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

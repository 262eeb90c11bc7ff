"""A WebSocket's frames pass through no per-frame middleware work: the session cookie is
read once at connect (``app/api/cookie_sessions.py``) and sockets are counted by their endpoint
(``app/api/traffic_metrics.py``), so the ``send`` and ``receive`` the server gives a socket reach
the endpoint unwrapped.  HTTP keeps Starlette's session handling (``Set-Cookie`` on login)."""

from __future__ import annotations

import json
from base64 import b64encode
from types import SimpleNamespace

from app.api.cookie_sessions import CookieSessions
from app.api.traffic_metrics import TrafficMetrics
from app.main import SESSION_COOKIE
from tests.support.players import Player, hello, started_table
from tests.conftest import run_coroutine


class Inner:
    """The app behind a middleware: keeps what it was called with."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict, object, object]] = []

    async def __call__(self, scope, receive, send) -> None:
        self.calls.append((scope, receive, send))


async def receive():
    return {"type": "websocket.connect"}


async def send(message):
    return None


def socket_scope(cookie: str | None) -> dict:
    headers = [(b"cookie", f"{SESSION_COOKIE}={cookie}".encode())] if cookie is not None else []
    return {"type": "websocket", "path": "/ws/games/1", "headers": headers, "query_string": b""}


def middleware(inner) -> CookieSessions:
    return CookieSessions(inner, secret_key="test-secret", session_cookie=SESSION_COOKIE)


def signed(sessions: CookieSessions, content: dict) -> str:
    """A cookie as Starlette's ``SessionMiddleware`` writes it."""
    return sessions.signer.sign(b64encode(json.dumps(content).encode())).decode()


def test_a_socket_gets_the_servers_send_and_receive_unwrapped_and_its_cookie_read_at_connect():
    inner = Inner()
    sessions = middleware(inner)
    scope = socket_scope(signed(sessions, {"account_id": 7, "epoch": 2, "key": "k"}))
    run_coroutine(sessions, scope, receive, send)
    [(seen, seen_receive, seen_send)] = inner.calls
    assert seen_send is send and seen_receive is receive
    assert dict(seen["session"]) == {"account_id": 7, "epoch": 2, "key": "k"}


def test_a_socket_with_a_forged_or_no_cookie_has_an_empty_session():
    inner = Inner()
    sessions = middleware(inner)
    # signed with another key (the signature's last two letters replaced by "xx" now and then
    # decoded to the same bytes: its last base64 letter has unused bits)
    forged = signed(CookieSessions(Inner(), secret_key="another-secret", session_cookie=SESSION_COOKIE), {"account_id": 1})
    for cookie in (forged, None):
        run_coroutine(sessions, socket_scope(cookie), receive, send)
    assert [dict(scope["session"]) for scope, _, _ in inner.calls] == [{}, {}]


def test_traffic_metrics_passes_a_socket_through_unwrapped():
    inner = Inner()
    app = SimpleNamespace(state=SimpleNamespace(ctx=SimpleNamespace(metrics=None)))
    run_coroutine(TrafficMetrics(inner, status_of_error=lambda exc: 500), {**socket_scope(None), "app": app}, receive, send)
    [(_, seen_receive, seen_send)] = inner.calls
    assert seen_send is send and seen_receive is receive


def test_the_real_app_still_sets_the_cookie_over_http_and_reads_it_on_a_socket(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")  # each logged in through Set-Cookie
    table_id = started_table(ana, [bo])
    with bo.websocket(table_id) as socket:
        assert hello(socket)["seat"] == 1  # the socket speaks for Bo: his cookie was read at connect

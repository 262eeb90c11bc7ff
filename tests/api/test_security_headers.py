"""The server sends the security headers itself: a host behind nginx or Traefik (not the shipped
Caddyfile) got none."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.api.security_headers import SecurityHeaders, content_security_policy
from app.main import create_app
from tests.conftest import make_settings, run_coroutine

EXPECTED = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin"}


@pytest.mark.parametrize("path, status", [("/", 200), ("/static/js/table.js", 200), ("/api/rulesets", 200),
                                          ("/api/games/999999", 404), ("/no-such-page", 404), ("/healthz", 200)])
def test_every_answer_carries_the_security_headers_once(client, path, status):
    answer = client.get(path, headers={"accept": "text/html", "host": "games.example.org"})
    assert answer.status_code == status
    for name, value in EXPECTED.items():
        assert answer.headers.get_list(name) == [value], name
    [policy] = answer.headers.get_list("content-security-policy")
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy and "'unsafe-eval'" not in policy
    assert "connect-src 'self' ws://games.example.org wss://games.example.org;" in policy
    assert "strict-transport-security" not in answer.headers  # plain http here: the setting says so


def test_a_head_request_gets_them_too(client):
    assert client.head("/").headers["x-frame-options"] == "DENY"


def test_the_api_explorer_gets_the_policy_its_cdn_needs(client):
    policy = client.get("/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in policy and "frame-ancestors 'none'" in policy


def test_https_sites_get_strict_transport_security(sqlite_database):
    settings = make_settings(sqlite_database).model_copy(update={"cookie_secure": True})
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/rulesets").headers["strict-transport-security"] == "max-age=31536000"


@pytest.mark.parametrize("host", ["evil.example; script-src *", "a b", "x'y", "", None])
def test_a_host_header_that_is_no_plain_host_is_never_written_into_the_policy(host):
    policy = content_security_policy("/", host)
    assert "connect-src 'self';" in policy and "*" not in policy and "evil" not in policy


def test_a_header_an_answer_set_itself_is_kept_and_sockets_pass_untouched():
    seen = []

    async def app(scope, receive, send):
        if scope["type"] == "websocket":
            seen.append(send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"x-frame-options", b"SAMEORIGIN")]})
        await send({"type": "http.response.body", "body": b"ok"})

    answer = TestClient(SecurityHeaders(app, https=False)).get("/")
    assert answer.headers.get_list("x-frame-options") == ["SAMEORIGIN"]
    assert answer.headers["x-content-type-options"] == "nosniff"

    async def socket_send(_message):
        pass

    run_coroutine(SecurityHeaders(app, https=False), {"type": "websocket", "path": "/ws"}, None, socket_send)
    assert seen == [socket_send]  # the socket's own send: no wrapper around its frames

"""The shipped ``Caddyfile`` in front of the real server:
its security headers, compression and ``/metrics`` rule over HTTP, and every page of the client
loaded through it in Chromium without one Content-Security-Policy violation."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

import httpx
import pytest

from tests.e2e.pages import sign_in
from tests.support.caddy import CaddyProxy, caddy_binary

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

SECURITY_HEADERS = {
    "strict-transport-security": "max-age=31536000",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}
# Every CSP violation the page sees, as the browser reports it to the page.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
});
"""


@pytest.fixture(scope="module")
def proxy(live_server, tmp_path_factory) -> str:
    """The base URL of Caddy (the repository's Caddyfile) forwarding to the live server."""
    binary = caddy_binary()
    if binary is None:
        pytest.skip("no caddy binary (apt-get install caddy, or set CARAVANSERAI_TEST_CADDY)")
    caddy = CaddyProxy(binary, urlsplit(live_server).port, tmp_path_factory.mktemp("caddy"))
    try:
        caddy.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield caddy.base_url
    finally:
        caddy.stop()


@pytest.mark.parametrize("path", ["/", "/static/js/table.js", "/api/rulesets", "/rules/nimalia", "/no-such-page"])
def test_every_answer_carries_the_security_headers(proxy, path):
    headers = httpx.get(f"{proxy}{path}", headers={"accept": "text/html"}).headers
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value, name
    [policy] = headers.get_list("content-security-policy")  # the proxy's, in place of the app's own
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert "wss://127.0.0.1" in policy  # the socket's own host, filled in per request
    assert "server" not in headers


@pytest.mark.parametrize("encoding", ["zstd", "gzip"])
def test_scripts_and_styles_go_out_compressed(proxy, encoding):
    with httpx.stream("GET", f"{proxy}/static/js/table.js", headers={"accept-encoding": encoding}) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == encoding


@pytest.mark.parametrize("path", ["/metrics", "/metrics/", "/METRICS", "/%6Detrics", "/static/../metrics",
                                  "/./metrics", "/metrics?format=text"])
def test_metrics_are_not_reachable_through_the_proxy(proxy, live_server, path):
    assert httpx.get(f"{live_server}/metrics").status_code == 200  # the app still has them for Prometheus
    answer = httpx.get(f"{proxy}{path}", follow_redirects=True)
    assert answer.status_code == 404
    assert "caravanserai_" not in answer.text


def start_bot_game(page, base: str, ruleset: str) -> str:
    """A started private 2-seat table of ``ruleset`` (kept out of the lobby other tests read): the
    page's user at seat 0, a bot at seat 1; its id."""
    created = page.request.post(f"{base}/api/tables", data={"ruleset": ruleset, "seats": 2, "options": {},
                                                            "private": True})
    assert created.ok, created.text()
    table_id = str(created.json()["id"])
    for step in (page.request.post(f"{base}/api/tables/{table_id}/bots", data={"seat": 1, "level": "default"}),
                 page.request.post(f"{base}/api/tables/{table_id}/start")):
        assert step.ok, step.text()
    return table_id


def play_some_moves(page, base: str, table_id: str, moves: int) -> None:
    """Up to ``moves`` first legal moves of the page's user, sent as the client does, while it shows them."""
    for _ in range(moves):
        page.wait_for_function("() => document.body.dataset.myTurn === 'true' || "
                               "document.getElementById('game')?.dataset.status === 'finished'", timeout=20_000)
        game = page.request.get(f"{base}/api/games/{table_id}").json()
        if game["status"] == "finished" or not game["legal"]:
            return
        before = page.locator("#game").get_attribute("data-version")
        answer = page.request.post(f"{base}/api/games/{table_id}/moves",
                                   data={"id": str(uuid.uuid4()), "version": game["version"], "move": game["legal"][0]})
        assert answer.ok, answer.text()
        page.wait_for_function("v => document.getElementById('game').dataset.version !== v", arg=before)


@pytest.fixture(params=["through the proxy", "from the server itself"])
def site(request) -> str:
    """The base URL of the site through Caddy, or of the server itself (which sends the same policy,
    for hosts behind another proxy)."""
    return request.getfixturevalue("proxy" if request.param == "through the proxy" else "live_server")


def test_every_page_runs_under_the_content_security_policy(site, chromium):
    proxy = site
    violations: list[str] = []
    page = sign_in(chromium, proxy, "Csilla")
    page.context.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda message: violations.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text else None)

    def visit(path: str, ready: str) -> None:
        page.goto(f"{proxy}{path}")
        page.wait_for_selector(ready, state="attached")
        violations.extend(f"{path}: {seen}" for seen in page.evaluate("window.cspViolations"))

    visit("/", "#who-name")
    rulesets = [ruleset["name"] for ruleset in page.request.get(f"{proxy}/api/rulesets").json()]
    assert len(rulesets) >= 4
    for ruleset in rulesets:
        table_id = start_bot_game(page, proxy, ruleset)
        page.goto(f"{proxy}/tables/{table_id}")
        # The state came through the WebSocket (connect-src), and the board was drawn.
        page.wait_for_function("() => (document.getElementById('game')?.dataset.version ?? '') !== ''")
        play_some_moves(page, proxy, table_id, moves=3)
        violations.extend(f"/tables/{table_id} ({ruleset}): {seen}" for seen in page.evaluate("window.cspViolations"))
        visit(f"/tables/{table_id}?version=1", "#game")
        visit(f"/rules/{ruleset}", "h1")
    me = page.request.get(f"{proxy}/api/auth/me").json()
    visit(f"/players/{me['id']}", "h1")
    visit("/rules", "h1")
    visit("/no-such-page", "h1")
    visit("/docs", "#swagger-ui")  # its own, looser policy: the inline start-up script may run
    assert violations == []

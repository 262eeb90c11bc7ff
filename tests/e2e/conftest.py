"""End-to-end fixtures: the real server as a subprocess and Debian's Chromium driven by Playwright.

The server runs exactly as a user starts it (``python -m app.cli serve``, which migrates a fresh
SQLite file first) on a free port; tests talk to it only through HTTP, the WebSocket and the browser.
Playwright's own browser download is not used: we launch the system Chromium.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.server import ServerProcess

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CARAVANSERAI_E2E_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_SECONDS = 120  # a limit, never a target: a loaded 2-core machine imports slowly
EXPECT_SECONDS = 20
"""How long an ``expect`` waits for its condition (Playwright's default is 5 s).  A limit, never a
target: it only delays a failure, and on a loaded 2-core machine a start, a bot's move or a
redraw can take longer than 5 s (a started game was seen to reach "running" later than that)."""
expect.set_options(timeout=EXPECT_SECONDS * 1000)


@contextmanager
def running_server(workdir: Path, env_for: Callable[[str], dict[str, str]] = lambda base_url: {}) -> Iterator[str]:
    """A server process on a new SQLite file in ``workdir``, with the settings ``env_for(base_url)``;
    yields its base URL (the test fails if it does not start)."""
    server = ServerProcess(f"sqlite+aiosqlite:///{workdir}/e2e.db", log_path=workdir / "server.log", workdir=workdir)
    server.env = env_for(server.base_url)
    try:
        server.start(timeout=SERVER_START_SECONDS)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield server.base_url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def live_server_workdir(tmp_path_factory) -> Path:
    """The folder of ``live_server``: its database is ``e2e.db`` there (a test may read it, never
    write it)."""
    return tmp_path_factory.mktemp("e2e-server")


@pytest.fixture(scope="session")
def live_server(live_server_workdir) -> str:
    """The base URL of a freshly started server with its own empty SQLite database. Its bots pause
    0.1 s before a move instead of the 0.6 s that lets people follow them: the tests wait for
    bots' moves by the hundred, and none of them watches the pause itself."""
    with running_server(live_server_workdir, lambda base_url: {"CARAVANSERAI_BOT_DELAY_SECONDS": "0.1"}) as base_url:
        yield base_url


class QuietBrowser:
    """The browser, whose new contexts prefer reduced motion (as some users set): the pulsing legal
    spaces and the last-move flash do not repaint every frame, which cost the suite minutes of CPU.
    A test that wants the animations asks for ``reduced_motion="no-preference"``."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def chromium():
    """A headless system Chromium; the test is skipped where there is none (CI installs it)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield QuietBrowser(browser)
        finally:
            browser.close()


@pytest.fixture(autouse=True)
def close_browser_contexts(request):
    """Close every browser context a test opened when it ends: a page left open keeps its timers
    (clocks, turn alerts, reconnect tries) and its sockets going, and dozens of them slowed every
    later test of the session down by half."""
    yield
    if "chromium" in request.fixturenames:
        browser = request.getfixturevalue("chromium")
        for context in list(browser.contexts):
            context.close()

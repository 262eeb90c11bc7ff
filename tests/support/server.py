"""Running the real server as a separate process (``python -m app.cli serve``) for process-level tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from tests.support.push_service import TEST_VAPID_KEY

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """One server process on ``port`` against ``database_url``; ``start``/``kill``/``stop``."""

    def __init__(self, database_url: str, port: int | None = None, extra_rulesets: list[str] | None = None,
                 log_path: Path | None = None, workdir: Path | None = None, env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        self.workdir = workdir or (log_path.parent if log_path else ROOT)
        self.database_url = database_url
        self.extra_rulesets = extra_rulesets or []
        self.log_path = log_path
        self.process: subprocess.Popen | None = None
        self.env = env or {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> "ServerProcess":
        """Start the process and wait until ``/healthz`` answers 200; raises ``RuntimeError``."""
        env = {**os.environ, "CARAVANSERAI_DATABASE_URL": self.database_url, "CARAVANSERAI_SECRET_KEY": "test-secret",
               "CARAVANSERAI_EXTRA_RULESETS": json.dumps(self.extra_rulesets), "PYTHONUNBUFFERED": "1",
               # Tests and benchmarks sign many people in from one address.
               "CARAVANSERAI_RATE_LIMIT_AUTH": "100000/minute", "CARAVANSERAI_RATE_LIMIT_TABLES": "100000/minute",
               "CARAVANSERAI_RATE_LIMIT_MOVES": "100000/second", "CARAVANSERAI_RATE_LIMIT_REPLAYS": "100000/minute",
               "CARAVANSERAI_VAPID_PRIVATE_KEY": TEST_VAPID_KEY,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), **self.env}
        output = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.workdir, env=env, stdout=output, stderr=subprocess.STDOUT)  # cwd: away from a developer .env
        problem = wait_until_healthy(self.process, f"{self.base_url}/healthz", timeout)
        if problem is not None:
            self.stop()
            raise RuntimeError(f"server {problem}: {self.log_text()}")
        return self

    def log_text(self) -> str:
        """The server's output so far (empty without a log file)."""
        return self.log_path.read_text() if self.log_path and self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self, grace: float = 10) -> None:
        """SIGTERM and wait (SIGKILL after ``grace`` seconds)."""
        stop_process(self.process, grace)


def wait_until_healthy(process: subprocess.Popen, url: str, timeout: float) -> str | None:
    """Poll ``url`` until it answers 200 (``None``), or say why it never did: ``process`` exited,
    or ``timeout`` seconds passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"exited with {process.returncode}"
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return None
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    return f"did not answer {urlsplit(url).path} within {timeout} s"


def stop_process(process: subprocess.Popen | None, grace: float = 10) -> None:
    """SIGTERM ``process`` and wait for it (SIGKILL after ``grace`` seconds); nothing when it is not
    running."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)

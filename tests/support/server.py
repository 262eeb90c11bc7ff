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

    def start(self, timeout: float = 30.0) -> "ServerProcess":
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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.log_text()}")
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not answer /healthz within {timeout} s: {self.log_text()}")

    def log_text(self) -> str:
        """The server's output so far (empty without a log file)."""
        return self.log_path.read_text() if self.log_path and self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after 10 s)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

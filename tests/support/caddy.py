"""The repository's ``Caddyfile`` run for real on loopback, in front of a test server.

Plain http on a free port (the site address ``http://127.0.0.1:PORT``), so no certificate is asked
for; everything else (headers, compression, path rules, proxying) is the shipped file itself,
imported unchanged by a wrapper that only turns Caddy's admin endpoint off.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.support.server import free_port, stop_process, wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "Caddyfile"


def caddy_binary() -> str | None:
    """``CARAVANSERAI_TEST_CADDY`` or ``caddy`` on the PATH (Debian's package; CI installs it)."""
    return os.environ.get("CARAVANSERAI_TEST_CADDY") or shutil.which("caddy")


class CaddyProxy:
    """Caddy with the repository's Caddyfile, forwarding to ``127.0.0.1:upstream_port``."""

    def __init__(self, binary: str, upstream_port: int, workdir: Path) -> None:
        self.binary = binary
        self.upstream_port = upstream_port
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> "CaddyProxy":
        """Start Caddy and wait until it forwards ``/healthz``; raises ``RuntimeError``."""
        config = self.workdir / "Caddyfile.test"
        # Admin endpoint off: several test runs on one machine would fight over its port 2019.
        config.write_text(f"{{\n\tadmin off\n}}\n\nimport {CADDYFILE}\n")
        env = {**os.environ, "CARAVANSERAI_DOMAIN": self.base_url,
               "CARAVANSERAI_UPSTREAM": f"127.0.0.1:{self.upstream_port}",
               "XDG_DATA_HOME": str(self.workdir / "data"), "XDG_CONFIG_HOME": str(self.workdir / "config")}
        log = open(self.workdir / "caddy.log", "ab")
        self.process = subprocess.Popen([self.binary, "run", "--config", str(config), "--adapter", "caddyfile"],
                                        cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        problem = wait_until_healthy(self.process, f"{self.base_url}/healthz", timeout)
        if problem is not None:
            self.stop()
            raise RuntimeError(f"caddy {problem}: {self.log_text()}")
        return self

    def log_text(self) -> str:
        path = self.workdir / "caddy.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after 10 s)."""
        stop_process(self.process)

"""What ``caravanserai serve`` does once before it serves, in a short-lived child process
(``python -m app.prepare``): apply the migrations (each one logged, in the server's log format), and
create the VAPID key file (or check the configured key).

So the server process never imports Alembic (with Mako and Pygments), and imports the cryptography
library only when a browser subscribes or a push is sent: about 11 and 6 MiB that a process keeps
for good once imported.  A failure (a database that refuses, a VAPID key that is no
P-256 PEM) shows the child's traceback (one JSON line with JSON logs) and stops ``serve`` with its
status, before anything serves.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.config import Settings

NO_MIGRATE = "--no-migrate"


def prepare(settings: Settings, migrate: bool) -> None:
    """Migrate ``settings``' database to head (unless not ``migrate``), then load or create its VAPID key.

    Raises what :func:`app.db.migrate.upgrade_to_head` and
    :func:`app.services.notify.vapid.load_or_create_key` raise."""
    from app.db.migrate import upgrade_to_head
    from app.services.notify.vapid import load_or_create_key

    if migrate:
        upgrade_to_head(settings.async_database_url)
    load_or_create_key(settings)


def prepare_in_child(migrate: bool) -> None:
    """:func:`prepare` in a child process that reads the same settings (it inherits the environment
    and the working directory, with the directory holding the ``app`` package first on its
    ``PYTHONPATH``); its output goes where this process's does.  Raises ``SystemExit`` with the
    child's status if it failed."""
    package_root = str(Path(__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "app.prepare"] + ([] if migrate else [NO_MIGRATE])
    status = subprocess.run(command, env={**os.environ, "PYTHONPATH": path}).returncode
    if status != 0:
        raise SystemExit(status)


def main() -> None:
    """``python -m app.prepare [--no-migrate]``: :func:`prepare` with the logs set up as the
    server's (``app/logs.py``), so each migration run (``app.db.migrate``) is logged where and as the
    server's lines are; with JSON logs a failure is one JSON line, not a traceback.  A database a
    newer release migrated stops with one line and no traceback: the host has nothing to debug,
    only to choose a release."""
    from app import logs
    from app.db.migrate import DatabaseNewerThanRelease

    settings = Settings()
    logs.configure(settings.log_format)

    def work() -> None:
        try:
            prepare(settings, migrate=NO_MIGRATE not in sys.argv[1:])
        except DatabaseNewerThanRelease as newer:
            raise SystemExit(f"caravanserai: {newer}") from None

    logs.exit_on_failure(work, "start-up failed (migrations or the VAPID key)", settings.log_format)


if __name__ == "__main__":
    main()

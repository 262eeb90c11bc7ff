"""The ``caravanserai`` command: ``serve`` (migrates, then runs uvicorn), ``migrate``, ``backup``,
``restore``, ``admin`` (``app/admin_cli.py``), ``ratings recompute`` and ``--version``."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from pydantic import ValidationError
from pydantic_core import ErrorDetails
from sqlalchemy.engine import make_url

from app import __version__, admin_cli, logs
from app.config import Settings
from app.db.backup import (BackupFailed, RestoreRefused, backup, check_backup, record_run, restorable_backup,
                           restore)
from app.db.engine import make_engine, make_session_factory
from app.db.migrate import DatabaseNewerThanRelease, upgrade_to_head
from app.db.waiting import DatabaseNotUp, wait_for_database
from app.links import link_warnings
from app.rulesets.registry import Registry
from app.services.accounts.ratings import Recomputed, recompute
from app.metrics import MULTIPROC_DIR_ENV, SERVE_PID_ENV
from app.prepare import prepare_in_child

WORKER_HEALTHCHECK_SECONDS = 30


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    parser = argparse.ArgumentParser(prog="caravanserai", description="Board games with friends, in the browser.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web server (applies migrations first)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int)
    serve.add_argument("--no-migrate", action="store_true", help="do not apply migrations on start")
    commands.add_parser("migrate", help="apply database migrations and exit")
    backup_command = commands.add_parser(
        "backup", help="write a backup of the database to FILE (a 0600 zip archive), or check one with --check")
    backup_command.add_argument("file", type=Path)
    backup_command.add_argument(
        "--check", action="store_true",
        help="restore FILE into a scratch database instead, compare its rows with the counts it recorded and "
             "migrate it; exit 1 on any difference")
    restore_command = commands.add_parser(
        "restore", help="replace everything in the database by the backup FILE, then migrate it to this release")
    restore_command.add_argument("file", type=Path)
    restore_command.add_argument("--yes", action="store_true",
                                 help="replace without asking (needed where no terminal can answer)")
    admin_cli.add_parser(commands)
    ratings_command = commands.add_parser("ratings", help="ratings per game")
    ratings_actions = ratings_command.add_subparsers(dest="action", required=True)
    recompute_command = ratings_actions.add_parser(
        "recompute", help="recompute every rating from the stored games, replayed in the order they were rated")
    recompute_command.add_argument("--check", action="store_true",
                                   help="only compare with the stored ratings; exit 1 if any differs")
    args = parser.parse_args(argv)

    settings = read_settings()
    if args.command == "migrate":
        logs.configure(settings.log_format)  # each migration run is logged
        try:
            upgrade_to_head(settings.async_database_url)
        except DatabaseNewerThanRelease as newer:
            raise SystemExit(f"caravanserai migrate: {newer}") from None
        return
    if args.command == "admin":
        admin_cli.run(args, settings)
        return
    if args.command == "backup" and args.check:
        check_command_line(settings.async_database_url, args.file)
        return
    if args.command == "backup":
        try:
            written = backup(settings.async_database_url, args.file)
        except (BackupFailed, OSError) as failed:  # OSError: the disk is full, the folder not writable...
            raise SystemExit(f"caravanserai backup: {failed}; nothing was written") from None
        print(f"backup written to {args.file} (migration {written.revision}, "
              f"{sum((written.counts or {}).values())} rows in {len(written.counts or {})} tables)")
        return
    if args.command == "restore":
        restore_command_line(settings.async_database_url, args.file, args.yes)
        return
    if args.command == "ratings":
        recomputed = asyncio.run(recompute_ratings(settings, write=not args.check))
        print(f"{recomputed.games} rated games replayed, {len(recomputed.ratings)} ratings; "
              f"{recomputed.differences} stored numbers differed" + ("" if args.check else " and were rewritten"))
        if args.check and recomputed.differences:
            raise SystemExit(1)
        return
    workers = args.workers or settings.workers
    if workers > 1 and settings.is_sqlite:
        # Each process would be its own leader with its own in-process fan-out: moves committed by
        # one would never reach the sockets of the other (found by a fresh user).
        raise SystemExit(f"SQLite serves one process only, and {workers} workers were asked for: set "
                         "CARAVANSERAI_WORKERS=1 (or leave it out), or use PostgreSQL (CARAVANSERAI_DATABASE_URL; "
                         "docs/hosting.md)")
    # --host/--port become the settings the workers read: links in e-mails name the port served.
    settings = with_listen_address(settings, args.host, args.port)
    logs.configure(settings.log_format)
    for problem in link_warnings(settings):
        logging.getLogger("app.cli").warning(problem)
    # A database started with the server (compose, a reboot) may not answer for some seconds.
    logs.exit_on_failure(lambda: asyncio.run(wait_for_database(settings.async_database_url,
                                                               settings.database_wait_seconds)),
                         "cannot start", settings.log_format, expected=(DatabaseNotUp,))
    # Migrations and the VAPID key file, in a child process: the server never imports Alembic, nor
    # the cryptography library before a push needs it (app/prepare.py).
    prepare_in_child(migrate=not args.no_migrate)
    settings.session_secret  # create the key files once, before any worker starts
    os.environ[SERVE_PID_ENV] = str(os.getpid())  # the top of the server's tree, for its memory metric
    with metrics_directory(workers):
        uvicorn.run("app.main:create_app", factory=True, host=settings.host,
                    port=settings.port, workers=workers, ws_max_size=settings.max_payload_bytes,
                    ws_ping_interval=settings.ws_ping_interval_seconds,
                    ws_ping_timeout=settings.ws_ping_timeout_seconds,
                    ws_per_message_deflate=settings.ws_per_message_deflate,
                    proxy_headers=True, log_config=log_config(settings.log_format), timeout_graceful_shutdown=10,
                    # Longer than uvicorn's 5 s: an idle HTTP connection closed by the server just as a client
                    # reuses it is a "connection reset" for that client (browsers retry; scripts may not).
                    timeout_keep_alive=settings.keep_alive_seconds,
                    # A new worker must answer the supervisor's ping within this; uvicorn's 5 s is too
                    # short for one still importing on a busy small machine, which it kills and restarts
                    # over and over (seen at a load of 20 on 2 cores). A worker that hangs later is found
                    # just as surely, a little later.
                    timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS)


def with_listen_address(settings: Settings, host: str | None, port: int | None) -> Settings:
    """``settings`` with ``serve``'s ``--host``/``--port`` (when given) in place of the settings',
    also set in the environment (``CARAVANSERAI_HOST``/``_PORT``) for the workers, which read
    their settings anew: links without ``public_url`` then name the address really served."""
    changes = {name: value for name, value in (("host", host), ("port", port)) if value is not None}
    for name, value in changes.items():
        os.environ[f"CARAVANSERAI_{name.upper()}"] = str(value)
    return settings.model_copy(update=changes) if changes else settings


def restore_command_line(database_url: str, file: Path, confirmed: bool) -> None:
    """``caravanserai restore FILE [--yes]``: check the backup, ask (unless ``confirmed``), restore.

    Exits with one line for the host (status 1, nothing changed) when the backup is refused, the
    question is answered no, or there is no terminal to ask and ``--yes`` is missing."""
    try:
        info = restorable_backup(database_url, file)
        if not confirmed:
            database = make_url(database_url).render_as_string(hide_password=True)
            if not sys.stdin.isatty():
                raise SystemExit(f"caravanserai restore: this replaces everything in {database}; "
                                 "add --yes to do it (no terminal to ask)")
            migrated = f", then migrated to {info.head}" if info.older else ""
            question = (f"Replace everything in {database} by {file} (taken at migration {info.revision}{migrated})? "
                        "[y/N] ")
            if input(question).strip().lower() not in ("y", "yes"):
                raise SystemExit("restore cancelled: nothing was changed")
        restore(database_url, file)
    except RestoreRefused as refused:
        raise SystemExit(f"caravanserai restore: {refused}") from None
    migrated = f", migrated from {info.revision} to {info.head}" if info.older else ""
    print(f"database restored from {file} (migration {info.revision}{migrated}); "
          "session cookies of accounts the backup does not hold no longer log in")


def check_command_line(database_url: str, file: Path) -> None:
    """``caravanserai backup --check FILE``: :func:`app.db.backup.check_backup`, a line per table
    (``table: rows``, and ``(recorded N)`` where they differ), then the verdict.  Exits with status 1
    when the file is refused, a count differs or the migrations fail; a good check is written down
    for the "last good backup" metric."""
    try:
        report = check_backup(database_url, file)
    except (RestoreRefused, BackupFailed) as refused:
        raise SystemExit(f"caravanserai backup --check: {refused}") from None
    info = report.info
    for table, rows in sorted(report.counts.items()):
        recorded = report.differences.get(table, (rows, rows))[0]
        print(f"{table}: {rows}" + ("" if recorded == rows else f" (recorded {recorded})"))
    for table, (recorded, _) in sorted(report.differences.items()):
        if table not in report.counts:
            print(f"{table}: missing (recorded {recorded})")
    counted = "no counts recorded (a backup from an older release)" if info.counts is None else (
        f"{len(report.differences)} tables differ from the recorded counts" if report.differences
        else "every table holds the rows it recorded")
    migrated = (f"migrated from {info.revision} to {info.head}" if info.older else f"at {info.head}") \
        if report.migrated else f"the migrations from {info.revision} FAILED"
    verdict = "good" if report.good else "BAD"
    print(f"backup {file}: {verdict}: taken at migration {info.revision}, {counted}; {migrated}")
    if not report.good:
        raise SystemExit(1)
    record_run(database_url, "check", file, dataclasses.replace(info, counts=report.counts))


@contextmanager
def metrics_directory(workers: int) -> Iterator[Path | None]:
    """With several workers, the directory where they all write their metrics (prometheus-client's
    multiprocess mode, ``app/metrics.py``), set as ``PROMETHEUS_MULTIPROC_DIR`` for the workers.

    One per server start: the host's own ``PROMETHEUS_MULTIPROC_DIR`` if set, emptied of an earlier
    start's files first (else they would count again); otherwise a new temporary directory, removed
    when the server stops.  One worker without that variable keeps its metrics in memory: yields
    None.  The workers are started fresh (uvicorn spawns them), so each one reads the variable
    before it imports prometheus-client, as multiprocess mode needs.
    """
    configured = os.environ.get(MULTIPROC_DIR_ENV)
    if configured:
        directory = Path(configured)
        directory.mkdir(parents=True, exist_ok=True)
        for leftover in directory.glob("*.db"):
            leftover.unlink()
        yield directory
        return
    if workers <= 1:
        yield None
        return
    directory = Path(tempfile.mkdtemp(prefix="caravanserai-metrics-"))
    os.environ[MULTIPROC_DIR_ENV] = str(directory)
    try:
        yield directory
    finally:
        del os.environ[MULTIPROC_DIR_ENV]
        shutil.rmtree(directory, ignore_errors=True)


async def recompute_ratings(settings: Settings, write: bool) -> Recomputed:
    """``caravanserai ratings recompute``: :func:`app.services.accounts.ratings.recompute` on the configured database."""
    engine = make_engine(settings.async_database_url)
    try:
        async with make_session_factory(engine)() as session:
            return await recompute(session, Registry.discover(settings.extra_rulesets), write=write)
    finally:
        await engine.dispose()


def read_settings() -> Settings:
    """The settings, or an exit with one line per wrong setting (no traceback: a host reads this)."""
    try:
        return Settings()
    except ValidationError as exc:
        lines = [_setting_problem(error) for error in exc.errors()]
        raise SystemExit("caravanserai: cannot start:\n  " + "\n  ".join(lines)) from None


def _setting_problem(error: ErrorDetails) -> str:
    where = ".".join(str(part) for part in error["loc"])
    reason = str(error["ctx"]["error"]) if "error" in error.get("ctx", {}) else error["msg"]
    return f"CARAVANSERAI_{where.upper()}: {reason}" if where else reason


def log_config(log_format: str) -> dict:
    """uvicorn's logging set-up for ``serve`` (``app/logs.py``: the pid on every line, JSON lines
    without ANSI escapes when ``log_format`` is ``json``, worker deaths as warnings)."""
    return logs.log_config(log_format)


if __name__ == "__main__":
    main()

"""Every migration a start (or ``caravanserai migrate``) runs is logged, from where to where, in the
server's log format; a database a newer release has migrated is refused before anything runs."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command

from app.db.migrate import DatabaseNewerThanRelease, alembic_config, known_revisions, upgrade_to_head

ROOT = Path(__file__).resolve().parents[1]
REVISIONS = known_revisions()
HEAD = REVISIONS[-1]


def set_revision(path: Path, revision: str) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = ?", (revision,))


def revision_of(path: Path) -> str:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]


def migration_lines(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "app.db.migrate"]


def test_each_migration_run_is_logged_between_a_first_and_a_last_line(tmp_path, caplog):
    with caplog.at_level(logging.INFO, logger="app.db.migrate"):
        upgrade_to_head(f"sqlite+aiosqlite:///{tmp_path}/new.db")
    lines = migration_lines(caplog)
    assert lines[0].startswith(f"migrating the database from nothing (a new database) to {HEAD} (caravanserai ")
    assert lines[1] == "migration 0001 applied (from nothing): Initial schema: accounts, tables, seats, moves."
    assert [line.split()[1] for line in lines[1:-1]] == REVISIONS
    assert all(f"applied (from {before})" in line for line, before in zip(lines[2:-1], REVISIONS))
    assert lines[-1] == f"database migrated to {HEAD}"

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="app.db.migrate"):
        upgrade_to_head(f"sqlite+aiosqlite:///{tmp_path}/new.db")
    assert len(migration_lines(caplog)) == 1
    assert migration_lines(caplog)[0].startswith(f"database at migration {HEAD}, the newest of caravanserai ")


def test_a_database_migrated_by_a_newer_release_is_refused_and_left_as_it_is(tmp_path, migrated_sqlite_file):
    shutil.copyfile(migrated_sqlite_file, tmp_path / "site.db")
    set_revision(tmp_path / "site.db", "9999")
    with pytest.raises(DatabaseNewerThanRelease, match=rf"at migration 9999, which caravanserai .* \(its newest is {HEAD}\)"):
        upgrade_to_head(f"sqlite+aiosqlite:///{tmp_path}/site.db")
    assert revision_of(tmp_path / "site.db") == "9999"


def test_serve_logs_the_migrations_it_runs_in_the_servers_json_format(tmp_path):
    # `serve` migrates in `python -m app.prepare`; its lines must be the server's kind of line.
    older = REVISIONS[-3]
    command.upgrade(alembic_config(f"sqlite+aiosqlite:///{tmp_path}/site.db"), older)  # two migrations behind
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CARAVANSERAI_")}
    environment.update(PYTHONPATH=str(ROOT), CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db",
                       CARAVANSERAI_LOG_FORMAT="json")
    answer = subprocess.run([sys.executable, "-m", "app.prepare"], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=120)
    assert answer.returncode == 0, answer.stderr
    records = [json.loads(line) for line in answer.stderr.splitlines() if line.strip()]
    messages = [record["message"] for record in records if record.get("name") == "app.db.migrate"]
    assert messages[0].startswith(f"migrating the database from {older} to {HEAD}")
    assert [message.split()[1] for message in messages[1:-1]] == REVISIONS[-2:]
    assert messages[-1] == f"database migrated to {HEAD}"
    assert revision_of(tmp_path / "site.db") == HEAD


def test_serve_and_migrate_stop_on_a_newer_database_with_one_line(tmp_path, migrated_sqlite_file):
    shutil.copyfile(migrated_sqlite_file, tmp_path / "site.db")
    set_revision(tmp_path / "site.db", "9999")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CARAVANSERAI_")}
    environment.update(PYTHONPATH=str(ROOT), CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db")
    for command_line, said in ((["-m", "app.prepare"], "caravanserai:"),  # what serve runs first
                               (["-m", "app.cli", "migrate"], "caravanserai migrate:")):
        answer = subprocess.run([sys.executable, *command_line], cwd=tmp_path, env=environment,
                                capture_output=True, text=True, timeout=120)
        assert answer.returncode == 1
        assert answer.stderr.strip().splitlines()[-1].startswith(f"{said} the database is at migration 9999, ")
        assert "Traceback" not in answer.stderr
        assert revision_of(tmp_path / "site.db") == "9999"

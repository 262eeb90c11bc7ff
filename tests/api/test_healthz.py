"""``/healthz`` and the start-up log say which release runs and which migration its database is at,
so a host (or a monitor) can tell releases apart and see that an upgrade reached the database."""

from __future__ import annotations

import logging
import shutil
import sqlite3

from fastapi.testclient import TestClient

from app import __version__
from app.db.migrate import known_revisions
from app.main import create_app
from tests.conftest import make_settings

HEAD = known_revisions()[-1]


def test_healthz_names_the_release_and_the_database_migration(client):
    assert client.get("/healthz").json() == {"status": "ok", "version": __version__, "revision": HEAD}
    assert client.head("/healthz").status_code == 200


def test_healthz_reads_the_migration_at_each_call(tmp_path, migrated_sqlite_file):
    # A database left at an older migration (`serve --no-migrate`, or restored while the app ran) shows it.
    shutil.copyfile(migrated_sqlite_file, tmp_path / "site.db")
    with TestClient(create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path}/site.db"))) as client:
        assert client.get("/healthz").json()["revision"] == HEAD
        with sqlite3.connect(tmp_path / "site.db") as connection:
            connection.execute("UPDATE alembic_version SET version_num = '0010'")
        assert client.get("/healthz").json() == {"status": "ok", "version": __version__, "revision": "0010"}


def test_a_database_never_migrated_answers_with_no_revision(tmp_path):
    with TestClient(create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path}/empty.db"))) as client:
        assert client.get("/healthz").json() == {"status": "ok", "version": __version__, "revision": None}


def test_the_start_up_log_line_names_the_release_and_the_migration(database_url, caplog):
    with caplog.at_level(logging.INFO, logger="app.main"):
        with TestClient(create_app(make_settings(database_url))):
            pass
    started = [record.getMessage() for record in caplog.records if record.name == "app.main"
               and record.getMessage().startswith("caravanserai ")]
    assert started == [f"caravanserai {__version__} started, database at migration {HEAD}"]

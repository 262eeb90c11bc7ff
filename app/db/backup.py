"""Backups: ``pg_dump``/``pg_restore`` for PostgreSQL, SQLite's online backup API for SQLite files."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url


def libpq_url(database_url: str) -> str:
    """A ``postgresql://`` URL that pg_dump understands (the driver part removed)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_path(database_url: str) -> str:
    """The file of a SQLite URL."""
    return make_url(database_url).database


def backup(database_url: str, target: Path) -> None:
    """Write a consistent copy of the database to ``target`` (pg_dump custom format, or a SQLite file).

    Raises ``subprocess.CalledProcessError`` when pg_dump fails.
    """
    if make_url(database_url).get_backend_name() == "sqlite":
        with sqlite3.connect(sqlite_path(database_url)) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
        return
    subprocess.run(["pg_dump", "--format=custom", "--no-owner", f"--file={target}", libpq_url(database_url)],
                   check=True)


def restore(database_url: str, source: Path) -> None:
    """Replace the database's contents by the backup ``source`` (made by :func:`backup`).

    Raises ``subprocess.CalledProcessError`` when pg_restore fails, ``FileNotFoundError`` when
    ``source`` is missing.
    """
    if not source.exists():
        raise FileNotFoundError(source)
    if make_url(database_url).get_backend_name() == "sqlite":
        with sqlite3.connect(source) as backup_file, sqlite3.connect(sqlite_path(database_url)) as target:
            backup_file.backup(target)
        return
    subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                    f"--dbname={libpq_url(database_url)}", str(source)], check=True)

"""Backups and restores: ``pg_dump``/``pg_restore`` for PostgreSQL, SQLite's online backup API for
SQLite files.

A restore replaces everything in the database by the backup, whatever the database held before
(an empty database, this site's own newer rows, another release's tables), and then migrates the
backup to this release's head.  Before it changes anything it reads the backup's migration
(``alembic_version``) and refuses a backup this release cannot read: one from a newer release, or
a file that is no backup of ours.  On PostgreSQL the drop and the restore are one transaction, so a
restore that fails half-way leaves the database as it was.
"""

from __future__ import annotations

import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from app.db.migrate import known_revisions, upgrade_to_head

# Every table, view and sequence of the schema the app's tables live in (the connection's
# current_schema(), "public" as a rule), and its own types: what a restore replaces.  CASCADE: the
# foreign keys between them; IF EXISTS: an object an earlier drop already took along.
DROP_EVERYTHING = """
DO $$
DECLARE
    item record;
BEGIN
    FOR item IN
        SELECT relname, CASE relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                                     WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind
        FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'S')
    LOOP
        EXECUTE format('DROP %s IF EXISTS %I.%I CASCADE', item.kind, current_schema(), item.relname);
    END LOOP;
    FOR item IN
        SELECT typname FROM pg_type
        WHERE typnamespace = current_schema()::regnamespace AND typtype IN ('e', 'd')
    LOOP
        EXECUTE format('DROP TYPE IF EXISTS %I.%I CASCADE', current_schema(), item.typname);
    END LOOP;
END $$;
"""

# A restore waits this long for a lock the running app holds (a game in the middle of a move), then
# gives up with nothing changed: the app should be stopped first.
LOCK_WAIT = "30s"


class RestoreRefused(Exception):
    """The backup cannot be restored here; nothing was changed.  The message says why, for a host."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup file holds: its migration (``alembic_version``), and whether this release has
    that migration (``known``); ``head``: this release's newest migration."""

    revision: str
    head: str
    known: bool

    @property
    def older(self) -> bool:
        """Whether the restore migrates the backup after restoring it."""
        return self.known and self.revision != self.head


def libpq_url(database_url: str) -> str:
    """A ``postgresql://`` URL that pg_dump understands (the driver part removed)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_path(database_url: str) -> str:
    """The file of a SQLite URL; raises ``ValueError`` for one that names none (in memory)."""
    path = make_url(database_url).database
    if not path:
        raise ValueError(f"{database_url!r} names no SQLite file")
    return path


def _is_sqlite(database_url: str) -> bool:
    return make_url(database_url).get_backend_name() == "sqlite"


def backup(database_url: str, target: Path) -> None:
    """Write a consistent copy of the database to ``target`` (pg_dump custom format, or a SQLite file).

    Raises ``subprocess.CalledProcessError`` when pg_dump fails.
    """
    if _is_sqlite(database_url):
        with sqlite3.connect(sqlite_path(database_url)) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
        return
    subprocess.run(["pg_dump", "--format=custom", "--no-owner", f"--file={target}", libpq_url(database_url)],
                   check=True)


def inspect_backup(database_url: str, source: Path) -> BackupInfo:
    """The migration the backup ``source`` was taken at, for a restore into ``database_url``'s kind
    of database.

    Raises ``RestoreRefused`` when ``source`` is missing, is not a backup of that kind (a SQLite
    file for PostgreSQL, or the reverse) or holds no ``alembic_version``.
    """
    if not source.is_file():
        raise RestoreRefused(f"{source}: no such file")
    revision = _sqlite_revision(source) if _is_sqlite(database_url) else _postgres_revision(source)
    revisions = known_revisions()
    return BackupInfo(revision=revision, head=revisions[-1], known=revision in revisions)


def restorable_backup(database_url: str, source: Path) -> BackupInfo:
    """:func:`inspect_backup`, and ``RestoreRefused`` also for a backup from a newer release (one
    taken at a migration this release does not have)."""
    info = inspect_backup(database_url, source)
    if not info.known:
        raise RestoreRefused(
            f"{source} was taken at migration {info.revision}, which this release does not have: it comes from "
            f"a newer release (this one ends at migration {info.head}). Nothing was changed. Restore it with "
            "the release that made it, or a newer one.")
    return info


def _sqlite_revision(source: Path) -> str:
    try:
        with sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True) as backup_file:
            rows = backup_file.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError as exc:  # not a database, or one without alembic_version
        raise RestoreRefused(f"{source} is not a backup of a Caravanserai SQLite database ({exc})") from None
    return _one_revision(source, [row[0] for row in rows])


def _postgres_revision(source: Path) -> str:
    # The data of the one table, as pg_restore would load it: "COPY ... FROM stdin;", a line per row, "\.".
    listing = subprocess.run(["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(source)],
                             capture_output=True, text=True)
    if listing.returncode != 0:
        raise RestoreRefused(f"{source} is not a backup made by `caravanserai backup` on PostgreSQL "
                             f"(pg_restore: {listing.stderr.strip()})")
    lines = listing.stdout.splitlines()
    starts = [index for index, line in enumerate(lines) if line.startswith("COPY ") and "alembic_version" in line]
    rows = []
    if starts:
        for line in lines[starts[0] + 1:]:
            if line == "\\.":
                break
            rows.append(line)
    return _one_revision(source, rows)


def _one_revision(source: Path, rows: list[str]) -> str:
    if len(rows) != 1:
        raise RestoreRefused(f"{source} holds no migration version (alembic_version): it is no backup of "
                             "a Caravanserai database, or one from before its first migration")
    return rows[0]


def restore(database_url: str, source: Path) -> BackupInfo:
    """Replace everything in the database by the backup ``source`` (made by :func:`backup` of this
    release or an older one), then migrate it to this release's head.  Returns what the backup held.

    Raises ``RestoreRefused`` (nothing changed) for a backup from a newer release, a missing file
    or one that is no backup; on PostgreSQL also when psql or pg_restore fails, e.g. because the
    running app holds a lock longer than :data:`LOCK_WAIT` (the whole restore is rolled back).
    A failing migration afterwards raises Alembic's or the database's error, and leaves the
    restored backup at its own migration.
    """
    info = restorable_backup(database_url, source)
    if _is_sqlite(database_url):
        # The backup API makes the target a page-for-page copy of the backup, in one transaction.
        with sqlite3.connect(source) as backup_file, sqlite3.connect(sqlite_path(database_url)) as target:
            backup_file.backup(target)
    else:
        _restore_postgres(database_url, source)
    upgrade_to_head(database_url)  # an older backup is brought up to this release
    return info


def _restore_postgres(database_url: str, source: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="caravanserai-restore-") as folder:
        # The backup as SQL first: a backup that cannot be read to its end changes nothing.
        script = Path(folder) / "restore.sql"
        written = subprocess.run(["pg_restore", "--no-owner", "--no-privileges", f"--file={script}", str(source)],
                                 capture_output=True, text=True)
        if written.returncode != 0:
            raise RestoreRefused(f"{source} cannot be read to its end, nothing was changed: {written.stderr.strip()}")
        # The drops and the backup in one transaction: psql --single-transaction wraps every
        # --command and --file in BEGIN/COMMIT, and ON_ERROR_STOP turns the first error into a ROLLBACK.
        loaded = subprocess.run(
            ["psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1",
             f"--command=SET LOCAL lock_timeout = '{LOCK_WAIT}'", f"--command={DROP_EVERYTHING}",
             f"--file={script}", f"--dbname={libpq_url(database_url)}"],
            capture_output=True, text=True)
    if loaded.returncode != 0:
        problem = loaded.stderr.strip()
        hint = " (is the app still running? stop it first)" if "lock timeout" in problem else ""
        raise RestoreRefused(f"the restore of {source} failed and was rolled back, nothing was changed{hint}: "
                             f"{problem}")

"""Backups and restores: ``pg_dump``/``pg_restore`` for PostgreSQL, SQLite's online backup API for
SQLite files.

**The backup file** is a zip archive (Python's ``zipfile``; ``unzip`` or ``python3 -m zipfile -e``
open it) of two members, the first of them a manifest:

* ``caravanserai-backup.json``: ``{"format": 1, "kind": "postgresql" | "sqlite", "revision": "0019",
  "created_at": ISO 8601 UTC, "version": the release, "counts": {table: rows}}``: the migration the
  data is at, and the rows of every table, counted in the very snapshot the dump was taken from;
* ``database.dump`` (``pg_dump --format=custom``) or ``database.sqlite`` (a copy of the file).

The wrapping is there for older releases: none of them reads a zip archive, so an older release
given a newer backup stops before it changes anything (its ``pg_restore`` says "input file does not
appear to be a valid archive", SQLite "file is not a database"; docs/hosting.md, "Restoring a newer
backup into an older release").  Files written by releases before the wrapping (a bare pg_dump
archive or SQLite file) are still restored.

**Writing** a backup is all or nothing: the archive is written, readable by its owner only (0600),
under a temporary name ``.partial-…`` beside the target, and renamed to the target only when
complete; a failure removes it, and ``.partial-…`` files left by a killed backup are removed by the
next backup into that folder (those a running backup holds are told apart by a ``flock``).

**Secrets**: the database password is never on a command line (``ps`` shows those to every user)
and never in a message: ``pg_dump``, ``pg_restore`` and ``psql`` get the URL without it, and the
password through a pass file (0600, in a private temporary folder, ``PGPASSFILE``); every error
names the database by :func:`masked_url`.

**A restore** replaces everything in the database by the backup, whatever the database held before
(an empty database, this site's own newer rows, another release's tables), and then migrates the
backup to this release's head.  Before it changes anything it reads the backup's migration and
refuses a backup this release cannot read: one from a newer release, or a file that is no backup of
ours.  On PostgreSQL the drop and the restore are one transaction, so a restore that fails
half-way leaves the database as it was.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote

from sqlalchemy.engine import URL, make_url

from app import __version__
from app.db.migrate import known_revisions, upgrade_to_head
from app.db.models import utcnow

FORMAT = 1
MANIFEST = "caravanserai-backup.json"
PAYLOAD = {"postgresql": "database.dump", "sqlite": "database.sqlite"}
PARTIAL_PREFIX = ".partial-"
CHUNK = 1 << 20

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


class BackupFailed(Exception):
    """No backup was written (and no partial file is left).  The message says why, for a host, and
    holds no password."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup file holds: its migration (``alembic_version``), and whether this release has
    that migration (``known``); ``head``: this release's newest migration; ``counts``: the rows of
    each table when the backup was taken (None for a file from a release before the manifest)."""

    revision: str
    head: str
    known: bool
    counts: dict[str, int] | None = field(default=None, compare=False)

    @property
    def older(self) -> bool:
        """Whether the restore migrates the backup after restoring it."""
        return self.known and self.revision != self.head


# ---------------------------------------------------------------------------------------- URLs

def libpq_url(database_url: str) -> str:
    """A ``postgresql://`` URL that libpq and asyncpg understand (the driver part removed), password
    included: for connections made in this process only, never for a command line or a message."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def libpq_target(database_url: str) -> str:
    """:func:`libpq_url` without the password: what ``pg_dump``/``psql`` get on their command line
    (the password goes by :func:`libpq_environment`)."""
    url = make_url(database_url)  # URL.set() keeps a password given as None: build it anew
    return URL.create("postgresql", username=url.username, host=url.host, port=url.port, database=url.database,
                      query=url.query).render_as_string(hide_password=False)


def masked_url(database_url: str) -> str:
    """The URL as a message may show it: the password replaced by ``***``."""
    return make_url(database_url).render_as_string(hide_password=True)


def scrub(text: str, database_url: str) -> str:
    """``text`` with the URL's password, should a tool have echoed it, replaced by ``***``."""
    password = make_url(database_url).password
    if password:
        for spelling in {str(password), quote(str(password), safe="")}:
            text = text.replace(spelling, "***")
    return text


@contextmanager
def libpq_environment(database_url: str) -> Iterator[dict[str, str]]:
    """The environment for a libpq program (``pg_dump``, ``psql``) on ``database_url``: this
    process's, with ``PGPASSFILE`` pointing at a pass file (mode 0600, in a private temporary folder
    removed afterwards) that holds the URL's password; ``PGPASSWORD`` is never set."""
    environment = {name: value for name, value in os.environ.items() if name != "PGPASSWORD"}
    password = make_url(database_url).password
    if not password:
        yield environment
        return
    with tempfile.TemporaryDirectory(prefix="caravanserai-pg-") as folder:  # mode 0700
        passfile = Path(folder) / "pgpass"
        escaped = str(password).replace("\\", "\\\\").replace(":", "\\:")
        descriptor = os.open(passfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(f"*:*:*:*:{escaped}\n")
        environment["PGPASSFILE"] = str(passfile)
        yield environment


def sqlite_path(database_url: str) -> str:
    """The file of a SQLite URL; raises ``ValueError`` for one that names none (in memory)."""
    path = make_url(database_url).database
    if not path:
        raise ValueError(f"{database_url!r} names no SQLite file")
    return path


def _kind(database_url: str) -> str:
    return "sqlite" if make_url(database_url).get_backend_name() == "sqlite" else "postgresql"


def _is_sqlite(database_url: str) -> bool:
    return _kind(database_url) == "sqlite"


# ------------------------------------------------------------------------------------- writing

def backup(database_url: str, target: Path) -> BackupInfo:
    """Write a backup of the database to ``target`` (the zip archive of this module's docstring),
    mode 0600, all or nothing; first remove ``.partial-…`` files that killed backups left in
    ``target``'s folder.  Returns what it holds.

    Raises ``BackupFailed`` (nothing written, no partial file left): the folder is missing, the
    database cannot be read, ``pg_dump`` fails.
    """
    target = Path(target)
    folder = target.parent
    if not folder.is_dir():
        raise BackupFailed(f"{folder} is no folder: the backup {target} cannot be written there")
    prune_partials(folder)
    with _partial_file(target) as handle:
        with zipfile.ZipFile(handle, "w") as archive:
            if _is_sqlite(database_url):
                manifest = _write_sqlite(database_url, archive)
            else:
                manifest = asyncio.run(_write_postgres(database_url, archive))
    revisions = known_revisions()
    info = BackupInfo(manifest["revision"], revisions[-1], manifest["revision"] in revisions, manifest["counts"])
    record_run(database_url, "backup", target, info)
    return info


def prune_partials(folder: Path) -> list[Path]:
    """Remove the ``.partial-…`` files in ``folder`` no running backup holds (those a killed
    backup left); returns them."""
    removed = []
    for path in sorted(folder.glob(PARTIAL_PREFIX + "*")):
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue  # gone meanwhile, a folder, a link: not ours
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a backup is writing it
            path.unlink(missing_ok=True)
            removed.append(path)
        finally:
            os.close(descriptor)
    return removed


@contextmanager
def _partial_file(target: Path) -> Iterator[BinaryIO]:
    """A new file ``.partial-TARGET-XXXX`` beside ``target`` (mode 0600, locked while open), renamed
    to ``target`` when the block ends well and removed when it fails."""
    descriptor, name = tempfile.mkstemp(prefix=f"{PARTIAL_PREFIX}{target.name}-", dir=target.parent)  # 0600
    partial = Path(name)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with os.fdopen(descriptor, "w+b") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
            os.chmod(partial, 0o600)
            os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # some file systems cannot; the rename is done either way
    finally:
        os.close(descriptor)


def _manifest(kind: str, revision: str, counts: dict[str, int]) -> dict[str, Any]:
    return {"format": FORMAT, "kind": kind, "revision": revision, "created_at": utcnow().isoformat(),
            "version": __version__, "counts": counts}


def _write_sqlite(database_url: str, archive: zipfile.ZipFile) -> dict[str, Any]:
    source_file = Path(sqlite_path(database_url))
    if not source_file.is_file():
        raise BackupFailed(f"{source_file}: no such database file")
    with tempfile.TemporaryDirectory(prefix="caravanserai-backup-") as folder:
        copy_file = Path(folder) / PAYLOAD["sqlite"]
        try:
            # Not read-only: a database in WAL mode may need its shared-memory file made to be read.
            with closing(sqlite3.connect(source_file)) as source, closing(sqlite3.connect(copy_file)) as copy:
                source.backup(copy)
            with closing(sqlite3.connect(copy_file)) as copy:
                revision = _one_revision(source_file, [row[0] for row in copy.execute(
                    "SELECT version_num FROM alembic_version")], error=BackupFailed)
                counts = sqlite_counts(copy)
        except sqlite3.DatabaseError as exc:
            raise BackupFailed(f"{source_file} cannot be read: {exc}") from None
        manifest = _manifest("sqlite", revision, counts)
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
        archive.write(copy_file, PAYLOAD["sqlite"], compress_type=zipfile.ZIP_DEFLATED)
    return manifest


def sqlite_counts(connection: sqlite3.Connection) -> dict[str, int]:
    """``{table: rows}`` of every table of a SQLite database."""
    names = [row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {name: connection.execute(f'SELECT count(*) FROM "{name.replace(chr(34), chr(34) * 2)}"').fetchone()[0]
            for name in names}


async def postgres_counts(connection) -> dict[str, int]:
    """``{table: rows}`` of every table of the connection's schema (an asyncpg connection)."""
    names = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                   "ORDER BY tablename")
    counts = {}
    for row in names:
        quoted = '"' + row["tablename"].replace('"', '""') + '"'
        counts[row["tablename"]] = await connection.fetchval(f"SELECT count(*) FROM {quoted}")
    return counts


async def _connect(database_url: str):
    import asyncpg

    try:
        return await asyncpg.connect(libpq_url(database_url), timeout=30)
    except (OSError, asyncpg.PostgresError, asyncio.TimeoutError) as exc:
        raise BackupFailed(f"cannot connect to {masked_url(database_url)}: "
                           f"{scrub(str(exc) or type(exc).__name__, database_url)}") from None


async def _write_postgres(database_url: str, archive: zipfile.ZipFile) -> dict[str, Any]:
    import asyncpg

    connection = await _connect(database_url)
    try:
        # The counts and pg_dump read one snapshot (exported by this transaction, kept open until
        # pg_dump is done): the manifest describes exactly the rows of the dump.
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            snapshot = await connection.fetchval("SELECT pg_export_snapshot()")
            try:
                rows = [row[0] for row in await connection.fetch("SELECT version_num FROM alembic_version")]
            except asyncpg.UndefinedTableError:
                rows = []
            revision = _one_revision(masked_url(database_url), rows, error=BackupFailed)
            manifest = _manifest("postgresql", revision, await postgres_counts(connection))
            archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
            _pg_dump_into(database_url, snapshot, archive)
    except asyncpg.PostgresError as exc:
        raise BackupFailed(f"reading {masked_url(database_url)} failed: {scrub(str(exc), database_url)}") from None
    finally:
        await connection.close()
    return manifest


def _pg_dump_into(database_url: str, snapshot: str, archive: zipfile.ZipFile) -> None:
    command = ["pg_dump", "--format=custom", "--no-owner", f"--snapshot={snapshot}",
               f"--dbname={libpq_target(database_url)}"]
    with libpq_environment(database_url) as environment, tempfile.TemporaryFile() as errors:
        try:
            dump = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=environment)
        except OSError as exc:
            raise BackupFailed(f"cannot run pg_dump: {exc}") from None
        assert dump.stdout is not None  # stdout=PIPE
        with dump, archive.open(PAYLOAD["postgresql"], "w", force_zip64=True) as entry:
            shutil.copyfileobj(dump.stdout, entry, CHUNK)
        if dump.wait() != 0:
            errors.seek(0)
            problem = scrub(errors.read().decode(errors="replace").strip(), database_url)
            raise BackupFailed(f"pg_dump of {masked_url(database_url)} failed (exit status {dump.returncode}): "
                               f"{problem}")


# ------------------------------------------------------------------------------------- reading

def read_manifest(source: Path) -> dict[str, Any] | None:
    """The manifest of a backup archive, or None for a file that is no zip archive (a backup from a
    release before the manifest, or no backup).  Raises ``RestoreRefused`` for a zip archive that
    is no readable backup, or one in a newer release's format."""
    if not zipfile.is_zipfile(source):
        return None
    try:
        with zipfile.ZipFile(source) as archive:
            manifest = json.loads(archive.read(MANIFEST))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise RestoreRefused(f"{source} is not a backup made by `caravanserai backup` ({exc})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("format"), int):
        raise RestoreRefused(f"{source} is not a backup made by `caravanserai backup` (no format in its manifest)")
    if manifest["format"] > FORMAT:
        raise RestoreRefused(f"{source} is in backup format {manifest['format']}, from a newer release (this one "
                             f"reads format {FORMAT}). Nothing was changed. Restore it with the release that made "
                             "it, or a newer one.")
    return manifest


def inspect_backup(database_url: str, source: Path) -> BackupInfo:
    """The migration the backup ``source`` was taken at, for a restore into ``database_url``'s kind
    of database.

    Raises ``RestoreRefused`` when ``source`` is missing, is not a backup of that kind (a SQLite
    file for PostgreSQL, or the reverse) or holds no ``alembic_version``.
    """
    source = Path(source)
    if not source.is_file():
        raise RestoreRefused(f"{source}: no such file")
    kind = _kind(database_url)
    manifest = read_manifest(source)
    counts = None
    if manifest is not None:
        if manifest.get("kind") != kind:
            raise RestoreRefused(f"{source} is a backup of a {manifest.get('kind')} database; this site uses {kind}. "
                                 "Nothing was changed.")
        revision, counts = str(manifest.get("revision")), manifest.get("counts")
    else:
        revision = _sqlite_revision(source) if kind == "sqlite" else _postgres_revision(source)
    revisions = known_revisions()
    return BackupInfo(revision=revision, head=revisions[-1], known=revision in revisions, counts=counts)


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
        with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as backup_file:
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


def _one_revision(source: Path | str, rows: list[str], error: type[Exception] = RestoreRefused) -> str:
    if len(rows) != 1:
        raise error(f"{source} holds no migration version (alembic_version): it is no Caravanserai database, "
                    "or one from before its first migration")
    return rows[0]


@contextmanager
def _payload(source: Path, database_url: str) -> Iterator[Path]:
    """The database file inside the backup ``source``: extracted into a private temporary folder
    (checked against its checksum) for an archive, ``source`` itself for an older bare file.
    Raises ``RestoreRefused`` for an archive that cannot be read to its end."""
    if not zipfile.is_zipfile(source):
        yield source
        return
    member = PAYLOAD[_kind(database_url)]
    with tempfile.TemporaryDirectory(prefix="caravanserai-restore-") as folder:
        extracted = Path(folder) / member
        try:
            with zipfile.ZipFile(source) as archive, archive.open(member) as packed, open(extracted, "wb") as out:
                shutil.copyfileobj(packed, out, CHUNK)
        except (zipfile.BadZipFile, KeyError, OSError, EOFError, zlib.error) as exc:  # Bad CRC-32: a changed byte
            raise RestoreRefused(f"{source} cannot be read to its end, nothing was changed: {exc}") from None
        yield extracted
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
    load_backup(database_url, source)
    upgrade_to_head(database_url)  # an older backup is brought up to this release
    return info


def load_backup(database_url: str, source: Path) -> None:
    """Replace everything in the database by the backup ``source``, as it is (no migration; the
    caller has checked it with :func:`restorable_backup`).  Raises ``RestoreRefused`` (nothing
    changed) as :func:`restore` does."""
    with _payload(Path(source), database_url) as payload:
        if _is_sqlite(database_url):
            # The backup API makes the target a page-for-page copy of the backup, in one transaction.
            with closing(sqlite3.connect(payload)) as backup_file, \
                    closing(sqlite3.connect(sqlite_path(database_url))) as target:
                backup_file.backup(target)
        else:
            _restore_postgres(database_url, payload, shown=Path(source))


def _restore_postgres(database_url: str, source: Path, shown: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="caravanserai-restore-") as folder:
        # The backup as SQL first: a backup that cannot be read to its end changes nothing.
        script = Path(folder) / "restore.sql"
        written = subprocess.run(["pg_restore", "--no-owner", "--no-privileges", f"--file={script}", str(source)],
                                 capture_output=True, text=True)
        if written.returncode != 0:
            raise RestoreRefused(f"{shown} cannot be read to its end, nothing was changed: {written.stderr.strip()}")
        # The drops and the backup in one transaction: psql --single-transaction wraps every
        # --command and --file in BEGIN/COMMIT, and ON_ERROR_STOP turns the first error into a ROLLBACK.
        with libpq_environment(database_url) as environment:
            loaded = subprocess.run(
                ["psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1",
                 f"--command=SET LOCAL lock_timeout = '{LOCK_WAIT}'", f"--command={DROP_EVERYTHING}",
                 f"--file={script}", f"--dbname={libpq_target(database_url)}"],
                capture_output=True, text=True, env=environment)
    if loaded.returncode != 0:
        problem = scrub(loaded.stderr.strip(), database_url)
        hint = " (is the app still running? stop it first)" if "lock timeout" in problem else ""
        raise RestoreRefused(f"the restore of {shown} into {masked_url(database_url)} failed and was rolled back, "
                             f"nothing was changed{hint}: {problem}")


# ------------------------------------------------------------------------- record and drill

def record_run(database_url: str, kind: str, file: Path, info: BackupInfo) -> bool:
    """Write down in ``backup_runs`` a backup (``kind`` ``backup``) or a check (``check``) that
    ended well, for the "last good backup" metric.  Returns False, writing nothing, when the
    database has no such table yet (a release before it) or cannot be written."""
    rows = sum((info.counts or {}).values())
    values = (utcnow(), kind, str(file)[:1024], info.revision, rows)
    if _is_sqlite(database_url):
        try:
            with closing(sqlite3.connect(sqlite_path(database_url))) as connection, connection:
                connection.execute("INSERT INTO backup_runs (finished_at, kind, file, revision, rows) "
                                   "VALUES (?, ?, ?, ?, ?)", (values[0].strftime("%Y-%m-%d %H:%M:%S.%f"), *values[1:]))
        except sqlite3.Error:
            return False
        return True

    async def insert() -> bool:
        import asyncpg

        try:
            connection = await _connect(database_url)
        except BackupFailed:
            return False
        try:
            await connection.execute("INSERT INTO backup_runs (finished_at, kind, file, revision, rows) "
                                     "VALUES ($1, $2, $3, $4, $5)", *values)
        except asyncpg.PostgresError:
            return False
        finally:
            await connection.close()
        return True

    return asyncio.run(insert())


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_backup` found: the backup's ``info``, the rows of each table after loading
    it into a scratch database (``counts``), the tables whose rows differ from the recorded counts
    (``{table: (recorded, loaded)}``; empty when all agree or nothing was recorded), and whether
    the migrations to this release's head then ran (``migrated``)."""

    info: BackupInfo
    counts: dict[str, int]
    differences: dict[str, tuple[int | None, int | None]]
    migrated: bool

    @property
    def good(self) -> bool:
        """The backup loaded, migrated, and holds the rows it recorded."""
        return self.migrated and not self.differences


def check_backup(database_url: str, source: Path) -> CheckReport:
    """A restore drill: load the backup ``source`` into a new scratch database of ``database_url``'s
    kind (a temporary SQLite file, or a PostgreSQL database ``<name>_check_<pid>`` on the same
    server, made with the same credentials and dropped afterwards), count every table's rows and
    compare them with the counts the backup recorded, then migrate the copy to this release's head.
    The site's database is only read.

    Raises ``RestoreRefused`` for a file this release cannot restore (as :func:`restore`) and
    ``BackupFailed`` when no scratch database can be made.  A migration error is reported as
    ``migrated`` False.
    """
    info = restorable_backup(database_url, source)
    with _scratch_database(database_url) as scratch:
        load_backup(scratch, source)
        counts = _counts(scratch)
        differences = {}
        if info.counts is not None:
            for table in sorted(set(info.counts) | set(counts)):
                if info.counts.get(table) != counts.get(table):
                    differences[table] = (info.counts.get(table), counts.get(table))
        try:
            upgrade_to_head(scratch)
            migrated = True
        except Exception:  # noqa: BLE001 - any failure of a migration is what the drill reports
            migrated = False
    return CheckReport(info, counts, differences, migrated)


def _counts(database_url: str) -> dict[str, int]:
    if _is_sqlite(database_url):
        with closing(sqlite3.connect(sqlite_path(database_url))) as connection:
            return sqlite_counts(connection)

    async def count() -> dict[str, int]:
        connection = await _connect(database_url)
        try:
            return await postgres_counts(connection)
        finally:
            await connection.close()

    return asyncio.run(count())


@contextmanager
def _scratch_database(database_url: str) -> Iterator[str]:
    if _is_sqlite(database_url):
        with tempfile.TemporaryDirectory(prefix="caravanserai-check-") as folder:
            yield f"sqlite+aiosqlite:///{folder}/check.db"
        return
    url = make_url(database_url)
    name = f"{url.database}_check_{os.getpid()}"[-63:]

    async def execute(sql: str) -> None:
        import asyncpg

        connection = await _connect(database_url)
        try:
            await connection.execute(sql)
        except asyncpg.PostgresError as exc:
            raise BackupFailed(f"cannot make the scratch database {name} for the check ({exc}); the check needs "
                               "a database user that may create databases") from None
        finally:
            await connection.close()

    quoted = '"' + name.replace('"', '""') + '"'
    asyncio.run(execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"))
    asyncio.run(execute(f"CREATE DATABASE {quoted}"))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"))

"""``caravanserai backup`` and ``restore`` on a PostgreSQL role with a password: the password is on
no command line (``ps``) and in no message or log line, on success and on failure; dumps are
0600 whatever the umask; a failed or killed backup leaves no file that looks like a backup, and
the next backup removes what a killed one left."""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncpg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from app.cli import main
from app.db import backup as backup_module
from app.main import create_app
from tests.conftest import ADMIN_URL, _asyncpg_dsn, _database_url, call_in_thread, make_settings, run_coroutine
from tests.support.players import Player, started_table
from tests.support.server import ROOT

PASSWORD = "Camel:Pw\\7f3e9a-secret"  # a colon and a backslash: the pass file must escape both


async def _admin(sql: str, database: str | None = None) -> None:
    dsn = _asyncpg_dsn(ADMIN_URL if database is None else _database_url(database))
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


class SecretRole:
    """A login role with a password, and the URLs that name it: ``url(database)`` with the password."""

    def __init__(self, test_database_url: str) -> None:
        self.name = f"caravanserai_pw_{os.getpid()}"
        self.test_database = make_url(test_database_url).database
        self.made: list[str] = []

    def url(self, database: str) -> str:
        return make_url(_database_url(database)).set(username=self.name, password=PASSWORD) \
            .render_as_string(hide_password=False)

    def new_database(self, name: str) -> str:
        """A new empty database owned by the role (dropped at the end); its URL with the password."""
        database = f"{self.name}_{name}"
        run_coroutine(_admin, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        run_coroutine(_admin, f'CREATE DATABASE "{database}" OWNER "{self.name}"')
        self.made.append(database)
        return self.url(database)


@pytest.fixture
def secret_role(postgres_database):
    role = SecretRole(postgres_database)
    quoted_password = PASSWORD.replace("'", "''")
    run_coroutine(_admin, f'DROP ROLE IF EXISTS "{role.name}"')
    run_coroutine(_admin, f"CREATE ROLE \"{role.name}\" LOGIN SUPERUSER PASSWORD '{quoted_password}'")
    try:
        yield role
    finally:
        for database in role.made:
            run_coroutine(_admin, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        run_coroutine(_admin, f'REASSIGN OWNED BY "{role.name}" TO CURRENT_USER; DROP OWNED BY "{role.name}"',
                      role.test_database)
        run_coroutine(_admin, f'DROP ROLE IF EXISTS "{role.name}"')


class CommandLines:
    """Every process's command line (``/proc/*/cmdline``, what ``ps`` shows) sampled in a thread
    while the block runs: ``leaks`` those holding the password, ``seen`` every program name."""

    def __init__(self) -> None:
        self.leaks: list[str] = []
        self.seen: set[str] = set()
        self._stop = threading.Event()

    def _sample(self) -> None:
        while not self._stop.is_set():
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        words = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
                    except OSError:
                        continue
                    self.seen.add(Path(words[0]).name)
                    if any(PASSWORD in word or "7f3e9a" in word for word in words):
                        self.leaks.append(" ".join(words))

    def __enter__(self) -> CommandLines:
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture
def started_programs(monkeypatch):
    """Every program ``app.db.backup`` starts, as ``(argv, PGPASSWORD set?, mode of PGPASSFILE or
    None, its contents)``, checked when it starts."""
    started = []
    real_popen = subprocess.Popen

    class Recording(real_popen):
        def __init__(self, args, *rest, **options):
            environment = options.get("env") or os.environ
            passfile = environment.get("PGPASSFILE")
            mode = contents = None
            if passfile:
                mode = os.stat(passfile).st_mode & 0o777
                contents = Path(passfile).read_text()
            started.append((list(args), "PGPASSWORD" in environment, mode, contents))
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(backup_module.subprocess, "Popen", Recording)
    return started


@pytest.fixture
def caravanserai(monkeypatch, tmp_path, capsys, caplog):
    """``caravanserai ARGS`` in this process on ``url``: ``(exit message or None, everything it
    printed and logged)``."""
    monkeypatch.chdir(tmp_path)
    caplog.set_level(logging.DEBUG)

    def run(url: str, *args: str):
        monkeypatch.setenv("CARAVANSERAI_DATABASE_URL", url)
        capsys.readouterr()
        caplog.clear()
        try:
            call_in_thread(main, list(args))
            message = None
        except SystemExit as exit:
            message = str(exit.code)
        captured = capsys.readouterr()
        logged = "\n".join(record.getMessage() for record in caplog.records)
        return message, "\n".join([captured.out, captured.err, logged, message or ""])

    return run


def cli_process(url: str, *args: str, path_first: Path | None = None, **options) -> subprocess.Popen:
    """``python -m app.cli ARGS`` in a process of its own, as a host runs it (with ``path_first``
    before the system's programs on PATH)."""
    path = "/usr/bin:/bin" if path_first is None else f"{path_first}:/usr/bin:/bin"
    return subprocess.Popen([sys.executable, "-m", "app.cli", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={"CARAVANSERAI_DATABASE_URL": url, "PATH": path, "HOME": "/tmp"}, **options)


def fake_pg_dump(folder: Path, body: str) -> Path:
    """A folder holding a ``pg_dump`` that runs the shell ``body`` instead."""
    folder.mkdir(exist_ok=True)
    program = folder / "pg_dump"
    program.write_text(f"#!/bin/sh\n{body}\n")
    program.chmod(0o755)
    return folder


def assert_no_secret(text: str) -> None:
    assert PASSWORD not in text and "7f3e9a" not in text, text


def some_games(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        started_table(ana, [bo])


@pytest.mark.postgres
def test_backup_and_restore_keep_the_password_off_command_lines_and_out_of_messages(
        postgres_database, secret_role, caravanserai, started_programs, tmp_path):
    some_games(postgres_database)
    source = secret_role.url(secret_role.test_database)
    dump = tmp_path / "site.backup"
    old_umask = os.umask(0o022)
    try:
        with CommandLines() as command_lines:
            refusal, said = caravanserai(source, "backup", str(dump))
            assert refusal is None, said
            restored_into = secret_role.new_database("restored")
            refusal, restored = caravanserai(restored_into, "restore", str(dump), "--yes")
            assert refusal is None, restored
    finally:
        os.umask(old_umask)
    assert_no_secret(said + restored)
    assert command_lines.leaks == []
    assert dump.stat().st_mode & 0o777 == 0o600
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".partial")] == []
    programs = [argv[0] for argv, *_ in started_programs]
    assert programs == ["pg_dump", "pg_restore", "psql"]
    for argv, pgpassword_set, mode, contents in started_programs:
        assert_no_secret(" ".join(argv))
        assert not pgpassword_set
        if argv[0] != "pg_restore":  # pg_restore only reads the file, it never connects
            assert mode == 0o600 and contents == "*:*:*:*:Camel\\:Pw\\\\7f3e9a-secret\n"
    # What the password really opened: the restored copy holds the games.
    async def tables_of(url):
        connection = await asyncpg.connect(backup_module.libpq_url(url))
        try:
            return await connection.fetchval("SELECT count(*) FROM tables")
        finally:
            await connection.close()

    assert run_coroutine(tables_of, restored_into) == 1


@pytest.mark.postgres
def test_a_failed_backup_names_no_password_and_leaves_no_file(postgres_database, secret_role, tmp_path):
    some_games(postgres_database)
    source = secret_role.url(secret_role.test_database)
    backups = tmp_path / "backups"
    backups.mkdir()
    # pg_dump that writes half a dump, echoes its command line and fails.
    fake = fake_pg_dump(tmp_path / "bin", 'printf "PGDMP half a dump"; echo "pg_dump: error: disk full; args: $*" >&2; '
                                          "exit 1")
    failed = cli_process(source, "backup", str(backups / "site.backup"), path_first=fake)
    output = failed.communicate(timeout=120)[0]
    assert failed.returncode == 1 and "pg_dump: error: disk full" in output and "Traceback" not in output, output
    assert f"--dbname=postgresql://{secret_role.name}@" in output  # the command line it had: no password
    assert_no_secret(output)
    assert list(backups.iterdir()) == []
    # A database that is not there: the message names it, masked.
    missing = secret_role.url("caravanserai_no_such_database")
    failed = cli_process(missing, "backup", str(backups / "site.backup"))
    output = failed.communicate(timeout=120)[0]
    assert failed.returncode == 1 and "Traceback" not in output, output
    assert f"postgresql+asyncpg://{secret_role.name}:***@" in output and "does not exist" in output
    assert_no_secret(output)
    assert list(backups.iterdir()) == []


@pytest.mark.postgres
def test_a_failed_restore_names_no_password_and_changes_nothing(postgres_database, secret_role, caravanserai,
                                                               tmp_path):
    some_games(postgres_database)
    dump = tmp_path / "site.backup"
    assert caravanserai(secret_role.url(secret_role.test_database), "backup", str(dump))[0] is None
    # Into a database that is not there: psql cannot connect.
    refusal, said = caravanserai(secret_role.url("caravanserai_no_such_database"), "restore", str(dump), "--yes")
    assert refusal is not None and "nothing was changed" in refusal and ":***@" in refusal, said
    assert_no_secret(said)
    # A backup cut short: refused before anything is dropped.
    cut = tmp_path / "cut.backup"
    cut.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    target = secret_role.new_database("target")
    assert caravanserai(target, "restore", str(dump), "--yes")[0] is None
    refusal, said = caravanserai(target, "restore", str(cut), "--yes")
    assert refusal is not None and ("nothing was changed" in refusal or "not a backup" in refusal), said
    assert_no_secret(said)


@pytest.mark.postgres
def test_a_killed_backup_leaves_a_partial_file_the_next_backup_removes(postgres_database, secret_role, tmp_path):
    source = secret_role.url(secret_role.test_database)
    backups = tmp_path / "backups"
    backups.mkdir()
    slow = fake_pg_dump(tmp_path / "bin", 'printf "PGDMP"; exec sleep 60')
    running = cli_process(source, "backup", str(backups / "site.backup"), path_first=slow, start_new_session=True)
    deadline = time.monotonic() + 60
    while not [path for path in backups.iterdir() if path.name.startswith(".partial-")]:
        assert time.monotonic() < deadline and running.poll() is None, running.communicate()[0]
        time.sleep(0.05)
    # While it runs, another backup into the folder leaves its file alone (it is locked).
    assert backup_module.prune_partials(backups) == []
    os.killpg(running.pid, signal.SIGKILL)
    running.communicate(timeout=30)
    [left] = list(backups.iterdir())
    assert left.name.startswith(".partial-site.backup-") and left.stat().st_mode & 0o777 == 0o600
    assert not (backups / "site.backup").exists()
    # A file some other backup still holds stays; the killed one's goes.
    held = backups / ".partial-held.backup-x"
    held.write_bytes(b"")
    with open(held, "rb") as holding:
        fcntl.flock(holding, fcntl.LOCK_EX)
        done = cli_process(source, "backup", str(backups / "site.backup"))
        output = done.communicate(timeout=120)[0]
        assert done.returncode == 0, output
    assert sorted(path.name for path in backups.iterdir()) == [".partial-held.backup-x", "site.backup"]


def test_sqlite_backups_are_0600_and_a_failed_one_leaves_nothing(sqlite_database, caravanserai, tmp_path):
    some_games(sqlite_database)
    backups = tmp_path / "backups"
    backups.mkdir()
    old_umask = os.umask(0o022)
    try:
        assert caravanserai(sqlite_database, "backup", str(backups / "site.backup"))[0] is None
    finally:
        os.umask(old_umask)
    assert (backups / "site.backup").stat().st_mode & 0o777 == 0o600
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is no database" * 100)
    refusal, _ = caravanserai(f"sqlite+aiosqlite:///{broken}", "backup", str(backups / "other.backup"))
    assert refusal is not None and refusal.startswith("caravanserai backup:") and "nothing was written" in refusal
    assert [path.name for path in backups.iterdir()] == ["site.backup"]

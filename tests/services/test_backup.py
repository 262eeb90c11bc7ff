"""Backup and restore, with the ``caravanserai`` command as a host runs
it: a backup restored into an empty database, over a used database with newer rows, and from an
older migration (migrated to head afterwards); a backup from a newer release is refused and
nothing changes.  After each restore the site works, every game replays to its stored state, and
no session cookie logs in as another account that got its id."""

from __future__ import annotations

import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, select, text, update
from sqlalchemy.ext.asyncio import create_async_engine

from app.cli import main
from app.db.migrate import alembic_config, known_revisions
from app.db.models import Account, Table
from app.main import create_app
from app.rulesets.testing import canonical
from app.services.games import state as game_state
from app.services.games import pipeline as games
from tests.conftest import _database_url, call_in_thread, make_settings, run_coroutine
from tests.support.players import Player, started_table
from tests.support.server import ROOT

HEAD = known_revisions()[-1]
OLDER = "0005"  # before session epochs had keys (0010), notices (0008) and shared rate limits (0009)
PASSWORD = "camel-caravan"


def play(ana, bo, table_id, amounts, first_version=0):
    players = [ana, bo]
    for version, amount in enumerate(amounts, start=first_version):
        assert players[version % 2].move(table_id, version, {"type": "add", "amount": amount}).status_code == 200


def finished_and_running_games(ana, bo):
    """Two toy races of Ana and Bo: one finished after four moves, one running at version 2 with Ana
    to move; their ids."""
    finished = started_table(ana, [bo])
    play(ana, bo, finished, [3, 3, 3, 3])
    running = started_table(ana, [bo])
    play(ana, bo, running, [1, 2])
    return finished, running


def stored_games(client):
    ctx = client.app.state.ctx

    async def load():
        async with ctx.sessions() as session:
            return {t.id: (t.status, t.version, t.state_version, t.state) for t in await session.scalars(select(Table))}

    return client.portal.call(load)


def write_whole_states(client):
    """Write every game's state at its version into its row (``state_version`` null), as a release
    before checkpoints (migration 0015) stored it: a copy into its schema keeps only ``state``."""
    ctx = client.app.state.ctx

    async def write():
        async with ctx.sessions() as session:
            for table in list(await session.scalars(select(Table).where(Table.state_version.is_not(None)))):
                state = await game_state.state_now(ctx, session, table)
                await session.execute(update(Table).where(Table.id == table.id)
                                      .values(state=state, state_version=None, to_act=None))
            await session.commit()

    client.portal.call(write)


def stored_accounts(client):
    ctx = client.app.state.ctx

    async def load():
        async with ctx.sessions() as session:
            return {account.id: account.name for account in await session.scalars(select(Account))}

    return client.portal.call(load)


def replayed(client, table_id, version):
    return client.portal.call(games.replay_state, client.app.state.ctx, table_id, version)[1]


def assert_every_game_replays(client):
    for table_id, (_, version, state_version, state) in stored_games(client).items():
        # a checkpoint is the state at ``state_version``
        assert canonical(replayed(client, table_id, version if state_version is None else state_version)) == canonical(state)


def cli(command_name, database_url, *arguments, check=True):
    """``python -m app.cli COMMAND ARGUMENTS`` on ``database_url``, without a terminal, in a process
    of its own as a host runs it."""
    done = subprocess.run([sys.executable, "-m", "app.cli", command_name, *arguments], cwd=ROOT,
                          env={"CARAVANSERAI_DATABASE_URL": database_url, "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if check:
        assert done.returncode == 0, f"caravanserai {command_name} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture
def caravanserai(monkeypatch, capsys, tmp_path):
    """The ``caravanserai`` command in this process (cheaper than :func:`cli`, which the first test
    uses): ``caravanserai(COMMAND, DATABASE_URL, *ARGUMENTS)`` returns ``(exit status, stdout, the
    message it exits with)``, with no terminal on standard input."""
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))

    def run(command_name, database_url, *arguments):
        monkeypatch.setenv("CARAVANSERAI_DATABASE_URL", database_url)
        capsys.readouterr()
        try:
            call_in_thread(main, [command_name, *arguments])
        except SystemExit as stopped:
            return 1, capsys.readouterr().out, str(stopped.code)
        return 0, capsys.readouterr().out, ""

    return run


def database_revision(database_url):
    async def read():
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as connection:
                return (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
        finally:
            await engine.dispose()

    return run_coroutine(read)


@pytest.fixture
def new_database(request, database_url, tmp_path):
    """Makes new, empty (unmigrated) databases of the same kind as ``database_url``: ``new_database(name)``."""
    if database_url.startswith("sqlite"):
        return lambda name: f"sqlite+aiosqlite:///{tmp_path}/{name}.db"
    import asyncpg

    from tests.conftest import ADMIN_URL, _asyncpg_dsn

    async def execute(sql):
        connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    def make(name):
        full_name = f"{database_url.rsplit('/', 1)[1]}_{name}"
        run_coroutine(execute, f'DROP DATABASE IF EXISTS "{full_name}" WITH (FORCE)')
        run_coroutine(execute, f'CREATE DATABASE "{full_name}"')
        request.addfinalizer(lambda: run_coroutine(execute, f'DROP DATABASE IF EXISTS "{full_name}" WITH (FORCE)'))
        return _database_url(full_name)

    return make


def migrate_to(database_url, revision):
    # Alembic's environment runs its own event loop: in a thread of its own.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(command.upgrade, alembic_config(database_url), revision).result()


def copy_rows(source_url, target_url, tables=("accounts", "tables", "seats", "moves")):
    """Copy every row of ``tables`` from ``source_url`` into ``target_url`` (an older schema: only
    the columns it has), ids included; on PostgreSQL the id sequences go on after the copied ids."""
    async def copy():
        source, target = create_async_engine(source_url), create_async_engine(target_url)
        older, newer = MetaData(), MetaData()
        try:
            async with source.connect() as reading, target.begin() as writing:
                await reading.run_sync(lambda sync: newer.reflect(sync, only=tables))
                await writing.run_sync(lambda sync: older.reflect(sync, only=tables))
                for name in tables:
                    columns = [newer.tables[name].c[column.name] for column in older.tables[name].columns]
                    rows = (await reading.execute(select(*columns))).mappings().all()
                    if rows:
                        await writing.execute(older.tables[name].insert(), [dict(row) for row in rows])
                if target.dialect.name == "postgresql":
                    for name in ("accounts", "tables"):
                        await writing.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                                   f"(SELECT max(id) FROM {name}))"))
        finally:
            await source.dispose()
            await target.dispose()

    run_coroutine(copy)


def test_backup_and_restore_keep_finished_and_running_games(database_url, new_database, tmp_path):
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        finished, running = finished_and_running_games(ana, bo)
        before = stored_games(client)
    assert before[finished][0] == "finished" and before[running][0] == "running"

    dump = tmp_path / "caravanserai.backup"
    cli("backup", database_url, str(dump))
    empty = new_database("restored")
    cli("restore", empty, str(dump), "--yes")

    with TestClient(create_app(make_settings(empty))) as client:
        assert stored_games(client) == before
        assert_every_game_replays(client)
        ana_again = client.get(f"/api/games/{running}").json()
        assert ana_again["version"] == 2 and ana_again["to_act"] == [0]


def test_a_backup_restored_over_a_used_database_replaces_its_newer_rows(database_url, caravanserai, tmp_path):
    dump = tmp_path / "caravanserai.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        _, running = finished_and_running_games(ana, bo)
        before = stored_games(client)
        assert caravanserai("backup", database_url, str(dump))[0] == 0
        # After the backup: a new account, its table, and two more moves of the running game.
        carol = Player(client, "Carol")
        assert carol.id == 3
        started_table(carol, [bo])
        play(ana, bo, running, [1, 1], first_version=2)
        assert ana.post(f"/api/tables/{running}/chat", {"text": "after the backup"}).status_code == 201

    status, restored, _ = caravanserai("restore", database_url, str(dump), "--yes")
    assert status == 0 and f"migration {HEAD}" in restored and "migrated" not in restored

    with TestClient(create_app(make_settings(database_url))) as client:
        assert stored_games(client) == before
        assert stored_accounts(client) == {1: "Ana", 2: "Bo"}
        assert database_revision(database_url) == [HEAD]
        assert_every_game_replays(client)
        for player in (ana, bo, carol):
            player.client = client
        assert ana.get(f"/api/tables/{running}/chat").json()["messages"] == []
        # Carol's id comes back for Dan; her cookie logs in as nobody, Dan's as Dan.
        dan = Player(client, "Dan")
        assert dan.id == carol.id
        assert carol.get("/api/auth/me").status_code == 401
        assert dan.get("/api/auth/me").json()["name"] == "Dan"
        # Ana and Bo are in the backup: their cookies still hold, and the running game plays on.
        assert ana.get("/api/auth/me").json()["name"] == "Ana"
        play(ana, bo, running, [2, 2], first_version=2)
        assert client.get(f"/api/games/{running}").json()["version"] == 4


def test_an_older_backup_is_migrated_to_head_after_the_restore(database_url, new_database, caravanserai, tmp_path):
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana", PASSWORD), Player(client, "Bo", PASSWORD)
        _, running = finished_and_running_games(ana, bo)
        write_whole_states(client)
        before = stored_games(client)
    # The same accounts and games in a database at an older migration, and its backup.
    older = new_database("older")
    migrate_to(older, OLDER)
    copy_rows(database_url, older)
    assert database_revision(older) == [OLDER]
    dump = tmp_path / f"caravanserai-{OLDER}.backup"
    assert caravanserai("backup", older, str(dump))[0] == 0

    with TestClient(create_app(make_settings(database_url))) as client:  # newer rows than the backup's
        ana.client = bo.client = client
        carol = Player(client, "Carol", PASSWORD)
        started_table(carol, [bo])
        play(ana, bo, running, [1, 1], first_version=2)

    status, restored, _ = caravanserai("restore", database_url, str(dump), "--yes")
    assert status == 0 and f"migrated from {OLDER} to {HEAD}" in restored

    assert database_revision(database_url) == [HEAD]
    with TestClient(create_app(make_settings(database_url))) as client:
        assert client.get("/").status_code == 200 and client.get("/api/tables").status_code == 200
        assert stored_games(client) == before
        assert stored_accounts(client) == {1: "Ana", 2: "Bo"}
        assert_every_game_replays(client)
        for player in (ana, bo, carol):
            player.client = client
        # Cookies from before the restore log in as nobody (the backup's accounts have no key yet);
        # Ana and Bo log in again and play on.
        assert [player.get("/api/auth/me").status_code for player in (ana, bo, carol)] == [401, 401, 401]
        ana.log_in(PASSWORD)
        bo.log_in(PASSWORD)
        play(ana, bo, running, [2, 2], first_version=2)
        assert client.get(f"/api/games/{running}").json()["version"] == 4
        assert_every_game_replays(client)


def test_a_backup_from_a_newer_release_is_refused_and_nothing_changes(database_url, caravanserai, tmp_path):
    newer, good, not_a_backup = tmp_path / "newer.backup", tmp_path / "good.backup", tmp_path / "notes.txt"
    not_a_backup.write_text("not a backup\n")
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2])
        assert caravanserai("backup", database_url, str(good))[0] == 0

        async def set_revision(revision):
            async with client.app.state.ctx.engine.begin() as connection:
                await connection.execute(text("UPDATE alembic_version SET version_num = :revision"),
                                         {"revision": revision})

        client.portal.call(set_revision, "0099")  # as a release with a migration 0099 leaves it
        assert caravanserai("backup", database_url, str(newer))[0] == 0
        client.portal.call(set_revision, HEAD)
        Player(client, "Carol")
        before = stored_games(client), stored_accounts(client)

    status, _, refused = caravanserai("restore", database_url, str(newer), "--yes")
    assert status == 1 and refused == (
        f"caravanserai restore: {newer} was taken at migration 0099, which this release does not have: it comes "
        f"from a newer release (this one ends at migration {HEAD}). Nothing was changed. Restore it with the "
        "release that made it, or a newer one.")
    status, _, unreadable = caravanserai("restore", database_url, str(not_a_backup), "--yes")
    assert status == 1 and unreadable.startswith(f"caravanserai restore: {not_a_backup} is not a backup")
    status, _, unconfirmed = caravanserai("restore", database_url, str(good))  # no --yes, no terminal to ask
    assert status == 1 and unconfirmed.endswith("add --yes to do it (no terminal to ask)")

    assert database_revision(database_url) == [HEAD]
    with TestClient(create_app(make_settings(database_url))) as client:
        assert (stored_games(client), stored_accounts(client)) == before


def database_contents(database_url):
    """Every table's rows (sorted reprs), for "nothing changed" checks."""
    async def read():
        engine = create_async_engine(database_url)
        metadata = MetaData()
        try:
            async with engine.connect() as connection:
                await connection.run_sync(metadata.reflect)
                return {name: sorted(map(repr, (await connection.execute(select(table))).all()))
                        for name, table in metadata.tables.items()}
        finally:
            await engine.dispose()

    return run_coroutine(read)


def test_a_newer_backup_format_is_refused_and_nothing_changes(database_url, caravanserai, tmp_path):
    import json
    import zipfile

    good, newer = tmp_path / "good.backup", tmp_path / "newer-format.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2])
    assert caravanserai("backup", database_url, str(good))[0] == 0
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(newer, "w") as target:
        manifest = json.loads(source.read("caravanserai-backup.json"))
        target.writestr("caravanserai-backup.json", json.dumps({**manifest, "format": 2}))
    before = database_contents(database_url)
    status, _, refused = caravanserai("restore", database_url, str(newer), "--yes")
    assert status == 1 and "in backup format 2, from a newer release" in refused and "Nothing was changed" in refused
    assert database_contents(database_url) == before


def test_releases_before_the_archive_refuse_a_backup_of_this_one_before_changing_anything(database_url, tmp_path,
                                                                                            caravanserai):
    """What the restore of each older release does with a backup file of this release, step by
    step as it did it: the first one with ``restore`` handed the file to ``pg_restore --clean
    --single-transaction`` (PostgreSQL) or to SQLite's backup API; the next ones read its migration
    first with ``pg_restore --data-only --table=alembic_version`` or a read-only SQLite query.
    Each fails on the zip archive before it touches the database."""
    import sqlite3
    from contextlib import closing

    from app.db.backup import libpq_url, sqlite_path

    dump = tmp_path / "this-release.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2])
        assert caravanserai("backup", database_url, str(dump))[0] == 0
        Player(client, "Carol")  # a row the backup does not hold
    before = database_contents(database_url)
    if database_url.startswith("sqlite"):
        with closing(sqlite3.connect(dump)) as backup_file, closing(sqlite3.connect(sqlite_path(database_url))) as target:
            with pytest.raises(sqlite3.DatabaseError, match="file is not a database"):
                backup_file.backup(target)
        with pytest.raises(sqlite3.DatabaseError, match="file is not a database"):
            with closing(sqlite3.connect(f"{dump.resolve().as_uri()}?mode=ro", uri=True)) as backup_file:
                backup_file.execute("SELECT version_num FROM alembic_version").fetchall()
    else:
        first = subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                                f"--dbname={libpq_url(database_url)}", str(dump)], capture_output=True, text=True)
        assert first.returncode == 1 and "input file does not appear to be a valid archive" in first.stderr
        later = subprocess.run(["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(dump)],
                               capture_output=True, text=True)
        assert later.returncode == 1 and "input file does not appear to be a valid archive" in later.stderr
    assert database_contents(database_url) == before


def test_a_backup_with_a_changed_byte_is_refused_and_nothing_changes(database_url, caravanserai, tmp_path):
    import zipfile

    dump, damaged = tmp_path / "site.backup", tmp_path / "damaged.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2])
        assert caravanserai("backup", database_url, str(dump))[0] == 0
        Player(client, "Carol")  # a row the backup does not hold
    with zipfile.ZipFile(dump) as archive:
        member = next(info for info in archive.infolist() if info.filename.startswith("database."))
    data = bytearray(dump.read_bytes())
    # The middle of the dump's data (after its local header of 30 bytes, its name and its extra field).
    start = member.header_offset + 30 + len(member.filename.encode()) + len(member.extra) + 64
    data[start + member.compress_size // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    before = database_contents(database_url)
    status, _, refused = caravanserai("restore", database_url, str(damaged), "--yes")
    assert status == 1 and "cannot be read to its end, nothing was changed" in refused
    assert database_contents(database_url) == before

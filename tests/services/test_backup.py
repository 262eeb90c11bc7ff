"""Backup and restore (issue 7): a dump of a database holding a finished and a running game is
restored into an empty database, and both games replay to their stored state there."""

from __future__ import annotations

import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.migrate import upgrade_to_head
from app.db.models import Table
from app.main import create_app
from app.rulesets.testing import canonical
from app.services import games
from tests.conftest import _database_url, make_settings, run_coroutine
from tests.support.players import Player, started_table
from tests.support.server import ROOT


def play(ana, bo, table_id, amounts):
    players = [ana, bo]
    for version, amount in enumerate(amounts):
        assert players[version % 2].move(table_id, version, {"type": "add", "amount": amount}).status_code == 200


def stored_games(client):
    ctx = client.app.state.ctx

    async def load():
        async with ctx.sessions() as session:
            return {t.id: (t.status, t.version, t.state) for t in await session.scalars(select(Table))}

    return client.portal.call(load)


def replayed(client, table_id, version):
    return client.portal.call(games.replay_state, client.app.state.ctx, table_id, version)[1]


def cli(command, database_url, *arguments):
    done = subprocess.run([sys.executable, "-m", "app.cli", command, *arguments], cwd=ROOT,
                          env={"CARAVANSERAI_DATABASE_URL": database_url, "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
                          capture_output=True, text=True)
    assert done.returncode == 0, f"caravanserai {command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture
def empty_database(request, database_url, tmp_path):
    """A second, empty database of the same kind as ``database_url``."""
    if database_url.startswith("sqlite"):
        url = f"sqlite+aiosqlite:///{tmp_path}/restored.db"
        upgrade_to_head(url)
        return url
    import asyncpg

    from tests.conftest import ADMIN_URL, _asyncpg_dsn

    name = database_url.rsplit("/", 1)[1] + "_restored"

    async def recreate():
        connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL))
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.execute(f'CREATE DATABASE "{name}"')
        await connection.close()

    async def drop():
        connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL))
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()

    run_coroutine(recreate)
    request.addfinalizer(lambda: run_coroutine(drop))
    return _database_url(name)


def test_backup_and_restore_keep_finished_and_running_games(database_url, empty_database, tmp_path):
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        finished = started_table(ana, [bo])
        play(ana, bo, finished, [3, 3, 3, 3])
        running = started_table(ana, [bo])
        play(ana, bo, running, [1, 2])
        before = stored_games(client)
    assert before[finished][0] == "finished" and before[running][0] == "running"

    dump = tmp_path / "caravanserai.backup"
    cli("backup", database_url, str(dump))
    cli("restore", empty_database, str(dump), "--yes")

    with TestClient(create_app(make_settings(empty_database))) as client:
        after = stored_games(client)
        assert after == before
        for table_id, (_, version, state) in after.items():
            assert canonical(replayed(client, table_id, version)) == canonical(state)
        ana_again = client.get(f"/api/games/{running}").json()
        assert ana_again["version"] == 2 and ana_again["to_act"] == [0]

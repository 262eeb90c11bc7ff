"""``caravanserai backup --check FILE``, the restore drill: the backup is loaded into a scratch
database, its rows compared with the counts it recorded and the copy migrated; a difference, a
refused file or a failed migration exits 1.  And the "last good backup" metric, which backups and
good checks set."""

from __future__ import annotations

import json
import re
import time
import zipfile

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.services import test_backup
from tests.services.test_backup import HEAD, database_contents, play
from tests.support.players import Player, started_table


caravanserai = test_backup.caravanserai  # the fixture: the command in this process


def metric(client, name, kind):
    found = re.search(rf'^{name}{{kind="{kind}"}} (\S+)$', client.get("/metrics").text, re.MULTILINE)
    return None if found is None else float(found.group(1))


def rewrite_manifest(source, target, **changes):
    """A copy of the backup ``source`` at ``target`` whose manifest has ``changes``."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for member in original.infolist():
            data = original.read(member)
            if member.filename == "caravanserai-backup.json":
                data = json.dumps({**json.loads(data), **changes}).encode()
            copy.writestr(member, data)


def test_a_good_backup_passes_the_drill_and_sets_the_metric(database_url, caravanserai, tmp_path):
    dump = tmp_path / "site.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2, 3])
        assert metric(client, "caravanserai_last_backup_timestamp_seconds", "backup") == 0
        assert metric(client, "caravanserai_last_backup_age_seconds", "backup") is None
        before = time.time()
        assert caravanserai("backup", database_url, str(dump))[0] == 0
        written = metric(client, "caravanserai_last_backup_timestamp_seconds", "backup")
        assert before - 1 <= written <= time.time() + 1
        assert 0 <= metric(client, "caravanserai_last_backup_age_seconds", "backup") < 60
        assert metric(client, "caravanserai_last_backup_timestamp_seconds", "check") == 0
    live = database_contents(database_url)  # the app stopped: nothing else writes

    status, said, _ = caravanserai("backup", database_url, "--check", str(dump))
    assert status == 0, said
    lines = said.splitlines()
    assert "accounts: 2" in lines and "moves: 3" in lines and "tables: 1" in lines
    assert lines[-1] == (f"backup {dump}: good: taken at migration {HEAD}, every table holds the rows it "
                         f"recorded; at {HEAD}")
    # The drill only read the site's database (and wrote down the check).
    after = database_contents(database_url)
    assert len(after.pop("backup_runs")) == len(live.pop("backup_runs")) + 1
    assert after == live
    with TestClient(create_app(make_settings(database_url))) as client:
        assert metric(client, "caravanserai_last_backup_timestamp_seconds", "check") >= written
        assert metric(client, "caravanserai_last_backup_timestamp_seconds", "backup") == written


def test_a_backup_whose_rows_differ_from_its_counts_fails_the_drill(database_url, caravanserai, tmp_path):
    dump, tampered = tmp_path / "site.backup", tmp_path / "tampered.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        play(ana, bo, started_table(ana, [bo]), [1, 2])
    assert caravanserai("backup", database_url, str(dump))[0] == 0
    with zipfile.ZipFile(dump) as archive:
        counts = json.loads(archive.read("caravanserai-backup.json"))["counts"]
    rewrite_manifest(dump, tampered, counts={**counts, "moves": 5, "lost_table": 7})
    status, said, message = caravanserai("backup", database_url, "--check", str(tampered))
    assert (status, message) == (1, "1")
    assert "moves: 2 (recorded 5)" in said and "lost_table: missing (recorded 7)" in said
    assert said.splitlines()[-1].startswith(f"backup {tampered}: BAD: taken at migration {HEAD}, 2 tables differ")
    with TestClient(create_app(make_settings(database_url))) as client:  # a bad check is no good backup
        assert metric(client, "caravanserai_last_backup_timestamp_seconds", "check") == 0


def test_the_drill_refuses_a_newer_backup_and_reads_an_older_bare_one(database_url, caravanserai, tmp_path):
    dump, newer = tmp_path / "site.backup", tmp_path / "newer.backup"
    with TestClient(create_app(make_settings(database_url))) as client:
        Player(client, "Ana")
    assert caravanserai("backup", database_url, str(dump))[0] == 0
    rewrite_manifest(dump, newer, revision="0099")
    status, _, message = caravanserai("backup", database_url, "--check", str(newer))
    assert status == 1 and message.startswith("caravanserai backup --check: ") and "migration 0099" in message
    # A backup of a release before the archive: the bare dump, with no counts to compare.
    bare = tmp_path / "bare.backup"
    with zipfile.ZipFile(dump) as archive:
        member = next(name for name in archive.namelist() if name.startswith("database."))
        bare.write_bytes(archive.read(member))
    status, said, _ = caravanserai("backup", database_url, "--check", str(bare))
    assert status == 0 and "accounts: 1" in said and "no counts recorded" in said.splitlines()[-1]

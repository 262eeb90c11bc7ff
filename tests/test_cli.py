"""The ``caravanserai`` command as a host meets it: ``--version`` and clear refusals."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from app import __version__

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CARAVANSERAI_")}
    environment["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=cwd, env={**environment, **env},
                          capture_output=True, text=True, timeout=60)


def test_version_prints_the_release(tmp_path):
    answer = run_cli("--version", cwd=tmp_path)
    assert answer.returncode == 0
    assert answer.stdout.strip() == f"caravanserai {__version__}"


def test_a_placeholder_secret_stops_the_server_with_one_clear_line(tmp_path):
    answer = run_cli("serve", cwd=tmp_path, CARAVANSERAI_COOKIE_SECURE="true", CARAVANSERAI_SECRET_KEY="change-me",
                     CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db")
    assert answer.returncode == 1
    assert "CARAVANSERAI_SECRET_KEY is still the example's placeholder" in answer.stderr
    assert "Traceback" not in answer.stderr
    assert not (tmp_path / "site.db").exists()  # refused before anything was migrated


def test_several_workers_on_sqlite_are_refused_with_one_clear_line(tmp_path):
    # SQLite's fan-out is in-process: a second worker's sockets would never hear the first one's moves.
    for how in ({"CARAVANSERAI_WORKERS": "2"}, {}):
        args = ("serve",) if how else ("serve", "--workers", "3")
        answer = run_cli(*args, cwd=tmp_path, CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db", **how)
        assert answer.returncode == 1
        assert "SQLite serves one process only" in answer.stderr
        assert "Traceback" not in answer.stderr
        assert not (tmp_path / "site.db").exists()  # refused before anything was migrated



def test_serve_prepares_in_a_child_process_that_keeps_alembic_and_cryptography_out_of_the_server(tmp_path):
    # The server process imports neither Alembic nor the cryptography library at start (about 17 MiB it
    # would keep for good): serve migrates and makes the VAPID key in `python -m app.prepare`, and a
    # failure there is the server's exit status.
    probe = ("import sys; from app.prepare import prepare_in_child; prepare_in_child(migrate=True); "
             "print(sorted(name for name in sys.modules if name.split('.')[0] in ('alembic', 'mako', 'cryptography')))")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CARAVANSERAI_")}
    environment.update(PYTHONPATH=str(ROOT), CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db")
    answer = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip().splitlines()[-1] == "[]"
    with sqlite3.connect(tmp_path / "site.db") as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert (tmp_path / ".caravanserai-vapid.pem").read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")

    answer = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, timeout=60, capture_output=True, text=True,
                            env={**environment, "CARAVANSERAI_VAPID_PRIVATE_KEY": "not a key"})
    assert answer.returncode == 1
    assert "ValueError" in answer.stderr  # the bad key's traceback, from the child, as a failed start showed it before


def test_a_started_server_that_signed_in_a_guest_has_not_imported_what_it_loads_lazily(tmp_path, sqlite_database):
    # Each of these is kept out of the server process until it is needed (a migration,
    # a push or the VAPID key, a registered name) and holds megabytes once imported.
    lazily = ("alembic", "mako", "aiohttp", "cryptography", "py_vapid", "http_ece", "confusable_homoglyphs")
    probe = f"""
import sys
from fastapi.testclient import TestClient
import app.cli
from app.config import Settings
from app.main import create_app
settings = Settings(database_url={sqlite_database!r}, secret_key="test-secret", _env_file=None,
                    vapid_private_key_file={str(tmp_path / "vapid.pem")!r})
with TestClient(create_app(settings)) as client:
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/rulesets").status_code == 200
    assert client.post("/api/auth/guest", json={{"name": "Ana"}}).status_code == 200
print(sorted({{name.split(".")[0] for name in sys.modules}} & set({lazily!r})))
"""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CARAVANSERAI_")}
    answer = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={**environment, "PYTHONPATH": str(ROOT)},
                            capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip().splitlines()[-1] == "[]"


def test_an_away_time_at_the_presence_refresh_stops_the_server_with_one_clear_line(tmp_path):
    answer = run_cli("serve", cwd=tmp_path, CARAVANSERAI_ABSENT_AFTER_SECONDS="5",
                     CARAVANSERAI_DATABASE_URL=f"sqlite:///{tmp_path}/site.db")
    assert answer.returncode == 1
    problems = [line.strip() for line in answer.stderr.splitlines() if line.startswith("  ")]
    assert problems == ["CARAVANSERAI_ABSENT_AFTER_SECONDS (5 s) must be at least 4 x CARAVANSERAI_PRESENCE_REFRESH_SECONDS "
                        "(5 s) = 20 s: an open tab is written down only once a refresh, so a shorter away time would "
                        "show players away at their game"]
    assert "Traceback" not in answer.stderr
    assert not (tmp_path / "site.db").exists()  # refused before anything was migrated

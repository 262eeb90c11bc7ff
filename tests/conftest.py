"""Shared fixtures: the databases (Postgres and SQLite) and an app client per test.

Service and API tests run once per backend.  Postgres comes from ``CARAVANSERAI_TEST_POSTGRES_URL``
(default ``postgresql://postgres@127.0.0.1:5432/postgres``, the admin database used to create a
scratch database).  When it is unreachable the Postgres runs are skipped and the summary says so,
unless ``CARAVANSERAI_REQUIRE_POSTGRES=1`` (as in CI), which turns that into an error.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import warnings
from pathlib import Path

import argon2
import asyncpg

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.db.migrate import upgrade_to_head
from app.main import create_app
from tests.support.push_service import TEST_VAPID_KEY

ADMIN_URL = os.environ.get("CARAVANSERAI_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REQUIRE_POSTGRES = os.environ.get("CARAVANSERAI_REQUIRE_POSTGRES") == "1"
TEST_DATABASE = f"caravanserai_test_{os.getpid()}"  # one per test run: parallel runs never share
TOY_RULESETS = ["tests.support.toy_rulesets:ToyRace", "tests.support.toy_rulesets:ToySealedBids"]
_postgres_skipped: list[str] = []


def call_in_thread(function, *args):
    """Call ``function(*args)`` in a fresh thread and return its result or raise what it raised
    (``SystemExit`` included). Code that calls ``asyncio.run`` (the ``caravanserai`` command) needs
    this in tests: a worker that ran the browser tests keeps Playwright's sync loop running in the
    main thread until the session ends."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(function, *args).result()


def run_coroutine(coroutine_function, *args):
    """Run an async function to completion from sync test code, even where a loop already runs
    in this thread (Playwright's sync API keeps one)."""
    return call_in_thread(asyncio.run, coroutine_function(*args))


def _asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


def _database_url(database: str) -> str:
    base, _, _ = _asyncpg_dsn(ADMIN_URL).rpartition("/")
    return f"{base}/{database}".replace("postgresql://", "postgresql+asyncpg://", 1)


async def _recreate_database() -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL), timeout=5)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{TEST_DATABASE}" WITH (FORCE)')
        await connection.execute(f'CREATE DATABASE "{TEST_DATABASE}"')
    finally:
        await connection.close()


async def _drop_database() -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL), timeout=5)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{TEST_DATABASE}" WITH (FORCE)')
    finally:
        await connection.close()


async def _truncate(url: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        # A connection a finished test left open (idle in a transaction) would make TRUNCATE wait
        # for its locks forever: end it, and say so, since it means a test or the app leaks one.
        leftovers = await connection.fetch(
            "SELECT pg_terminate_backend(pid), state, left(query, 120) AS query FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        if leftovers:
            warnings.warn(f"connections left open by an earlier test: {[dict(row) for row in leftovers]}")
        await connection.execute("SET lock_timeout = '30s'")
        # rate_limits too: account ids start again at 1, and a count of an earlier test's account 1 would hold.
        # admin_audit and backup_runs: no foreign key ties them to accounts, so no CASCADE empties them.
        await connection.execute("TRUNCATE moves, seats, tables, accounts, rate_limits, admin_audit, backup_runs RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes():
    """Password hashes at argon2's cheapest parameters in the tests' own apps: the server's hash
    costs ~0.17 s of CPU by design (to slow down guessing), and a few hundred sign-ups and logins
    added up to a minute of the suite. Still argon2, so what a test stores and checks is the same
    kind of hash; server processes a test starts keep the real parameters."""
    from app.services.accounts import identity

    real = identity._hasher
    identity._hasher = argon2.PasswordHasher.from_parameters(argon2.profiles.CHEAPEST)
    yield
    identity._hasher = real


@pytest.fixture(scope="session")
def postgres_url():
    """A freshly created and migrated Postgres database for this test session."""
    try:
        run_coroutine(_recreate_database)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:  # unreachable server, refused login, ...
        reason = f"Postgres at {ADMIN_URL} is not reachable ({exc.__class__.__name__}: {exc})"
        if REQUIRE_POSTGRES:
            pytest.fail(reason + " and CARAVANSERAI_REQUIRE_POSTGRES=1")
        pytest.skip(reason)
    url = _database_url(TEST_DATABASE)
    upgrade_to_head(url)
    yield url
    run_coroutine(_drop_database)


@pytest.fixture(scope="session")
def migrated_sqlite_file(tmp_path_factory) -> Path:
    """An empty SQLite file migrated to head once per test session (each test gets a copy: running
    the migrations for every test cost the suite minutes)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    upgrade_to_head(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def sqlite_database(tmp_path, migrated_sqlite_file) -> str:
    """An empty, migrated SQLite file for one test (a copy of the session's migrated file)."""
    shutil.copyfile(migrated_sqlite_file, tmp_path / "test.db")
    return f"sqlite+aiosqlite:///{tmp_path}/test.db"


@pytest.fixture
def postgres_database(postgres_url) -> str:
    """The Postgres test database, emptied for one test."""
    run_coroutine(_truncate, postgres_url)
    return postgres_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request) -> str:
    """One empty, migrated database per test, once per backend."""
    return request.getfixturevalue(f"{request.param}_database")


def make_settings(database_url: str, **overrides) -> Settings:
    """Settings for a test app: the given database, a fixed key, the toy rulesets loaded."""
    overrides.setdefault("bot_delay_seconds", 0.0)
    overrides.setdefault("bot_processes", 0)  # bots think in a thread: no worker process started per test app
    overrides.setdefault("bot_move_seconds", 0.2)  # a strong bot in a test thinks briefly
    for rule in ("rate_limit_auth", "rate_limit_tables", "rate_limit_replays"):
        overrides.setdefault(rule, "100000/minute")
    overrides.setdefault("rate_limit_moves", "100000/second")
    overrides.setdefault("vapid_private_key", TEST_VAPID_KEY)  # never a key file in the working directory
    overrides.setdefault("check_cached_states", True)  # a test that changes a cached state in place fails
    return Settings(database_url=database_url, secret_key="test-secret", extra_rulesets=TOY_RULESETS,
                    _env_file=None, **overrides)


@pytest.fixture
def client(database_url):
    """A TestClient whose lifespan (engine, fan-out, hub) runs for the whole test."""
    with TestClient(create_app(make_settings(database_url))) as test_client:
        yield test_client


async def _probe_postgres() -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(ADMIN_URL), timeout=5)
    await connection.close()


def pytest_configure(config):
    """In the main process (with or without pytest-xdist's workers), find out once whether Postgres
    is reachable, so the summary can say plainly that its tests were skipped."""
    if hasattr(config, "workerinput"):
        return
    try:
        run_coroutine(_probe_postgres)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        _postgres_skipped.append(f"Postgres at {ADMIN_URL} is not reachable ({exc.__class__.__name__}: {exc})")


# Whole folders whose every test is of one kind: the browser tests, and the ones that start
# server processes or several apps on one database (tests/reliability, tests/hosting).
_FOLDER_MARKERS = {"e2e": ("e2e",), "reliability": ("slow",), "hosting": ("slow",)}

# The REST and socket tests run on both databases (``database_url``); in the fast subset only on
# SQLite: their PostgreSQL twin runs the same requests through the same services, and what is
# PostgreSQL's own (the one-statement move commit, row locks, checkpoints, notifications between
# processes) has its tests in tests/services and tests/reliability, which keep it.
_TWIN_ON_POSTGRES = ("api", "i18n")

# Files and tests elsewhere that are slow by what they do, so the fast subset stays under
# 3 minutes on a quiet 2-core machine; the whole suite (and CI) runs them all.
_SLOW = {
    "services/test_backup.py": "runs pg_dump and psql",
    "services/test_backup_check.py": "runs pg_dump, psql and a scratch database",
    "services/test_backup_secrets.py": "runs pg_dump and psql and watches every command line",
    "services/test_whole_games.py": "plays a whole game of every ruleset on both databases",
    "rulesets/test_heroes_conformance.py": "plays many whole Heroes games",
    "services/test_bot_workers.py": "starts a worker process",
    "api/test_notify_whole_game.py": "plays a whole game told by push and mail",
    "api/test_log_words.py": "plays a whole game of every ruleset",
    "api/test_away.py": "waits out presence refreshes and away times",
    "api/test_notifications.py::test_no_notice_while_the_table_is_open_and_one_after_leaving_it":
        "waits out the presence window of a closed socket",
    "services/test_heroes_stored_games.py::test_a_game_stored_during_a_tactic_choice_plays_on_after_the_migration":
        "migrates a Postgres database step by step",
    "services/test_bots.py::test_all_bot_game_runs_to_the_end_through_the_pipeline": "whole bot games, both databases",
    "services/test_state_checkpoints.py::test_a_game_past_several_checkpoints_reads_in_a_fresh_process_as_folded_move_by_move":
        "starts a fresh process",
    "test_cli.py::test_serve_prepares_in_a_child_process_that_keeps_alembic_and_cryptography_out_of_the_server":
        "starts processes",
    "test_cli.py::test_a_started_server_that_signed_in_a_guest_has_not_imported_what_it_loads_lazily": "starts processes",
    "rulesets/test_heroes_full_play.py": "plays many whole full-edition games",
    "rulesets/test_heroes_solo.py::test_solo_legal_moves_are_exactly_the_accepted_ones": "plays many whole solo games",
    "rulesets/test_through_the_desert_bot.py::test_default_bot_beats_random_in_a_short_match": "a match of whole games",
    "rulesets/test_nimalia_bot.py::test_default_bot_beats_random_in_a_short_match": "a match of whole games",
    "rulesets/test_nomadi_bot.py::test_default_bot_beats_random_in_a_short_match": "a match of whole games",
    "rulesets/test_nomadi_search.py::test_two_bot_games_in_parallel_threads_play_the_moves_they_play_alone":
        "whole bot games in threads",
    "services/test_upgrade_untimed.py": "migrates databases of an older release, Postgres's too",
    "rulesets/test_nomadi_bitboard.py::test_the_positions_of_random_games": "every position of many whole games, twice",
}


# The files whose single tests run longest (a minute or more each on a quiet 2-core machine): they
# start first, so that no worker is left with one of them while the others have finished.
_LONGEST_FIRST = (
    "test_typing.py",
    "e2e/test_look_and_fit_browser.py",
    "e2e/test_nomadi_browser.py",
    "e2e/test_nimalia_browser.py",
    "e2e/test_french_games_browser.py",
    "reliability/test_crash.py",
    "e2e/test_heroes_browser.py",
    "e2e/test_through_the_desert_browser.py",
)


def pytest_collection_modifyitems(config, items):
    """Mark each test by its folder, so a new file there needs no marker of its own, the PostgreSQL
    twins of the API tests (``_TWIN_ON_POSTGRES``), the files and tests of ``_SLOW`` as ``slow``, and any test elsewhere that starts a server process
    (``tests.support.server.ServerProcess``) as ``slow`` too:
    ``pytest -m "not e2e and not slow"`` is then the fast subset.

    Then order whole files longest first: ``_LONGEST_FIRST``, then every file with a browser test,
    then with a slow one, then the rest (each group in collection order).  pytest-xdist hands out whole files
    in this order (``--dist loadfile --no-loadscope-reorder``); its default order, most tests
    first, left the one-test browser files to the end, and the suite's last minutes to one worker."""
    tests_root = Path(__file__).resolve().parent
    for item in items:
        parts = item.path.resolve().relative_to(tests_root).parts
        for marker in _FOLDER_MARKERS.get(parts[0], ()) if len(parts) > 1 else ():
            item.add_marker(marker)
        if parts[0] in _TWIN_ON_POSTGRES and item.get_closest_marker("postgres") is not None:
            item.add_marker("slow")
        path = "/".join(parts)
        if path in _SLOW or f"{path}::{getattr(item, 'originalname', item.name)}" in _SLOW:
            item.add_marker("slow")
        function = getattr(item, "function", None)
        if function is not None and "ServerProcess" in _names_used(function.__code__):
            item.add_marker("slow")
    rank: dict[Path, int] = {}
    for item in items:
        path = "/".join(item.path.resolve().relative_to(tests_root).parts)
        kind = 0 if item.get_closest_marker("e2e") else 1 if item.get_closest_marker("slow") else 2
        own = _LONGEST_FIRST.index(path) if path in _LONGEST_FIRST else len(_LONGEST_FIRST) + kind
        rank[item.path] = min(rank.get(item.path, own), own)
    items.sort(key=lambda item: rank[item.path])


def _names_used(code) -> set[str]:
    """The global and attribute names a function's code uses, its comprehensions and inner
    functions included."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names_used(constant)
    return names


def pytest_terminal_summary(terminalreporter):
    if _postgres_skipped and not REQUIRE_POSTGRES:
        terminalreporter.write_line("")
        terminalreporter.write_line(
            f"NOTE: the Postgres tests were SKIPPED: {_postgres_skipped[0]}. "
            "Only SQLite was tested. Set CARAVANSERAI_TEST_POSTGRES_URL to run them.", yellow=True, bold=True)

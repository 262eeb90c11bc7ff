"""An upgrade never hands a running untimed game to bots.

Migration 0006 made every table of before paces "live" and marked every seated person seen at the
upgrade; a few minutes later the releases after it let a bot take each seat whose person had not
opened the game.  Here a database left by the release before 0006 (revision 0005) holds a running
untimed game; after the upgrade to head the game stays untimed, its people are shown away when
they stay away (far longer than any away time), and no bot plays a seat until another player
hands it over.  A database already past 0006, where a bot had taken an untimed seat over for
being away, gets the seat back to its person.
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.models import utcnow
from app.main import create_app
from app.services.leader import absence
from app.services.attendance import takeover
from tests.conftest import call_in_thread, make_settings, run_coroutine
from tests.support.databases import scratch_postgres
from tests.support.polling import poll
from tests.support.toy_rulesets import ToyRace

LONG_AGO = datetime(2026, 11, 1, tzinfo=timezone.utc)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_database(request, tmp_path):
    """A database at revision ``0005`` (the release before paces): its async URL."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.db"
        call_in_thread(command.upgrade, alembic_config(url), "0005")
        yield url
    else:
        with scratch_postgres(f"caravanserai_upgrade_{os.getpid()}", revision="0005") as url:
            yield url


async def execute(url: str, *statements: tuple[str, dict]) -> list:
    engine = create_async_engine(url)
    try:
        found = []
        async with engine.begin() as connection:
            for sql, values in statements:
                result = await connection.execute(sa.text(sql), values)
                found.append(result.all() if result.returns_rows else None)
        return found
    finally:
        await engine.dispose()


def store_untimed_game(url: str) -> None:
    """Ana and Bo at a running toy race without a clock, as release 0005 stored it (Ana to move)."""
    state = ToyRace().setup(2, ToyRace().parse_options({}), 7)
    run_coroutine(execute, url,
                  ("INSERT INTO accounts (id, name, created_at, session_epoch) VALUES (1, 'Ana', :at, 0), "
                   "(2, 'Bo', :at, 0)", {"at": LONG_AGO}),
                  ("INSERT INTO tables (id, ruleset, options, seat_count, private, creator_id, status, seed, state, "
                   "version, created_at, updated_at, chat_spectators) VALUES (1, 'toy-race', '{}', 2, false, 1, "
                   "'running', 7, :state, 0, :at, :at, false)", {"state": json.dumps(state), "at": LONG_AGO}),
                  ("INSERT INTO seats (table_id, seat, account_id) VALUES (1, 0, 1), (1, 1, 2)", {}))


def seats(url: str) -> list:
    return run_coroutine(execute, url, ("SELECT seat, takeover, away_since, away_deadline FROM seats "
                                        "WHERE table_id = 1 ORDER BY seat", {}))[0]


@contextlib.contextmanager
def app_on(url: str):
    with TestClient(create_app(make_settings(url, clock_tick_seconds=0.05))) as client:
        yield client


def test_a_running_untimed_game_stays_untimed_and_unplayed_by_bots_after_the_upgrade(old_database):
    store_untimed_game(old_database)
    upgrade_to_head(old_database)
    with app_on(old_database) as client:
        ctx = client.app.state.ctx
        # Nobody opens the game for longer than every away setting (live 2 min, turn-based 24 h).
        run_coroutine(execute, old_database, ("UPDATE seats SET seen_at = :at", {"at": utcnow() - timedelta(hours=30)}))
        poll(lambda: seats(old_database), lambda rows: all(row[2] is not None for row in rows))
        for hours in (1, 30, 24 * 20):  # and the leader looks again much later
            client.portal.call(absence.watch, ctx, utcnow() + timedelta(hours=hours))
        rows = seats(old_database)
        assert [(seat, takeover) for seat, takeover, *_ in rows] == [(0, None), (1, None)]
        assert all(away_since is not None and away_deadline is None for _, _, away_since, away_deadline in rows)
        table = client.get("/api/tables/1").json()
        assert table["time_control"]["move_seconds"] is None and table["status"] == "running"
        assert client.get("/api/games/1").json()["version"] == 0  # nobody played Ana's move

        # Bo hands the seat of Ana (the host, away) to a bot: only then does a bot play it.
        async def hand_over() -> None:
            async with ctx.hold_table(1) as held:
                await takeover.hand_away_seat(ctx, held, 2, 0)

        client.portal.call(hand_over)
        game = poll(lambda: client.get("/api/games/1").json(), lambda game: game["version"] >= 1)
        assert game["players"][0]["takeover"] == "away" and game["to_act"] == [1]


def test_a_seat_a_bot_took_over_for_being_away_at_an_untimed_game_goes_back_to_its_person(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/between.db"
    call_in_thread(command.upgrade, alembic_config(url), "0015")
    store_untimed_game(url)
    run_coroutine(execute, url,
                  ("UPDATE seats SET takeover = 'away', away_since = :at, away_deadline = :at WHERE seat = 0",
                   {"at": LONG_AGO}),
                  ("UPDATE seats SET away_deadline = :at, away_since = :at WHERE seat = 1", {"at": LONG_AGO}))
    upgrade_to_head(url)
    assert [(seat, takeover, away_since is not None, away_deadline) for seat, takeover, away_since, away_deadline
            in seats(url)] == [(0, None, True, None), (1, None, True, None)]
    with app_on(url) as client:
        poll(lambda: client.get("/api/games/1").json(), lambda game: game["players"][0]["takeover"] is None)
        assert client.get("/api/games/1").json()["version"] == 0


def test_a_running_rematch_someone_never_opened_becomes_friendly_at_the_upgrade(tmp_path):
    """Earlier releases seated everyone at a rematch at once; a player who never opened it (no
    socket, no move of theirs) never agreed to it, so its end must rate nobody."""
    url = f"sqlite+aiosqlite:///{tmp_path}/between.db"
    call_in_thread(command.upgrade, alembic_config(url), "0015")
    store_untimed_game(url)
    run_coroutine(execute, url,
                  ("INSERT INTO tables (id, ruleset, options, seat_count, private, creator_id, status, seed, state, "
                   "version, created_at, updated_at, chat_spectators, rated, rematch_of) SELECT 2, ruleset, options, "
                   "seat_count, private, creator_id, status, seed, state, version, created_at, updated_at, "
                   "chat_spectators, true, 1 FROM tables WHERE id = 1", {}),
                  ("INSERT INTO tables (id, ruleset, options, seat_count, private, creator_id, status, seed, state, "
                   "version, created_at, updated_at, chat_spectators, rated, rematch_of) SELECT 3, ruleset, options, "
                   "seat_count, private, creator_id, status, seed, state, version, created_at, updated_at, "
                   "chat_spectators, true, 2 FROM tables WHERE id = 1", {}),
                  # Rematch 2: Bo never opened it.  Rematch 3: both had it open.
                  ("INSERT INTO seats (table_id, seat, account_id, connected_at) VALUES (2, 0, 1, :at), (2, 1, 2, NULL), "
                   "(3, 0, 1, :at), (3, 1, 2, :at)", {"at": LONG_AGO}),
                  ("UPDATE tables SET rated = true WHERE id = 1", {}))
    upgrade_to_head(url)
    rated = dict(run_coroutine(execute, url, ("SELECT id, rated FROM tables ORDER BY id", {}))[0])
    assert {table: bool(flag) for table, flag in rated.items()} == {1: True, 2: False, 3: True}

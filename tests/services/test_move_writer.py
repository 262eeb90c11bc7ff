"""The one-statement move commit on Postgres (app/db/move_writer.py) and the pipeline's use of it.

The writer must write a move only when the game is running at the version before it, never
half (a move without its snapshot or the reverse); the fan-out tells other processes after the
commit, in batches; the pipeline must fall back to the locking path, with its answers, whenever the
process's cached snapshot is behind the database.
"""

from __future__ import annotations

import asyncio
import copy

import asyncpg
import pytest
from fastapi.testclient import TestClient

from app.db.move_writer import DuplicateMoveId, PostgresMoveWriter
from app.main import create_app
from tests.conftest import make_settings, run_coroutine
from tests.support.players import Player, started_table

pytestmark = pytest.mark.postgres


def dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def running_table(connection) -> tuple[int, int, int]:
    """A running toy-race table with Ana at seat 0 and Bo at seat 1: ``(table, ana, bo)``."""
    ana, bo = [await connection.fetchval("INSERT INTO accounts (name, session_epoch, created_at) VALUES ($1, 0, now()) "
                                         "RETURNING id", name) for name in ("Ana", "Bo")]
    table_id = await connection.fetchval(
        "INSERT INTO tables (ruleset, options, seat_count, private, creator_id, status, state, version, "
        "chat_spectators, created_at, updated_at) VALUES ('toy-race', '{}', 2, false, $1, 'running', "
        "'{\"total\": 0}', 0, false, now(), now()) RETURNING id", ana)
    await connection.executemany("INSERT INTO seats (table_id, seat, account_id) VALUES ($1, $2, $3)",
                                 [(table_id, 0, ana), (table_id, 1, bo)])
    return table_id, ana, bo


def test_append_writes_move_and_snapshot_only_at_the_expected_version(postgres_database):
    async def scenario():
        connection = await asyncpg.connect(dsn(postgres_database))
        writer = PostgresMoveWriter(postgres_database)
        try:
            table_id, ana, bo = await running_table(connection)
            first = await writer.append(table_id, 1, 0, {"total": 2}, "running", {"type": "add", "amount": 2},
                                        [{"text": "{seat0} added 2"}], "move-a", ana, 0)
            # The same version again (another process's cache was behind): nothing is written.
            stale = await writer.append(table_id, 1, 1, {"total": 9}, "running", {"type": "add", "amount": 3},
                                        [], "move-b", bo, 0)
            with pytest.raises(DuplicateMoveId):
                await writer.append(table_id, 2, 1, {"total": 3}, "running", {"type": "add", "amount": 1},
                                    [], "move-a", bo, 0)
            finished = await writer.append(table_id, 2, 1, {"total": 10}, "finished", {"type": "add", "amount": 3},
                                           [], "move-c", bo, 0)
            after_end = await writer.append(table_id, 3, 0, {"total": 11}, "running", {"type": "add", "amount": 1},
                                            [], "move-d", ana, 0)
            table = await connection.fetchrow("SELECT state::text, version, status FROM tables WHERE id = $1", table_id)
            moves = await connection.fetch("SELECT seq, seat, client_move_id, move::text FROM moves WHERE table_id = $1 "
                                           "ORDER BY seq", table_id)
            return first, stale, finished, after_end, table, moves
        finally:
            await writer.close()
            await connection.close()

    first, stale, finished, after_end, table, moves = run_coroutine(scenario)
    assert (first, stale, finished, after_end) == (True, False, True, False)
    assert (table["state"], table["version"], table["status"]) == ('{"total":10}', 2, "finished")
    assert [(row["seq"], row["seat"], row["client_move_id"]) for row in moves] == [(1, 0, "move-a"), (2, 1, "move-c")]
    assert moves[0]["move"] == '{"type":"add","amount":2}'


def test_append_writes_only_for_the_person_or_bot_who_plays_the_seat_now(postgres_database):
    """The statement itself checks the mover against the seat row and the
    login session, whatever the calling process's cache believes."""
    async def scenario():
        connection = await asyncpg.connect(dsn(postgres_database))
        writer = PostgresMoveWriter(postgres_database)
        outcomes = {}

        async def attempt(name, account_id, session, key=""):
            outcomes[name] = await writer.append(table_id, 1, 0, {"total": 1}, "running", {"type": "add", "amount": 1},
                                                 [], name, account_id, session, key)

        try:
            table_id, ana, bo = await running_table(connection)
            await attempt("by another account", bo, 0)
            await attempt("by a bot at a person's seat", None, None)
            await attempt("after a logout", ana, 1)
            # Ana's id and epoch, but the key of another account that had her id (before a restore).
            await attempt("with another account's key", ana, 0, "key-of-another-account")
            await connection.execute("UPDATE seats SET takeover = 'left' WHERE table_id = $1 AND seat = 0", table_id)
            await attempt("after leaving", ana, 0)
            await attempt("by the bot after the leave", None, None)
            version = await connection.fetchval("SELECT version FROM tables WHERE id = $1", table_id)
            return outcomes, version
        finally:
            await writer.close()
            await connection.close()

    outcomes, version = run_coroutine(scenario)
    assert outcomes == {"by another account": False, "by a bot at a person's seat": False, "after a logout": False,
                        "with another account's key": False, "after leaving": False,
                        "by the bot after the leave": True}
    assert version == 1


def test_the_fan_out_sends_commits_in_batches_after_they_happen(postgres_database):
    """Many commits announced at once reach another process in few notifications, the newest
    version of each game and every marker (negative versions) once; nothing before ``committed``."""
    from app.db.engine import make_engine
    from app.fanout import CHANNEL, PostgresFanout, decode_batch

    async def scenario():
        heard: list[str] = []
        listener = await asyncpg.connect(dsn(postgres_database))
        await listener.add_listener(CHANNEL, lambda *args: heard.append(args[-1]))
        engine = make_engine(postgres_database)
        fanout = PostgresFanout(engine)
        local: list[tuple[int, int]] = []
        fanout.subscribe(lambda game_id, version: local.append((game_id, version)))
        await fanout.start()
        try:
            await asyncio.sleep(0.2)
            assert heard == []
            for version in range(1, 101):
                fanout.committed(7, version)
            fanout.committed(8, 1)
            fanout.committed(7, -1)
            fanout.committed(7, -1)
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)
        finally:
            await fanout.stop()
            await engine.dispose()
            await listener.close()
        return fanout.origin, heard, local

    origin, heard, local = run_coroutine(scenario)
    assert len(local) == 103  # this process's listeners hear every commit at once
    news = [item for payload in heard for item in decode_batch(payload)[1]]
    assert {decode_batch(payload)[0] for payload in heard} == {origin}
    assert len(heard) <= 2 and sorted(news) == [(7, -1), (7, 100), (8, 1)]


def test_a_process_whose_cache_is_behind_answers_like_the_locking_path(postgres_database):
    """Process A caches version 1; process B commits version 2.  A move for version 1 sent to A is
    refused as stale (not written twice), and the right move for version 2 sent to A is accepted."""
    settings = make_settings(postgres_database)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        ana, bo = Player(first, "Ana"), Player(first, "Bo")
        table_id = started_table(ana, [bo])
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).json()["version"] == 1  # A caches version 1
        bo_on_b = copy.copy(bo)
        bo_on_b.client = second  # the same person, in a tab served by process B
        assert bo_on_b.move(table_id, 1, {"type": "add", "amount": 2}).json()["version"] == 2

        stale = bo.move(table_id, 1, {"type": "add", "amount": 3})
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
        assert ana.move(table_id, 2, {"type": "add", "amount": 3}).json()["version"] == 3
        game = ana.get(f"/api/games/{table_id}").json()
        assert game["version"] == 3 and game["view"]["total"] == 6
        log = ana.get(f"/api/games/{table_id}/log").json()
        assert [entry["version"] for entry in log] == [1, 2, 3]


def test_the_fan_out_drops_only_the_echo_of_its_own_notifications():
    """A process's own commits were delivered locally already (and may echo back before their snapshot
    is cached); another process's notifications are delivered; a malformed one is ignored."""
    from app.fanout import PostgresFanout, encode_batch

    fanout, heard = PostgresFanout(engine=None), []
    fanout.subscribe(lambda game_id, version: heard.append((game_id, version)))
    other = PostgresFanout(engine=None)
    for payload in (*encode_batch(fanout.origin, [(7, 3)]), *encode_batch(other.origin, [(7, 4), (9, -1)]), "7:5",
                    "nonsense", "x;7"):
        fanout._on_notification(None, 0, "caravanserai_games", payload)
    assert heard == [(7, 4), (9, -1)]


def test_batches_stay_under_the_notification_size_limit():
    from app.fanout import MAX_PAYLOAD, decode_batch, encode_batch

    payloads = encode_batch("abcd1234", [(game_id, 123456) for game_id in range(100_000, 103_000)])
    assert len(payloads) > 1 and all(len(payload) <= MAX_PAYLOAD for payload in payloads)
    news = [item for payload in payloads for item in decode_batch(payload)[1]]
    assert news == [(game_id, 123456) for game_id in range(100_000, 103_000)]


# Group commit (docs/decisions.md): the moves of many games that arrive together commit in one statement.

async def running_tables(connection, count: int) -> list[tuple[int, int, int]]:
    return [await running_table(connection) for _ in range(count)]


def add(amount: int) -> dict:
    return {"type": "add", "amount": amount}


async def first_move(writer, table, version=1, move_id=None, account=None, session=0, key=""):
    """Ana's move ``add 1`` at seat 0 as ``version`` of ``table`` (``(table, ana, bo)``)."""
    table_id, ana, _ = table
    return await writer.append(table_id, version, 0, None, "running", add(1), [], move_id or f"m{table_id}",
                               ana if account is None else account, session, key, to_act=[1])


async def logged_moves(connection, table_id: int) -> list[tuple[int, int, str]]:
    rows = await connection.fetch("SELECT seq, seat, client_move_id FROM moves WHERE table_id = $1 ORDER BY seq",
                                  table_id)
    return [(row["seq"], row["seat"], row["client_move_id"]) for row in rows]


def with_writer(scenario, **options):
    """Run ``scenario(connection, writer, batches)``; ``batches``: the size of every committing statement."""
    def run(postgres_database):
        async def main():
            batches: list[int] = []
            connection = await asyncpg.connect(dsn(postgres_database))
            writer = PostgresMoveWriter(postgres_database, on_batch=batches.append, **options)
            try:
                return await scenario(connection, writer, batches)
            finally:
                await writer.close()
                await connection.close()
        return run_coroutine(main)
    return run


def test_many_games_moves_sent_together_commit_in_one_statement(postgres_database):
    async def scenario(connection, writer, batches):
        tables = await running_tables(connection, 40)
        answers = await asyncio.gather(*(first_move(writer, table) for table in tables))
        versions = await connection.fetch("SELECT version, to_act::text FROM tables ORDER BY id")
        logs = [await logged_moves(connection, table[0]) for table in tables]
        return tables, answers, batches, versions, logs

    tables, answers, batches, versions, logs = with_writer(scenario)(postgres_database)
    assert answers == [True] * 40
    assert batches == [40]
    assert [(row["version"], row["to_act"]) for row in versions] == [(1, "[1]")] * 40
    assert logs == [[(1, 0, f"m{table[0]}")] for table in tables]


def test_a_batch_is_capped_and_the_rest_commit_in_the_next(postgres_database):
    async def scenario(connection, writer, batches):
        tables = await running_tables(connection, 10)
        answers = await asyncio.gather(*(first_move(writer, table) for table in tables))
        return answers, batches

    answers, batches = with_writer(scenario, max_batch=4)(postgres_database)
    assert answers == [True] * 10 and batches == [4, 4, 2]


def test_a_stale_move_in_a_batch_is_refused_and_the_others_commit(postgres_database):
    async def scenario(connection, writer, batches):
        tables = await running_tables(connection, 5)
        stale = tables[2]
        answers = await asyncio.gather(*(first_move(writer, table, version=2 if table is stale else 1)
                                         for table in tables))
        versions = [await connection.fetchval("SELECT version FROM tables WHERE id = $1", table[0]) for table in tables]
        stale_log = await logged_moves(connection, stale[0])
        return answers, batches, versions, stale_log

    answers, batches, versions, stale_log = with_writer(scenario)(postgres_database)
    assert answers == [True, True, False, True, True]
    assert batches == [5]
    assert versions == [1, 1, 0, 1, 1] and stale_log == []


def test_the_seat_and_session_checks_hold_for_each_move_of_a_batch(postgres_database):
    """The same checks inside one batch: another account at the seat, a bot at a person's
    seat, a session that ended and a key of another account are refused; the others commit."""
    async def scenario(connection, writer, batches):
        tables = await running_tables(connection, 6)
        (_, _, bo), (_, ana_2, _) = tables[0], tables[3]
        await connection.execute("UPDATE seats SET takeover = 'left' WHERE table_id = $1 AND seat = 0", tables[5][0])
        answers = await asyncio.gather(
            first_move(writer, tables[0], account=bo),  # Bo plays seat 1, not seat 0
            writer.append(tables[1][0], 1, 0, None, "running", add(1), [], "bot", None, None, None, to_act=[1]),
            first_move(writer, tables[2], session=1),  # Ana logged out since (her epoch is 0)
            first_move(writer, tables[3], account=ana_2, key="key-of-another-account"),
            first_move(writer, tables[4]),
            writer.append(tables[5][0], 1, 0, None, "running", add(1), [], "bot", None, None, None, to_act=[1]))
        versions = [await connection.fetchval("SELECT version FROM tables WHERE id = $1", table[0]) for table in tables]
        return answers, batches, versions

    answers, batches, versions = with_writer(scenario)(postgres_database)
    assert answers == [False, False, False, False, True, True]
    assert batches == [6]
    assert versions == [0, 0, 0, 0, 1, 1]


def test_a_move_id_already_used_in_a_batch_is_refused_and_the_others_commit(postgres_database):
    """The batch fails on the unique move id; its moves are committed one by one, each with its answer."""
    async def scenario(connection, writer, batches):
        tables = await running_tables(connection, 4)
        assert await first_move(writer, tables[1], move_id="reused")
        outcomes = await asyncio.gather(first_move(writer, tables[0]),
                                        first_move(writer, tables[1], version=2, move_id="reused"),
                                        first_move(writer, tables[2]), first_move(writer, tables[3]),
                                        return_exceptions=True)
        logs = [await logged_moves(connection, table[0]) for table in tables]
        return tables, outcomes, batches, logs

    tables, outcomes, batches, logs = with_writer(scenario)(postgres_database)
    assert outcomes[0] is True and outcomes[2:] == [True, True]
    assert isinstance(outcomes[1], DuplicateMoveId)
    assert batches == [1, 1, 1, 1]  # the first move alone; the failed batch wrote nothing; three one by one
    assert logs == [[(1, 0, f"m{tables[0][0]}")], [(1, 0, "reused")], [(1, 0, f"m{tables[2][0]}")],
                    [(1, 0, f"m{tables[3][0]}")]]


def test_two_moves_of_one_game_sent_together_both_commit_in_order(postgres_database):
    async def scenario(connection, writer, batches):
        (table_id, ana, bo), other = await running_tables(connection, 2)
        answers = await asyncio.gather(
            writer.append(table_id, 1, 0, None, "running", add(1), [], "ana-1", ana, 0, to_act=[1]),
            writer.append(table_id, 2, 1, None, "running", add(2), [], "bo-1", bo, 0, to_act=[0]),
            first_move(writer, other))
        return answers, batches, await logged_moves(connection, table_id)

    answers, batches, log = with_writer(scenario)(postgres_database)
    assert answers == [True, True, True]
    assert batches == [2, 1]  # the game's second move waited for the next batch
    assert log == [(1, 0, "ana-1"), (2, 1, "bo-1")]


def test_two_processes_batches_over_the_same_games_never_deadlock(postgres_database):
    """Two writers (two processes) send moves for the same games in opposite orders, many times: every
    move is answered, and each game takes exactly one of the two moves made for each version.

    The batches lock their rows in id order.  Without that (the rows met in the arrays' order, which
    the many other rows make the plan follow) about half the runs of this test saw a deadlock: a
    batch that failed and was committed again move by move."""
    async def scenario(connection, writer, batches):
        other = PostgresMoveWriter(postgres_database, on_batch=batches.append)
        try:
            tables = await running_tables(connection, 100)
            # Many more rows, so that the plan reaches each game's row through the index, in the order of the arrays.
            await connection.execute(
                "INSERT INTO tables (ruleset, options, seat_count, private, creator_id, status, version, "
                "chat_spectators, created_at, updated_at) SELECT 'toy-race', '{}', 2, false, $1, 'open', 0, false, "
                "now(), now() FROM generate_series(1, 5000)", tables[0][1])
            await connection.execute("ANALYZE tables")
            answers = []
            for version in range(1, 9):
                seat = (version - 1) % 2
                mine = [writer.append(t, version, seat, None, "running", add(1), [], f"a{version}", None if seat
                                      else ana, 0, to_act=[1 - seat]) for t, ana, _ in tables]
                theirs = [other.append(t, version, seat, None, "running", add(1), [], f"b{version}", None if seat
                                       else ana, 0, to_act=[1 - seat]) for t, ana, _ in reversed(tables)]
                await connection.execute("UPDATE seats SET bot_level = 1 WHERE seat = 1")
                answers.append(await asyncio.gather(*mine, *theirs, return_exceptions=True))
            versions = await connection.fetch("SELECT version FROM tables WHERE status = 'running'")
            counts = await connection.fetch("SELECT count(*) AS n FROM moves GROUP BY table_id")
            return answers, versions, counts, batches
        finally:
            await other.close()

    answers, versions, counts, batches = with_writer(scenario)(postgres_database)
    assert batches == [100] * 16  # no batch of either failed on a deadlock (then its moves go one by one)
    for round_answers in answers:
        assert all(answer is True or answer is False for answer in round_answers), round_answers
        assert sum(answer is True for answer in round_answers) == 100
    assert {row["version"] for row in versions} == {8} and {row["n"] for row in counts} == {8}


def test_the_batch_size_metric_counts_the_moves_of_each_commit(postgres_database):
    settings = make_settings(postgres_database)
    with TestClient(create_app(settings)) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        table_id = started_table(ana, [bo])
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).json()["version"] == 1
        text = client.get("/metrics").text
    assert "caravanserai_move_batch_size_count 1.0" in text
    assert 'caravanserai_move_batch_size_bucket{le="1.0"} 1.0' in text


def test_a_move_whose_caller_stopped_waiting_before_its_batch_is_not_written(postgres_database):
    async def scenario(connection, writer, batches):
        kept, dropped = await running_tables(connection, 2)
        waiting = [asyncio.create_task(first_move(writer, table)) for table in (kept, dropped)]
        await asyncio.sleep(0)  # both handed to the writer, whose task has not run yet
        waiting[1].cancel()
        outcomes = await asyncio.gather(*waiting, return_exceptions=True)
        versions = [await connection.fetchval("SELECT version FROM tables WHERE id = $1", table[0])
                    for table in (kept, dropped)]
        return outcomes, batches, versions

    outcomes, batches, versions = with_writer(scenario)(postgres_database)
    assert outcomes[0] is True and isinstance(outcomes[1], asyncio.CancelledError)
    assert batches == [1] and versions == [1, 0]

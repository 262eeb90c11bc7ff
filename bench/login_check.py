#!/usr/bin/env python
"""The CPU one resync login check costs the server (issue 19): ``Hub._current_logins`` of N logins.

    python bench/login_check.py --logins 1000 --reps 60
    python bench/login_check.py --source /tmp/before      # the same check in another checkout

Creates a scratch PostgreSQL database (dropped at the end) with N guest accounts, starts the app
(its lifespan: engine, hub) in a test client, and times ``Hub._current_logins`` of the N logins
--reps times: the CPU time of the app's thread (``time.thread_time``, so the waiting for Postgres
and other programs on the machine count for little) and the wall time, medians over the runs after
the first 10.  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=60)
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose app is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.source))

    import asyncpg
    from fastapi.testclient import TestClient
    from sqlalchemy import select

    from app.config import Settings
    from app.db.migrate import upgrade_to_head
    from app.db.models import Account
    from app.main import create_app
    from app.services.accounts.identity import Login

    database = f"caravanserai_bench_logins_{int(time.time())}"

    async def admin(statement: str) -> None:
        connection = await asyncpg.connect(args.pg_admin_url)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{database}"'))
    try:
        url = args.pg_admin_url.rpartition("/")[0].replace("postgresql://", "postgresql+asyncpg://", 1) + "/" + database
        upgrade_to_head(url)
        settings = Settings(database_url=url, secret_key="bench", _env_file=None, resync_seconds=3600)
        with TestClient(create_app(settings)) as client:
            ctx, hub = client.app.state.ctx, client.app.state.hub

            async def accounts() -> set[Login]:
                async with ctx.sessions() as session:
                    session.add_all(Account(name=f"guest {index}") for index in range(args.logins))
                    await session.commit()
                    rows = await session.execute(select(Account.id, Account.session_epoch, Account.session_key))
                    return {Login(account, epoch, key) for account, epoch, key in rows}

            logins = client.portal.call(accounts)

            async def measure() -> tuple[list[float], list[float]]:
                cpu, wall = [], []
                for _ in range(args.reps):
                    cpu_start, wall_start = time.thread_time(), time.perf_counter()
                    current = await hub._current_logins(logins)
                    cpu.append((time.thread_time() - cpu_start) * 1000)
                    wall.append((time.perf_counter() - wall_start) * 1000)
                    assert current == logins
                return cpu[10:], wall[10:]

            cpu, wall = client.portal.call(measure)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
    print(json.dumps({"source": str(args.source), "logins": args.logins, "reps": len(cpu),
                      "cpu_ms_median": round(statistics.median(cpu), 3), "wall_ms_median": round(statistics.median(wall), 3),
                      "loadavg_1m": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()

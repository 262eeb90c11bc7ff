#!/usr/bin/env python
"""Memory per open WebSocket of a real server: RSS and malloc's bytes before and after the sockets open.

    python bench/socket_memory.py --games 250              # 500 player sockets on bench-board
    python bench/socket_memory.py --games 250 --tracemalloc  # and where Python allocated it (slower)
    python bench/socket_memory.py --games 250 --server-env CARAVANSERAI_SOME_SETTING=value

A fresh Postgres database and a fresh ``caravanserai serve`` started the way ``bench/run.py`` starts
it, plus a small start-up hook (a ``sitecustomize`` module in a scratch folder put on the
server's ``PYTHONPATH``) that, on ``SIGUSR1``, writes the process's ``VmRSS`` and glibc's
``mallinfo2()`` (bytes in use: ``uordblks`` + ``hblkhd``; held: ``arena`` + ``hblkhd``) to a file,
and with ``--tracemalloc`` a ``tracemalloc`` snapshot too (tracing starts at the first reading).  The client (``load.py``'s ``LoadRun``)
creates the accounts and tables, reads the figures, opens every player's socket (``hello`` and the
initial ``state``), reads them again, then plays ``--moves`` moves per game and reads them a third
time.  Printed: one JSON object with the growth per socket in KiB, and with ``--tracemalloc`` the
largest Python allocation sites of the growth.  Not a timing: the machine's load does not change it.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import load
from run import Server, create_pg_database, drop_pg_database

HOOK = '''
import ctypes, json, os, signal, sys

_OUT = os.environ.get("CARAVANSERAI_BENCH_MEMORY_OUT")
if _OUT and "app.cli" in sys.orig_argv:  # the serve process, not its migration child (python -m app.prepare)
    _libc = ctypes.CDLL("libc.so.6")

    class _MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

    _libc.mallinfo2.restype = _MallInfo2
    _count = [0]

    def _dump(signum, frame):
        info = _libc.mallinfo2()
        with open("/proc/self/status") as handle:
            status = {line.split(":")[0]: line.split()[1] for line in handle if line.startswith(("VmRSS:", "VmHWM:"))}
        _count[0] += 1
        figures = {"rss_kib": int(status["VmRSS"]), "peak_rss_kib": int(status["VmHWM"]),
                   "in_use": info.uordblks + info.hblkhd, "held": info.arena + info.hblkhd,
                   "mmapped": info.hblkhd, "free_held": info.fordblks}
        if os.environ.get("CARAVANSERAI_BENCH_TRACEMALLOC"):
            # traced from the first reading on (tracing the start-up too makes it minutes slower)
            import tracemalloc
            if not tracemalloc.is_tracing():
                tracemalloc.start(int(os.environ["CARAVANSERAI_BENCH_TRACEMALLOC"]))
            path = f"{_OUT}.{_count[0]}.snapshot"
            tracemalloc.take_snapshot().dump(path)
            figures["snapshot"] = path
        with open(f"{_OUT}.{_count[0]}.json", "w") as handle:
            json.dump(figures, handle)

    signal.signal(signal.SIGUSR1, _dump)
'''


def read_figures(pid: int, out: str, number: int) -> dict:
    """Ask the server (``SIGUSR1``) for its figures and wait for the file."""
    os.kill(pid, signal.SIGUSR1)
    path = Path(f"{out}.{number}.json")
    deadline = time.monotonic() + 120
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the server wrote no memory figures (is the hook on its PYTHONPATH?)")
        time.sleep(0.1)
    time.sleep(0.2)  # the writer closes the file
    return json.loads(path.read_text())


def growth(before: dict, after: dict, sockets: int) -> dict:
    """KiB per socket of each figure between two readings."""
    return {key: round((after[key] - before[key]) / sockets / (1 if key == "rss_kib" else 1024), 1)
            for key in ("rss_kib", "in_use", "held", "mmapped", "free_held")}


def top_sites(first: str, second: str, sockets: int, limit: int = 12) -> list[dict]:
    """The Python allocation sites (deepest app/library frames) that grew most between two snapshots."""
    import tracemalloc

    before, after = tracemalloc.Snapshot.load(first), tracemalloc.Snapshot.load(second)
    sites = []
    for stat in after.compare_to(before, "traceback")[:limit]:
        frames = [f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}" for frame in stat.traceback][-6:]
        sites.append({"kib_per_socket": round(stat.size_diff / sockets / 1024, 2), "blocks": stat.count_diff,
                      "where": frames})
    return sites


async def measure(args: argparse.Namespace, server: Server, pg_db: str, out: str) -> dict:
    run_args = SimpleNamespace(
        url=server.url, games=args.games, moves=args.moves, seed=1, concurrency=args.concurrency, compression=args.compression,
        legal_form="grouped", ruleset="bench-board", seats=2, spectators=0, timeout=120.0, profile_out=None)
    run = load.LoadRun(run_args)
    pid = server.process.pid
    await run.setup_lobby()
    await asyncio.sleep(1)
    readings = [read_figures(pid, out, 1)]
    await run.open_sockets()
    await asyncio.sleep(1)
    readings.append(read_figures(pid, out, 2))
    if args.moves:
        await run.play(load.ServerProbe(pid), None)
        readings.append(read_figures(pid, out, 3))
    sockets = len(run.players)
    result = {"bench": "socket-memory", "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
              "games": args.games, "sockets": sockets, "compression_offered": args.compression,
              "server_env": dict(args.server_env), "readings": readings,
              "kib_per_socket_open": growth(readings[0], readings[1], sockets),
              "peak_rss_mib": round(readings[-1]["peak_rss_kib"] / 1024, 1)}
    if args.moves:
        result["moves_played"] = len(run.latencies)
        result["kib_per_socket_after_play"] = growth(readings[0], readings[2], sockets)
    if args.tracemalloc:
        result["python_sites_open"] = top_sites(readings[0]["snapshot"], readings[1]["snapshot"], sockets)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250, help="bench-board games: 2 sockets each (default 250)")
    parser.add_argument("--moves", type=int, default=20, help="moves per game after the sockets open (default 20)")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="the client offers permessage-deflate like a browser (default) or not")
    parser.add_argument("--concurrency", type=int, default=8,
                        help="setup requests in flight (default 8: fewer pool time-outs on a loaded machine)")
    parser.add_argument("--tracemalloc", action="store_true", help="trace Python allocations (12 frames)")
    parser.add_argument("--server-env", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                        metavar="KEY=VALUE", help="extra environment for the server (repeatable)")
    parser.add_argument("--pg-admin-url", default=os.environ.get("BENCH_PG_ADMIN_URL",
                                                                  "postgresql://postgres@127.0.0.1:5432/postgres"))
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="caravanserai-socket-memory-"))
    (scratch / "hook").mkdir()
    (scratch / "hook" / "sitecustomize.py").write_text(HOOK)
    out = str(scratch / "memory")
    pg_db = f"caravanserai_bench_mem_{datetime.datetime.now():%Y%m%d%H%M%S}"
    database_url = create_pg_database(args.pg_admin_url, pg_db)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(scratch / "hook"), os.environ.get("PYTHONPATH")]))
    env = {"CARAVANSERAI_BENCH_MEMORY_OUT": out, **dict(args.server_env)}
    if args.tracemalloc:
        env["CARAVANSERAI_BENCH_TRACEMALLOC"] = "12"
    server = Server(database_url, scratch, 1, env)
    try:
        server.start()
        result = asyncio.run(measure(args, server, pg_db, out))
    finally:
        server.stop()
        drop_pg_database(args.pg_admin_url, pg_db)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    sys.exit(main())

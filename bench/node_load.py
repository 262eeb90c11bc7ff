#!/usr/bin/env python
"""The Node load client (``bench/node/client.js``) with the server and Postgres figures around it.

Same options and the same JSON line as ``bench/load.py`` (so ``bench/run.py --client node`` and the
side-by-side runner read either), but the load itself comes from Node: the same runtime and
WebSocket/JSON stack as boardgame.io's anchor client (issue 19).  The client says ``play-start``
and ``play-end`` on stderr; this wrapper marks the server's process tree and the Postgres backends
at those two instants, exactly as ``load.py`` does around its own play phase.

Needs ``node`` (>= 18) and ``bench/node/node_modules`` (``npm install`` in ``bench/node``;
``bench/side_by_side.py`` runs it when missing).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import socket
from pathlib import Path
from typing import Any

from load import PostgresProbe, ServerProbe, add_run_arguments, machine_busy_seconds

NODE_DIR = Path(__file__).resolve().parent / "node"


def ensure_installed() -> None:
    """``npm install`` the client's one dependency (``ws``) into ``bench/node`` when it is missing."""
    if (NODE_DIR / "node_modules" / "ws").is_dir():
        return
    import subprocess

    env = {**os.environ, "npm_config_cache": os.environ.get("npm_config_cache", "/tmp/caravanserai-bench-npm-cache")}
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE_DIR, env=env, check=True)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """One run: the Node client against ``args.url``; its JSON line plus the server and Postgres figures."""
    if (args.ruleset, args.seats, args.spectators) != ("bench-board", 2, 0):
        raise SystemExit("the Node client plays bench-board's two seats only, without spectators: "
                         "use bench/load.py for other games")
    server = ServerProbe(args.server_pid)
    pg = PostgresProbe(args.pg_admin_url, args.pg_db) if args.pg_db else None
    result: dict[str, Any] = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": args.machine or socket.gethostname(), "cpus": os.cpu_count(), "label": args.label,
        "server_idle_rss_mib": server.memory_mib("VmRSS"), "loadavg_1m_before": round(os.getloadavg()[0], 2),
    }
    if pg:
        await pg.open()
    command = ["node", str(NODE_DIR / "client.js"), "--url", args.url, "--games", str(args.games),
               "--moves", str(args.moves), "--timeout", str(args.timeout), "--conc", str(args.concurrency),
               "--seed", str(args.seed), "--compression", args.compression, "--legal-form", args.legal_form]
    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE, limit=2**24)
    figures: dict[str, Any] = {}
    messages: list[str] = []
    machine0 = 0.0
    try:
        assert process.stderr is not None
        async for raw in process.stderr:
            line = raw.decode(errors="replace").rstrip()
            if line == "play-start":
                server.mark()
                if pg:
                    await pg.mark()
                machine0 = machine_busy_seconds()
            elif line == "play-end":
                figures["machine_busy_cpu_s"] = round(machine_busy_seconds() - machine0, 2)
                figures["server_cpu_s"] = _round(server.cpu_since_mark(), 2)
                figures["server_peak_rss_mib"] = server.memory_mib("VmHWM")
                figures["server_processes"] = len(server.pids()) or None
                if pg:
                    backend_cpu, total_cpu = await pg.finish()
                    figures["pg_backend_cpu_s"] = _round(backend_cpu, 2)
                    figures["pg_total_cpu_s"] = _round(total_cpu, 2)
            else:
                messages.append(line)
        stdout = (await process.stdout.read()).decode() if process.stdout else ""
        await process.wait()
    finally:
        if pg:
            await pg.close()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if process.returncode != 0 or not lines:
        said = [line for line in messages if not line.strip().startswith("at ")]  # the error, not its stack
        raise RuntimeError("node client failed: " + " | ".join(said[-5:]))
    result.update(json.loads(lines[-1]))
    result.update(figures)
    acked = result.get("acked") or 0
    if result.get("machine_busy_cpu_s") is not None:
        ours = sum(result.get(key) or 0 for key in ("server_cpu_s", "client_cpu_s", "pg_backend_cpu_s"))
        result["other_cpu_s"] = round(result["machine_busy_cpu_s"] - ours, 2)
    if result.get("server_cpu_s") is not None and acked:
        result["server_cpu_per_move_ms"] = round(result["server_cpu_s"] / acked * 1000, 3)
    return result


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser, compression="none")  # no permessage-deflate, as boardgame.io's socket.io client
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    ensure_installed()
    print(json.dumps(asyncio.run(run(args))), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Run the move-pipeline benchmark: a fresh server and database per run, the load client, results.

One command (from the repository root)::

    python bench/run.py                      # G in {10, 100, 500}, M=200, 2 runs each, Postgres + SQLite
    python bench/run.py --games 10,100 --backends postgres --reps 1    # a quicker subset

For every (G, repetition, backend) it creates a fresh database (Postgres: ``CREATE DATABASE``
through ``--pg-admin-url``; SQLite: a new file in a temporary directory), starts a fresh
``python -m app.cli serve --port P`` with ``CARAVANSERAI_DATABASE_URL``,
``CARAVANSERAI_EXTRA_RULESETS=["bench_board:BenchBoard"]``, ``CARAVANSERAI_SECRET_KEY`` and
``PYTHONPATH`` holding the repository and ``bench/``, runs ``bench/load.py`` against it as a
separate process, stops the server and drops the database.  Each run's JSON line is appended to
``bench/results/<date>-<machine>.jsonl`` and the markdown table ``<date>-<machine>.md`` is
rewritten from that whole file.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
from load import MD_HEADER, markdown_row  # noqa: E402

EXTRA_RULESETS = ["bench_board:BenchBoard"]
# Setup creates 2G guests and G tables from one address within seconds; the server's sign-in and
# lobby rate limits (app/config.py: rate_limit_auth, rate_limit_tables) would refuse that, so they
# are lifted.  Play goes over WebSockets and is not affected by them.
SETUP_LIMITS_ENV = {"CARAVANSERAI_RATE_LIMIT_AUTH": "1000000/second",
                    "CARAVANSERAI_RATE_LIMIT_TABLES": "1000000/second"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def git_info() -> dict:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""

    dirty = [line[3:] for line in git("status", "--porcelain", "--untracked-files=no").splitlines()
             if not line[3:].startswith("bench/")]
    return {"commit": git("rev-parse", "--short", "HEAD") or None, "dirty_files": len(dirty)}


# -- databases --------------------------------------------------------------------------------


async def _pg_admin(admin_url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def create_pg_database(admin_url: str, name: str) -> str:
    asyncio.run(_pg_admin(admin_url, f'CREATE DATABASE "{name}"'))
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}"


def drop_pg_database(admin_url: str, name: str) -> None:
    asyncio.run(_pg_admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# -- the server -------------------------------------------------------------------------------


class Server:
    def __init__(self, database_url: str, workdir: Path, workers: int, extra_env: dict[str, str]) -> None:
        self.port = free_port()
        self.database_url = database_url
        self.workdir = workdir
        self.workers = workers
        self.extra_env = extra_env
        self.log_path = workdir / "server.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 180.0) -> None:
        env = {**os.environ,
               "CARAVANSERAI_DATABASE_URL": self.database_url,
               "CARAVANSERAI_EXTRA_RULESETS": json.dumps(EXTRA_RULESETS),
               "CARAVANSERAI_SECRET_KEY": "bench-secret-key-not-for-production",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(BENCH), os.environ.get("PYTHONPATH")])),
               **SETUP_LIMITS_ENV, **self.extra_env}
        command = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if self.workers > 1:
            command += ["--workers", str(self.workers)]
        with open(self.log_path, "ab") as log:
            # cwd: a scratch directory, away from a developer's .env and caravanserai.db
            self.process = subprocess.Popen(command, cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2.0, trust_env=False).status_code == 200:
                    time.sleep(1.0)  # let start-up allocations settle before the idle RSS is read
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not answer /healthz within {timeout} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


# -- a quiet machine --------------------------------------------------------------------------


def background_cores(window: float = 3.0) -> float:
    """How many CPUs' worth of work the machine did over ``window`` seconds (nothing of ours runs)."""
    from load import machine_busy_seconds

    before = machine_busy_seconds()
    time.sleep(window)
    return (machine_busy_seconds() - before) / window


def wait_for_quiet(threshold: float, limit: float) -> float:
    """Wait (at most ``limit`` s) until the background load is under ``threshold`` cores; returns the last reading."""
    deadline = time.monotonic() + limit
    while True:
        load = background_cores()
        if load <= threshold or time.monotonic() >= deadline:
            return round(load, 2)
        print(f"  machine busy ({load:.2f} cores of other work); waiting for it to calm down", file=sys.stderr)


# -- one run ----------------------------------------------------------------------------------


def one_run(args: argparse.Namespace, backend: str, games: int, rep: int, scratch: Path) -> dict:
    stamp = datetime.datetime.now().strftime("%Y%m%d%H%M%S")
    workdir = Path(tempfile.mkdtemp(prefix=f"{backend}-G{games}-r{rep}-", dir=scratch))
    pg_db = None
    if backend == "postgres":
        pg_db = f"caravanserai_bench_{stamp}_{games}_{rep}"
        database_url = create_pg_database(args.pg_admin_url, pg_db)
    else:
        database_url = f"sqlite+aiosqlite:///{workdir / 'bench.db'}"
    server = Server(database_url, workdir, args.workers, dict(args.server_env))
    result: dict = {"bench": "move-pipeline", "backend": backend, "games": games, "moves_per_game": args.moves,
                    "rep": rep}
    try:
        result.update(git_info())  # the code this server process loads
        server.start()
        if args.quiet_wait > 0:
            result["background_cores_before"] = wait_for_quiet(args.quiet_threshold, args.quiet_wait)
        client = "node_load.py" if args.client == "node" else "load.py"
        command = [sys.executable, str(BENCH / client), "--url", server.url, "--games", str(games),
                   "--moves", str(args.moves), "--timeout", str(args.timeout), "--server-pid", str(server.process.pid),
                   "--compression", args.compression, "--legal-form", args.legal_form, "--seed", str(rep),
                   "--label", backend]
        if args.machine:
            command += ["--machine", args.machine]
        game_shape = getattr(args, "game_shape", None)  # bench/games.py: another game, spectators, the engine's share
        if game_shape:
            command += ["--ruleset", game_shape.ruleset, "--seats", str(game_shape.seats),
                        "--spectators", str(game_shape.spectators)]
            if pg_db and args.client == "python":
                command.append("--engine-share")
        if pg_db:
            command += ["--pg-admin-url", args.pg_admin_url, "--pg-db", pg_db]
        if args.profile_dir and args.client == "python":
            profile = Path(args.profile_dir) / f"profile-{backend}-G{games}-r{rep}.{args.profile_format}"
            profile.parent.mkdir(parents=True, exist_ok=True)
            command += ["--profile-out", str(profile), "--profile-format", args.profile_format]
            if args.profile_gil:
                command.append("--profile-gil")
            result["profiled"] = str(profile)
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout + 900)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if done.returncode != 0 or not lines:
            result["setup_error"] = (done.stderr.strip().splitlines() or ["load client failed"])[-1]
            print(done.stderr[-3000:], file=sys.stderr)
        else:
            result = {**json.loads(lines[-1]), **result}
        if done.stderr.strip():
            print(done.stderr.strip()[-2000:], file=sys.stderr)
    except Exception as exc:
        result["setup_error"] = f"{type(exc).__name__}: {exc}"
        print(result["setup_error"], file=sys.stderr)
    finally:
        server.stop()
        if result.get("errors") or result.get("setup_error"):
            # keep the server's log next to the results: the errors are explained there
            kept = Path(args.out_dir) / "logs" / f"{stamp}-{backend}-G{games}-r{rep}-server.log"
            kept.parent.mkdir(parents=True, exist_ok=True)
            lines = server.log_path.read_text(errors="replace").splitlines() if server.log_path.exists() else []
            noise = ('"GET ', '"POST ', "connection open", "connection closed", '"WebSocket ')
            lines = [line for line in lines if not any(marker in line for marker in noise)]
            kept.write_text("\n".join(lines[-1000:]) + "\n")
            result["server_log_kept"] = str(kept.relative_to(ROOT) if kept.is_relative_to(ROOT) else kept)
        if server.process and server.process.returncode not in (0, None, -signal.SIGTERM):
            result["server_exit_code"] = server.process.returncode
        if args.keep_logs:
            result["server_log"] = str(server.log_path)
        if pg_db and not args.keep_db:
            try:
                drop_pg_database(args.pg_admin_url, pg_db)
            except Exception as exc:  # noqa: BLE001 - keep going; say so
                print(f"could not drop {pg_db}: {exc}", file=sys.stderr)
    result.setdefault("machine", args.machine or socket.gethostname())
    result.setdefault("date", datetime.datetime.now().astimezone().isoformat(timespec="seconds"))
    result["workers"] = args.workers
    result["client"] = args.client
    result["server_env"] = dict(args.server_env)
    return result


def result_files(out_dir: str, machine: str | None, kind: str, tag: str | None) -> tuple[Path, Path]:
    """``(<date>-<machine>-<kind>[-<tag>].jsonl, .md)`` in ``out_dir`` (made if missing): where a
    benchmark writes its results (``machine``: the host's name when not given)."""
    name = f"{datetime.date.today().isoformat()}-{machine or socket.gethostname()}-{kind}" + (f"-{tag}" if tag else "")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return out / f"{name}.jsonl", out / f"{name}.md"


def write_markdown(jsonl: Path, markdown: Path) -> None:
    results = [json.loads(line) for line in jsonl.read_text().splitlines() if line.strip()]
    machine = results[0].get("machine", "?") if results else "?"
    lines = [f"# Move-pipeline benchmark, {jsonl.stem}", "",
             f"Machine `{machine}`, {results[0].get('cpus', '?')} CPUs. Load: the load shape in `bench/README.md`; "
             "client `bench/load.py`, runner `bench/run.py`; one JSON line per run in "
             f"`{jsonl.name}`. Latency is mover's write to opponent's decoded state; percentiles by nearest rank; "
             "CPU seconds are during play only; RSS summed over server processes.", "",
             MD_HEADER]
    lines += [markdown_row(result) for result in results]
    notes = [r for r in results if r.get("profiled") or r.get("workers", 1) > 1 or r.get("server_env")
             or r.get("compression") not in (None, "deflate")]
    if notes:
        lines += ["", "Runs with non-default conditions (see the JSON lines):", ""]
        for r in notes:
            what = []
            if r.get("profiled"):
                what.append("py-spy attached (slower)")
            if r.get("workers", 1) > 1:
                what.append(f"{r['workers']} workers")
            if r.get("server_env"):
                what.append(f"server env {r['server_env']}")
            if r.get("compression") not in (None, "deflate"):
                what.append(f"compression {r['compression']}")
            lines.append(f"- {r.get('backend')} G={r['games']} run {r.get('rep')} ({r.get('date')}): {', '.join(what)}")
    markdown.write_text("\n".join(lines) + "\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Move-pipeline benchmark runner (fresh server per run).")
    parser.add_argument("--games", default="10,100,500", help="comma-separated G values (default 10,100,500)")
    parser.add_argument("--moves", type=int, default=200, help="M, moves per game (default 200)")
    parser.add_argument("--reps", type=int, default=2, help="runs per (G, backend) (default 2)")
    parser.add_argument("--backends", default="postgres,sqlite", help="comma-separated: postgres, sqlite")
    parser.add_argument("--pg-admin-url", default=os.environ.get("BENCH_PG_ADMIN_URL",
                                                                  "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--timeout", type=float, default=300.0, help="play time limit per run, s (default 300)")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="client offers permessage-deflate like a browser (default) or not")
    parser.add_argument("--legal-form", choices=("grouped", "moves"), default="grouped",
                        help="how the server writes legal for the load client (hello's legal_form; default grouped)")
    parser.add_argument("--client", choices=("python", "node"), default="python",
                        help="the load client: load.py, or the Node client bench/node/client.js via node_load.py "
                             "(the same runtime as boardgame.io's anchor client; issue 19)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (Postgres only; default 1)")
    parser.add_argument("--server-env", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                        metavar="KEY=VALUE", help="extra environment for the server (repeatable)")
    parser.add_argument("--out-dir", default=str(BENCH / "results"))
    parser.add_argument("--machine", help="machine name for the file names (default: hostname)")
    parser.add_argument("--tag", help="suffix for the result file names, e.g. 'baseline'")
    parser.add_argument("--profile-dir", help="attach py-spy to the server during play; profiles go here")
    parser.add_argument("--profile-format", default="raw", choices=("raw", "flamegraph", "speedscope"))
    parser.add_argument("--quiet-wait", type=float, default=120.0,
                        help="before each run wait up to this many s for other work on the machine to calm down "
                             "(0: do not wait; default 120)")
    parser.add_argument("--quiet-threshold", type=float, default=0.25,
                        help="'calm' means other work under this many CPU cores (default 0.25)")
    parser.add_argument("--profile-gil", action="store_true", help="py-spy --gil (Python CPU only)")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the Postgres databases")
    parser.add_argument("--keep-logs", action="store_true", help="keep the server logs (scratch dir)")
    args = parser.parse_args(argv)
    args.game_counts = [int(g) for g in args.games.split(",") if g]
    args.backend_list = [b.strip() for b in args.backends.split(",") if b.strip()]
    for backend in args.backend_list:
        if backend not in ("postgres", "sqlite"):
            parser.error(f"unknown backend {backend!r}")
    if args.workers > 1 and "sqlite" in args.backend_list:
        parser.error("SQLite runs one server process; use --workers only with --backends postgres")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    machine = args.machine or socket.gethostname()
    stem = f"{datetime.date.today().isoformat()}-{machine}" + (f"-{args.tag}" if args.tag else "")
    jsonl, markdown = out / f"{stem}.jsonl", out / f"{stem}.md"
    scratch = Path(tempfile.mkdtemp(prefix="caravanserai-bench-"))
    print(f"results: {jsonl} and {markdown}; scratch: {scratch}", file=sys.stderr)
    print(MD_HEADER, file=sys.stderr)
    for games in args.game_counts:
        for rep in range(1, args.reps + 1):
            for backend in args.backend_list:
                result = one_run(args, backend, games, rep, scratch)
                with open(jsonl, "a") as handle:
                    handle.write(json.dumps(result) + "\n")
                write_markdown(jsonl, markdown)
                print(markdown_row(result), file=sys.stderr, flush=True)
    if not args.keep_logs:
        subprocess.run(["rm", "-rf", str(scratch)], check=False)


if __name__ == "__main__":
    main()

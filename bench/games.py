#!/usr/bin/env python
"""Real games under load: the move-pipeline load shape played with the installed games' rules.

    python bench/games.py                                  # G = 100, 500; M = 200; 1 run each; every game
    python bench/games.py --games 10 --moves 40 --rulesets nimalia,heroes   # a smoke run

The same runner (``run.py``'s ``one_run``: a fresh Postgres database and a fresh server per run)
and the same load client (``load.py``) as the ``bench-board`` benchmark, with these differences:

* the game is one of :data:`SHAPES`: Through the Desert (3 players), Nimalia (4), Nomadi (3) and
  Heroes (2), each with its default options, and ``bench-board`` (2) under the same shape as the
  yardstick;
* every player has its own guest account and socket; each game also has ``--spectators`` (1)
  spectator socket without a cookie that reads every frame;
* every move is a random legal move, drawn from the mover's last ``legal`` (the grouped form, as
  the browser asks for it); one move in flight per game; the next mover is the first seat to act
  in the resulting state, and its client's decoding of that state acknowledges the move
  (``load.next_mover``: the opponent in ``bench-board``, the mover itself when it acts again);
* a game stops after M moves or when it ends (``games_ended``), whichever comes first.

After play, ``load.py --engine-share`` replays the run's games from its database in-process and
times the rules engine's own calls per move (``bench/engine_share.py``: ``legal_moves``, ``apply``
with its checks, the views).  The platform's cost per move is the server's CPU per move minus
that; the target is at most 1.2x ``bench-board``'s at the same G (``--target``).

Results: ``results/<date>-<machine>-games[-tag].jsonl`` (one line per run) and ``.md``: per G and
ruleset, moves/s, p50/p99, server and Postgres CPU per move, the engine's share, the platform's
cost and its ratio to ``bench-board``'s, and the state frame sizes (mean and largest, for the seat
to act, the other seats, the spectator).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import socket
import statistics
import tempfile
from pathlib import Path
from types import SimpleNamespace

import run as caravanserai_run

BENCH = Path(__file__).resolve().parent
BASELINE = "bench-board"
SHAPES: dict[str, int] = {BASELINE: 2, "through-the-desert": 3, "nimalia": 4, "nomadi": 3, "heroes": 2}
"""Ruleset -> players per game (the load shape's choice of one common player count per game)."""


def one(args: argparse.Namespace, ruleset: str, games: int, rep: int, scratch: Path) -> dict:
    """One run of ``ruleset`` at G = ``games`` (``run.one_run`` with the game shape)."""
    options = SimpleNamespace(
        moves=args.moves, timeout=args.timeout, compression=args.compression, legal_form="grouped", client="python",
        workers=1, server_env=list(args.server_env), pg_admin_url=args.pg_admin_url, machine=args.machine,
        quiet_wait=args.quiet_wait, quiet_threshold=0.25, profile_dir=args.profile_dir, profile_format="raw", profile_gil=False,
        keep_db=False, keep_logs=False, out_dir=args.out_dir,
        game_shape=SimpleNamespace(ruleset=ruleset, seats=SHAPES[ruleset], spectators=args.spectators))
    result = caravanserai_run.one_run(options, "postgres", games, rep, scratch)
    result["shape"] = "games"
    return result


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summary(results: list[dict], target: float) -> str:
    """Per G and ruleset (medians over repetitions), the figures of the load shape and the target's ratio."""
    lines = ["| G | ruleset | seats | runs | moves/s | p50 ms | p99 ms | server CPU ms/move | PG CPU ms/move | "
             "engine us/move (legal + apply + views) | platform ms/move | platform / bench-board "
             f"(target <= {target}) | frame bytes to act / other / spectator (mean) | largest frame | games ended | errors |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|"]
    for games in sorted({r["games"] for r in results}):
        rows = [r for r in results if r["games"] == games]

        def med(ruleset: str, pick) -> float | None:
            return _median([pick(r) for r in rows if r.get("ruleset") == ruleset and pick(r) is not None])

        baseline = med(BASELINE, lambda r: r.get("platform_cpu_per_move_ms"))
        for ruleset in SHAPES:
            runs = [r for r in rows if r.get("ruleset") == ruleset]
            if not runs:
                continue
            engine = runs[-1].get("engine_us_per_move") or {}
            platform = med(ruleset, lambda r: r.get("platform_cpu_per_move_ms"))
            sizes = runs[-1].get("state_frame_bytes") or {}
            biggest = max((v for v in (runs[-1].get("state_frame_bytes_max") or {}).values() if v), default=None)
            ratio = f"{platform / baseline:.2f}" if platform is not None and baseline else "-"
            errors = sum(r.get("errors") or 0 for r in runs)
            failed = [r.get("setup_error") for r in runs if r.get("setup_error")]

            def fmt(value, digits=2):
                return "-" if value is None else f"{value:.{digits}f}"

            lines.append(
                f"| {games} | {ruleset} | {SHAPES[ruleset]} | {len(runs)} | "
                f"{fmt(med(ruleset, lambda r: r.get('throughput_mps')), 0)} | "
                f"{fmt(med(ruleset, lambda r: (r.get('latency_ms') or {}).get('p50')), 1)} | "
                f"{fmt(med(ruleset, lambda r: (r.get('latency_ms') or {}).get('p99')), 1)} | "
                f"{fmt(med(ruleset, lambda r: r.get('server_cpu_per_move_ms')), 3)} | "
                f"{fmt(med(ruleset, lambda r: r.get('pg_cpu_per_move_ms')), 3)} | "
                f"{engine.get('total_us', '-')} ({engine.get('legal_us', '-')} + {engine.get('apply_us', '-')} + "
                f"{engine.get('views_us', '-')}) | {fmt(platform, 3)} | {ratio} | "
                f"{sizes.get('to_act', '-')} / {sizes.get('other', '-')} / {sizes.get('spectator', '-')} | "
                f"{biggest or '-'} | {sum(r.get('games_ended') or 0 for r in runs)} | "
                f"{errors}{' setup failed: ' + failed[0][:80] if failed else ''} |")
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="100,500", help="comma-separated G values (default 100,500)")
    parser.add_argument("--moves", type=int, default=200, help="M: moves per game at most (a game may end sooner)")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(SHAPES),
                        help=f"comma-separated, of {', '.join(SHAPES)} (default all; {BASELINE} is the yardstick)")
    parser.add_argument("--spectators", type=int, default=1, help="spectator sockets per game (default 1)")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="the client offers permessage-deflate like a browser (the server decides; default deflate)")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--target", type=float, default=1.2, help="platform cost per move / bench-board's, at most")
    parser.add_argument("--server-env", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                        metavar="KEY=VALUE", help="extra environment for the server (repeatable)")
    parser.add_argument("--quiet-wait", type=float, default=0.0,
                        help="before each run wait up to this many s for the machine to calm down (default 0)")
    parser.add_argument("--pg-admin-url", default=os.environ.get("BENCH_PG_ADMIN_URL",
                                                                  "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--profile-dir", help="attach py-spy to the server during play (run.py's --profile-dir); "
                        "profiles go here, and such runs are marked profiled")
    parser.add_argument("--out-dir", default=str(BENCH / "results"))
    parser.add_argument("--machine", help="machine name for the file names (default: hostname)")
    parser.add_argument("--tag", help="suffix for the result file names")
    args = parser.parse_args(argv)
    unknown = set(args.rulesets.split(",")) - set(SHAPES)
    if unknown:
        parser.error(f"unknown rulesets {sorted(unknown)}; known: {', '.join(SHAPES)}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    machine = args.machine or socket.gethostname()
    jsonl, markdown = caravanserai_run.result_files(args.out_dir, machine, "games", args.tag)
    scratch = Path(tempfile.mkdtemp(prefix="caravanserai-games-"))
    results: list[dict] = []
    rulesets = [ruleset for ruleset in SHAPES if ruleset in args.rulesets.split(",")]
    for games in [int(value) for value in args.games.split(",")]:
        for rep in range(1, args.reps + 1):
            for ruleset in rulesets:
                result = one(args, ruleset, games, rep, scratch)
                results.append(result)
                with jsonl.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
                print(json.dumps({key: result.get(key) for key in (
                    "ruleset", "games", "rep", "throughput_mps", "latency_ms", "server_cpu_per_move_ms",
                    "engine_us_per_move", "platform_cpu_per_move_ms", "errors", "setup_error")}), flush=True)
                markdown.write_text(
                    f"# Real games under load, {datetime.date.today().isoformat()} on {machine}\n\n"
                    f"M = {args.moves} (at most), {args.spectators} spectator(s) per game; command: "
                    f"`python bench/games.py --games {args.games} --moves {args.moves} --reps {args.reps} "
                    f"--rulesets {args.rulesets}`\n\n" + summary(results, args.target))
    print(f"results: {jsonl} and {markdown}")
    print(summary(results, args.target))


if __name__ == "__main__":
    main()

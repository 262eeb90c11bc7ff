#!/usr/bin/env python
"""The rules-engine benchmark: how fast each installed ruleset plays and lists its moves.

    python bench/rules.py                       # every installed ruleset, every player count
    python bench/rules.py --games 50 --rulesets through-the-desert

For each ruleset (entry-point group ``caravanserai.rulesets``, plus ``bench-board`` from this
directory) and each player count from ``min_players`` to ``max_players``:

* ``game_ms``: median and p95 (nearest rank) wall time of one random full game, timed around
  ``app.rulesets.testing.play_random_game(ruleset, n, seed, check=False)`` with seeds 1..N;
  ``game_cpu_ms`` the same games' CPU time of this process (``time.process_time``), which other
  programs on a shared machine disturb far less than the wall time.
  That helper still takes the JSON text of the state once per ply (its "the move changed
  something" assertion), so ``pure_game_ms`` is also given: the same game (same seed,
  same moves) played by a bare loop of ``to_act`` / ``legal_moves`` / ``apply`` only.
* ``legal_us``: median, p95 and mean time of one ``legal_moves(state, seat)`` call over every
  position of those games (every seat to act), with the mean number of legal moves.

``bench-board`` never ends, so it gets no full-game figures; its ``legal_us`` comes from the
positions of 200-ply random playouts.  Results: one JSON line per (ruleset, players) in
``bench/results/<date>-<machine>-rules.jsonl`` and a markdown table in ``...-rules.md``.

``--source DIR`` measures the rules of another checkout (e.g. a git worktree of the commit before a
change), so that before and after runs can be interleaved with the same benchmark code.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

ENTRY_POINT_GROUP = "caravanserai.rulesets"  # app.rulesets.registry.ENTRY_POINT_GROUP (checked by import_rules)
play_random_game = None  # app.rulesets.testing.play_random_game of the checkout measured (import_rules)

TARGET_GAME_MS = 50.0
ENDLESS = {"bench-board": 200}  # rulesets that never end: plies per playout instead of a full game


def import_rules(source: Path) -> None:
    """Import the rules kit (and, through the entry points, the rulesets) from the checkout ``source``."""
    global play_random_game
    sys.path.insert(0, str(source))
    from app.rulesets import registry, testing

    if not Path(testing.__file__).resolve().is_relative_to(source.resolve()):
        raise SystemExit(f"app was imported from {testing.__file__}, not from {source}")
    assert registry.ENTRY_POINT_GROUP == ENTRY_POINT_GROUP
    play_random_game = testing.play_random_game


def commit_of(source: Path) -> str | None:
    """The git commit checked out in ``source`` (``None`` outside git)."""
    try:
        return subprocess.run(["git", "-C", str(source), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def nearest_rank(values: list[float], percent: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(percent / 100 * len(ordered))) - 1]


def load_rulesets(wanted: set[str] | None) -> tuple[list, dict[str, str]]:
    from importlib.metadata import entry_points

    rulesets, failures = [], {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if wanted and point.name not in wanted:
            continue
        try:
            rulesets.append(point.load()())
        except Exception as exc:  # noqa: BLE001 - report and go on, like the registry does
            failures[point.name] = f"{type(exc).__name__}: {exc}"
    if not wanted or "bench-board" in wanted:
        from bench_board import BenchBoard

        rulesets.append(BenchBoard())
    return sorted(rulesets, key=lambda r: r.name), failures


def pure_playout(ruleset, n_players: int, seed: int, options, moves) -> list[tuple[dict, int]]:
    """Replay ``moves`` with only the contract's calls; returns the positions ``(state, seat)`` seen."""
    state = ruleset.setup(n_players, options, seed)
    positions = []
    for seat, move in moves:
        for acting in sorted(ruleset.to_act(state)):
            positions.append((state, acting))
        ruleset.legal_moves(state, seat)
        state, _ = ruleset.apply(state, seat, move)
    return positions


def bare_random_game(ruleset, n_players: int, seed: int, options, max_moves: int) -> float:
    """A random game with the same choices as ``play_random_game`` but no checks; returns seconds."""
    chooser = random.Random(seed)
    began = time.perf_counter()
    state = ruleset.setup(n_players, options, seed)
    for _ in range(max_moves):
        acting = ruleset.to_act(state)
        if not acting:
            break
        seat = chooser.choice(sorted(acting))
        legal = ruleset.legal_moves(state, seat)
        state, _ = ruleset.apply(state, seat, chooser.choice(legal))
    return time.perf_counter() - began


def endless_playout(ruleset, n_players: int, seed: int, plies: int) -> list:
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, ruleset.parse_options({}), seed)
    moves = []
    for _ in range(plies):
        seat = chooser.choice(sorted(ruleset.to_act(state)))
        move = chooser.choice(ruleset.legal_moves(state, seat))
        moves.append((seat, move))
        state, _ = ruleset.apply(state, seat, move)
    return moves


def bench_one(ruleset, n_players: int, games: int, budget_s: float, max_moves: int) -> dict:
    options = ruleset.parse_options({})
    game_times, cpu_times, pure_times, plies, all_moves = [], [], [], [], []
    started = time.perf_counter()
    endless = ruleset.name in ENDLESS
    for seed in range(1, games + 1):
        if endless:
            all_moves.append((seed, endless_playout(ruleset, n_players, seed, ENDLESS[ruleset.name])))
        else:
            gc.collect()
            began, began_cpu = time.perf_counter(), time.process_time()
            played = play_random_game(ruleset, n_players, seed, options, max_moves=max_moves, check=False)
            game_times.append(time.perf_counter() - began)
            cpu_times.append(time.process_time() - began_cpu)
            pure_times.append(bare_random_game(ruleset, n_players, seed, options, max_moves))
            plies.append(len(played.moves))
            all_moves.append((seed, played.moves))
        if time.perf_counter() - started > budget_s and seed >= 3:
            break
    legal_times, legal_counts = [], []
    for seed, moves in all_moves:
        for state, seat in pure_playout(ruleset, n_players, seed, options, moves):
            began = time.perf_counter_ns()
            legal = ruleset.legal_moves(state, seat)
            legal_times.append(time.perf_counter_ns() - began)
            legal_counts.append(len(legal))
    row = {
        "bench": "rules", "ruleset": ruleset.name, "players": n_players, "games": len(all_moves),
        "plies_mean": round(statistics.mean(plies), 1) if plies else None,
        "game_ms": ({"median": round(statistics.median(game_times) * 1e3, 2),
                     "p95": round(nearest_rank(game_times, 95) * 1e3, 2)} if game_times else None),
        "game_cpu_ms": ({"median": round(statistics.median(cpu_times) * 1e3, 2),
                         "p95": round(nearest_rank(cpu_times, 95) * 1e3, 2)} if cpu_times else None),
        "pure_game_ms": ({"median": round(statistics.median(pure_times) * 1e3, 2),
                          "p95": round(nearest_rank(pure_times, 95) * 1e3, 2)} if pure_times else None),
        "legal_us": {"median": round(statistics.median(legal_times) / 1e3, 1),
                     "p95": round(nearest_rank(legal_times, 95) / 1e3, 1),
                     "mean": round(statistics.mean(legal_times) / 1e3, 1)} if legal_times else None,
        "positions": len(legal_times),
        "legal_moves_mean": round(statistics.mean(legal_counts), 1) if legal_counts else None,
    }
    if game_times:
        row["target_game_ms_met"] = row["game_ms"]["median"] < TARGET_GAME_MS
    return row


MD_HEADER = ("| ruleset | players | games | plies | game ms median | game ms p95 | game CPU ms median | "
             "bare game ms median | legal_moves us median | p95 | mean | legal moves (mean) | < 50 ms median |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def md_row(row: dict) -> str:
    def get(part, key):
        return "-" if not row.get(part) else f"{row[part][key]:g}"

    met = {True: "yes", False: "**no**"}.get(row.get("target_game_ms_met"), "- (never ends)")
    return (f"| {row['ruleset']} | {row['players']} | {row['games']} | {row['plies_mean'] or '-'} | "
            f"{get('game_ms', 'median')} | {get('game_ms', 'p95')} | {get('game_cpu_ms', 'median')} | "
            f"{get('pure_game_ms', 'median')} | "
            f"{get('legal_us', 'median')} | {get('legal_us', 'p95')} | {get('legal_us', 'mean')} | "
            f"{row['legal_moves_mean']} | {met} |")


def main() -> None:
    parser = argparse.ArgumentParser(description="Rules-engine benchmark (random full games, legal-move generation).")
    parser.add_argument("--games", type=int, default=30, help="random games per ruleset and player count (default 30)")
    parser.add_argument("--budget", type=float, default=60.0, help="stop a (ruleset, players) after this many s")
    parser.add_argument("--rulesets", help="comma-separated names (default: all installed + bench-board)")
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--out-dir", default=str(BENCH / "results"))
    parser.add_argument("--machine", default=socket.gethostname())
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the checkout whose rules are measured (default: this one)")
    args = parser.parse_args()
    import_rules(args.source)
    commit = commit_of(args.source)
    wanted = set(args.rulesets.split(",")) if args.rulesets else None
    rulesets, failures = load_rulesets(wanted)
    stamp = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    rows = []
    print(MD_HEADER)
    for ruleset in rulesets:
        for n_players in range(ruleset.min_players, ruleset.max_players + 1):
            try:
                row = bench_one(ruleset, n_players, args.games, args.budget, args.max_moves)
            except Exception as exc:  # noqa: BLE001 - a broken ruleset is a finding, not a crash
                row = {"bench": "rules", "ruleset": ruleset.name, "players": n_players, "games": 0,
                       "error": f"{type(exc).__name__}: {str(exc)[:300]}", "plies_mean": None,
                       "legal_moves_mean": None}
            row.update({"date": stamp, "machine": args.machine, "cpus": os.cpu_count(), "commit": commit,
                        "loadavg_1m": round(os.getloadavg()[0], 2)})
            rows.append(row)
            print(md_row(row) if "error" not in row else f"| {row['ruleset']} | {n_players} | error: {row['error']} |",
                  flush=True)
    for name, error in failures.items():
        rows.append({"bench": "rules", "ruleset": name, "error": f"could not load: {error}", "date": stamp,
                     "machine": args.machine})
        print(f"| {name} | - | could not load: {error} |")
    if args.no_write:
        return
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{datetime.date.today().isoformat()}-{args.machine}-rules"
    with open(out / f"{stem}.jsonl", "a") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    lines = [f"# Rules-engine benchmark, {stem}", "",
             f"Machine `{args.machine}`, {os.cpu_count()} CPUs, {stamp}. `bench/rules.py`: random full games with "
             "`play_random_game(..., check=False)` (game ms: wall time; game CPU ms: this process's CPU time) and "
             "a bare loop of the same moves without the kit's per-ply JSON comparison (bare game ms); `legal_moves` "
             f"timed once per position of those games. Rules measured: `{args.source}` at commit {commit}. "
             f"Target: a random full game under {TARGET_GAME_MS:g} ms median.", "", MD_HEADER]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['ruleset']} | {row.get('players', '-')} | {row['error']} ||||||||||||")
        else:
            lines.append(md_row(row))
    (out / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print(f"\nwritten: {out / stem}.jsonl and .md", file=sys.stderr)


if __name__ == "__main__":
    main()

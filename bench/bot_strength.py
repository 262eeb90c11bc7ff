#!/usr/bin/env python
"""Bot strength: the ``default`` bot against the ``random`` bot, in-process (issue 6).

One command (from the repository root)::

    python bench/bot_strength.py --ruleset through-the-desert --games 200
    python bench/bot_strength.py --ruleset nomadi --games 50 --jobs 2 --options '{"...": ...}'

Plays ``--games`` games of ``--players`` seats (default 2, or the ruleset's minimum) with the
ruleset alone and ``app.bots`` (no server, no database).  Game ``i`` uses setup seed
``--seed + i``; the default bot sits at seat ``i % players`` (so with 2 players it alternates
first and second) and every other seat is a random bot.  Like the server's bot driver, a bot
gets only ``view(state, seat)`` and its legal moves, and when several seats are to act (a
simultaneous step) the lowest seat moves first.

Prints the default bot's win / draw / loss rates against the best random seat (by the ruleset's
ranks: a shared first place is a draw), the mean score margin (default minus best random), and
the time the default bot takes per move: wall clock and CPU, mean, 95th percentile and max.
Any ruleset found by ``Registry.discover()`` works; one without the ``determinize`` hook makes
the default bot play randomly too, which shows as an even match.  This is a benchmark, not a
test: nothing asserts, the numbers go into notes.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.bots import make_bot  # noqa: E402
from app.rulesets.base import Rng, Ruleset  # noqa: E402
from app.rulesets.registry import Registry  # noqa: E402

DEFAULT_LEVEL, OPPONENT_LEVEL = "default", "random"


@dataclass
class GameRecord:
    """One finished (or abandoned) game, from the default bot's side."""

    index: int
    seed: int
    default_seat: int
    finished: bool
    outcome: str = "unfinished"  # "win" | "draw" | "loss" | "unfinished"
    margin: float = 0.0  # default's score minus the best random seat's
    scores: list[int] = field(default_factory=list)
    move_wall: list[float] = field(default_factory=list)
    move_cpu: list[float] = field(default_factory=list)
    plies: int = 0


@functools.cache
def _ruleset(name: str) -> Ruleset:
    return Registry.discover().get(name)


def play_game(name: str, index: int, seed: int, n_players: int, options: dict, max_moves: int) -> GameRecord:
    """Game ``index``: the default bot at seat ``index % n_players``, random bots elsewhere."""
    ruleset = _ruleset(name)
    default_seat = index % n_players
    bots = [make_bot(DEFAULT_LEVEL if seat == default_seat else OPPONENT_LEVEL) for seat in range(n_players)]
    state = ruleset.setup(n_players, ruleset.parse_options(options), seed)
    record = GameRecord(index=index, seed=seed, default_seat=default_seat, finished=False)
    for ply in range(max_moves):
        acting = sorted(ruleset.to_act(state))
        if not acting:
            break
        seat = acting[0]
        view = ruleset.view(state, seat)
        legal = ruleset.legal_moves(state, seat)
        rng = Rng(seed * 1_000_003 + ply * 31 + seat)  # the bot's own randomness, as the driver gives it
        wall, cpu = time.perf_counter(), time.process_time()
        move = bots[seat].choose(ruleset, view, legal, seat, rng)
        if seat == default_seat:
            record.move_wall.append(time.perf_counter() - wall)
            record.move_cpu.append(time.process_time() - cpu)
        state, _ = ruleset.apply(state, seat, move)
        record.plies = ply + 1
    result = ruleset.result(state)
    if result is None:
        return record
    others = [seat for seat in range(n_players) if seat != default_seat]
    best = min(others, key=lambda seat: (result.ranks[seat], -result.scores[seat]))
    mine, theirs = result.ranks[default_seat], result.ranks[best]
    record.finished = True
    record.scores = list(result.scores)
    record.outcome = "win" if mine < theirs else "draw" if mine == theirs else "loss"
    record.margin = result.scores[default_seat] - max(result.scores[seat] for seat in others)
    return record


def _play(args: tuple) -> GameRecord:
    return play_game(*args)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)] if ordered else 0.0


def wilson(successes: float, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a rate (draws counted as half a win by the caller)."""
    if total == 0:
        return 0.0, 0.0
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - spread, centre + spread


def report(name: str, n_players: int, records: list[GameRecord], elapsed: float, jobs: int) -> str:
    finished = [r for r in records if r.finished]
    counts = {outcome: sum(r.outcome == outcome for r in records) for outcome in ("win", "draw", "loss", "unfinished")}
    total = len(records)
    heading = (f"{name}: {total} games, {n_players} players, {DEFAULT_LEVEL} bot at seat i % {n_players}, "
               f"{OPPONENT_LEVEL} bots elsewhere ({elapsed:.0f} s with {jobs} process{'es' if jobs > 1 else ''})")
    lines = [heading]

    def rate(count: int) -> str:
        return f"{count} ({100 * count / total:.1f}%)" if total else "0"

    lines.append(f"  {DEFAULT_LEVEL} vs {OPPONENT_LEVEL}: wins {rate(counts['win'])}, draws {rate(counts['draw'])}, "
                 f"losses {rate(counts['loss'])}" + (f", unfinished {counts['unfinished']}" if counts["unfinished"] else ""))
    low, high = wilson(counts["win"] + counts["draw"] / 2, total)
    lines.append(f"  score rate (win 1, draw 1/2): {(counts['win'] + counts['draw'] / 2) / max(total, 1):.3f} "
                 f"(95% interval {low:.3f} .. {high:.3f})")
    for seat in range(n_players):
        seated = [r for r in records if r.default_seat == seat]
        if seated:
            wins = sum(r.outcome == "win" for r in seated)
            lines.append(f"    as seat {seat}: {wins}/{len(seated)} wins")
    if finished:
        margins = [r.margin for r in finished]
        spread = statistics.stdev(margins) if len(margins) > 1 else 0.0
        mine = [r.scores[r.default_seat] for r in finished]
        lines.append(f"  mean score margin ({DEFAULT_LEVEL} - best {OPPONENT_LEVEL}): {statistics.mean(margins):+.1f} "
                     f"(sd {spread:.1f}, min {min(margins):+.0f}, max {max(margins):+.0f}); "
                     f"mean {DEFAULT_LEVEL} score {statistics.mean(mine):.1f}")
    wall = [t for r in records for t in r.move_wall]
    cpu = [t for r in records for t in r.move_cpu]
    if wall:
        def ms(seconds: float) -> str:
            return f"{1000 * seconds:.1f} ms"

        lines.append(f"  {DEFAULT_LEVEL} bot: {len(wall)} moves, {len(wall) / total:.1f} per game; time per move "
                     f"mean {ms(statistics.mean(wall))} (CPU {ms(statistics.mean(cpu))}), "
                     f"p95 {ms(percentile(wall, 0.95))} (CPU {ms(percentile(cpu, 0.95))}), "
                     f"max {ms(max(wall))} (CPU {ms(max(cpu))})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", required=True, help="ruleset name, e.g. through-the-desert")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None, help="seats per game (default 2, or the ruleset's minimum)")
    parser.add_argument("--seed", type=int, default=0, help="setup seed of the first game; game i uses seed + i")
    parser.add_argument("--options", default="{}", help="table options as JSON (default: the ruleset's defaults)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (time per move is per process)")
    parser.add_argument("--max-moves", type=int, default=20_000, help="give a game up after this many moves")
    parser.add_argument("--json", action="store_true", help="also print one JSON line per game")
    args = parser.parse_args(argv)

    registry = Registry.discover()
    try:
        ruleset = registry.get(args.ruleset)
    except KeyError:
        names = ", ".join(r.name for r in registry.all())
        parser.error(f"unknown ruleset {args.ruleset!r}; installed: {names}")
    n_players = args.players or max(2, ruleset.min_players)
    if not ruleset.min_players <= n_players <= ruleset.max_players:
        parser.error(f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} players")
    options = json.loads(args.options)
    ruleset.parse_options(options)  # fail early on bad options

    jobs = [(ruleset.name, index, args.seed + index, n_players, options, args.max_moves) for index in range(args.games)]
    started = time.perf_counter()
    records: list[GameRecord] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for record in pool.imap_unordered(_play, jobs):
                records.append(record)
                _progress(len(records), args.games)
    else:
        for job in jobs:
            records.append(_play(job))
            _progress(len(records), args.games)
    records.sort(key=lambda r: r.index)
    if args.json:
        for r in records:
            print(json.dumps({"game": r.index, "seed": r.seed, "default_seat": r.default_seat, "outcome": r.outcome,
                              "margin": r.margin, "scores": r.scores, "plies": r.plies}))
    print(report(ruleset.name, n_players, records, time.perf_counter() - started, args.jobs))
    return 0


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total} games", end="\n" if done == total else "", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())

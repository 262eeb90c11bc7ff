#!/usr/bin/env python
"""Bot strength: one bot level against another, in-process (no server, no database).

One command (from the repository root)::

    python bench/bot_strength.py --ruleset through-the-desert --level strong --opponent medium --games 200
    python bench/bot_strength.py --ruleset nomadi --players 5 --level medium --opponent easy --games 200 --jobs 2
    python bench/bot_strength.py --ruleset heroes --players 1 --level strong --games 200   # solo, against the Enemy
    python bench/bot_strength.py --ruleset nimalia --level medium --opponent random        # the old default-vs-random run

Plays ``--games`` games of ``--players`` seats (default 2, or the ruleset's minimum; ``max``:
its largest count).  Game ``i``
uses setup seed ``--seed + i``; the ``--level`` bot sits at seat ``i % players`` (seats rotated:
with 2 players it alternates first and second) and every other seat is an ``--opponent`` bot.
Like the server's bot driver, a bot gets only ``view(state, seat)`` and its legal moves, and
when several seats are to act (a simultaneous step) the lowest seat moves first.

Budget: the strong bot searches ``--simulations`` simulations a move (default 300), not a time:
results do not depend on how loaded the machine is.  ``--seconds`` gives it a time budget
instead (as the server does, ``bot_move_seconds``), for timing runs.

Prints, for the ``--level`` bot: win / draw / loss against the best opponent seat (by the
ruleset's ranks: a shared first place is a draw), the score rate (win 1, draw 1/2) with its 95%
Wilson interval, its mean rank with a 95% interval (normal approximation) beside the rank a
level no better than its opponents would get on average ((players + 1) / 2), the mean score
margin, and its time per move (wall clock and CPU: mean, 95th percentile, max) and, for the
strong bot, simulations per move.  Solo (``--players 1``, Heroes against its Enemy): the win
rate.  A ruleset without the ``determinize`` hook makes every level play randomly, which shows
as an even match.  This is a benchmark, not a test: nothing asserts, the numbers go into notes
(bench/results/*-bot-strength*.md).
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
import types
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.bots import make_bot, players  # noqa: E402
from app.bots.players import BOT_LEVELS, IsmctsBot, known_level  # noqa: E402
from app.rulesets.base import Rng, Ruleset  # noqa: E402
from app.rulesets.registry import Registry  # noqa: E402


@dataclass
class GameRecord:
    """One finished (or abandoned) game, from the ``--level`` bot's side."""

    index: int
    seed: int
    seat: int
    finished: bool
    outcome: str = "unfinished"  # "win" | "draw" | "loss" | "unfinished"
    rank: int = 0
    margin: float = 0.0  # the bot's score minus the best opponent's (solo: its score)
    scores: list[int] = field(default_factory=list)
    move_wall: list[float] = field(default_factory=list)
    move_cpu: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)
    plies: int = 0


@functools.cache
def _ruleset(name: str) -> Ruleset:
    return Registry.discover().get(name)


def play_game(name: str, index: int, seed: int, n_players: int, options: dict, max_moves: int,
              level: str, opponent: str, simulations: int | None, seconds: float | None) -> GameRecord:
    """Game ``index``: the ``level`` bot at seat ``index % n_players``, ``opponent`` bots elsewhere."""
    ruleset = _ruleset(name)
    my_seat = index % n_players
    bots = [make_bot(level if seat == my_seat else opponent, seconds=seconds, simulations=simulations)
            for seat in range(n_players)]
    state = ruleset.setup(n_players, ruleset.parse_options(options), seed)
    record = GameRecord(index=index, seed=seed, seat=my_seat, finished=False)
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
        if seat == my_seat:
            record.move_wall.append(time.perf_counter() - wall)
            record.move_cpu.append(time.process_time() - cpu)
            if isinstance(bots[seat], IsmctsBot) and len(legal) > 1:
                record.simulations.append(bots[seat].stats.simulations)
        state, _ = ruleset.apply(state, seat, move)
        record.plies = ply + 1
    result = ruleset.result(state)
    if result is None:
        return record
    record.finished = True
    record.scores = list(result.scores)
    record.rank = result.ranks[my_seat]
    others = [seat for seat in range(n_players) if seat != my_seat]
    if not others:  # solo: a win is first place (the Enemy is no seat, but may rank ahead)
        record.outcome = "win" if record.rank == 1 else "loss"
        record.margin = result.scores[my_seat]
        return record
    best = min(others, key=lambda seat: (result.ranks[seat], -result.scores[seat]))
    theirs = result.ranks[best]
    record.outcome = "win" if record.rank < theirs else "draw" if record.rank == theirs else "loss"
    record.margin = result.scores[my_seat] - max(result.scores[seat] for seat in others)
    return record


def _play(args: tuple) -> GameRecord:
    return play_game(*args)


def use_cpu_clock() -> None:
    """Make every bot's time budget in this process count CPU time, not wall time
    (``time.process_time`` in place of ``app.bots.players``' ``time.monotonic``): what the budget buys
    of one free core, whatever else runs on the machine (``strong_budget.py``, ``strong_paired.py
    --cpu-clock``)."""
    players.time = types.SimpleNamespace(monotonic=time.process_time)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``; 0 for none."""
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


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``values`` and its 95% interval (normal approximation)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.mean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def summary(records: list[GameRecord], n_players: int) -> dict:
    """The numbers of a run, as one JSON-able dict (``report`` prints them)."""
    total = len(records)
    counts = {outcome: sum(r.outcome == outcome for r in records) for outcome in ("win", "draw", "loss", "unfinished")}
    low, high = wilson(counts["win"] + counts["draw"] / 2, total)
    finished = [r for r in records if r.finished]
    rank, rank_low, rank_high = mean_interval([float(r.rank) for r in finished])
    wall = [t for r in records for t in r.move_wall]
    cpu = [t for r in records for t in r.move_cpu]
    sims = [s for r in records for s in r.simulations]
    return {
        "games": total, **counts,
        "score_rate": (counts["win"] + counts["draw"] / 2) / max(total, 1), "score_rate_ci": [low, high],
        "mean_rank": rank, "mean_rank_ci": [rank_low, rank_high], "chance_rank": (n_players + 1) / 2,
        "first_place": sum(r.rank == 1 for r in finished) / max(len(finished), 1),
        "mean_margin": statistics.mean([r.margin for r in finished]) if finished else 0.0,
        "moves": len(wall), "wall_mean": statistics.mean(wall) if wall else 0.0, "wall_p95": percentile(wall, 0.95),
        "wall_max": max(wall, default=0.0), "cpu_mean": statistics.mean(cpu) if cpu else 0.0,
        "cpu_p95": percentile(cpu, 0.95), "cpu_max": max(cpu, default=0.0),
        "simulations_mean": statistics.mean(sims) if sims else 0.0, "simulations_min": min(sims, default=0),
    }


def report(name: str, n_players: int, level: str, opponent: str, records: list[GameRecord], elapsed: float,
           jobs: int, budget: str) -> str:
    """The run in words (module docstring)."""
    numbers = summary(records, n_players)
    total = numbers["games"]
    versus = "the Enemy (solo)" if n_players == 1 else f"{opponent} bots elsewhere"
    lines = [f"{name}: {total} games, {n_players} player{'s' if n_players > 1 else ''}, {level} bot at seat "
             f"i % {n_players}, {versus}; {budget} ({elapsed:.0f} s with {jobs} process{'es' if jobs > 1 else ''})"]

    def rate(count: int) -> str:
        return f"{count} ({100 * count / total:.1f}%)" if total else "0"

    lines.append(f"  {level}: wins {rate(numbers['win'])}, draws {rate(numbers['draw'])}, losses {rate(numbers['loss'])}"
                 + (f", unfinished {numbers['unfinished']}" if numbers["unfinished"] else ""))
    low, high = numbers["score_rate_ci"]
    lines.append(f"  score rate (win 1, draw 1/2): {numbers['score_rate']:.3f} (95% interval {low:.3f} .. {high:.3f})")
    if n_players > 2:
        low, high = numbers["mean_rank_ci"]
        lines.append(f"  mean rank {numbers['mean_rank']:.2f} (95% interval {low:.2f} .. {high:.2f}; an equal level "
                     f"averages {numbers['chance_rank']:.2f}); first place {100 * numbers['first_place']:.1f}% "
                     f"(equal: {100 / n_players:.1f}%)")
    for seat in range(n_players):
        seated = [r for r in records if r.seat == seat]
        if seated:
            wins = sum(r.outcome == "win" for r in seated)
            lines.append(f"    as seat {seat}: {wins}/{len(seated)} wins")
    lines.append(f"  mean score margin ({level} - best {opponent if n_players > 1 else 'score'}): "
                 f"{numbers['mean_margin']:+.1f}")
    if numbers["moves"]:
        def ms(seconds: float) -> str:
            return f"{1000 * seconds:.1f} ms"

        lines.append(f"  {level} bot: {numbers['moves']} moves, {numbers['moves'] / total:.1f} per game; time per move "
                     f"mean {ms(numbers['wall_mean'])} (CPU {ms(numbers['cpu_mean'])}), p95 {ms(numbers['wall_p95'])} "
                     f"(CPU {ms(numbers['cpu_p95'])}), max {ms(numbers['wall_max'])} (CPU {ms(numbers['cpu_max'])})")
    if numbers["simulations_mean"]:
        lines.append(f"  simulations a move (decisions with a choice): mean {numbers['simulations_mean']:.0f}, "
                     f"min {numbers['simulations_min']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", required=True, help="ruleset name, e.g. through-the-desert")
    parser.add_argument("--level", default="strong", help=f"the bot measured ({', '.join(BOT_LEVELS)})")
    parser.add_argument("--opponent", default="medium", help="the level of every other seat")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default=None,
                        help="seats per game, or max for the ruleset's largest count (default 2, or its minimum)")
    parser.add_argument("--seed", type=int, default=0, help="setup seed of the first game; game i uses seed + i")
    parser.add_argument("--options", default="{}", help="table options as JSON (default: the ruleset's defaults)")
    parser.add_argument("--simulations", type=int, default=300, help="the strong bot's simulations a move")
    parser.add_argument("--seconds", type=float, default=None,
                        help="the strong bot's time a move instead of --simulations (load-dependent)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (time per move is per process)")
    parser.add_argument("--max-moves", type=int, default=20_000, help="give a game up after this many moves")
    parser.add_argument("--json", action="store_true",
                        help="also print one JSON line per game as it ends, then a summary line")
    args = parser.parse_args(argv)

    registry = Registry.discover()
    try:
        ruleset = registry.get(args.ruleset)
    except KeyError:
        names = ", ".join(r.name for r in registry.all())
        parser.error(f"unknown ruleset {args.ruleset!r}; installed: {names}")
    for level in (args.level, args.opponent):
        if not known_level(level):
            parser.error(f"unknown level {level!r}; one of {', '.join(BOT_LEVELS)}")
    if args.players == "max":
        n_players = ruleset.max_players
    elif args.players is None:
        n_players = max(2, ruleset.min_players)
    elif args.players.isdigit():
        n_players = int(args.players)
    else:
        parser.error("--players takes a number or max")
    if not ruleset.min_players <= n_players <= ruleset.max_players:
        parser.error(f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} players")
    options = json.loads(args.options)
    ruleset.parse_options(options)  # fail early on bad options
    simulations = None if args.seconds is not None else args.simulations
    budget = f"strong: {args.seconds} s a move" if args.seconds is not None else f"strong: {simulations} simulations a move"

    jobs = [(ruleset.name, index, args.seed + index, n_players, options, args.max_moves, args.level, args.opponent,
             simulations, args.seconds) for index in range(args.games)]
    started = time.perf_counter()
    records: list[GameRecord] = []

    def done(record: GameRecord) -> None:
        records.append(record)
        _progress(len(records), args.games)
        if args.json:  # as each game ends, so a run stopped early still tells what it played
            line = asdict(record)
            for bulky in ("move_wall", "move_cpu", "simulations"):
                line.pop(bulky)
            print(json.dumps(line), flush=True)

    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for record in pool.imap_unordered(_play, jobs):
                done(record)
    else:
        for job in jobs:
            done(_play(job))
    records.sort(key=lambda r: r.index)
    if args.json:
        print(json.dumps({"summary": True, "ruleset": ruleset.name, "players": n_players, "level": args.level,
                          "opponent": args.opponent, "budget": budget, **summary(records, n_players)}))
    print(report(ruleset.name, n_players, args.level, args.opponent, records, time.perf_counter() - started, args.jobs,
                 budget))
    return 0


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total} games", end="\n" if done == total else "", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())

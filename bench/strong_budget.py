#!/usr/bin/env python
"""How many simulations the strong bot makes in its time budget, by CPU time, for settings to compare::

    python bench/strong_budget.py --ruleset nomadi --a '{"playout": 0}' --b '{"playout": 2}' \\
        --games 4 --every 24 --seconds 1.0

Positions: ``--games`` 2-player games played by two ``medium`` bots (setup seeds ``--seed``
upward, no time limit); every ``--every``-th move where the seat to act has more than one legal
move is a position, as that seat sees it.  At each position, the strong bot
(:class:`app.bots.players.IsmctsBot` with ``--a``'s and then ``--b``'s keyword arguments) decides
once under a budget of ``--seconds`` measured on the process's CPU clock instead of the wall clock
(``time.process_time`` stands in for the bot's ``time.monotonic``), so a loaded machine's waits do
not count: the count is what ``--seconds`` of one core buys, whatever else runs.  Prints one JSON
line per position and variant (simulations, CPU seconds), then per variant the simulations a
decision (mean, p5, median, p95) and the CPU seconds a decision (mean, p95).  A benchmark: nothing
asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bot_strength  # noqa: E402
from app.bots.players import IsmctsBot, make_bot  # noqa: E402
from app.rulesets.base import Rng  # noqa: E402


def positions(ruleset, games: int, seed: int, every: int) -> list[tuple[int, int, dict, list, int]]:
    """(seed, ply, view, legal, seat) every ``every``-th choice of ``games`` medium-vs-medium games."""
    found, medium = [], make_bot("medium", seconds=None)
    for game in range(games):
        state = ruleset.setup(2, ruleset.parse_options({}), seed + game)
        choices = 0
        for ply in range(20_000):
            acting = sorted(ruleset.to_act(state))
            if not acting:
                break
            seat = acting[0]
            view, legal = ruleset.view(state, seat), ruleset.legal_moves(state, seat)
            if len(legal) > 1:
                if choices % every == every // 2:
                    found.append((seed + game, ply, view, legal, seat))
                choices += 1
            move = medium.choose(ruleset, view, legal, seat, Rng((seed + game) * 1_000_003 + ply * 31 + seat))
            state, _ = ruleset.apply(state, seat, move)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--a", default="{}", help="variant A's IsmctsBot settings (JSON)")
    parser.add_argument("--b", default=None, help="variant B's IsmctsBot settings (JSON)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--every", type=int, default=24, help="take every n-th position with a choice")
    parser.add_argument("--seconds", type=float, default=1.0, help="the budget, in CPU seconds")
    args = parser.parse_args(argv)
    ruleset = bot_strength._ruleset(args.ruleset)
    variants = {"A": json.loads(args.a)}
    if args.b is not None:
        variants["B"] = json.loads(args.b)
    found = positions(ruleset, args.games, args.seed, args.every)
    bot_strength.use_cpu_clock()
    results: dict[str, dict[str, list]] = {name: {"sims": [], "cpu": []} for name in variants}
    for seed, ply, view, legal, seat in found:
        for name, settings in variants.items():
            bot = IsmctsBot(seconds=args.seconds, **settings)
            started = time.process_time()
            bot.choose(ruleset, view, legal, seat, Rng(seed * 7 + ply))
            cpu = time.process_time() - started
            results[name]["sims"].append(bot.stats.simulations)
            results[name]["cpu"].append(cpu)
            print(json.dumps({"variant": name, "settings": settings, "seed": seed, "ply": ply, "legal": len(legal),
                              "simulations": bot.stats.simulations, "cpu": cpu}), flush=True)
    for name, settings in variants.items():
        sims, cpu = results[name]["sims"], results[name]["cpu"]
        print(json.dumps({"summary": True, "variant": name, "settings": settings, "seconds": args.seconds,
                          "positions": len(sims), "sims_mean": statistics.mean(sims),
                          "sims_p5": bot_strength.percentile(sims, 0.05), "sims_median": statistics.median(sims),
                          "sims_p95": bot_strength.percentile(sims, 0.95), "cpu_mean": statistics.mean(cpu),
                          "cpu_p95": bot_strength.percentile(cpu, 0.95), "cpu_max": max(cpu)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

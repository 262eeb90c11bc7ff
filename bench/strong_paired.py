#!/usr/bin/env python
"""Two settings of the strong bot on the same deals, game by game: for each seed, the game with
variant A, then the same seed and seat with variant B, so a run stopped at any time leaves
paired games (one process, where two runs of ``strong_variant.py`` would need two)::

    python bench/strong_paired.py --ruleset nomadi --a '{"playout": 0}' --b '{"playout": 2}' \\
        --games 40 --seed 0 --simulations 8

``--a`` and ``--b`` are keyword arguments of :class:`app.bots.players.IsmctsBot` as JSON; a
``simulations`` among them overrides ``--simulations`` for that variant (to compare settings at the
counts each makes in the same time, ``bench/strong_budget.py``). The opponents play as ``make_bot``
makes them (``--opponent``, default medium). ``--seconds`` with ``--cpu-clock`` gives every bot a
time budget on the process's CPU clock (in place of the bots' ``time.monotonic``): the server's
budget as one free core would spend it, whatever else runs on the machine. Prints one JSON line per
game as it ends (``bot_strength.py``'s fields, plus ``variant``, the CPU seconds a move of the
strong bot as mean and p95 and, in ``cpu_ms``, every move's in milliseconds, and its simulations a
move), then a summary per variant: W/D/L, the score rate with its 95 % Wilson interval, the mean
margin, and the seeds won by one variant only.
A benchmark: nothing asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bot_strength  # noqa: E402
from app.bots.players import IsmctsBot, make_bot  # noqa: E402


def _maker(settings: dict):
    """A ``make_bot`` whose strong level is an :class:`IsmctsBot` with ``settings``."""
    def patched(level, seconds=1.0, simulations=None):
        if level == "strong":
            return IsmctsBot(**{"seconds": seconds, "simulations": simulations, **settings})
        return make_bot(level, seconds=seconds, simulations=simulations)
    return patched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--a", default="{}", help="variant A's IsmctsBot settings (JSON)")
    parser.add_argument("--b", required=True, help="variant B's IsmctsBot settings (JSON)")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--games", type=int, default=40, help="seeds; each is played once per variant")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=None, help="a time budget instead (load-dependent)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="measure --seconds on the process's CPU clock, so the load does not change the budget")
    parser.add_argument("--max-moves", type=int, default=20_000)
    args = parser.parse_args(argv)
    variants = {"A": json.loads(args.a), "B": json.loads(args.b)}
    simulations = None if args.seconds is not None else args.simulations
    if args.cpu_clock:
        bot_strength.use_cpu_clock()
    records: dict[str, list] = {"A": [], "B": []}
    for index in range(args.games):
        for name, settings in variants.items():
            bot_strength.make_bot = _maker(settings)
            record = bot_strength.play_game(args.ruleset, index, args.seed + index, args.players, {}, args.max_moves,
                                            "strong", args.opponent, simulations, args.seconds)
            records[name].append(record)
            line = asdict(record)
            cpu, sims = line.pop("move_cpu"), line.pop("simulations")
            line.pop("move_wall")
            line.update(variant=name, settings=settings, cpu_mean=statistics.mean(cpu) if cpu else 0.0,
                        cpu_p95=bot_strength.percentile(cpu, 0.95), sims_mean=statistics.mean(sims) if sims else 0.0,
                        cpu_ms=[round(1000 * seconds) for seconds in cpu])
            print(json.dumps(line), flush=True)
    for name, settings in variants.items():
        print(json.dumps({"summary": True, "variant": name, "settings": settings,
                          **bot_strength.summary(records[name], args.players)}), flush=True)
    only = {name: sum(a.outcome == "win" and b.outcome != "win" for a, b in zip(records[name], records[other]))
            for name, other in (("A", "B"), ("B", "A"))}
    print(json.dumps({"summary": True, "won_by_one_only": only}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

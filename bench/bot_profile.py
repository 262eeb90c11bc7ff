#!/usr/bin/env python
"""Where the strong bot's time goes, and how many simulations a move each game gets.

One command (from the repository root)::

    python bench/bot_profile.py --ruleset through-the-desert --simulations 20 --positions 6
    python bench/bot_profile.py --ruleset nomadi --seconds 1.0      # simulations within the real budget

Plays a 2-player game at random from ``--seed`` and takes ``--positions`` positions with a
choice, spread over the first ``--plies`` moves; the strong bot decides at each under
``cProfile``.  Prints the CPU time a decision, the simulations it ran (with ``--seconds``: how
many fit the budget; CPU-bound, so on a loaded machine fewer), the CPU time a simulation, and the
functions that took the most time by their own time (``tottime``, CPU seconds), and the share of
the ruleset contract's calls (``apply``, ``evaluate``, ``legal_moves``, ``determinize``) by
cumulative time (a function that calls another of the same name, as Nomadi's ``evaluate`` does
its search's, counts twice: shares may add up to more than 100%).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.bots import make_bot  # noqa: E402
from app.rulesets.base import Rng  # noqa: E402
from app.rulesets.registry import Registry  # noqa: E402

CONTRACT = ("apply", "evaluate", "legal_moves", "determinize", "to_act", "model_dump_json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=None, help="a time budget instead of --simulations")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    ruleset = Registry.discover().get(args.ruleset)
    state = ruleset.setup(2, ruleset.parse_options({}), args.seed)
    rng = Rng(args.seed)
    found = []
    for ply in range(args.plies):
        if not ruleset.to_act(state):
            break
        seat = min(ruleset.to_act(state))
        legal = ruleset.legal_moves(state, seat)
        if len(legal) > 1:
            found.append((ruleset.view(state, seat), legal, seat))
        state, _ = ruleset.apply(state, seat, rng.choice(legal))
    step = max(1, len(found) // args.positions)
    positions = found[::step][: args.positions]
    bot = make_bot("strong", seconds=args.seconds, simulations=None if args.seconds else args.simulations)
    profile = cProfile.Profile(time.process_time)  # CPU time: a loaded machine's waits do not count
    sims, cpu_total = [], 0.0
    for view, legal, seat in positions:
        started = time.process_time()
        profile.enable()
        bot.choose(ruleset, view, legal, seat, Rng(7))
        profile.disable()
        cpu_total += time.process_time() - started
        sims.append(bot.stats.simulations)  # type: ignore[attr-defined]
    n = len(positions)
    print(f"{ruleset.name}: {n} decisions, {cpu_total / n * 1000:.0f} ms CPU a decision (under cProfile), "
          f"simulations a decision {sims} (mean {sum(sims) / n:.0f}); "
          f"{cpu_total / max(sum(sims), 1) * 1000:.1f} ms CPU a simulation, prior pass included")
    stats = pstats.Stats(profile)
    total = sum(entry[2] for entry in stats.stats.values())  # type: ignore[attr-defined]
    print("  cumulative share of the contract's calls:")
    for name in CONTRACT:
        cumulative = sum(entry[3] for (_, _, function), entry in stats.stats.items()  # type: ignore[attr-defined]
                         if function == name)
        print(f"    {name:16s} {100 * cumulative / total:5.1f}%")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    print("  by own time:")
    print("\n".join("    " + line for line in lines[start:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

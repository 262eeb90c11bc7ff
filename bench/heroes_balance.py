"""Self-play balance of Heroes' full edition: bot games per player count, wins by faction and by
first action (the "opening"), and how often each action is taken (its share of the token turns:
Follows and Musters are not counted).  Usage (under ``nice -n 19``)::

    python -m bench.heroes_balance --games 100 --players 2 3 4 --out bench/results/heroes_full_balance.md

The bots are ``app.bots.SearchBot`` with a small budget (1 sampled world, 80 candidate moves),
the generic player of every ruleset, cheap enough to play many games on a shared machine.
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from app.bots.players import SearchBot
from app.rulesets.base import Rng
from app.rulesets.heroes import Heroes

ACTIONS = ("recruit", "build", "research", "scribe", "tax", "march", "sail", "fly", "cast")
"""The actions of the nine Action Bar slots (Research and Scribe share one)."""


def play(rules: Heroes, n_players: int, seed: int, bot: SearchBot) -> tuple[list[int], list[str], list[str], collections.Counter]:
    """One game: the ranks, each seat's faction and first action, and the actions taken."""
    state = rules.setup(n_players, rules.parse_options({}), seed)
    rng = Rng(seed)
    chooser = random.Random(seed)
    used: collections.Counter = collections.Counter()
    first: dict[int, str] = {}
    for _ in range(4000):
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = chooser.choice(acting)
        legal = rules.legal_moves(state, seat)
        move = bot.choose(rules, rules.view(state, seat), legal, seat, rng)
        if move.type in ACTIONS and getattr(move, "worker", "token") == "token":  # token turns only
            used[move.type] += 1
            first.setdefault(seat, move.type)
        state, _ = rules.apply(state, seat, move)
    result = rules.result(state)
    assert result is not None, f"seed {seed}: no result"
    factions = [player["faction"] for player in state["players"]][:n_players]
    return result.ranks, factions, [first.get(seat, "none") for seat in range(n_players)], used


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--out", default="bench/results/heroes_full_balance.md")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop a player count after this long")
    args = parser.parse_args()
    rules = Heroes()
    bot = SearchBot(samples=1, max_candidates=80, budget_seconds=0.5)
    lines = ["# Heroes full edition: self-play balance", "",
             f"Bots: SearchBot(samples=1, max_candidates=80); default options (full edition, Wandering Nomads, "
             f"12 rounds); `nice -n 19 python -m bench.heroes_balance --games {args.games}`.", ""]
    for n_players in args.players:
        wins: collections.Counter = collections.Counter()
        seats: collections.Counter = collections.Counter()
        opening_wins: collections.Counter = collections.Counter()
        openings: collections.Counter = collections.Counter()
        used: collections.Counter = collections.Counter()
        played = 0
        start = time.monotonic()
        for seed in range(args.games):
            ranks, factions, opening, actions = play(rules, n_players, 1000 * n_players + seed, bot)
            played += 1
            used.update(actions)
            for seat, faction in enumerate(factions):
                seats[faction] += 1
                openings[opening[seat]] += 1
                if ranks[seat] == 1:
                    wins[faction] += 1
                    opening_wins[opening[seat]] += 1
            if time.monotonic() - start > args.minutes * 60:
                break
        total = sum(used.values())
        lines += [f"## {n_players} players: {played} games", "",
                  "| faction | games | wins (rank 1, ties shared) | win rate |", "|---|---|---|---|"]
        for faction in sorted(seats):
            lines.append(f"| {faction} | {seats[faction]} | {wins[faction]} | {wins[faction] / seats[faction]:.0%} |")
        lines += ["", "| opening (first action) | seats | wins | win rate |", "|---|---|---|---|"]
        for opening in sorted(openings):
            lines.append(f"| {opening} | {openings[opening]} | {opening_wins[opening]} | "
                         f"{opening_wins[opening] / openings[opening]:.0%} |")
        lines += ["", "| action | token turns | share of token turns |", "|---|---|---|"]
        for action in ACTIONS:
            lines.append(f"| {action} | {used[action]} | {used[action] / total:.1%} |")
        lines.append("")
        with open(args.out, "w") as out:
            out.write("\n".join(lines) + "\n")
        print("\n".join(lines[-40:]), flush=True)


if __name__ == "__main__":
    main()

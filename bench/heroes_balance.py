"""Self-play balance of Heroes' full edition: bot games per player count, wins by faction and by
first action (the "opening"), and how often each action is taken (its share of the token turns:
Follows and Musters are not counted).  Usage (under ``nice -n 19``)::

    python -m bench.heroes_balance --games 1000 --players 2 3 4 --jobs 2 --jsonl bench/results/heroes_full_balance.jsonl
    python -m bench.heroes_balance --report bench/results/heroes_full_balance.jsonl --out bench/results/heroes_full_balance.md

Games are played as a new table is created (``Heroes.new_table_options({})``: the full edition,
the newest revision of its house data); ``--revision N`` plays revision ``N`` instead, and
``--weight KEY=VALUE`` changes one of the bots' ``evaluation.FULL_WEIGHTS`` (to try a weight before
writing it into the code).  Each line records the revision (``house_revision``) and the weights
changed (``weights``, when any).

Playing appends one JSON line per finished game to ``--jsonl`` (so a run stopped at any moment
keeps every game it finished) and skips the games (player count, seed) already in it, so a run can
be resumed or split over processes with ``--seeds A:B``.  Games are played in the order seed 0 of
every player count, then seed 1, ..., so a run stopped by ``--until`` (a UTC time, ``HH:MM``)
has about as many games of each count.  ``--report`` reads one or more such files and writes the
tables (win rates with Wilson 95 % intervals).

The bots are ``app.bots.SearchBot`` with a small budget (1 sampled world, 80 candidate moves) and
no wall-clock limit (``budget_seconds=None``: the load of the machine cannot change a game), the
generic player of every ruleset; a game is a pure function of its player count and seed.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import multiprocessing
import random
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from app.bots.players import SearchBot
from app.rulesets.base import Rng
from app.rulesets.heroes import Heroes, evaluation
from bench.bot_strength import wilson as bot_strength_wilson

ACTIONS = ("recruit", "build", "research", "scribe", "tax", "march", "sail", "fly", "cast")
"""The actions of the nine Action Bar slots (Research and Scribe share one)."""
BOT = {"samples": 1, "max_candidates": 80, "budget_seconds": None}
"""The bot of every seat (``SearchBot`` arguments)."""


def play(rules: Heroes, n_players: int, seed: int, bot: SearchBot, revision: int | None = None) -> dict[str, Any]:
    """One game (a new table's options, of house data ``revision`` when given; setup, bot and seat
    chooser seeded with ``seed``): its ranks and scores, each seat's faction and first action, and
    the token turns of each action."""
    options = rules.new_table_options({} if revision is None else {"house_revision": revision})
    state = rules.setup(n_players, options, seed)
    rng = Rng(seed)
    chooser = random.Random(seed)
    used: collections.Counter = collections.Counter()
    first: dict[int, str] = {}
    plies = 0
    for plies in range(4000):
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
    return {"players": n_players, "seed": seed, "house_revision": options.house_revision,
            "ranks": result.ranks, "scores": result.scores,
            "factions": [player["faction"] for player in state["players"]][:n_players],
            "openings": [first.get(seat, "none") for seat in range(n_players)],
            "actions": dict(used), "rounds": state["round"], "plies": plies,
            "end": [{"cc_level": player["cc_level"], "buildings": len(player["buildings"]),
                     "vessels": sum(1 for vessel in player["vessels"].values() if vessel),
                     "scribed": len(player["scribed"])} for player in state["players"][:n_players]],
            "reason": result.reason}


_STOP: datetime.datetime | None = None
"""A worker starts no game after this (``--until``; the pool hands out every task at once)."""
_REVISION: int | None = None
"""The house data revision the worker's games play (``--revision``; ``None``: the newest)."""
_WEIGHTS: dict[str, float] = {}
"""The ``evaluation.FULL_WEIGHTS`` changed for this run (``--weight``)."""


def _start_worker(stop: datetime.datetime | None, revision: int | None, weights: dict[str, float]) -> None:
    global _STOP, _REVISION, _WEIGHTS
    _STOP, _REVISION, _WEIGHTS = stop, revision, weights
    unknown = set(weights) - set(evaluation.FULL_WEIGHTS)
    if unknown:
        raise SystemExit(f"no such weight: {', '.join(sorted(unknown))}")
    evaluation.FULL_WEIGHTS.update(weights)


def _play_one(task: tuple[int, int]) -> dict[str, Any] | None:
    """Worker process: one game, its CPU seconds added (``None`` past ``--until``)."""
    n_players, seed = task
    if _STOP is not None and datetime.datetime.now(datetime.timezone.utc) >= _STOP:
        return None
    started = time.process_time()
    record = play(Heroes(), n_players, seed, SearchBot(**BOT), _REVISION)
    record["cpu_seconds"] = round(time.process_time() - started, 3)
    if _WEIGHTS:
        record["weights"] = _WEIGHTS
    return record


def read_records(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every game of the JSON-lines files (a game found twice counted once)."""
    seen: dict[tuple[int, int], dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                seen.setdefault((record["players"], record["seed"]), record)
    return list(seen.values())


def tasks(players: list[int], seeds: range, done: set[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """``(player count, seed)`` to play, seed by seed across the counts, skipping those ``done``."""
    for seed in seeds:
        for n_players in players:
            if (n_players, seed) not in done:
                yield n_players, seed


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Wilson score 95 % interval of a proportion ``wins / n`` (``bot_strength.wilson``), kept within
    0..1; ``(0, 1)`` for ``n == 0`` (nothing known)."""
    if n == 0:
        return 0.0, 1.0
    low, high = bot_strength_wilson(wins, n)
    return max(0.0, low), min(1.0, high)


def tables(records: list[dict[str, Any]], n_players: int) -> list[str]:
    """The markdown tables of one player count."""
    games = [record for record in records if record["players"] == n_players]
    wins: collections.Counter = collections.Counter()
    seats: collections.Counter = collections.Counter()
    opening_wins: collections.Counter = collections.Counter()
    openings: collections.Counter = collections.Counter()
    used: collections.Counter = collections.Counter()
    cpu = 0.0
    for game in games:
        used.update(game["actions"])
        cpu += game.get("cpu_seconds", 0.0)
        for seat, faction in enumerate(game["factions"]):
            seats[faction] += 1
            openings[game["openings"][seat]] += 1
            if game["ranks"][seat] == 1:
                wins[faction] += 1
                opening_wins[game["openings"][seat]] += 1
    total = sum(used.values()) or 1
    lines = [f"## {n_players} players: {len(games)} games", "",
             f"CPU: {cpu / max(1, len(games)):.2f} s a game on average.", "",
             "| faction | games | wins (rank 1, ties each counted) | win rate | 95 % interval |", "|---|---|---|---|---|"]
    for faction in sorted(seats):
        low, high = wilson(wins[faction], seats[faction])
        lines.append(f"| {faction} | {seats[faction]} | {wins[faction]} | {wins[faction] / seats[faction]:.1%} "
                     f"| {low:.1%} – {high:.1%} |")
    lines += ["", "| opening (first action) | seats | wins | win rate | 95 % interval |", "|---|---|---|---|---|"]
    for opening in sorted(openings):
        low, high = wilson(opening_wins[opening], openings[opening])
        lines.append(f"| {opening} | {openings[opening]} | {opening_wins[opening]} | "
                     f"{opening_wins[opening] / openings[opening]:.1%} | {low:.1%} – {high:.1%} |")
    lines += ["", "| action | token turns | share of token turns | 95 % interval |", "|---|---|---|---|"]
    for action in ACTIONS:
        low, high = wilson(used[action], total)
        lines.append(f"| {action} | {used[action]} | {used[action] / total:.1%} | {low:.1%} – {high:.1%} |")
    ends = [end for game in games for end in game.get("end", [])]
    if ends:
        lines += ["", "At the end, per seat on average: " + ", ".join(
            f"{sum(end[key] for end in ends) / len(ends):.2f} {key.replace('_', ' ')}" for key in sorted(ends[0]))
            + f"; {total / len(ends):.1f} token turns; {sum(game['rounds'] for game in games) / len(games):.1f} rounds a game."]
    reasons = collections.Counter(game["reason"].split(" (")[0].split("{")[-1].split("}")[-1].strip() or game["reason"]
                                  for game in games)
    lines += ["", "Game ends: " + ", ".join(f"{reason} {count}" for reason, count in reasons.most_common()) + "."]
    lines.append("")
    return lines


TARGET_GAMES = 1000
TARGET_WIN = 0.60
TARGET_SHARE = 0.05
MIN_OPENING_SEATS = 30
"""The targets: games per player count, the highest 4-player win rate of a faction or an opening,
every action's lowest share of token turns; an opening played by fewer seats is not judged."""


def verdicts(records: list[dict[str, Any]]) -> list[str]:
    """One markdown bullet per target: met or not, with the numbers."""
    counts = sorted({record["players"] for record in records})
    by_count = {n: [record for record in records if record["players"] == n] for n in counts}
    lines = []
    played = ", ".join(f"{len(by_count[n])} ({n} players)" for n in counts)
    met = all(len(by_count[n]) >= TARGET_GAMES for n in counts)
    lines.append(f"* **At least {TARGET_GAMES:,} games per player count: {'met' if met else 'not met'}**: {played}.")
    four = by_count.get(4, [])
    for label, key in (("faction", "factions"), ("opening", "openings")):
        wins: collections.Counter = collections.Counter()
        seats: collections.Counter = collections.Counter()
        for game in four:
            for seat, name in enumerate(game[key]):
                seats[name] += 1
                wins[name] += game["ranks"][seat] == 1
        judged = {name: wins[name] / seats[name] for name in seats if seats[name] >= MIN_OPENING_SEATS}
        best = max(judged, key=lambda name: judged[name]) if judged else None
        if best is None:
            lines.append(f"* **No {label} above {TARGET_WIN:.0%} wins in 4-player games: no data.**")
            continue
        low, high = wilson(wins[best], seats[best])
        rare = sorted(name for name in seats if seats[name] < MIN_OPENING_SEATS)
        note = (f" ({', '.join(f'{name} {seats[name]} seats, {wins[name]} wins' for name in rare)}: fewer than "
                f"{MIN_OPENING_SEATS} seats, not judged)") if rare else ""
        lines.append(f"* **No {label} above {TARGET_WIN:.0%} wins in 4-player games: "
                     f"{'met' if judged[best] <= TARGET_WIN else 'not met'}**: the best is {best}, "
                     f"{judged[best]:.1%} of {seats[best]} seats (95 % {low:.1%} – {high:.1%}){note}.")
    short = []
    for n in counts:
        used: collections.Counter = collections.Counter()
        for game in by_count[n]:
            used.update(game["actions"])
        total = sum(used.values()) or 1
        short += [f"{action} {used[action] / total:.1%} ({n} players)" for action in ACTIONS
                  if used[action] / total < TARGET_SHARE]
    lines.append(f"* **Every action in at least {TARGET_SHARE:.0%} of token turns at every count: "
                 f"{'met' if not short else 'not met'}**" + (f": under it, {', '.join(short)}." if short else "."))
    return lines


def report(paths: list[Path], out: Path | None) -> str:
    """The tables of every player count found in ``paths`` (written to ``out`` when given)."""
    records = read_records(paths)
    revisions = collections.Counter(record.get("house_revision", 1) for record in records)
    weights = collections.Counter(json.dumps(record.get("weights", {}), sort_keys=True) for record in records)
    lines = ["# Heroes full edition: self-play tables", "",
             "House data revision: " + ", ".join(f"{revision} ({count} games)" for revision, count in sorted(revisions.items()))
             + "; weights changed from `FULL_WEIGHTS`: "
             + ", ".join(f"{changed} ({count} games)" if changed != "{}" else f"none ({count} games)"
                         for changed, count in sorted(weights.items())) + ".", "",
             *verdicts(records), ""]
    for n_players in sorted({record["players"] for record in records}):
        lines += tables(records, n_players)
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.write_text(text)
    return text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="seeds 0..N-1 per player count")
    parser.add_argument("--seeds", help="A:B, seeds A..B-1 (instead of --games)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--jsonl", type=Path, default=Path("bench/results/heroes_full_balance.jsonl"))
    parser.add_argument("--until", help="HH:MM (UTC): start no game after this time")
    parser.add_argument("--report", type=Path, nargs="+", help="write the tables of these JSON-lines files")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--revision", type=int, help="the house data revision to play (default: the newest)")
    parser.add_argument("--weight", action="append", default=[], metavar="KEY=VALUE",
                        help="change one of evaluation.FULL_WEIGHTS for this run (repeatable)")
    args = parser.parse_args()
    if args.report:
        print(report(args.report, args.out))
        return
    if args.seeds:
        low, high = (int(part) for part in args.seeds.split(":"))
        seeds = range(low, high)
    else:
        seeds = range(args.games)
    stop = None
    if args.until:
        now = datetime.datetime.now(datetime.timezone.utc)
        hour, minute = (int(part) for part in args.until.split(":"))
        stop = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    done = {(record["players"], record["seed"]) for record in read_records([args.jsonl])}
    todo = list(tasks(args.players, seeds, done))
    print(f"{len(todo)} games to play, {args.jobs} jobs", flush=True)
    weights = {key: float(value) for key, value in (item.split("=", 1) for item in args.weight)}
    with multiprocessing.Pool(args.jobs, _start_worker, (stop, args.revision, weights)) as pool, args.jsonl.open("a") as sink:
        count = 0
        for record in pool.imap_unordered(_play_one, todo):
            if record is None:
                continue
            count += 1
            sink.write(json.dumps(record, sort_keys=True) + "\n")
            sink.flush()
            if count % 50 == 0:
                print(f"{count} games, {datetime.datetime.now(datetime.timezone.utc):%H:%M:%S}", flush=True)


if __name__ == "__main__":
    main()

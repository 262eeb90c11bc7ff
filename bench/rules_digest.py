#!/usr/bin/env python
"""A digest of many seeded random games of one ruleset: proof that a speed-up changed no rule.

    python bench/rules_digest.py --ruleset nomadi --games 500            # seeds 1..500 per player count
    python bench/rules_digest.py --ruleset nomadi --games 500 --source /tmp/main-checkout
    python bench/rules_digest.py --ruleset heroes --games 50 --options '{"house_revision": 1}'

For each player count from ``min_players`` to ``max_players`` and each seed 1..N it plays the
random game of ``app.rulesets.testing.play_random_game`` (same chooser, same choices: a
``random.Random(seed)`` picking a seat to act, then a listed move) and feeds a BLAKE2b hash, ply
by ply, with:

* the state (orjson, sorted keys) and the seats to act;
* the legal-move list of the seat that moves, in order (each move's JSON form);
* the move chosen and the events ``apply`` returned (their ``model_dump``);
* at the end, the ``result`` (scores, ranks, breakdowns).

It also asserts that ``apply`` left its input state as it was (a state that shares parts with the
state a move returns must never be changed in place).  It prints one digest per player count and
one over all; two checkouts with the same rules print the same lines.  The games play the options
of ``parse_options({})`` (the defaults), or of ``--options`` (a JSON object: e.g. a Heroes game of an
older house data revision, to compare with a checkout from before that revision existed).  Rulesets are pure
deterministic state machines (docs/architecture.md), so any difference is a change of the rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent


def _text(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def digest_game(ruleset, n_players: int, seed: int, options, max_moves: int, sink) -> int:
    """Play one random game into the hash ``sink``; returns its plies."""
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, options, seed)
    for ply in range(max_moves):
        text = _text(state)
        acting = ruleset.to_act(state)
        sink.update(text)
        sink.update(repr(sorted(acting)).encode())
        if not acting:
            result = ruleset.result(state)
            sink.update(_text(result.model_dump(mode="json") if result is not None else None))
            return ply
        seat = chooser.choice(sorted(acting))
        legal = ruleset.legal_moves(state, seat)
        sink.update(_text([move.model_dump(mode="json") for move in legal]))
        move = chooser.choice(legal)
        new, events = ruleset.apply(state, seat, move)
        if _text(state) != text:
            raise AssertionError(f"seed={seed} players={n_players} ply={ply}: apply({move}) changed its input")
        sink.update(_text(move.model_dump(mode="json")))
        sink.update(_text([event.model_dump(mode="json") for event in events]))
        state = new
    raise AssertionError(f"seed={seed} players={n_players}: no end after {max_moves} plies")


def main() -> None:
    parser = argparse.ArgumentParser(description="Digest of seeded random games (states, legal moves, events, results).")
    parser.add_argument("--ruleset", default="nomadi")
    parser.add_argument("--games", type=int, default=500, help="seeds 1..N per player count")
    parser.add_argument("--players", help="comma-separated player counts (default: all)")
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose rules are played")
    parser.add_argument("--options", default="{}", help="the table options, a JSON object (default: {})")
    args = parser.parse_args()
    sys.path.insert(0, str(args.source))
    from importlib.metadata import entry_points

    import app

    if not Path(app.__file__).resolve().is_relative_to(args.source.resolve()):
        raise SystemExit(f"app was imported from {app.__file__}, not from {args.source}")
    (point,) = [p for p in entry_points(group="caravanserai.rulesets") if p.name == args.ruleset]
    ruleset = point.load()()
    options = ruleset.parse_options(json.loads(args.options))
    counts = ([int(n) for n in args.players.split(",")] if args.players
              else range(ruleset.min_players, ruleset.max_players + 1))
    total = hashlib.blake2b(digest_size=16)
    for n_players in counts:
        sink = hashlib.blake2b(digest_size=16)
        began, plies = time.process_time(), 0
        for seed in range(1, args.games + 1):
            plies += digest_game(ruleset, n_players, seed, options, args.max_moves, sink)
        total.update(sink.digest())
        print(f"{args.ruleset} players={n_players} games={args.games} plies={plies} digest={sink.hexdigest()} "
              f"({time.process_time() - began:.0f} s CPU)", flush=True)
    print(f"{args.ruleset} all digest={total.hexdigest()}")


if __name__ == "__main__":
    main()

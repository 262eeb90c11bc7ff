"""The bot levels: ``random`` (a uniform legal move) and ``default`` (a search over determinized views).

``default`` needs the ruleset's optional ``determinize`` hook (app/rulesets/base.py): it builds
several states consistent with the seat's view, scores every candidate move on each with
``apply`` + ``evaluate`` (one ply, averaged over the samples), and plays the best within a time
budget.  A ruleset without the hook gets the random policy at this level too.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from app.rulesets.base import IllegalMove, MoveModel, Rng, Ruleset, Seat

DEFAULT_LEVEL = "default"


class BotPlayer(Protocol):
    """Chooses one of ``legal`` for ``seat`` from ``view``; ``rng`` is the bot's own randomness."""

    level: str

    def choose(self, ruleset: Ruleset, view: dict[str, Any], legal: list[MoveModel], seat: Seat,
               rng: Rng) -> MoveModel: ...


class RandomBot:
    """A uniformly random legal move."""

    level = "random"

    def choose(self, ruleset, view, legal, seat, rng):
        return rng.choice(legal)


class SearchBot:
    """One-ply search over determinized views within ``budget_seconds`` per move.

    ``samples`` states are drawn with ``ruleset.determinize``; each candidate move (at most
    ``max_candidates``, sampled uniformly when there are more) is applied on every sample and
    scored with ``ruleset.evaluate``; the best average wins, ties broken at random.
    """

    level = "default"

    def __init__(self, samples: int = 3, max_candidates: int = 200, budget_seconds: float = 1.0) -> None:
        self.samples = samples
        self.max_candidates = max_candidates
        self.budget_seconds = budget_seconds

    def choose(self, ruleset, view, legal, seat, rng):
        if len(legal) == 1:
            return legal[0]
        worlds = [world for world in (ruleset.determinize(view, seat, rng) for _ in range(self.samples)) if world]
        if not worlds:
            return rng.choice(legal)
        candidates = list(legal)
        if len(candidates) > self.max_candidates:
            rng.shuffle(candidates)
            candidates = candidates[: self.max_candidates]
        deadline = time.monotonic() + self.budget_seconds
        best_value, best = float("-inf"), []
        for move in candidates:
            total = 0.0
            for world in worlds:
                try:
                    after, _ = ruleset.apply(world, seat, move)
                except IllegalMove:  # a sampled world where this move is not possible
                    continue
                total += ruleset.evaluate(after, seat)
            value = total / len(worlds)
            if value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
            if time.monotonic() > deadline:
                break
        return rng.choice(best)


BOT_LEVELS: dict[str, type] = {"random": RandomBot, "default": SearchBot}


def make_bot(level: str) -> BotPlayer:
    """The bot of ``level``; raises ``KeyError`` for an unknown level."""
    return BOT_LEVELS[level]()

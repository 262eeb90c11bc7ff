"""Round scoring, the zero floor and the end of the game (Spec §2.4, E1 - E4, D-1, D-6).

Each scored round leaves a :class:`~.state.RoundRecord` in the state's ``history``.
"""

from __future__ import annotations

from typing import Literal

from app.rulesets.base import Result
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES, largest_population
from app.rulesets.nimalia.reserve import Grid, build_grid
from app.rulesets.nimalia.state import NimaliaState, RoundRecord, ScoringStep

ROUNDS = 5
"""Spec D6: the game lasts 5 rounds."""

SCHEDULE: dict[int, tuple[str, ...]] = {
    1: ("blue", "green"),
    2: ("green", "yellow"),
    3: ("blue", "red"),
    4: ("green", "yellow", "red"),
    5: ("blue", "red", "yellow"),
}
"""Spec §2.4: the colours each round scores, as printed on the round card."""

APPLICATION_ORDER: tuple[str, ...] = COLOURS
"""Spec D-1: within a round, objectives are applied blue, green, yellow, red (not the round
card's printed order), each followed by the zero floor."""

Direction = Literal["left", "right"]
"""Spec D3: where the hands go; left is the next seat, right the previous."""

PASSING: dict[int, Direction] = {1: "left", 2: "right", 3: "left", 4: "right", 5: "left"}
"""Spec D3: cards pass left (to the next seat) in rounds 1, 3, 5 and right in rounds 2 and 4."""


def colours_scored(round_number: int) -> list[str]:
    """Spec §2.4, D-1: the colours scored in ``round_number``, in application order."""
    return [colour for colour in APPLICATION_ORDER if colour in SCHEDULE[round_number]]


def rounds_scoring(colour: str) -> list[int]:
    """The rounds in which an objective of ``colour`` scores (each colour scores 3 times)."""
    return [number for number, colours in SCHEDULE.items() if colour in colours]


def add_with_floor(total: int, results: list[int]) -> int:
    """Spec E2, D-1: add each result in turn; a total below 0 becomes 0 after each one."""
    for points in results:
        total = max(0, total + points)
    return total


def score_round(objectives: dict[str, int], round_number: int, grids: list[Grid], totals: list[int]) -> RoundRecord:
    """Spec D6, §2.4: score the round's objectives (``colour -> objective id``) for every seat.

    Returns the round's record; ``after`` holds the new totals.
    """
    steps: list[ScoringStep] = []
    for colour in colours_scored(round_number):
        objective = OBJECTIVES[objectives[colour]]
        steps.append({"colour": colour, "objective": objective.id, "points": objective.score(grids)})
    after = [
        add_with_floor(total, [step["points"][seat] for step in steps]) for seat, total in enumerate(totals)
    ]
    return {"round": round_number, "steps": steps, "before": list(totals), "after": after}


def final_ranks(scores: list[int], tie_breaks: list[int]) -> list[int]:
    """Spec E3, E4, D-6: higher score first; among equal scores the larger single-species
    population; still equal shares the place."""
    keys = list(zip(scores, tie_breaks))
    return [1 + sum(other > key for other in keys) for key in keys]


def game_result(state: NimaliaState) -> Result | None:
    """Spec E1 - E4: the result once round 5 is scored (``over``), else ``None``."""
    if not state["over"]:
        return None
    grids = [build_grid(reserve) for reserve in state["placements"]]
    return final_result(state["objectives"], state["history"], grids)


def final_result(objectives: dict[str, int], history: list[RoundRecord], grids: list[Grid]) -> Result:
    """Spec E1 - E4: the result once round 5 is scored; ``breakdown`` sums each objective's raw
    points over the rounds, plus what the zero floor gave back."""
    n_players = len(grids)
    scores = list(history[-1]["after"]) if history else [0] * n_players
    tie_breaks = [largest_population(grid) for grid in grids]
    ranks = final_ranks(scores, tie_breaks)
    breakdown = []
    for seat in range(n_players):
        parts: dict[str, int] = {}
        for colour in COLOURS:
            objective = OBJECTIVES[objectives[colour]]
            parts[f"{objective.title} ({colour})"] = sum(  # as the table names it, never by its id
                step["points"][seat] for record in history for step in record["steps"] if step["colour"] == colour
            )
        parts["zero floor"] = scores[seat] - sum(parts.values())
        breakdown.append(parts)
    return Result(scores=scores, ranks=ranks, breakdown=breakdown, reason=_reason(scores, tie_breaks, ranks))


def _reason(scores: list[int], tie_breaks: list[int], ranks: list[int]) -> str:
    """Why the winners won, in words whose only placeholders are the winners' ``{seatN}``: a
    reason is one msgid of the game's catalogs (docs/i18n.md), so it names no score; the scores
    and the populations stand in the result's table and the view (``largest_population``)."""
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    names = " and ".join(f"{{seat{seat}}}" for seat in winners)
    if len(tied) == 1:
        return f"After 5 rounds {names} has the most points."
    if len(winners) == 1:
        return f"Tied on points; {names} wins the tie-break with the largest population of one animal."
    return f"Tied on points and on the tie-break, the largest population of one animal: {names} share the win (D-6)."

"""How good a Nimalia position is for one seat, in points (the ``evaluate`` hook, for bots' searches).

::

    value(s)  = the scores after applying, round by round with the zero floor (D-1, E2), the
                raw points each objective still to be scored this game would give to the
                reserves as they stand now, waiting choices included
    evaluate  = value(seat) - max(value(other))     once over: the final margin +/- WIN_BONUS

So an objective that scores three more times counts three times, one that scores once more
counts once, and one that has scored for the last time no longer counts.  Comparative faces
(O16, O18, O20, O21) are scored against the other reserves as they stand.  A small
``TIE_BREAK`` share of the largest single-species population (E4) settles equal projections.
The reserves are built once per call from the placements; every face is scored once per call
for all seats.
"""

from __future__ import annotations

import functools

from app.rulesets.base import Seat
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES, largest_population
from app.rulesets.nimalia.reserve import Grid, as_position, lay_card
from app.rulesets.nimalia.scoring import ROUNDS, add_with_floor, colours_scored, game_result
from app.rulesets.nimalia.state import NimaliaState, Placement

WIN_BONUS = 10.0
"""Added to (subtracted from) the final margin of a finished game won (lost)."""
TIE_BREAK = 0.01
"""Points per animal of the largest single-species population (E4 breaks ties on it)."""

LaidCards = tuple[tuple[int, int, int, int], ...]
"""Placements as ``(card, rotation, row, col)``, oldest first: a key of :func:`_laid_grid`."""


@functools.lru_cache(maxsize=512)
def _laid_grid(laid: LaidCards) -> Grid:
    """The visible grid of ``laid`` (shared between calls: never change it).  A search evaluates
    hundreds of states that share their revealed reserves; a grid enters the cache only once
    built, so a search in another thread never reads one half laid."""
    grid: Grid = {}
    for card, rotation, row, col in laid:
        lay_card(grid, card, rotation, (row, col))
    return grid


def reserve(placements: list[Placement]) -> Grid:
    """The visible grid of ``placements`` (shared: do not change it)."""
    return _laid_grid(tuple((p["card"], p["rotation"], p["at"][0], p["at"][1]) for p in placements))


def grids_with_choices(state: NimaliaState) -> list[Grid]:
    """Every seat's reserve with its waiting choice laid on top (it is placed for sure)."""
    grids = []
    for placements, pick in zip(state["placements"], state["picks"]):
        grid = reserve(placements)
        if pick is not None:
            grid = dict(grid)
            lay_card(grid, pick["card"], pick["rotation"], as_position(pick["at"]))
        grids.append(grid)
    return grids


def projected_scores(state: NimaliaState, grids: list[Grid]) -> list[int]:
    """Per seat: the running total after every round still to be scored, each scoring the
    reserves ``grids`` as they stand (D-1 order, zero floor after each face)."""
    remaining = range(len(state["history"]) + 1, ROUNDS + 1)
    rounds = [colours_scored(number) for number in remaining]
    needed = {colour for colours in rounds for colour in colours}
    points = {colour: OBJECTIVES[state["objectives"][colour]].score(grids) for colour in COLOURS if colour in needed}
    return [
        _after_rounds(state["scores"][other], [[points[colour][other] for colour in colours] for colours in rounds])
        for other in range(state["players"])
    ]


def _after_rounds(total: int, rounds: list[list[int]]) -> int:
    for results in rounds:
        total = add_with_floor(total, results)
    return total


def evaluate(state: NimaliaState, seat: Seat) -> float:
    """The seat's projected value minus the best other seat's (module docstring)."""
    result = game_result(state)
    if result is not None:
        best_other = max(score for other, score in enumerate(result.scores) if other != seat)
        margin = result.scores[seat] - best_other
        won = result.ranks[seat] == 1 and all(rank > 1 for other, rank in enumerate(result.ranks) if other != seat)
        lost = result.ranks[seat] > min(result.ranks)
        return margin + (WIN_BONUS if won else -WIN_BONUS if lost else 0.0)
    grids = grids_with_choices(state)
    projected = projected_scores(state, grids)
    values = [score + TIE_BREAK * largest_population(grid) for score, grid in zip(projected, grids)]
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)

"""Where a card may go on a reserve (Spec P1 - P4), for the rules and for ``information.py``."""

from __future__ import annotations

from app.rulesets.base import IllegalMove, Seat
from app.rulesets.nimalia.moves import Place
from app.rulesets.nimalia.reserve import (
    RESERVE_LIMIT,
    Grid,
    Position,
    as_position,
    bounding_box,
    build_grid,
    footprint,
    span,
)
from app.rulesets.nimalia.state import NimaliaState, Placement


def reserve_grid(state: NimaliaState, seat: Seat) -> Grid:
    """The seat's visible reserve from its revealed placements (a chosen card is not in it yet)."""
    return build_grid(state["placements"][seat])


def legal_anchors(grid: Grid) -> list[Position]:
    """Spec P1 - P4: the positions where the next card may go, whatever the card and rotation
    (a card always covers a 2x2 square).  The first card lies at ``(0, 0)``."""
    box = bounding_box(grid)
    if box is None:
        return [(0, 0)]
    top, left, bottom, right = box
    anchors = []
    for row in range(top - 1, bottom + 1):
        # P4 (``fits``): the reserve's box and the card's 2x2 together, without a walk of the grid per anchor
        if max(bottom, row + 1) - min(top, row) >= RESERVE_LIMIT:
            continue
        for col in range(left - 1, right + 1):
            if max(right, col + 1) - min(left, col) >= RESERVE_LIMIT:
                continue
            if (row, col) in grid or (row, col + 1) in grid or (row + 1, col) in grid or (row + 1, col + 1) in grid:
                anchors.append((row, col))
    return anchors


def fits(grid: Grid, covered: tuple[Position, ...]) -> bool:
    """Spec P4: the reserve with the new spaces still fits inside a 6x6 window."""
    height, width = span([*grid, *covered])
    return height <= RESERVE_LIMIT and width <= RESERVE_LIMIT


def check_placement(state: NimaliaState, seat: Seat, move: Place) -> Placement:
    """Spec D2, P1, P2, P4: the card is in the hand and may go where the move puts it.

    Returns the placement the move makes; raises :class:`IllegalMove` naming the broken rule.
    """
    number = move.number
    if number is None or number not in state["hands"][seat]:
        raise IllegalMove("D2: that card is not in your hand")
    grid = reserve_grid(state, seat)
    at = as_position(move.at)
    covered = footprint(at)
    if not grid:
        if at != (0, 0):
            raise IllegalMove("P1: your first card goes at [0, 0]; positions are counted from it")
    elif not any(p in grid for p in covered):
        raise IllegalMove("P2: every card after your first must cover at least one space of your reserve")
    elif not fits(grid, covered):
        height, width = span([*grid, *covered])
        raise IllegalMove("P4: your reserve would span {height} x {width} spaces; it must fit in 6 x 6", height=height, width=width)
    return {"card": number, "rotation": move.rotation, "at": list(at)}

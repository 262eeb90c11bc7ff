"""The compass of the solo game on the region graph (spec 2.6 "Compass resolution" [H], A-S5).

The map's coordinates have north up (``y`` grows to the north, ``x`` to the east).  A bearing is
measured in degrees clockwise from north, as on a compass: N 0, E 90, S 180, W 270.

* "In the arrow's direction": the neighbour whose bearing from the region's ``(x, y)`` lies
  within 22.5 degrees of the arrow (the closest one if two do; [D] an exact tie goes to the
  clockwise one).
* "Clockwise fallback": the candidates sorted by their clockwise angle from the arrow; the
  first is taken.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from app.rulesets.heroes.board import Board

ARROWS = {"N": 0.0, "NE": 45.0, "E": 90.0, "SE": 135.0, "S": 180.0, "SW": 225.0, "W": 270.0, "NW": 315.0}
"""The eight compass points of the Enemy cards, as bearings in degrees."""
SECTOR = 22.5
"""Half the width of an arrow's sector, in degrees."""


def bearing(board: Board, origin: str, target: str) -> float:
    """The bearing from ``origin``'s centre to ``target``'s, in degrees ``[0, 360)``."""
    a, b = board.regions[origin], board.regions[target]
    return math.degrees(math.atan2(b.x - a.x, b.y - a.y)) % 360.0


def clockwise_angle(board: Board, origin: str, target: str, arrow: str) -> float:
    """How far clockwise from ``arrow`` the bearing to ``target`` lies, in ``[0, 360)``."""
    return (bearing(board, origin, target) - ARROWS[arrow]) % 360.0


def in_direction(board: Board, origin: str, candidates: Iterable[str], arrow: str) -> str | None:
    """The candidate within the arrow's sector (spec 2.6), or ``None`` if none lies there."""
    best: tuple[float, float, str] | None = None
    for target in candidates:
        turn = clockwise_angle(board, origin, target, arrow)
        off = min(turn, 360.0 - turn)
        if off <= SECTOR + 1e-9:
            key = (off, 0.0 if turn <= 180.0 else 1.0, target)
            best = key if best is None or key < best else best
    return best[2] if best else None


def clockwise_order(board: Board, origin: str, candidates: Iterable[str], arrow: str) -> list[str]:
    """The candidates sorted by clockwise angle from ``arrow`` (spec 2.6 fallback; ties by id)."""
    return sorted(candidates, key=lambda target: (round(clockwise_angle(board, origin, target, arrow), 6), target))


def step(board: Board, origin: str, candidates: Iterable[str], arrow: str) -> str | None:
    """Spec 1.12 "Failed action -> move": the candidate in the arrow's direction, else the first
    one clockwise from the arrow (the head of :func:`rank`); ``None`` when there is no candidate."""
    ranked = rank(board, origin, candidates, arrow)
    return ranked[0] if ranked else None


def rank(board: Board, origin: str, candidates: Iterable[str], arrow: str) -> list[str]:
    """Spec 1.12 Attack ties: the candidate in the arrow's direction first, then the others
    clockwise from the arrow."""
    candidates = list(candidates)
    ahead = in_direction(board, origin, candidates, arrow)
    rest = clockwise_order(board, origin, [c for c in candidates if c != ahead], arrow)
    return ([ahead] if ahead else []) + rest

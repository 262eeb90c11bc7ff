"""A player's reserve as a grid of spaces (Spec §1.4, §2.1): geometry only, no rules.

Positions are ``(row, col)`` integer pairs, rows downward, unbounded (Spec P4's implementation
note).  A card placed *at* ``(row, col)`` covers that space and the three to its right and below.
Only the top card's space is visible; covered content is gone (Spec §2.1 "Reserve").

A :data:`Grid` maps each occupied position to its visible :class:`~.cards.Space`.  Helpers here
answer the geometric questions the objectives ask: orthogonal neighbours, areas and groups,
the corner points of rivers and the river systems they form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from app.rulesets.nimalia.cards import OTTER, Space, deck, parse_space
from app.rulesets.nimalia.state import Placement

Position = tuple[int, int]
Grid = dict[Position, Space]

RESERVE_LIMIT = 6
"""Spec P4: every occupied space fits inside a 6x6 window."""

ORTHOGONAL: tuple[Position, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def as_position(at: Sequence[int]) -> Position:
    """The position a state or a move writes as ``[row, col]``."""
    row, col = at
    return row, col


def footprint(at: Position) -> tuple[Position, Position, Position, Position]:
    """The positions ``[TL, TR, BL, BR]`` a card placed at ``at`` covers."""
    row, col = at
    return (row, col), (row, col + 1), (row + 1, col), (row + 1, col + 1)


def lay_card(grid: Grid, number: int, rotation: int, at: Position) -> None:
    """Put card ``number`` turned ``rotation`` degrees on top at ``at`` (changes ``grid``)."""
    for position, space in zip(footprint(at), deck()[number].turned(rotation)):
        grid[position] = space


def build_grid(placements: Iterable[Placement]) -> Grid:
    """The visible grid after ``placements`` (oldest first)."""
    grid: Grid = {}
    for placement in placements:
        lay_card(grid, placement["card"], placement["rotation"], as_position(placement["at"]))
    return grid


def bounding_box(positions: Iterable[Position]) -> tuple[int, int, int, int] | None:
    """``(top, left, bottom, right)`` inclusive, or ``None`` for no positions."""
    positions = list(positions)
    if not positions:
        return None
    rows = [row for row, _ in positions]
    cols = [col for _, col in positions]
    return min(rows), min(cols), max(rows), max(cols)


def span(positions: Iterable[Position]) -> tuple[int, int]:
    """``(height, width)`` of the bounding box of ``positions``; ``(0, 0)`` for none."""
    box = bounding_box(positions)
    if box is None:
        return 0, 0
    top, left, bottom, right = box
    return bottom - top + 1, right - left + 1


def neighbours(position: Position) -> list[Position]:
    """The four orthogonal neighbours (Spec §2.1: diagonal contact never counts)."""
    row, col = position
    return [(row + dr, col + dc) for dr, dc in ORTHOGONAL]


def occupied_neighbours(grid: Grid, position: Position) -> list[Position]:
    return [n for n in neighbours(position) if n in grid]


def touches_edge(grid: Grid, position: Position) -> bool:
    """Spec §2.1 "Touches the edge": at least one orthogonal neighbour is empty (outside or a hole)."""
    return any(n not in grid for n in neighbours(position))


def components(grid: Grid, keep: Callable[[Space], bool]) -> list[list[Position]]:
    """Maximal orthogonally connected sets of positions whose space passes ``keep``
    (Spec §2.1 "Area" and "Group"), each sorted, in reading order of their first position."""
    wanted = {position for position, space in grid.items() if keep(space)}
    seen: set[Position] = set()
    found = []
    for start in sorted(wanted):
        if start in seen:
            continue
        seen.add(start)
        todo, part = [start], []
        while todo:
            position = todo.pop()
            part.append(position)
            for n in neighbours(position):
                if n in wanted and n not in seen:
                    seen.add(n)
                    todo.append(n)
        found.append(sorted(part))
    return found


def river_ends(position: Position, river: str) -> tuple[Position, Position]:
    """Spec §2.1 "River geometry": the two corner points a river runs between.

    Corner point ``(r, c)`` is the top-left corner of space ``(r, c)``; ``/`` joins the space's
    bottom-left and top-right corners, ``\\`` its top-left and bottom-right corners.
    """
    row, col = position
    if river == "/":
        return (row + 1, col), (row, col + 1)
    return (row, col), (row + 1, col + 1)


def spaces_at_corner(corner: Position) -> tuple[Position, Position, Position, Position]:
    """The four spaces that meet at corner point ``corner``."""
    row, col = corner
    return (row - 1, col - 1), (row - 1, col), (row, col - 1), (row, col)


def rivers(grid: Grid) -> list[list[Position]]:
    """Spec §2.1 / D-2: the river systems, each the otter positions joined through shared river
    end points (orthogonally or diagonally), forks and loops included."""
    otters = {at: space.river for at, space in grid.items() if space.animal == OTTER and space.river}
    by_corner: dict[Position, list[Position]] = {}
    for at, river in otters.items():
        for corner in river_ends(at, river):
            by_corner.setdefault(corner, []).append(at)
    seen: set[Position] = set()
    systems = []
    for start in sorted(otters):
        if start in seen:
            continue
        seen.add(start)
        todo, system = [start], []
        while todo:
            at = todo.pop()
            system.append(at)
            for corner in river_ends(at, otters[at]):
                for other in by_corner[corner]:
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
        systems.append(sorted(system))
    return systems


def grid_from_rows(rows: Iterable[str], top: int = 0, left: int = 0) -> Grid:
    """A grid written as in Spec §4: one line per row, spaces separated by blanks, ``.`` empty;
    otter rivers in board orientation.  For tests and examples."""
    grid: Grid = {}
    for r, line in enumerate(rows):
        for c, code in enumerate(line.split()):
            if code != ".":
                grid[(top + r, left + c)] = parse_space(code)
    return grid

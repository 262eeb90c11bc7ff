"""Square-grid geometry and the Nomadi board: where cells are, nothing about the rules.

A cell is ``(row, col)`` with row 0 at the top (Spec §2 conventions).  Inside game states a cell
is a two-element list ``[row, col]`` (JSON has no tuples); card positions are keyed ``"row,col"``.

* :class:`Board` is a physical board: cell types, the chasm line, the start and goal areas, the
  water sources and the movable-oasis spots (Spec R-1, R-2, §4, ``data/board.json``).
* :func:`paths` lists the shapes a die can travel (Spec R-20) as offsets, ready for the move
  generator to lay over a position.
"""

from __future__ import annotations

import functools
import json
from collections import deque
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

Cell = tuple[int, int]

SAND, START, WATER_SOURCE, GOAL, BLOCKED = "sand", "start", "water_source", "goal", "blocked"
LEGEND = {".": SAND, "S": START, "W": WATER_SOURCE, "G": GOAL, "#": BLOCKED}
"""The letters of ``data/board.json`` rows (Spec §4 legend)."""

ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""N4, clockwise from north (Spec §2 conventions)."""
DIAGONAL: tuple[Cell, ...] = ((-1, 1), (1, 1), (1, -1), (-1, -1))
ALL_AROUND: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL
"""N8."""


def step(cell: Cell, offset: Cell, times: int = 1) -> Cell:
    """``cell + times * offset``."""
    return cell[0] + times * offset[0], cell[1] + times * offset[1]


def as_cell(stored: Sequence[int]) -> Cell:
    """A cell as the geometry works with it: ``[3, 10] -> (3, 10)`` (states keep lists)."""
    return stored[0], stored[1]


def cell_key(cell: Sequence[int]) -> str:
    """The state key of a cell: ``(3, 10) -> "3,10"``."""
    return f"{cell[0]},{cell[1]}"


def parse_key(key: str) -> Cell:
    """``"3,10" -> (3, 10)``."""
    row, col = key.split(",")
    return int(row), int(col)


COLUMN_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Column names, without I and O (read as 1 and 0), as on a Go board."""


def show(cell: Sequence[int]) -> str:
    """A cell as players name it, by the labels the board shows along its edges: the column's
    letter (column 0 is A) and the row's number from the top (row 0 is 1): ``(3, 10) -> "L4"``.
    The client draws the same labels (``renderers/nomadi.js``)."""
    row, col = cell[0], cell[1]
    if 0 <= col < len(COLUMN_LETTERS):
        return f"{COLUMN_LETTERS[col]}{row + 1}"
    return f"row {row + 1}, column {col + 1}"


def place_arg(cell: Sequence[int]) -> dict[str, Any]:
    """A cell as an event argument: its label (:func:`show`) and its ``[row, col]``."""
    return {"kind": "place", "text": show(cell), "at": [cell[0], cell[1]]}


@functools.cache
def paths(value: int) -> tuple[tuple[tuple[Cell, ...], Cell], ...]:
    """Spec R-20: every path a die of ``value`` may travel, as ``(jumped offsets, landing offset)``.

    * 1: the eight N8 neighbours, nothing jumped;
    * 2-4: straight along one N4 direction over ``value - 1`` cells;
    * 5-6: straight, or ``t`` steps one way then ``value - t`` steps a perpendicular way
      (``1 <= t <= value - 1``: the turn happens on a jumped cell, at most once, never 180°).

    Offsets are relative to the stone's cell.  Several paths may share a landing.
    """
    if value == 1:
        return tuple(((), offset) for offset in ALL_AROUND)
    if not 2 <= value <= 6:
        raise ValueError(f"a die shows 1 to 6, not {value}")
    shapes: list[tuple[tuple[Cell, ...], Cell]] = []
    for first in ORTHOGONAL:
        turns = [(first, value, first)]  # (first direction, steps before the turn, second direction)
        if value >= 5:
            turns += [
                (first, t, second)
                for t in range(1, value)
                for second in ORTHOGONAL
                if second[0] * first[0] + second[1] * first[1] == 0
            ]
        for first_way, turn_after, second_way in turns:
            cells = []
            here = (0, 0)
            for number in range(1, value + 1):
                direction = first_way if number <= turn_after else second_way
                here = step(here, direction)
                cells.append(here)
            shapes.append((tuple(cells[:-1]), cells[-1]))
    return tuple(shapes)


class Board:
    """A physical Nomadi board (Spec R-1, R-2 and §4).

    ``rows`` are strings over the legend ``. S W G #`` (sand, start, water source, goal, blocked);
    ``chasm[col]`` is the row ``v`` such that cells with ``row <= v`` are on the far side
    (``-1`` everywhere: no chasm, every cell on the near side).  ``oasis_spots`` maps a spot id to
    its cells (Spec R-40).  Raises ``ValueError`` for ragged rows, unknown letters, a chasm of
    the wrong width or a spot cell that is not playable.
    """

    def __init__(
        self,
        name: str,
        rows: Sequence[str],
        chasm: Sequence[int] | None = None,
        oasis_spots: dict[str, Iterable[Sequence[int]]] | None = None,
    ) -> None:
        self.name = name
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        if any(len(row) != self.width for row in rows):
            raise ValueError("every board row must have the same width")
        unknown = {letter for row in rows for letter in row} - set(LEGEND)
        if unknown:
            raise ValueError(f"unknown board letters {sorted(unknown)}")
        self.rows: tuple[str, ...] = tuple(rows)
        self.kind: dict[Cell, str] = {(r, c): LEGEND[letter] for r, row in enumerate(rows) for c, letter in enumerate(row)}
        self.chasm: tuple[int, ...] = tuple(chasm) if chasm is not None else (-1,) * self.width
        if len(self.chasm) != self.width:
            raise ValueError("the chasm needs one row value per column")
        self.playable_cells: frozenset[Cell] = frozenset(cell for cell, kind in self.kind.items() if kind != BLOCKED)
        self.start_cells: tuple[Cell, ...] = self._cells_of(START)
        self.start_set: frozenset[Cell] = frozenset(self.start_cells)
        self.far_cells: frozenset[Cell] = frozenset(cell for cell in self.playable_cells if self.far_side(cell))
        """The playable cells beyond the chasm (R-2, :meth:`far_side`)."""
        self.printed_goal: tuple[Cell, ...] = self._cells_of(GOAL)
        self.water_sources: tuple[Cell, ...] = self._cells_of(WATER_SOURCE)
        self.sand_cells: tuple[Cell, ...] = self._cells_of(SAND)
        self.oasis_spots: dict[str, tuple[Cell, ...]] = {
            spot: tuple(sorted(as_cell(cell) for cell in cells)) for spot, cells in (oasis_spots or {}).items()
        }
        for spot, cells in self.oasis_spots.items():
            if not set(cells) <= self.playable_cells:
                raise ValueError(f"oasis spot {spot} has cells off the playable board")
        self._rows_with_goal: dict[str | None, tuple[str, ...]] = {}
        self._goals: dict[str | None, frozenset[Cell]] = {}
        self._goal_distances: dict[str | None, dict[Cell, int]] = {}
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {
            cell: tuple(n for n in (step(cell, offset) for offset in ORTHOGONAL) if n in self.playable_cells)
            for cell in self.playable_cells
        }
        """N4 neighbours of each playable cell that are playable themselves (fewer than four: the
        cell borders the edge or a blocked cell)."""
        self.around: dict[Cell, tuple[Cell, ...]] = {
            cell: tuple(n for n in (step(cell, offset) for offset in ALL_AROUND) if n in self.playable_cells)
            for cell in self.playable_cells
        }
        """N8 neighbours of each playable cell that are playable themselves (the landings of a 1)."""

    def _cells_of(self, kind: str) -> tuple[Cell, ...]:
        return tuple(sorted(cell for cell, k in self.kind.items() if k == kind))

    def playable(self, cell: Cell) -> bool:
        """Spec R-1: inside the board and not blocked."""
        return cell in self.playable_cells

    def far_side(self, cell: Cell) -> bool:
        """Spec R-2: ``(r, c)`` lies beyond the chasm iff ``r <= chasm[c]``."""
        return cell[0] <= self.chasm[cell[1]]

    def goal_cells(self, oasis: str | None) -> frozenset[Cell]:
        """The goal in play: the printed goal, or a movable-oasis spot (Spec R-40); made once per
        spot (the rules ask after every move).  Raises ``KeyError`` for an unknown spot."""
        found = self._goals.get(oasis)
        if found is None:
            found = self._goals[oasis] = frozenset(self.oasis_spots[oasis] if oasis else self.printed_goal)
        return found

    def letter(self, cell: Cell, oasis: str | None = None) -> str:
        """The legend letter of ``cell`` with the goal in play (spot cells ``G``, printed goal ``.``)."""
        if oasis:
            if cell in self.oasis_spots[oasis]:
                return "G"
            if self.kind[cell] == GOAL:
                return "."
        return self.rows[cell[0]][cell[1]]

    def goal_distances(self, oasis: str | None) -> dict[Cell, int]:
        """Steps (N4, over playable cells) from every playable cell that can reach the goal in play
        to its nearest goal cell (0 inside the goal); worked out once per goal."""
        if oasis not in self._goal_distances:
            goal = self.goal_cells(oasis)
            distance = {cell: 0 for cell in goal}
            todo = deque(goal)
            while todo:
                cell = todo.popleft()
                for there in self.neighbours[cell]:
                    if there not in distance:
                        distance[there] = distance[cell] + 1
                        todo.append(there)
            self._goal_distances[oasis] = distance
        return self._goal_distances[oasis]

    def rows_with_goal(self, oasis: str | None) -> tuple[str, ...]:
        """The rows in legend letters with the goal in play (see :meth:`letter`)."""
        if oasis not in self._rows_with_goal:
            self._rows_with_goal[oasis] = tuple(
                "".join(self.letter((r, c), oasis) for c in range(self.width)) for r in range(self.height)
            )
        return self._rows_with_goal[oasis]

    # -- constructors --------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Board":
        """A board from the JSON shape of ``data/board.json`` (schema ``nomadi-board/1``)."""
        chasm = data.get("chasm") or {}
        return cls(
            name=data["id"],
            rows=data["rows"],
            chasm=chasm.get("between_rows_by_column"),
            oasis_spots={spot["id"]: spot["cells"] for spot in data.get("movable_oasis_spots", [])},
        )

    @classmethod
    def standard(cls) -> "Board":
        """Spec §4: our board "nomadi-red-erg-16x20", from the package data."""
        text = resources.files(__package__).joinpath("data", "board.json").read_text(encoding="utf-8")
        return cls.from_data(json.loads(text))

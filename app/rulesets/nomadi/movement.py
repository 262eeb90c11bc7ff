"""The move generator: where one die may take one stone (Spec §2.4, R-19 .. R-26).

:class:`Caravan` is a position seen by the generator: the board and the stones on it.  It answers
"where may this stone go with this die?" and, for a refused move, which rule refuses it.  R-18
(same number twice) needs the turn's history and is left to the caller as a set of forbidden
landings.

A position works out each answer once and keeps it: the rows of stones next to a stone (shared
by every die value), every stone's landings for all six values at once, its legal landings, and
the moves of each value.  :func:`caravan` hands out one shared position per arrangement of stones
(a small cache), so the questions of ``legal_moves``, ``apply`` (the check of the move, then
"can the turn go on?") and the next ``legal_moves`` about the same stones are answered once.

Connectivity (R-24) is checked without trying every landing: one pass finds the stones whose
removal splits the caravan (articulation points).  Without any other stone the rest stays whole
and a landing only has to touch it; without a splitting stone the rest falls into components
(counted once per stone), and a landing keeps the caravan connected exactly when it touches
every one of them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from app.rulesets.nomadi.board import ALL_AROUND, DIAGONAL, ORTHOGONAL, Board, Cell, show
from app.rulesets.nomadi.state import NomadiState

DIE_VALUES = range(1, 7)
TURNED = (5, 6)
"""R-20: the die values whose path may turn once."""


@dataclass(frozen=True)
class StoneAt:
    """What the generator needs to know of one stone: whether it left the start (R-27) and
    whether it is locked in the goal (R-31)."""

    departed: bool = True
    locked: bool = False


class Caravan:
    """The stones on ``board``: cell -> :class:`StoneAt` (locked stones are those in the goal).

    Answers are worked out on first use and kept, so a position is read-only once made: a
    position from :func:`caravan` is shared by every state with the same stones.
    """

    def __init__(self, board: Board, stones: Mapping[Cell, StoneAt]) -> None:
        self.board = board
        self.stones = dict(stones)
        self._split: dict[Cell, tuple[dict[Cell, int], int]] = {}
        self._cuts: set[Cell] | None = None
        self._cuts_known = False
        self._runs: dict[tuple[Cell, Cell], int] = {}
        self._reach: dict[Cell, dict[int, set[Cell]]] = {}
        self._legal_from: dict[tuple[Cell, int], list[Cell]] = {}
        self._moves: dict[int, dict[Cell, list[Cell]]] = {}
        self._movers: list[Cell] | None = None
        self._whole: bool | None = None
        self._rest_whole: dict[Cell, bool] = {}

    # -- R-5 and R-19 -----------------------------------------------------------------------

    def free_side(self, cell: Cell) -> bool:
        """Spec R-5 and R-19b: some N4 neighbour holds no stone (empty, blocked or off the board)."""
        around = self.board.neighbours[cell]
        return len(around) < 4 or any(n not in self.stones for n in around)

    def movable(self, cell: Cell) -> bool:
        """Spec R-19: not locked in the goal, and at least one free side before the move."""
        stone = self.stones[cell]
        return not stone.locked and self.free_side(cell)

    def _movable_stones(self) -> list[Cell]:
        """The cells of the movable stones (R-19), in reading order."""
        if self._movers is None:
            self._movers = [cell for cell in sorted(self.stones) if self.movable(cell)]
        return self._movers

    # -- R-24 -------------------------------------------------------------------------------

    def _cut_stones(self) -> set[Cell] | None:
        """The stones whose removal splits the caravan (Tarjan's articulation points), or ``None``
        when the caravan is not connected to begin with."""
        if not self._cuts_known:
            neighbours, stones = self.board.neighbours, self.stones
            index: dict[Cell, int] = {}
            low: dict[Cell, int] = {}
            cuts: set[Cell] = set()

            def visit(cell: Cell, parent: Cell | None) -> None:
                index[cell] = low[cell] = len(index)
                children = 0
                for n in neighbours[cell]:
                    if n not in stones:
                        continue
                    if n not in index:
                        children += 1
                        visit(n, cell)
                        low[cell] = min(low[cell], low[n])
                        if parent is not None and low[n] >= index[cell]:
                            cuts.add(cell)
                    elif n != parent:
                        low[cell] = min(low[cell], index[n])
                if parent is None and children > 1:
                    cuts.add(cell)

            if stones:
                visit(next(iter(stones)), None)
            self._cuts = cuts if len(index) == len(stones) else None
            self._cuts_known = True
        return self._cuts

    def _components_without(self, cell: Cell) -> tuple[dict[Cell, int], int]:
        """The caravan minus ``cell`` as N4 components: cell -> component number, and their count."""
        if cell not in self._split:
            neighbours = self.board.neighbours
            rest = set(self.stones) - {cell}
            label: dict[Cell, int] = {}
            count = 0
            for seed in rest:
                if seed in label:
                    continue
                label[seed] = count
                todo = [seed]
                while todo:
                    for there in neighbours[todo.pop()]:
                        if there in rest and there not in label:
                            label[there] = count
                            todo.append(there)
                count += 1
            self._split[cell] = (label, count)
        return self._split[cell]

    def _connected(self) -> bool:
        """Whether the caravan is one N4 component (worked out once)."""
        if self._whole is None:
            neighbours, stones = self.board.neighbours, self.stones
            seen: set[Cell] = set()
            if stones:
                seed = next(iter(stones))
                seen.add(seed)
                todo = [seed]
                while todo:
                    for there in neighbours[todo.pop()]:
                        if there in stones and there not in seen:
                            seen.add(there)
                            todo.append(there)
            self._whole = len(seen) == len(stones)
        return self._whole

    def _stays_whole_without(self, origin: Cell) -> bool:
        """Whether the caravan minus ``origin`` is one piece (or nothing).

        A connected caravan stays whole when the stone's N4 neighbours hold together around it: two
        neighbours a quarter turn apart are linked through the stone on the corner between them,
        and every piece of the rest holds one of the neighbours.  Otherwise the pieces are counted
        (:meth:`_components_without`)."""
        found = self._rest_whole.get(origin)
        if found is None:
            stones = self.stones
            if not self._connected():
                found = self._components_without(origin)[1] <= 1
            else:
                row, col = origin
                sides = [(row + dr, col + dc) in stones for dr, dc in ORTHOGONAL]
                links = sum(1 for i, (dr, dc) in enumerate(DIAGONAL)
                            if sides[i] and sides[(i + 1) % 4] and (row + dr, col + dc) in stones)
                groups = 1 if links == 4 else sum(sides) - links
                found = groups <= 1 or self._components_without(origin)[1] <= 1
            self._rest_whole[origin] = found
        return found

    def stays_connected(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-4 and R-24: ``(caravan - origin) + landing`` forms one N4 component."""
        around = self.board.neighbours[landing]
        stones = self.stones
        if self._stays_whole_without(origin):
            # the rest stays one piece: the landing only has to touch it
            return len(stones) == 1 or any(n in stones and n != origin for n in around)
        label, count = self._components_without(origin)
        return len({label[n] for n in around if n in label}) == count

    # -- R-20 .. R-23 -----------------------------------------------------------------------

    def _run(self, cell: Cell, direction: Cell) -> int:
        """How many stones stand in a row from ``cell + direction`` on (counted once per position)."""
        key = (cell, direction)
        found = self._runs.get(key)
        if found is None:
            stones = self.stones
            (row, col), (down, right) = cell, direction
            found = 0
            while (row + down, col + right) in stones:
                row, col = row + down, col + right
                found += 1
            self._runs[key] = found
        return found

    def _reach_from(self, origin: Cell) -> dict[int, set[Cell]]:
        """Spec R-20, R-21 for every die value at once: value -> the playable empty cells a die of
        that value takes ``origin`` to over exactly ``value - 1`` stones (nothing else checked).

        Walks the rows of stones instead of trying every shape of :func:`board.paths` (the two
        agree; the tests check it).  A row of ``run`` stones in direction ``d`` is the straight
        jump of a ``run + 1`` (the cell after the row is free by construction); a 5 or a 6 may turn
        on the ``t``-th stone of that row and go on over a row of ``rest`` stones, a die of
        ``t + rest + 1``.
        """
        found = self._reach.get(origin)
        if found is not None:
            return found
        stones, playable = self.stones, self.board.playable_cells
        row, col = origin
        found = {value: set() for value in DIE_VALUES}
        found[1] = {cell for cell in ((row + dr, col + dc) for dr, dc in ALL_AROUND) if cell in playable and cell not in stones}
        for first in ORTHOGONAL:
            down, right = first
            run = self._run(origin, first)
            if run == 0:
                continue
            if run < 6:
                landing = (row + (run + 1) * down, col + (run + 1) * right)
                if landing in playable:
                    found[run + 1].add(landing)
            for t in range(1, min(run, TURNED[-1] - 1) + 1):
                corner = (row + t * down, col + t * right)
                for second in ((right, down), (-right, -down)):
                    rest = self._run(corner, second)
                    if t + rest + 1 in TURNED:
                        landing = (corner[0] + (rest + 1) * second[0], corner[1] + (rest + 1) * second[1])
                        if landing in playable:
                            found[t + rest + 1].add(landing)
        self._reach[origin] = found
        return found

    def reachable(self, origin: Cell, value: int) -> set[Cell]:
        """Spec R-20, R-21: landings of a die ``value`` (1 to 6) from ``origin`` over exactly
        ``value - 1`` stones, onto a playable empty cell (nothing else checked)."""
        return set(self._reach_from(origin).get(value, ()))

    def _open(self, cell: Cell) -> bool:
        return cell not in self.stones and cell in self.board.playable_cells

    def allowed_end(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-22 and R-23: a departed stone never ends on a start cell; a stone on the far side
        stays there."""
        if self.stones[origin].departed and landing in self.board.start_set:
            return False
        return not (self.board.far_side(origin) and not self.board.far_side(landing))

    def _legal_landings(self, origin: Cell, value: int) -> list[Cell]:
        """Spec R-19 .. R-24 without R-18: the legal landings of the stone on ``origin`` with a die
        of ``value``, sorted (empty for a cell without a stone)."""
        key = (origin, value)
        found = self._legal_from.get(key)
        if found is None:
            found = []
            if origin in self.stones and self.movable(origin):
                found = sorted(cell for cell in self._reach_from(origin).get(value, ())
                               if self.allowed_end(origin, cell) and self.stays_connected(origin, cell))
            self._legal_from[key] = found
        return found

    def _legal(self, origin: Cell, value: int, forbidden: Iterable[Cell]) -> Iterator[Cell]:
        targets = self._legal_landings(origin, value)
        if targets:
            blocked = forbidden if isinstance(forbidden, (set, frozenset)) else set(forbidden)
            yield from (landing for landing in targets if landing not in blocked)

    def landings(self, origin: Cell, value: int, forbidden: Iterable[Cell] = ()) -> list[Cell]:
        """Spec R-19 .. R-24 (and R-18 through ``forbidden``): every legal landing, sorted."""
        return list(self._legal(origin, value, forbidden))

    def moves(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> dict[Cell, list[Cell]]:
        """Every stone with at least one legal landing for ``value`` -> its landings (reading order)."""
        found = self._moves.get(value)
        if found is None:
            found = {}
            for origin in self._movable_stones():
                targets = self._legal_landings(origin, value)
                if targets:
                    found[origin] = targets
            self._moves[value] = found
        allowed = {}
        for origin, targets in found.items():
            blocked = forbidden.get(origin) if forbidden else None
            kept = [cell for cell in targets if cell not in blocked] if blocked else list(targets)
            if kept:
                allowed[origin] = kept
        return allowed

    def can_use(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> bool:
        """Whether a die of ``value`` has any legal move (R-14, R-16, R-17)."""
        forbidden = forbidden or {}
        return any(next(self._legal(origin, value, forbidden.get(origin, ())), None) for origin in self._movable_stones())

    def refusal(self, origin: Cell, value: int, landing: Cell) -> str | None:
        """Why the move ``origin -> landing`` with ``value`` breaks R-19 .. R-24, or ``None`` if it does not.

        The message starts with the rule it breaks, e.g. ``"R-24: ..."``.
        """
        if landing in self._legal_landings(origin, value):
            return None
        if origin not in self.stones:
            return f"R-15: no stone stands on {show(origin)}"
        if self.stones[origin].locked:
            return f"R-19a: the stone on {show(origin)} is locked in the goal"
        if not self.free_side(origin):
            return f"R-19b: the stone on {show(origin)} has no free side"
        if not self.board.playable(landing):
            return f"R-21: {show(landing)} is not a playable cell"
        if landing in self.stones:
            return f"R-21: a stone already stands on {show(landing)}"
        if landing not in self.reachable(origin, value):
            stones = "no stone" if value == 1 else f"exactly {value - 1} stone{'s' if value > 2 else ''}"
            return f"R-20: a {value} cannot take {show(origin)} to {show(landing)} over {stones}"
        if self.stones[origin].departed and landing in self.board.start_set:
            return f"R-22: the stone on {show(origin)} has left the start and may not end a move on it again"
        if self.board.far_side(origin) and not self.board.far_side(landing):
            return f"R-23: the stone on {show(origin)} is beyond the chasm and may not go back"
        if not self.stays_connected(origin, landing):
            return f"R-24: the caravan would fall apart if {show(origin)} went to {show(landing)}"
        return None


def caravan(state: NomadiState, board: Board) -> Caravan:
    """The stones of a game state on the board, as the move generator sees them: one shared,
    read-only :class:`Caravan` per arrangement of stones (the last few are kept)."""
    return _position(board, tuple((s["cell"][0], s["cell"][1], s["departed"], s["locked"])
                                  for s in state["stones"] if s["cell"]))


_STONE_AT = {(departed, locked): StoneAt(departed=departed, locked=locked)
             for departed in (False, True) for locked in (False, True)}


@functools.lru_cache(maxsize=64)
def _position(board: Board, stones: tuple[tuple[int, int, bool, bool], ...]) -> Caravan:
    """The :class:`Caravan` of ``stones`` (``(row, col, departed, locked)`` each) on ``board``."""
    return Caravan(board, {(row, col): _STONE_AT[departed, locked] for row, col, departed, locked in stones})

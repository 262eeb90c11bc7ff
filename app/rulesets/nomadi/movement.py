"""The move generator: where one die may take one stone (Spec §2.4, R-19 .. R-26).

:class:`Caravan` is a position seen by the generator: the board and the stones on it.  It answers
"where may this stone go with this die?" and, for a refused move, which rule refuses it.  R-18
(same number twice) needs the turn's history and is left to the caller as a set of forbidden
landings.

Connectivity (R-24) is checked without trying every landing: one pass finds the stones whose
removal splits the caravan (articulation points).  Without any other stone the rest stays whole
and a landing only has to touch it; without a splitting stone the rest falls into components
(counted once per stone), and a landing keeps the caravan connected exactly when it touches
every one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from app.rulesets.nomadi.board import ALL_AROUND, ORTHOGONAL, Board, Cell, show, step
from app.rulesets.nomadi.state import NomadiState


@dataclass(frozen=True)
class StoneAt:
    """What the generator needs to know of one stone: whether it left the start (R-27) and
    whether it is locked in the goal (R-31)."""

    departed: bool = True
    locked: bool = False


class Caravan:
    """The stones on ``board``: cell -> :class:`StoneAt` (locked stones are those in the goal)."""

    def __init__(self, board: Board, stones: Mapping[Cell, StoneAt]) -> None:
        self.board = board
        self.stones = dict(stones)
        self._split: dict[Cell, tuple[dict[Cell, int], int]] = {}
        self._cuts: set[Cell] | None = None
        self._cuts_known = False

    # -- R-5 and R-19 -----------------------------------------------------------------------

    def free_side(self, cell: Cell) -> bool:
        """Spec R-5 and R-19b: some N4 neighbour holds no stone (empty, blocked or off the board)."""
        around = self.board.neighbours[cell]
        return len(around) < 4 or any(n not in self.stones for n in around)

    def movable(self, cell: Cell) -> bool:
        """Spec R-19: not locked in the goal, and at least one free side before the move."""
        stone = self.stones[cell]
        return not stone.locked and self.free_side(cell)

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

    def stays_connected(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-4 and R-24: ``(caravan - origin) + landing`` forms one N4 component."""
        around = self.board.neighbours[landing]
        cuts = self._cut_stones()
        if cuts is not None and origin not in cuts:
            # the rest stays one piece: the landing only has to touch it
            return len(self.stones) == 1 or any(n in self.stones and n != origin for n in around)
        label, count = self._components_without(origin)
        return len({label[n] for n in around if n in label}) == count

    # -- R-20 .. R-23 -----------------------------------------------------------------------

    def _run(self, cell: Cell, direction: Cell, most: int) -> int:
        """How many stones stand in a row from ``cell + direction`` on (counting at most ``most``)."""
        stones = self.stones
        count = 0
        row, col = cell
        while count < most:
            row, col = row + direction[0], col + direction[1]
            if (row, col) not in stones:
                break
            count += 1
        return count

    def _open(self, cell: Cell) -> bool:
        return cell not in self.stones and cell in self.board.playable_cells

    def reachable(self, origin: Cell, value: int) -> set[Cell]:
        """Spec R-20, R-21: landings of a die ``value`` from ``origin`` over exactly ``value - 1``
        stones, onto a playable empty cell (nothing else checked).

        Walks the rows of stones instead of trying every shape of :func:`board.paths` (the two
        agree; the tests check it): a jump in direction ``d`` needs a row of exactly ``value - 1``
        stones; a turned jump (5, 6) turns on the ``t``-th stone of the first row and needs a
        row of exactly ``value - 1 - t`` stones after the turn.
        """
        if value == 1:
            return {cell for cell in (step(origin, offset) for offset in ALL_AROUND) if self._open(cell)}
        found = set()
        jumped = value - 1
        for first in ORTHOGONAL:
            run = self._run(origin, first, jumped)
            if run == 0:
                continue
            if run == jumped:
                landing = step(origin, first, value)
                if self._open(landing):
                    found.add(landing)
            if value < 5:
                continue
            for t in range(1, run + 1):
                corner = step(origin, first, t)
                rest = jumped - t
                for second in ((first[1], first[0]), (-first[1], -first[0])):
                    if self._run(corner, second, rest) == rest:
                        landing = step(corner, second, rest + 1)
                        if self._open(landing):
                            found.add(landing)
        return found

    def allowed_end(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-22 and R-23: a departed stone never ends on a start cell; a stone on the far side
        stays there."""
        if self.stones[origin].departed and landing in self.board.start_set:
            return False
        return not (self.board.far_side(origin) and not self.board.far_side(landing))

    def _legal(self, origin: Cell, value: int, forbidden: Iterable[Cell]) -> Iterator[Cell]:
        if origin not in self.stones or not self.movable(origin):
            return
        blocked = set(forbidden)
        for landing in self.reachable(origin, value):
            if landing not in blocked and self.allowed_end(origin, landing) and self.stays_connected(origin, landing):
                yield landing

    def landings(self, origin: Cell, value: int, forbidden: Iterable[Cell] = ()) -> list[Cell]:
        """Spec R-19 .. R-24 (and R-18 through ``forbidden``): every legal landing, sorted."""
        return sorted(self._legal(origin, value, forbidden))

    def moves(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> dict[Cell, list[Cell]]:
        """Every stone with at least one legal landing for ``value`` -> its landings (reading order)."""
        forbidden = forbidden or {}
        found = {}
        for origin in sorted(self.stones):
            targets = self.landings(origin, value, forbidden.get(origin, ()))
            if targets:
                found[origin] = targets
        return found

    def can_use(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> bool:
        """Whether a die of ``value`` has any legal move (R-14, R-16, R-17)."""
        forbidden = forbidden or {}
        return any(next(self._legal(origin, value, forbidden.get(origin, ())), None) for origin in self.stones)

    def refusal(self, origin: Cell, value: int, landing: Cell) -> str | None:
        """Why the move ``origin -> landing`` with ``value`` breaks R-19 .. R-24, or ``None`` if it does not.

        The message starts with the rule it breaks, e.g. ``"R-24: ..."``.
        """
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
    """The stones of a game state on the board, as the move generator sees them."""
    return Caravan(
        board,
        {(s["cell"][0], s["cell"][1]): StoneAt(departed=s["departed"], locked=s["locked"]) for s in state["stones"] if s["cell"]},
    )

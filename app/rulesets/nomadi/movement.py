"""The move generator: where one die may take one stone (Spec §2.4, R-19 .. R-26).

The rules ask ``bitboard.Position``, the same answers on bit masks and several times faster
(a random game took over 0.4 s on this one); this straightforward generator stays as its reference (``tests/rulesets/
test_nomadi_bitboard.py``), for the words of a refused move, and for the bot (``evaluation.py``).

:class:`Caravan` is a position seen by the generator: the board and the stones on it.  It answers
"where may this stone go with this die?" and, for a refused move, which rule refuses it.  R-18
(same number twice) needs the turn's history and is left to the caller as a set of forbidden
landings.

A position works out its legal moves once per die value, for every movable stone at a time
(:meth:`Caravan._table`), and keeps them; :func:`caravan` hands out one shared position per
arrangement of stones (a small cache), so ``legal_moves``, the check of a move in ``apply``, "can
the turn go on?" after it and the next ``legal_moves`` ask the same stones once.

* R-20: the rows of stones next to every stone are counted once (:meth:`Caravan._run`); a row of
  ``run`` stones is the straight jump of a ``run + 1``, and a 5 or 6 turns on one of its stones.
* R-24: one depth-first search finds how the caravan falls apart without each stone (the pieces
  are subtrees of the search, Tarjan's articulation points).  A landing keeps the caravan
  connected exactly when it touches every piece of the rest; a landing of a 2 to 6 always touches
  the last stone it jumped, so it only needs checking when the rest is in several pieces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from app.rulesets.nomadi.board import ALL_AROUND, ORTHOGONAL, Board, Cell, show
from app.rulesets.nomadi.state import NomadiState

PLACEHOLDER = re.compile(r"\{(\w+)\}")
"""A ``{name}`` of a refusal's template."""

DIE_VALUES = range(1, 7)
TURNED = (5, 6)
"""R-20: the die values whose path may turn once (on a jumped stone)."""
NOTHING: list[Cell] = []
NO_CELLS: frozenset[Cell] = frozenset()
"""No landing (shared: never changed)."""


@dataclass(frozen=True)
class StoneAt:
    """What the generator needs to know of one stone: whether it left the start (R-27) and
    whether it is locked in the goal (R-31)."""

    departed: bool = True
    locked: bool = False


class LandingTable:
    """The move generator's answers read off a table of legal landings per die value, shared by
    :class:`Caravan` (the reference) and ``bitboard.Position`` (the fast road): each gives
    ``_table(value)``, every movable stone with a legal landing for ``value`` (reading order) ->
    its legal landings, sorted (Spec R-19 .. R-24 without R-18)."""

    def _table(self, value: int) -> dict[Cell, list[Cell]]:
        raise NotImplementedError

    def moves(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> dict[Cell, list[Cell]]:
        """Every stone with at least one legal landing for ``value`` -> its landings (reading order),
        without those in ``forbidden`` (origin -> landings R-18 rules out)."""
        allowed = {}
        for origin, targets in self._table(value).items():
            blocked = forbidden.get(origin) if forbidden else None
            kept = [cell for cell in targets if cell not in blocked] if blocked else list(targets)
            if kept:
                allowed[origin] = kept
        return allowed

    def can_use(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> bool:
        """Whether a die of ``value`` has any legal move (R-14, R-16, R-17)."""
        table = self._table(value)
        if not forbidden:
            return bool(table)
        return any(any(cell not in forbidden.get(origin, ()) for cell in targets) for origin, targets in table.items())


class Caravan(LandingTable):
    """The stones on ``board``: cell -> :class:`StoneAt` (locked stones are those in the goal).

    Answers are worked out on first use and kept, so the stones of a position must not change once
    it is made: a position from :func:`caravan` is shared by every state with the same stones (and
    by threads: each answer is stored whole, once worked out).
    """

    def __init__(self, board: Board, stones: Mapping[Cell, StoneAt]) -> None:
        self.board = board
        self.stones = dict(stones)
        self._split: dict[Cell, tuple[dict[Cell, int], int]] = {}
        self._runs: list[dict[Cell, int]] | None = None
        self._search: _Search | None = None
        self._straight: dict[Cell, dict[int, set[Cell]]] = {}
        self._turned: dict[Cell, dict[int, set[Cell]]] = {}
        self._movable: list[Cell] | None = None
        self._moves: dict[int, dict[Cell, list[Cell]]] = {}

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

    def _searched(self) -> _Search:
        if self._search is None:
            self._search = _Search(self.board, self.stones)
        return self._search

    def _cut_stones(self) -> set[Cell] | None:
        """The stones whose removal splits the caravan (Tarjan's articulation points), or ``None``
        when the caravan is not connected to begin with."""
        search = self._searched()
        if not search.connected:
            return None
        return {cell for cell in self.stones if search.pieces_without(cell) > 1}

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

    def _pieces(self, origin: Cell) -> int:
        """How many N4 components the caravan minus ``origin`` has."""
        search = self._searched()
        if search.connected:
            return search.pieces_without(origin)
        return self._components_without(origin)[1]

    def _touches_every_piece(self, origin: Cell, landing: Cell, pieces: int) -> bool:
        """Whether ``landing`` touches each of the ``pieces`` (> 1) components of the caravan minus ``origin``."""
        around = [n for n in self.board.neighbours[landing] if n in self.stones and n != origin]
        if len(around) < pieces:
            return False
        search = self._searched()
        if search.connected:
            return len({search.piece_of(origin, n) for n in around}) == pieces
        label = self._components_without(origin)[0]
        return len({label[n] for n in around}) == pieces

    def stays_connected(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-4 and R-24: ``(caravan - origin) + landing`` forms one N4 component."""
        pieces = self._pieces(origin)
        if pieces <= 1:
            # the rest is one piece (or nothing): the landing only has to touch it
            stones = self.stones
            return len(stones) == 1 or any(n in stones and n != origin for n in self.board.neighbours[landing])
        return self._touches_every_piece(origin, landing, pieces)

    # -- R-20 .. R-23 -----------------------------------------------------------------------

    def _run_table(self) -> list[dict[Cell, int]]:
        """Per direction of ``ORTHOGONAL``: stone -> how many stones stand in a row after it in
        that direction (counted once, from the end of each row back)."""
        if self._runs is None:
            stones = self.stones
            tables = []
            for down, right in ORTHOGONAL:
                runs: dict[Cell, int] = {}
                for row, col in stones:
                    if (row + down, col + right) not in stones:  # the end of a row: count back from it
                        count = 0
                        while (row, col) in stones:
                            runs[row, col] = count
                            row, col, count = row - down, col - right, count + 1
                tables.append(runs)
            self._runs = tables
        return self._runs

    def _run(self, cell: Cell, direction: int) -> int:
        """How many stones stand in a row from ``cell`` on in ``ORTHOGONAL[direction]`` (not
        counting ``cell``)."""
        found = self._run_table()[direction].get(cell)
        if found is None:  # not a stone
            down, right = ORTHOGONAL[direction]
            row, col = cell
            found = 0
            while (row + down, col + right) in self.stones:
                row, col, found = row + down, col + right, found + 1
        return found

    def _reach_from(self, origin: Cell, value: int) -> AbstractSet[Cell]:
        """Spec R-20, R-21: the playable empty cells a die of ``value`` takes ``origin`` to over
        exactly ``value - 1`` stones (nothing else checked); kept per stone.

        Walks the rows of stones instead of trying every shape of :func:`board.paths` (the two
        agree; the tests check it).  A row of ``run`` stones in direction ``d`` is the straight
        jump of a ``run + 1`` (the cell after the row is free by construction), worked out for
        every value at once; a 5 or a 6 may also turn on the ``t``-th stone of that row and go on
        over a row of ``rest`` stones, a die of ``t + rest + 1`` (worked out when first asked).
        """
        straight = self._straight.get(origin)
        if straight is None:
            straight = self._straight[origin] = self._straight_from(origin)
        if value not in TURNED:
            return straight.get(value) or NO_CELLS
        turned = self._turned.get(origin)
        if turned is None:
            turned = self._turned[origin] = self._turned_from(origin)
        return turned[value] | straight.get(value, set())

    def _runs_from(self, origin: Cell) -> list[int]:
        """The rows of stones after ``origin`` in each direction of ``ORTHOGONAL``."""
        if origin in self.stones:
            return [runs[origin] for runs in self._run_table()]
        return [self._run(origin, direction) for direction in range(4)]

    def _straight_from(self, origin: Cell) -> dict[int, set[Cell]]:
        """A 1 (the eight cells around) and the straight jumps of a 2 to 6 from ``origin``."""
        stones, playable = self.stones, self.board.playable_cells
        row, col = origin
        around = self.board.around.get(origin)
        if around is None:  # off the board or blocked
            around = tuple(cell for cell in ((row + dr, col + dc) for dr, dc in ALL_AROUND) if cell in playable)
        found = {1: {cell for cell in around if cell not in stones}}
        for run, (down, right) in zip(self._runs_from(origin), ORTHOGONAL):
            if 0 < run < 6:
                landing = (row + (run + 1) * down, col + (run + 1) * right)
                if landing in playable:
                    found.setdefault(run + 1, set()).add(landing)
        return found

    def _turned_from(self, origin: Cell) -> dict[int, set[Cell]]:
        """The turned jumps of a 5 and a 6 from ``origin``: value -> landings."""
        playable, runs = self.board.playable_cells, self._run_table()
        row, col = origin
        found: dict[int, set[Cell]] = {value: set() for value in TURNED}
        for direction, run in enumerate(self._runs_from(origin)):
            down, right = ORTHOGONAL[direction]
            for t in range(1, min(run, TURNED[-1] - 1) + 1):
                corner = (row + t * down, col + t * right)
                for second in ((direction + 1) % 4, (direction + 3) % 4):  # a quarter turn either way
                    rest = runs[second][corner]  # the corner is a stone
                    if t + rest + 1 in found:
                        across, along = ORTHOGONAL[second]
                        landing = (corner[0] + (rest + 1) * across, corner[1] + (rest + 1) * along)
                        if landing in playable:
                            found[t + rest + 1].add(landing)
        return found

    def reachable(self, origin: Cell, value: int) -> set[Cell]:
        """Spec R-20, R-21: landings of a die ``value`` (1 to 6) from ``origin`` over exactly
        ``value - 1`` stones, onto a playable empty cell (nothing else checked)."""
        return set(self._reach_from(origin, value)) if value in DIE_VALUES else set()

    def allowed_end(self, origin: Cell, landing: Cell) -> bool:
        """Spec R-22 and R-23: a departed stone never ends on a start cell; a stone on the far side
        stays there."""
        if self.stones[origin].departed and landing in self.board.start_set:
            return False
        return not (self.board.far_side(origin) and not self.board.far_side(landing))

    # -- R-19 .. R-24 together ----------------------------------------------------------------

    def _movers(self) -> list[Cell]:
        """The cells of the movable stones (R-19), in reading order."""
        if self._movable is None:
            self._movable = [cell for cell in sorted(self.stones) if self.movable(cell)]
        return self._movable

    def _table(self, value: int) -> dict[Cell, list[Cell]]:
        """Spec R-19 .. R-24 without R-18 for a die of ``value``: every movable stone with a legal
        landing (reading order) -> its legal landings, sorted; worked out once per value.

        The same checks as :meth:`refusal`, arranged for speed: R-22/R-23 by set lookups, and R-24
        only where it can fail (a 2 to 6 ends next to the last stone it jumped, so it touches the
        rest when the rest is one piece)."""
        found = self._moves.get(value)
        if found is None:
            found = {}
            stones, neighbours, board = self.stones, self.board.neighbours, self.board
            start, far_cells = board.start_set, board.far_cells
            alone, search = len(stones) == 1, self._searched()
            for origin in self._movers():
                cells = self._reach_from(origin, value)
                if not cells:
                    continue
                pieces = search.pieces_without(origin) if search.connected else self._pieces(origin)
                departed, far = stones[origin].departed, origin in far_cells
                kept = []
                for landing in cells:
                    if (departed and landing in start) or (far and landing not in far_cells):
                        continue
                    if pieces > 1:
                        if not self._touches_every_piece(origin, landing, pieces):
                            continue
                    elif value == 1 and not alone and not any(n in stones and n != origin for n in neighbours[landing]):
                        continue
                    kept.append(landing)
                if kept:
                    found[origin] = sorted(kept)
            self._moves[value] = found
        return found

    def _legal_landings(self, origin: Cell, value: int) -> list[Cell]:
        """The legal landings of the stone on ``origin`` with a die of ``value`` without R-18,
        sorted (empty for a cell without a movable stone)."""
        return self._table(value).get(origin, NOTHING)

    def _legal(self, origin: Cell, value: int, forbidden: Iterable[Cell]) -> Iterator[Cell]:
        targets = self._legal_landings(origin, value)
        if targets:
            blocked = forbidden if isinstance(forbidden, (set, frozenset)) else set(forbidden)
            yield from (landing for landing in targets if landing not in blocked)

    def landings(self, origin: Cell, value: int, forbidden: Iterable[Cell] = ()) -> list[Cell]:
        """Spec R-19 .. R-24 (and R-18 through ``forbidden``): every legal landing, sorted."""
        return list(self._legal(origin, value, forbidden))

    def refusal(self, origin: Cell, value: int, landing: Cell) -> str | None:
        """Why the move ``origin -> landing`` with ``value`` breaks R-19 .. R-24, or ``None`` if it does not.

        The message starts with the rule it breaks, e.g. ``"R-24: ..."`` (:meth:`refusal_template`
        filled in).
        """
        found = self.refusal_template(origin, value, landing)
        if found is None:
            return None
        template, params = found
        return PLACEHOLDER.sub(lambda match: str(params.get(match.group(1), match.group(0))), template)

    def refusal_template(self, origin: Cell, value: int, landing: Cell) -> tuple[str, dict[str, str | int]] | None:
        """:meth:`refusal` as a template and its parameters (``"R-21: {landing} is not a playable
        cell", {"landing": "C4"}``): one msgid of the game's catalog whatever the cells, so a
        player reads it in their language (docs/i18n.md)."""
        if landing in self._legal_landings(origin, value):
            return None
        cells: dict[str, str | int] = {"origin": show(origin), "landing": show(landing)}
        if origin not in self.stones:
            return "R-15: no stone stands on {origin}", cells
        if self.stones[origin].locked:
            return "R-19a: the stone on {origin} is locked in the goal", cells
        if not self.free_side(origin):
            return "R-19b: the stone on {origin} has no free side", cells
        if not self.board.playable(landing):
            return "R-21: {landing} is not a playable cell", cells
        if landing in self.stones:
            return "R-21: a stone already stands on {landing}", cells
        if landing not in self.reachable(origin, value):
            words: dict[str, str | int] = {**cells, "value": value, "count": value - 1}
            if value == 1:
                return "R-20: a {value} cannot take {origin} to {landing} over no stone", words
            if value == 2:
                return "R-20: a {value} cannot take {origin} to {landing} over exactly 1 stone", words
            return "R-20: a {value} cannot take {origin} to {landing} over exactly {count} stones", words
        if self.stones[origin].departed and landing in self.board.start_set:
            return "R-22: the stone on {origin} has left the start and may not end a move on it again", cells
        if self.board.far_side(origin) and not self.board.far_side(landing):
            return "R-23: the stone on {origin} is beyond the chasm and may not go back", cells
        if not self.stays_connected(origin, landing):
            return "R-24: the caravan would fall apart if {origin} went to {landing}", cells
        return None


def caravan(state: NomadiState, board: Board) -> Caravan:
    """The stones of a game state on the board, as the move generator sees them: one shared,
    read-only :class:`Caravan` per arrangement of stones (the last 64 are kept)."""
    return _position(board, tuple((s["cell"][0], s["cell"][1], s["departed"], s["locked"])
                                  for s in state["stones"] if s["cell"]))


_STONE_AT = {(departed, locked): StoneAt(departed=departed, locked=locked)
             for departed in (False, True) for locked in (False, True)}


@functools.lru_cache(maxsize=64)
def _position(board: Board, stones: tuple[tuple[int, int, bool, bool], ...]) -> Caravan:
    """The :class:`Caravan` of ``stones`` (``(row, col, departed, locked)`` each) on ``board``."""
    return Caravan(board, {(row, col): _STONE_AT[departed, locked] for row, col, departed, locked in stones})


class _Search:
    """One depth-first search of the caravan (iterative), kept for the connectivity questions
    of R-24: whether the caravan is connected, and how it falls apart without one stone."""

    def __init__(self, board: Board, stones: Mapping[Cell, StoneAt]) -> None:
        neighbours = board.neighbours
        self.index: dict[Cell, int] = {}
        """The order in which the search reached each stone."""
        self.last: dict[Cell, int] = {}
        """The highest index in each stone's subtree (its subtree is ``index..last``)."""
        self.low: dict[Cell, int] = {}
        self.children: dict[Cell, list[Cell]] = {}
        self.root: Cell | None = None
        if stones:
            self.root = next(iter(stones))
            index, low = self.index, self.low
            index[self.root] = low[self.root] = 0
            self.children[self.root] = []
            stack: list[tuple[Cell, Cell | None, Iterator[Cell]]] = [(self.root, None, iter(neighbours[self.root]))]
            while stack:
                cell, parent, around = stack[-1]
                for n in around:
                    if n not in stones:
                        continue
                    if n not in index:
                        index[n] = low[n] = len(index)
                        self.children[cell].append(n)
                        self.children[n] = []
                        stack.append((n, cell, iter(neighbours[n])))
                        break
                    if n != parent and index[n] < low[cell]:
                        low[cell] = index[n]
                else:
                    stack.pop()
                    self.last[cell] = len(index) - 1  # the search numbers a subtree in one stretch
                    if parent is not None and low[cell] < low[parent]:
                        low[parent] = low[cell]
        self.connected = len(self.index) == len(stones)
        self._apart: dict[Cell, list[Cell]] = {}

    def _split_off(self, cell: Cell) -> list[Cell]:
        """The children of ``cell`` whose subtrees lose touch with the rest without ``cell``."""
        found = self._apart.get(cell)
        if found is None:
            found = [child for child in self.children[cell] if self.low[child] >= self.index[cell]]
            self._apart[cell] = found
        return found

    def pieces_without(self, cell: Cell) -> int:
        """How many components a connected caravan minus ``cell`` has: one per split-off subtree,
        and one for the rest unless ``cell`` is the root of the search."""
        return len(self._split_off(cell)) + (cell != self.root)

    def piece_of(self, without: Cell, cell: Cell) -> Cell | None:
        """Which component of the caravan minus ``without`` holds ``cell``: the split-off child
        whose subtree holds it, or ``None`` for the rest."""
        where = self.index[cell]
        for child in self._split_off(without):
            if self.index[child] <= where <= self.last[child]:
                return child
        return None

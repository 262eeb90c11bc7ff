"""The move generator on bitboards: the same answers as ``movement.Caravan``, several times faster.

A cell ``(row, col)`` is bit ``row * W + col`` of a Python int, with ``W = width + 1``: one column
past the board's edge stays empty in every mask, so a step sideways never wraps onto the next row.
A set of cells is one int; "the cells from which a step in direction ``d`` lands in ``M``" is
``M`` shifted by one step (:func:`_back`), so the rows of stones next to every stone are a few
shifts and ANDs for all stones at once.

* R-20, R-21: ``runs[7 * d + k]`` is the set of cells followed by ``k`` stones in a row in
  direction ``d`` (:class:`Position`).  A die of ``v`` jumps straight from a movable stone ``o``
  when ``o`` is in ``runs[7 * d + v - 1]`` and the cell ``v`` steps on is free; a 5 or 6 turns
  on the ``t``-th stone (``1 <= t <= v - 1``) when that stone is followed by ``v - t - 1`` stones
  and a free cell in a perpendicular direction.  Every path shape of ``board.paths`` is one such mask.
* R-19: a movable stone is not locked and not in ``runs[7 * d + 1]`` for all four directions.
* R-22, R-23: a path's landing lies a fixed offset from its origin, so the origins it is barred
  to (a departed stone landing on a start cell, a far-side stone landing off the far side) are
  masks made once per board and path (``Grid.straight``, ``Grid.turned``); a 1 tests its origin.
* R-24: the caravan minus the moving stone falls into pieces; a landing must touch every piece.
  One depth-first search of the caravan per position (Tarjan's cut vertices) gives the pieces:
  the subtrees (as one mask) of the search children that hang on the stone alone, and the rest.
  A 2 to 6 ends next to the last stone it jumped, so with one piece only a 1 needs checking.

A caravan that is not connected (never in the dice phase: placement builds it connected and
R-24 keeps it so) is answered by ``movement.Caravan`` itself.  ``tests/rulesets/
test_nomadi_bitboard.py`` checks both generators agree on many random positions.

When the C module ``_movegen`` (``_movegen.c``, built by ``setup.py`` where a compiler is) imports,
a :class:`Position` hands R-19 .. R-24 to it instead (:data:`MOVEGEN`): the same answers in a
tenth of the time, since here each operation on a 340-bit mask allocates an int.  The Python code
stays as the fallback (no compiler, or ``CARAVANSERAI_PURE_PYTHON=1``);
``tests/rulesets/test_nomadi_movegen.py`` checks both give the same games.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import orjson

from app.rulesets.nomadi.board import ORTHOGONAL, Board, Cell
from app.rulesets.nomadi.movement import Caravan, LandingTable, StoneAt
from app.rulesets.nomadi.state import NomadiState, Stone

StoneKey = tuple[tuple[int, int, bool, bool], ...]
"""The stones on the board as ``(row, col, departed, locked)``, in stone order."""


def _movegen() -> ModuleType | None:
    """The C move generator, or ``None`` (not built, or ``CARAVANSERAI_PURE_PYTHON=1``)."""
    if os.environ.get("CARAVANSERAI_PURE_PYTHON") == "1":
        return None
    try:
        from app.rulesets.nomadi import _movegen as compiled  # type: ignore[attr-defined]
    except ImportError:
        return None
    return compiled


MOVEGEN: ModuleType | None = _movegen()
"""The C move generator :class:`Position` uses, or ``None`` for the Python one; read when a
:class:`Grid` is made (:func:`use_movegen`)."""


def use_movegen(compiled: ModuleType | None) -> None:
    """Make every later position with the C move generator ``compiled`` (``None``: the Python one),
    forgetting the grids and positions made so far; for the tests that compare the two."""
    global MOVEGEN
    MOVEGEN = compiled
    grid.cache_clear()
    _POSITIONS.clear()

def _back(mask: int, offset: int) -> int:
    """The cells ``x`` such that ``x + offset`` is in ``mask`` (bits pushed below 0 are dropped)."""
    return mask >> offset if offset > 0 else mask << -offset


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class Grid:
    """A board as bit masks (module docstring): cell <-> bit, and the fixed masks of its cells."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.width = W = board.width + 1
        self.bit: dict[Cell, int] = {(row, col): row * W + col for row in range(board.height) for col in range(board.width)}
        self.cell: dict[int, Cell] = {bit: cell for cell, bit in self.bit.items()}
        self.playable = self.mask(board.playable_cells)
        self.start = self.mask(board.start_set)
        self.far = self.mask(board.far_cells)
        self.far_bits = frozenset(self.bit[cell] for cell in board.far_cells)
        self.off_start = self.playable & ~self.start
        """The playable cells off the start (R-22), and the bits of the far side (R-23)."""
        self.steps = tuple(down * W + right for down, right in ORTHOGONAL)
        """The bit offset of one step in each direction of ``ORTHOGONAL``."""
        self.around = {self.bit[cell]: self.mask(cells) for cell, cells in board.around.items()}
        """Bit of a playable cell -> its playable N8 neighbours (the landings of a 1)."""
        self.side_mask = {self.bit[cell]: self.mask(cells) for cell, cells in board.neighbours.items()}
        """Bit of a playable cell -> its playable N4 neighbours."""
        self.sides = {self.bit[cell]: tuple(self.bit[n] for n in cells) for cell, cells in board.neighbours.items()}
        self.adjacent = {here: (sides, self.side_mask[here]) for here, sides in self.sides.items()}
        """Bit of a playable cell -> its playable N4 neighbours, as bits and as a mask (the search
        of :func:`_visit`)."""
        self.size = board.height * W
        """How many bits a mask of this board may use."""
        self.all = (1 << self.size) - 1
        self.perpendicular = ((1, 3), (0, 2), (1, 3), (0, 2))
        """R-20: the directions a 5 or a 6 may turn to after each direction of ``ORTHOGONAL``."""
        self.turns = {value: tuple(
            tuple((7 * first + t, t * self.steps[first],
                   tuple((7 * second + value - t, (value - t) * self.steps[second]) for second in seconds))
                  for t in range(1, value))
            for first, seconds in enumerate(self.perpendicular)) for value in (5, 6)}
        """R-20, the paths of a 5 or a 6 that turn, per first direction and per number ``t`` of
        stones before the turn: ``(row, ahead, ((corner, jump), ...))``, where ``runs[row]`` holds
        the origins followed by ``t`` stones, ``ahead`` is the bit offset of the turning stone
        from the origin, ``ends[corner]`` holds the turning stones followed by the rest of the row
        and a free cell in each direction it may turn to, and ``jump`` is the bit offset of the
        landing from the turning stone (:meth:`Position._jumps`)."""
        self.not_far = self.all & ~self.far
        self.not_start = self.all & ~self.start
        self.straight = {value: tuple((7 * direction + value, value * offset, *self._barred(value * offset))
                                      for direction, offset in enumerate(self.steps)) for value in range(2, 7)}
        """R-20 and R-22, R-23 for the straight jumps of each ``value``, one per direction:
        ``(row, jump, start, far)``: ``Position.ends[row]`` holds their origins, ``jump`` is the
        bit offset of the landing from the origin, ``start`` the origins whose landing is a start
        cell (barred to a stone that left the start) and ``far`` the far-side origins whose
        landing is not on the far side (:meth:`_barred`)."""
        self.compiled: Any = None if MOVEGEN is None else MOVEGEN.Grid(
            board.height, W, self._flags(self.playable), self._flags(self.start), self._flags(self.far))
        """This board for the C move generator (``_movegen.Grid``), or ``None``."""
        self.turned = {value: tuple(
            tuple((row, ahead, tuple((corner, ahead + jump, self._barred(ahead + jump)) for corner, jump in corners))
                  for row, ahead, corners in rows)
            for rows in self.turns[value]) for value in (5, 6)}
        """:attr:`turns` with the landing's bit offset from the origin (``ahead + jump``) and its
        :meth:`_barred` masks in place of ``jump``: ``(row, ahead, ((corner, reach, (start, far)), ...))``."""

    def _barred(self, reach: int) -> tuple[int, int]:
        """R-22, R-23 for the landings ``reach`` bits from their origins: the cells whose landing
        would be a start cell, and the far-side cells whose landing would not be on the far side."""
        return _back(self.start, reach) & self.all, self.far & _back(self.not_far, reach)

    def _flags(self, mask: int) -> bytes:
        """``mask`` as one byte (0 or 1) per bit of the board."""
        return bytes(mask >> at & 1 for at in range(self.size))

    def mask(self, cells) -> int:
        found = 0
        for cell in cells:
            found |= 1 << self.bit[cell]
        return found

    def spread(self, mask: int) -> int:
        """The cells next to (N4) a cell of ``mask``, pad column included (never a landing)."""
        W = self.width
        return (mask << 1 | mask >> 1 | mask << W | mask >> W) & self.all


@functools.lru_cache(maxsize=8)
def grid(board: Board) -> Grid:
    """The :class:`Grid` of ``board`` (made once per board)."""
    return Grid(board)


class Position(LandingTable):
    """The stones of one arrangement as bit masks; answers the move generator's questions
    (``moves``, ``can_use``, ``refusal``) like ``movement.Caravan`` and keeps its answers, so it
    must not change once made (it is shared: :func:`position`).

    ``Position(board, stones)`` takes the stones as a :data:`StoneKey`; :func:`position` builds one
    straight from a state's stones (:meth:`from_masks`), the key made from their JSON text only
    when asked for (:attr:`key`)."""

    def __init__(self, board: Board, stones: StoneKey) -> None:
        g = grid(board)
        W = g.width
        S = locked = departed = 0
        bits: set[int] = set()
        for row, col, has_left, is_locked in stones:
            at = row * W + col
            bits.add(at)
            b = 1 << at
            S |= b
            if has_left:
                departed |= b
            if is_locked:
                locked |= b
        self._key: StoneKey | None = stones
        self._text: bytes | None = None
        self._setup(board, g, S, departed, locked, bits)

    @classmethod
    def from_masks(cls, board: Board, text: bytes, S: int, departed: int, locked: int, bits: set[int]) -> Position:
        """The position of the stones whose JSON text (a state's ``stones``) is ``text``, given as
        masks (every stone, those departed, those locked) and the set of their bits."""
        self = cls.__new__(cls)
        self._key, self._text = None, text
        self._setup(board, grid(board), S, departed, locked, bits)
        return self

    @property
    def key(self) -> StoneKey:
        """The stones as ``(row, col, departed, locked)``, in stone order."""
        if self._key is None:
            assert self._text is not None
            self._key = tuple((s["cell"][0], s["cell"][1], s["departed"], s["locked"])
                              for s in orjson.loads(self._text) if s["cell"])
        return self._key

    def _setup(self, board: Board, g: Grid, S: int, departed: int, locked: int, bits: set[int]) -> None:
        self.board, self.grid = board, g
        self.S, self.departed, self.locked, self.bits = S, departed, locked, bits
        """The stones as one mask, those that left the start (R-27), those locked in the goal
        (R-19a), and the set of the stones' bits."""
        self._masks: dict[int, dict[int, int]] = {}
        self._moves: dict[int, dict[Cell, list[Cell]]] | None = None
        self._reference: Caravan | None = None
        self.dice_moves: dict[bytes, list] = {}
        """Room for the rules to keep the die moves they listed from this position (the rules'
        own key: the dice unused and the returns R-18 forbids, ``rules._dice_moves``)."""
        self.compiled: Any = None if g.compiled is None else g.compiled.layout(S, departed, locked)
        """The stones for the C move generator (``_movegen.Layout``), or ``None``: then the masks
        below answer."""
        if self.compiled is not None:
            self.connected = self.compiled.connected
            return
        free = self.free = g.playable & ~S
        every = g.all
        runs: list[int] = []
        ends: list[int] = []
        for offset in g.steps:
            if offset > 0:
                here = S >> offset
                after = free >> offset  # the cells followed by a free cell at k steps
                runs += (every, here)
                ends += (0, S & after)
                for k in range(2, 7):
                    here &= S
                    if not here:  # no row of k - 1 stones: none longer either
                        runs += _ZEROS[k]
                        ends += _ZEROS[k]
                        break
                    after >>= offset
                    ends.append(here & after)
                    here >>= offset
                    runs.append(here)
            else:
                back = -offset
                here = S << back
                after = free << back
                runs += (every, here)
                ends += (0, S & after)
                for k in range(2, 7):
                    here &= S
                    if not here:
                        runs += _ZEROS[k]
                        ends += _ZEROS[k]
                        break
                    after <<= back
                    ends.append(here & after)
                    here <<= back
                    runs.append(here)
        self.runs = runs
        """``runs[7 * d + k]``: the cells followed by ``k`` stones in a row in direction ``d``."""
        self.ends = ends
        """``ends[7 * d + k]``: the stones followed by ``k - 1`` stones in a row and then a free
        cell in direction ``d`` (the straight jumps of a ``k``)."""
        self.movers = S & ~locked & ~(runs[1] & runs[8] & runs[15] & runs[22])
        """R-19: the stones not locked in the goal with a free side."""
        self._joining: dict[int, int] = {}
        self._touch: tuple[int, int] | None = None
        # one depth-first search (Tarjan's cut vertices), from the first stone in reading order
        self.root = root = (S & -S).bit_length() - 1
        apart: dict[int, tuple[int, int, int]] = {}
        if S:
            index: dict[int, int] = {}
            _visit(root, bits, g.adjacent, index, apart)
            self.connected = len(index) == len(bits)
        else:
            self.connected = True
        """R-4: the stones form one N4 piece (the search reached them all)."""
        self.apart = apart
        """Stone bit -> the subtrees of its search children that hang on it alone, as ``(mask,
        cells next to every one, how many)`` (the stones of all of them; the playable N4
        neighbours of each subtree's stones, ANDed): the stones below such a child reach no stone
        above the stone by a side step, so without the stone they are a piece of their own."""
        self.cut_root = root in apart and apart[root][2] > 1
        """Whether the caravan falls into pieces without the root; without any other stone of
        :attr:`apart` it does (R-24)."""

    def reference(self) -> Caravan:
        """This arrangement as ``movement.Caravan`` (for the words of a refusal, and a caravan in
        several pieces)."""
        if self._reference is None:
            self._reference = Caravan(self.board, {(row, col): StoneAt(departed=departed, locked=locked)
                                                   for row, col, departed, locked in self.key})
        return self._reference

    # -- R-19 .. R-24: the landings of every movable stone --------------------------------

    def _jumps(self, value: int) -> dict[int, int]:
        """Movable stone (bit) -> its landings (mask) with a die of ``value`` from 2 to 6, R-19 ..
        R-23 (R-24 is :meth:`landings`'): the straight jumps over ``value - 1`` stones, and the
        paths of a 5 or 6 that turn once (``Grid.turned``).  R-22 and R-23 take whole sets of
        origins out at once (``Grid.straight``, ``Grid.turned``: where the landing lies is fixed by the path)."""
        g, movers, ends, departed = self.grid, self.movers, self.ends, self.departed
        found: dict[int, int] = {}
        for row, jump, start, far in g.straight[value]:
            origins = movers & ends[row]
            if origins:
                barred = departed & start | far
                if origins & barred:
                    origins &= ~barred
                while origins:
                    low = origins & -origins
                    origin = low.bit_length() - 1
                    origins ^= low
                    found[origin] = found.get(origin, 0) | 1 << (origin + jump)
        if value >= 5:
            runs = self.runs
            for rows in g.turned[value]:
                for row, ahead, corners in rows:
                    base = movers & runs[row]
                    if not base:
                        break  # a longer row is a subset of this one
                    at = base << ahead if ahead > 0 else base >> -ahead  # the turning stones
                    for corner, reach, (start, far) in corners:
                        turns = at & ends[corner]
                        if not turns:
                            continue
                        origins = turns >> ahead if ahead > 0 else turns << -ahead
                        barred = departed & start | far
                        if origins & barred:
                            origins &= ~barred
                        while origins:
                            low = origins & -origins
                            origin = low.bit_length() - 1
                            origins ^= low
                            found[origin] = found.get(origin, 0) | 1 << (origin + reach)
        return found

    def _joins(self, origin: int) -> int:
        """R-24 for the cut stone on bit ``origin`` (in :attr:`apart`, :attr:`cut_root`): the cells that touch
        every piece of the rest of the caravan, the subtrees that hang on it alone (their
        neighbour cells come with them) and the rest but for the root; worked out once per stone."""
        pieces, more, _ = self.apart[origin]
        if more and origin != self.root:
            rest = self.S ^ 1 << origin ^ pieces
            W = self.grid.width
            more &= rest << 1 | rest >> 1 | rest << W | rest >> W
        self._joining[origin] = more
        return more

    def _touching(self) -> tuple[int, int]:
        """The cells next to (N4) at least one stone, and those next to at least two."""
        if self._touch is None:
            S, W, every = self.S, self.grid.width, self.grid.all
            a, b, c, d = S << 1 & every, S >> 1, S << W & every, S >> W
            self._touch = (a | b | c | d, (a & b) | (c & d) | ((a | b) & (c | d)))
        return self._touch

    def landings(self, value: int) -> dict[int, int]:
        """Every movable stone with a legal landing for ``value`` (its bit, lowest first: reading
        order) -> its legal landings (a mask), R-19 .. R-24 without R-18; worked out once per
        value.  Shared: not to be changed.  ``grid.cell`` turns a bit into its cell.

        R-24: a cut stone's landing must touch every piece of the rest (:meth:`_joins`; a 2 to 6,
        with one or two landings a stone, tests them cell by cell unless a 1 already asked).  Any
        other stone's landing of a 2 to 6 ends next to the last stone it jumped, so it keeps the
        rest whole; a 1 must touch the rest: a cell diagonal to the stone does when it touches
        any stone, a side neighbour when it touches two (the stone and another)."""
        found = self._masks.get(value)
        if found is not None:
            return found
        if self.compiled is not None:
            found = self._masks[value] = self.compiled.landings(value)
            return found
        found = {}
        g = self.grid
        if not self.connected:
            bit = g.bit
            for stone, cells in self.reference()._table(value).items():
                mask = 0
                for cell in cells:
                    mask |= 1 << bit[cell]
                found[bit[stone]] = mask
        elif value == 1:  # the eight cells around
            around, free, movers, departed, apart = g.around, self.free, self.movers, self.departed, self.apart
            joining, joins, not_start, far = self._joining, self._joins, g.not_start, g.far
            root, cut_root = self.root, self.cut_root
            alone = not self.S & self.S - 1
            sides = None
            while movers:
                low = movers & -movers
                origin = low.bit_length() - 1
                movers ^= low
                mask = around[origin] & free
                if departed & low:
                    mask &= not_start
                if far & low:
                    mask &= far
                if not mask:
                    continue
                if origin in apart and (cut_root or origin != root):
                    join = joining.get(origin)
                    mask &= joins(origin) if join is None else join
                elif not alone:
                    if sides is None:
                        touching, twice = self._touching()
                        sides = g.side_mask
                    mask &= touching & ~(sides[origin] & ~twice)
                if mask:
                    found[origin] = mask
        else:
            reach = self._jumps(value)
            apart = self.apart
            if apart:
                joining, root, cut_root, S, sides = self._joining, self.root, self.cut_root, self.S, g.side_mask
                for origin in sorted(reach):
                    mask = reach[origin]
                    hung = apart.get(origin)
                    if hung is not None and (cut_root or origin != root):
                        join = joining.get(origin)
                        if join is not None:
                            mask &= join
                        else:  # :meth:`_joins` for these one or two landings only, cell by cell
                            mask &= hung[1]
                            if mask and origin != root:
                                rest, landings, mask = S ^ 1 << origin ^ hung[0], mask, 0
                                while landings:
                                    low = landings & -landings
                                    landings ^= low
                                    if sides[low.bit_length() - 1] & rest:
                                        mask |= low
                        if not mask:
                            continue
                    found[origin] = mask
            else:
                for origin in sorted(reach):
                    found[origin] = reach[origin]
        self._masks[value] = found
        return found

    def _table(self, value: int) -> dict[Cell, list[Cell]]:
        """``movement.Caravan._table``: :meth:`landings` as cells, ``origin -> [landing, ...]``
        in reading order; worked out once per value."""
        if self._moves is None:
            self._moves = {}
        found = self._moves.get(value)
        if found is None:
            cell = self.grid.cell
            found = {cell[origin]: [cell[b] for b in _bits(mask)] for origin, mask in self.landings(value).items()}
            self._moves[value] = found
        return found

    def table(self, value: int) -> dict[Cell, list[Cell]]:
        """Every movable stone with a legal landing for ``value`` (reading order) -> its legal
        landings, sorted (R-19 .. R-24 without R-18).  Shared: not to be changed."""
        return self._table(value)

    def can_use(self, value: int, forbidden: Mapping[Cell, set[Cell]] | None = None) -> bool:
        """Whether a die of ``value`` has any legal move (R-14, R-16, R-17; ``forbidden``: R-18)."""
        if not forbidden and self.compiled is not None:
            return self.compiled.count(value) > 0
        masks = self.landings(value)
        if not forbidden:
            return bool(masks)
        bit = self.grid.bit
        blocked: dict[int, int] = {}
        for origin, cells in forbidden.items():
            mask = 0
            for cell in cells:
                mask |= 1 << bit[cell]
            blocked[bit[origin]] = mask
        return any(mask & ~blocked.get(origin, 0) for origin, mask in masks.items())

    def allows(self, origin: Cell, value: int, landing: Cell) -> bool:
        """Whether ``origin -> landing`` with ``value`` keeps R-19 .. R-24 (:meth:`refusal` is ``None``)."""
        bit = self.grid.bit
        start, end = bit.get(origin), bit.get(landing)
        if value not in _VALUES or start is None or end is None:
            return False
        if self.compiled is not None:
            return self.compiled.allows(value, start, end)
        return bool(self.landings(value).get(start, 0) >> end & 1)

    def die_moves(self, values: Sequence[int], returns: Sequence[tuple[int, int, int]], made: dict[int, Any],
                  make: Callable[[int, Cell, Cell], Any]) -> list:
        """Every move of a die of each of ``values`` (ascending), stones and landings in reading
        order (bits ascending), R-19 .. R-24, and R-18: not the ``(value, origin, landing)`` bits in
        ``returns``.  A move is ``made[(value * size + origin) * size + landing]`` (``size``:
        ``grid.size``), ``make(value, origin cell, landing cell)`` when missing (then kept there)."""
        if self.compiled is not None:
            return self.compiled.moves(values, returns, made, make)
        g = self.grid
        cell, size = g.cell, g.size
        moves = []
        for value in values:
            blocked: dict[int, int] = {}
            for moved_value, at, back in returns:
                if moved_value == value:
                    blocked[at] = blocked.get(at, 0) | 1 << back
            for origin, landings in self.landings(value).items():
                if blocked:
                    landings &= ~blocked.get(origin, 0)
                base = (value * size + origin) * size
                while landings:
                    low = landings & -landings
                    landing = low.bit_length() - 1
                    landings ^= low
                    move = made.get(base + landing)
                    if move is None:
                        move = made[base + landing] = make(value, cell[origin], cell[landing])
                    moves.append(move)
        return moves

    def refusal(self, origin: Cell, value: int, landing: Cell) -> str | None:
        """``movement.Caravan.refusal``: why ``origin -> landing`` with ``value`` breaks R-19 ..
        R-24 (the message names the rule), or ``None``."""
        bit = self.grid.bit
        start, end = bit.get(origin), bit.get(landing)
        if value in range(1, 7) and start is not None and end is not None and self.landings(value).get(start, 0) >> end & 1:
            return None
        return self.reference().refusal(origin, value, landing)

    def refusal_template(self, origin: Cell, value: int, landing: Cell) -> tuple[str, dict[str, str | int]] | None:
        """``movement.Caravan.refusal_template``: :meth:`refusal` as a template and its parameters."""
        if self.refusal(origin, value, landing) is None:
            return None
        return self.reference().refusal_template(origin, value, landing)


_VALUES = range(1, 7)
"""The values of a die."""
_ZEROS = {k: (0,) * (7 - k) for k in range(2, 7)}
"""The rest of a row of ``runs`` or ``ends`` once no longer row exists."""


def _visit(here: int, stones: set[int], adjacent: dict[int, tuple[tuple[int, ...], int]],
           index: dict[int, int], apart: dict[int, tuple[int, int, int]]) -> tuple[int, int, int]:
    """The search of :meth:`Position._setup` from ``here``: numbers the stones
    it reaches in ``index``, notes in ``apart`` the subtrees that hang on one stone alone, and
    returns the lowest search number the subtree of ``here`` reaches by one side step, the
    subtree as a mask and the playable cells next to it (``adjacent``: a cell's N4 neighbours
    as bits and as a mask, ``Grid.adjacent``).  (A module function, not a closure: a closure
    calling itself would be a reference cycle left for the garbage collector on every position.)"""
    mine = index[here] = len(index)
    sides, near = adjacent[here]
    low, subtree = mine, 1 << here
    for there in sides:
        if there in stones:
            seen = index.get(there)
            if seen is None:  # a search child
                below, below_mask, below_near = _visit(there, stones, adjacent, index, apart)
                subtree |= below_mask
                near |= below_near
                if below >= mine:  # its subtree hangs on ``here`` alone
                    hung = apart.get(here)
                    apart[here] = ((below_mask, below_near, 1) if hung is None
                                   else (hung[0] | below_mask, hung[1] & below_near, hung[2] + 1))
                elif below < low:
                    low = below
            elif seen < low:  # the side step back to the parent too: it lowers ``below`` to ``mine`` at most
                low = seen
    return low, subtree, near


def position(state: NomadiState, board: Board) -> Position:
    """The stones of a game state as one shared, read-only :class:`Position`, looked up by the JSON
    text of the stones (the :data:`KEPT` arrangements used last are kept, per board)."""
    stones = state["stones"]
    text = orjson.dumps(stones)
    kept, found = _recalled(board, text)
    if found is None:
        W = grid(board).width
        S = locked = departed = 0
        bits: set[int] = set()
        for stone in stones:
            cell = stone["cell"]
            if cell:
                at = cell[0] * W + cell[1]
                bits.add(at)
                b = 1 << at
                S |= b
                if stone["departed"]:
                    departed |= b
                if stone["locked"]:
                    locked |= b
        found = _keep(kept, text, Position.from_masks(board, text, S, departed, locked, bits))
    return found


def moved(before: Position, stones: list[Stone], origin: Cell, landing: Cell, stone: Stone) -> Position:
    """:func:`position` of ``stones`` (a state's), which are the stones of ``before`` but for
    ``stone``, moved from ``origin`` to ``landing`` (where it may have departed or been locked):
    the masks are those of ``before`` with the one stone changed instead of being read from
    every stone."""
    board = before.board
    text = orjson.dumps(stones)
    kept, found = _recalled(board, text)
    if found is not None:
        return found
    W = before.grid.width
    gone, at = origin[0] * W + origin[1], landing[0] * W + landing[1]
    was, now = 1 << gone, 1 << at
    departed = before.departed & ~was | (now if stone["departed"] else 0)
    locked = before.locked & ~was | (now if stone["locked"] else 0)
    bits = set(before.bits)
    bits.discard(gone)
    bits.add(at)
    return _keep(kept, text, Position.from_masks(board, text, before.S & ~was | now, departed, locked, bits))


def _recalled(board: Board, text: bytes) -> tuple[dict[bytes, Position], Position | None]:
    """The positions kept for ``board``, and the one of the stones' JSON ``text`` among them (now
    the most recently used), or None."""
    kept = _POSITIONS.get(board)
    if kept is None:
        kept = _POSITIONS[board] = {}
    found = kept.pop(text, None)
    if found is not None:
        kept[text] = found  # the most recently used last
    return kept, found


def _keep(kept: dict[bytes, Position], text: bytes, made: Position) -> Position:
    """Keep ``made`` under ``text``, the oldest dropped past :data:`KEPT`; returns ``made``."""
    kept[text] = made
    if len(kept) > KEPT:
        try:
            del kept[next(iter(kept))]  # the oldest
        except (KeyError, RuntimeError, StopIteration):  # another thread got there first
            pass
    return made


KEPT = 16
"""Positions kept per board.  A move needs two (before and after), a bot's look at the next die
moves (``evaluation.py``: 4 of them) a few more.  Kept positions outlive a few collections of the
garbage collector's young generation and end up in the oldest one: the more are kept, the more
often it is searched whole (with Python's default thresholds, the benchmarks'; the server
collects less often, ``app/main.py``).  Measured: ``bench/results/2026-12-04-vm-rules-engines.md``."""
_POSITIONS: dict[Board, dict[bytes, Position]] = {}

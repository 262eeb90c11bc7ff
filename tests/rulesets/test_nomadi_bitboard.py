"""The bitboard move generator (``bitboard.py``) against the straightforward one (``movement.Caravan``,
itself checked against the rules read one by one in ``test_nomadi_movement.py``).

Both must list the same legal moves (R-19 .. R-24), in the same order, on every position: random
blobs joined or not, caravans grown stone by stone (many cut stones, R-24), and the positions of
random games.  Every test runs twice: with the C move generator (``_movegen.c``, skipped when it is
not built) and with the Python one.
"""

from __future__ import annotations

import random

import pytest

from app.rulesets.nomadi import bitboard
from app.rulesets.nomadi.bitboard import Position, grid, position
from app.rulesets.nomadi.board import Board
from app.rulesets.nomadi.movement import Caravan, StoneAt
from app.rulesets.nomadi.rules import Nomadi, forbidden_returns
from app.rulesets.testing import play_random_game

BOARD = Board.standard()
OPEN = Board("open", ["." * 12] * 12)
"""12 x 12 sand, no chasm, no start: only R-19 .. R-21 and R-24 bind."""


COMPILED = bitboard._movegen()
"""The C move generator, or ``None`` when it is not built."""


@pytest.fixture(params=["compiled", "python"], autouse=True)
def generator(request):
    """Each test with the C move generator, then with the Python one."""
    if request.param == "compiled" and COMPILED is None:
        pytest.skip("the C move generator is not built (pip install -e .)")
    kept = bitboard.MOVEGEN
    bitboard.use_movegen(COMPILED if request.param == "compiled" else None)
    yield request.param
    bitboard.use_movegen(kept)


def key_of(stones: dict) -> tuple:
    return tuple((row, col, stone.departed, stone.locked) for (row, col), stone in stones.items())


def random_blob(chooser: random.Random, board: Board, rows: range, cols: range) -> dict:
    cells = {(chooser.randrange(rows.start, rows.stop), chooser.randrange(cols.start, cols.stop))
             for _ in range(chooser.randrange(1, 22))}
    cells &= board.playable_cells
    return {cell: StoneAt(departed=chooser.random() < 0.7, locked=chooser.random() < 0.1) for cell in cells}


def grown_caravan(chooser: random.Random, board: Board, seed_cell: tuple[int, int], size: int) -> dict:
    """A connected caravan grown one side neighbour at a time (thin shapes: many cut stones)."""
    cells = [seed_cell]
    while len(cells) < size:
        row, col = chooser.choice(cells)
        dr, dc = chooser.choice(((-1, 0), (1, 0), (0, -1), (0, 1)))
        cell = (row + dr, col + dc)
        if cell in board.playable_cells and cell not in cells:
            cells.append(cell)
    chooser.shuffle(cells)
    return {cell: StoneAt(departed=chooser.random() < 0.8, locked=chooser.random() < 0.05) for cell in cells}


def assert_same(board: Board, stones: dict, chooser: random.Random) -> None:
    fast, slow = Position(board, key_of(stones)), Caravan(board, stones)
    for value in range(1, 7):
        expected = slow._table(value)
        assert fast._table(value) == expected, (board.name, sorted(stones), value)
        assert list(fast._table(value)) == list(expected)  # reading order of the stones
        forbidden = {origin: set(chooser.sample(landings, chooser.randrange(len(landings) + 1)))
                     for origin, landings in expected.items()}
        assert fast.moves(value, forbidden) == slow.moves(value, forbidden)
        assert fast.can_use(value, forbidden) == slow.can_use(value, forbidden)
        assert fast.can_use(value) == slow.can_use(value)
        tried = [(origin, landing) for origin in stones for landing in slow.reachable(origin, value)]
        tried += [] if not stones else [(chooser.choice(list(stones)), chooser.choice(sorted(board.playable_cells))) for _ in range(5)]
        for origin, landing in tried:
            assert fast.refusal(origin, value, landing) == slow.refusal(origin, value, landing)


def test_random_blobs_joined_or_not_on_both_boards():
    chooser = random.Random(5)
    for _ in range(150):
        assert_same(OPEN, random_blob(chooser, OPEN, range(0, 12), range(0, 12)), chooser)
        assert_same(BOARD, random_blob(chooser, BOARD, range(0, 20), range(0, 16)), chooser)


def test_grown_caravans_with_many_cut_stones():
    chooser = random.Random(9)
    for _ in range(300):
        board = chooser.choice((OPEN, BOARD))
        start = chooser.choice(sorted(board.playable_cells))
        assert_same(board, grown_caravan(chooser, board, start, chooser.randrange(1, 26)), chooser)


def test_the_positions_of_random_games():
    rules = Nomadi()
    chooser = random.Random(3)
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        game = play_random_game(rules, players, seed, check=False, cap=400)
        state = rules.setup(players, rules.parse_options({}), seed)
        for number, (seat, move) in enumerate(game.moves):
            if number % 7 == 0:
                stones = {(s["cell"][0], s["cell"][1]): StoneAt(departed=s["departed"], locked=s["locked"])
                          for s in state["stones"] if s["cell"]}
                assert_same(BOARD, stones, chooser)
                for value in range(1, 7):
                    forbidden = forbidden_returns(state, value)
                    assert position(state, BOARD).moves(value, forbidden) == Caravan(BOARD, stones).moves(value, forbidden)
            state, _ = rules.apply(state, seat, move)


def test_the_edge_columns_do_not_wrap():
    """A row of stones against the right edge: no jump comes out on the next row's left edge."""
    stones = {(5, col): StoneAt() for col in range(8, 12)} | {(6, 11): StoneAt()}
    fast = Position(OPEN, key_of(stones))
    assert grid(OPEN).width == 13
    for value in range(1, 7):
        for landings in fast._table(value).values():
            assert all(0 <= col < 12 for _, col in landings)
    assert_same(OPEN, stones, random.Random(1))

"""Nomadi's two move generators, C (``bitboard.MOVEGEN``, ``_movegen.c``) and Python, play the same
games: the seeded random games of ``bench/rules_digest.py`` (same chooser, same choices), hashed ply
by ply (state, seats to act, legal moves in order, move, events, result), are equal with either.
``test_nomadi_bitboard.py`` checks both against the reference generator on single positions."""

from __future__ import annotations

import hashlib
import random

import orjson
import pytest

from app.rulesets.nomadi import bitboard
from app.rulesets.nomadi.rules import Nomadi

COMPILED = bitboard._movegen()

pytestmark = pytest.mark.skipif(COMPILED is None, reason="the C move generator is not built")


def _text(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def digest(compiled, players: int, seeds: range) -> tuple[str, int]:
    """The hash of the random games of ``seeds`` (as ``bench/rules_digest.py`` plays and hashes
    them) with the move generator ``compiled`` (``None``: Python), and their plies."""
    kept = bitboard.MOVEGEN
    bitboard.use_movegen(compiled)
    try:
        rules, sink, plies = Nomadi(), hashlib.blake2b(digest_size=16), 0
        for seed in seeds:
            chooser = random.Random(seed)
            state = rules.setup(players, rules.parse_options({}), seed)
            while acting := rules.to_act(state):
                sink.update(_text(state) + repr(sorted(acting)).encode())
                seat = chooser.choice(sorted(acting))
                legal = rules.legal_moves(state, seat)
                sink.update(_text([move.model_dump(mode="json") for move in legal]))
                move = chooser.choice(legal)
                state, events = rules.apply(state, seat, move)
                sink.update(_text(move.model_dump(mode="json")))
                sink.update(_text([event.model_dump(mode="json") for event in events]))
                plies += 1
            sink.update(_text(rules.result(state).model_dump(mode="json")))
        return sink.hexdigest(), plies
    finally:
        bitboard.use_movegen(kept)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_c_and_python_generators_play_the_same_games(players):
    compiled, python = digest(COMPILED, players, range(1, 4)), digest(None, players, range(1, 4))
    assert compiled == python
    assert compiled[1] > 2000  # three whole games of ~900 plies each, not a game cut short


def test_the_c_generator_refuses_what_the_board_cannot_hold():
    """Masks read from outside the board, or die values that are not 1-6, are errors, not moves."""
    grid = COMPILED.Grid(2, 3, b"\x01\x01\x00\x01\x01\x00", b"\x00" * 6, b"\x00" * 6)
    # 2 x 2 cells (bits 0, 1 and 3, 4; 2 and 5 the pad column), stones on (0, 0) and (0, 1): a 1
    # takes each to the cell diagonal to it, the one cell below that still touches the other stone
    layout = grid.layout(0b11, 0, 0)
    assert layout.connected and layout.count(1) == 2
    assert layout.landings(1) == {0: 1 << 4, 1: 1 << 3}
    assert layout.allows(1, 0, 4) and not layout.allows(1, 0, 3)
    assert not layout.allows(7, 0, 3)
    with pytest.raises(ValueError):
        layout.count(0)
    with pytest.raises(ValueError):
        grid.layout(0b100, 0, 0)  # the pad column
    with pytest.raises(OverflowError):
        grid.layout(1 << 64, 0, 0)

"""A way through a game to every kind of move: the browser tests that preview each move type use it
so that rare moves (a lost battle's casualties, an Interrupt spell, accepting a Nomadi card) are
reached in every run, not only when random play happens upon them.

The server keeps the seed secret from players, but a test owns the server's database: it reads the
table's seed (:func:`table_seed`), rebuilds the same game in-process with the same ruleset (rulesets
are deterministic: ``setup`` and ``apply`` give the server's states), and searches it for a line of
play (:func:`path_to_every_type`). The test then plays that line through the real server: the
watched seat's first move of each type by the browser, every other move through REST.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.rulesets.base import MoveModel, Ruleset

PLAYOUTS = 40  # random playouts from each point of the search, at most
ENOUGH = 10  # playouts after which the best one found so far is taken
HORIZON = 80  # moves a playout looks ahead
DETOURS = 3  # stretches of random play when nothing new is in reach
ATTEMPTS = 8  # whole searches (each with its own random moves) before giving up
LIMIT = 2000  # moves a line may have


def table_seed(database: Path, table_id: str) -> int:
    """The seed of the started table ``table_id`` in the server's SQLite file ``database``."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        row = connection.execute("SELECT seed FROM tables WHERE id = ?", (int(table_id),)).fetchone()
    assert row is not None and row[0] is not None, f"table {table_id} has no seed: not started?"
    return int(row[0])


@dataclass
class Line:
    """A line of play: ``moves`` as (seat, move) in order; ``firsts`` the indexes of the watched
    seat's first move of each wanted type; ``missing`` the wanted types it does not reach."""

    moves: list[tuple[int, MoveModel]] = field(default_factory=list)
    firsts: set[int] = field(default_factory=set)
    missing: set[str] = field(default_factory=set)


def path_to_every_type(ruleset: Ruleset, seats: int, options: dict[str, Any], seed: int, wanted: set[str],
                       rare: tuple[str, ...] = (), watched: int = 0, rng_seed: int = 1) -> Line:
    """A line from the game's start after which seat ``watched`` has played a move of every type of
    ``wanted``, found greedily: from the current position, random playouts; the one that first
    offers the watched seat a type it has not played (a type earlier in ``rare`` before any other,
    then the shortest; the search stops at the first playout to reach the rarest type left) is followed and that move played; where no playout finds one, a stretch of
    random play moves the game on. Several searches are tried; the best line is returned."""
    best = Line(missing=set(wanted))
    for attempt in range(ATTEMPTS):
        line = _search(ruleset, seats, options, seed, wanted, rare, watched, random.Random(rng_seed * 100 + attempt))
        if len(line.missing) < len(best.missing):
            best = line
        if not best.missing:
            break
    return best


def _search(ruleset: Ruleset, seats: int, options: dict[str, Any], seed: int, wanted: set[str],
            rare: tuple[str, ...], watched: int, rng: random.Random) -> Line:
    state = ruleset.setup(seats, ruleset.new_table_options(options), seed)  # as the server starts a table created with them
    line, seen, detours = Line(), set(), 0
    while not wanted <= seen and len(line.moves) < LIMIT:
        found = _playouts(ruleset, state, wanted - seen, rare, watched, rng)
        if found is None:
            if detours == DETOURS:
                break
            detours += 1
            found = _random_moves(ruleset, state, rng, HORIZON // 4)
            if not found:
                break
        else:
            seen.add(found[-1][1].type)
            line.firsts.add(len(line.moves) + len(found) - 1)
        for seat, move in found:
            state, _ = ruleset.apply(state, seat, move)
            line.moves.append((seat, move))
    line.missing = wanted - seen
    return line


def _playouts(ruleset: Ruleset, state: Any, unseen: set[str], rare: tuple[str, ...], watched: int,
              rng: random.Random) -> list[tuple[int, MoveModel]] | None:
    """The best playout's moves, ending with the watched seat's move of an unseen type, or None."""
    best, best_key = None, None
    for playout in range(PLAYOUTS):
        if best_key is not None and (best_key[0] == 0 or playout >= ENOUGH):
            break  # the rarest type wanted is in reach, or enough playouts found something
        moves: list[tuple[int, MoveModel]] = []
        position = state
        for _ in range(HORIZON):
            acting = sorted(ruleset.to_act(position))
            if not acting or ruleset.result(position) is not None:
                break
            if watched in acting:
                new = [move for move in ruleset.legal_moves(position, watched) if move.type in unseen]
                if new:
                    moves.append((watched, rng.choice(new)))
                    key = (rare.index(moves[-1][1].type) if moves[-1][1].type in rare else len(rare), len(moves))
                    if best_key is None or key < best_key:
                        best, best_key = moves, key
                    break
            position = _random_move(ruleset, position, acting, rng, moves)
    return best


def _random_moves(ruleset: Ruleset, state: Any, rng: random.Random, count: int) -> list[tuple[int, MoveModel]]:
    moves: list[tuple[int, MoveModel]] = []
    for _ in range(count):
        acting = sorted(ruleset.to_act(state))
        if not acting or ruleset.result(state) is not None:
            break
        state = _random_move(ruleset, state, acting, rng, moves)
    return moves


def _random_move(ruleset: Ruleset, state: Any, acting: list[int], rng: random.Random,
                 moves: list[tuple[int, MoveModel]]) -> Any:
    """A random legal move of a random seat of ``acting``, added to ``moves``; the state after it."""
    seat = rng.choice(acting)
    move = rng.choice(ruleset.legal_moves(state, seat))
    moves.append((seat, move))
    return ruleset.apply(state, seat, move)[0]

"""Replays: a game rebuilt at any version by folding its stored moves over ``setup``.

A fold of a long game costs real time (a 1,800-move Nomadi game: about 0.3 s), and anyone may ask
for replays of public games, so each process keeps the states it folded to (moves never change
once committed, so a folded state never goes stale) and starts the next fold from the nearest one:
stepping through a game with the slider costs one ``apply`` a step.  The fold itself runs in a
worker thread, so a long one does not hold up every other game on the process.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select

from app.db.models import Move, Table
from app.rulesets.base import Ruleset
from app.services.cache import ReplayCache
from app.services.context import Context

CHECKPOINT_EVERY = 50
"""A fold also keeps every state at a multiple of this version."""


async def state_at(ctx: Context, replays: ReplayCache, game_id: int, version: int) -> dict[str, Any]:
    """``game_id`` rebuilt at ``version`` (``0 <= version <=`` its latest version, checked by the caller).

    The returned state may be shared with later callers: read it, never change it.
    """
    start = replays.nearest(game_id, version)
    after = start[0] if start else 0
    async with ctx.sessions() as session:
        table = await session.scalar(select(Table).where(Table.id == game_id))
        moves = (await session.execute(select(Move.seq, Move.seat, Move.move)
                                       .where(Move.table_id == game_id, Move.seq > after, Move.seq <= version)
                                       .order_by(Move.seq))).all()
    ruleset = ctx.registry.get(table.ruleset)
    if start is None:
        first = ruleset.setup(table.seat_count, ruleset.parse_options(table.options), table.seed)
        replays.keep(game_id, 0, first)
    else:
        first = start[1]
    if not moves:
        return first
    kept = await asyncio.to_thread(_fold, ruleset, first, moves)
    for seq, state in kept:  # kept here, on the event loop: the cache is not shared with the thread
        replays.keep(game_id, seq, state)
    return kept[-1][1]


def _fold(ruleset: Ruleset, state: dict[str, Any], moves: list) -> list[tuple[int, dict[str, Any]]]:
    """Apply ``moves`` (``(seq, seat, wire move)`` rows) in order; the states to keep, the last one last."""
    kept = []
    for seq, seat, raw in moves:
        state, _ = ruleset.apply(state, seat, ruleset.parse_move(raw))  # apply never changes its input
        if seq % CHECKPOINT_EVERY == 0 and seq != moves[-1][0]:
            kept.append((seq, state))
    kept.append((moves[-1][0], state))
    return kept

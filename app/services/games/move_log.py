"""The move log read as a stack (docs/decisions.md, *Taking a move back*): which move a seat may take back.

The log stays append-only: a seat that takes back its last move appends an ``undo`` row
(``Move.kind``) naming the move it undoes, ``{"type": "undo", "undoes": seq}``.  Read from the
newest row down, each undo row cancels the newest move below it that no later undo cancelled, so
the moves still in force form a stack, and only its top may be taken back.  The state after an
undo row at version ``u`` undoing ``seq`` is the state at version ``seq - 1`` (``replays.py``
folds it that way).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import UNDO_KIND, Move

PAGE = 32
"""Log rows read per query while walking down (the walk usually stops after two)."""
BOT_MOVE_ID_PREFIX = "bot:"
SERVER_MOVE_ID_PREFIXES = (BOT_MOVE_ID_PREFIX, "timeout:")
"""Move ids the server makes for the moves it plays (a bot's, a time-out's), so that every process
making the same move gives it the same id.  People may not use them: a person who took the id of
the bot's next move would make the bot's move a "reused id" forever, and the game would stall."""


@dataclass(frozen=True)
class LastMove:
    """The newest move in force: its ``seq``, ``seat``, wire ``move``, whether the ruleset found it
    ``reversible``, ``others_since`` (another seat has a log row, a move or an undo, after it), and
    ``previous_at``: when the move in force below it was made (None: it is the first);
    ``by_server``: the server played it for the seat (a bot's move, a time-out's), not its person."""

    seq: int
    seat: int
    move: dict[str, Any]
    reversible: bool
    others_since: bool
    previous_at: datetime | None
    by_server: bool = False

    def undoable_by(self) -> int | None:
        """The seat that may take this move back now, or None."""
        return self.seat if self.reversible and not self.others_since else None


def undo_entry(seq: int) -> dict[str, Any]:
    """The ``move`` column of an undo row that takes back move ``seq``."""
    return {"type": "undo", "undoes": seq}


def undone_seq(row_move: dict[str, Any]) -> int:
    """The seq an undo row's ``move`` column takes back."""
    return int(row_move["undoes"])


async def last_move(session: AsyncSession, game_id: int) -> LastMove | None:
    """The newest move of ``game_id`` still in force (None: none is, e.g. right after the start)."""
    undone: set[int] = set()
    seats_after: set[int] = set()
    target = None
    cursor = None
    while True:
        query = (select(Move.seq, Move.seat, Move.kind, Move.move, Move.reversible, Move.created_at,
                        Move.client_move_id)
                 .where(Move.table_id == game_id).order_by(Move.seq.desc()).limit(PAGE))
        if cursor is not None:
            query = query.where(Move.seq < cursor)
        rows = (await session.execute(query)).all()
        for row in rows:
            if row.kind == UNDO_KIND:
                undone.add(undone_seq(row.move))
            elif row.seq not in undone:
                if target is not None:
                    return _last(target, seats_after, row.created_at)
                target = row
                continue
            if target is None:
                seats_after.add(row.seat)
        if len(rows) < PAGE:
            return None if target is None else _last(target, seats_after, None)
        cursor = rows[-1].seq


async def has_moved(session: AsyncSession, game_id: int, seat: int) -> bool:
    """Whether ``seat`` has a row in ``game_id``'s log (a move, or an undo of one)."""
    return (await session.scalar(select(Move.seq).where(Move.table_id == game_id, Move.seat == seat).limit(1))) is not None


def _last(target, seats_after: set[int], previous_at: datetime | None) -> LastMove:
    by_server = target.client_move_id.startswith(SERVER_MOVE_ID_PREFIXES)
    return LastMove(target.seq, target.seat, target.move, bool(target.reversible) and not by_server,
                    bool(seats_after - {target.seat}), previous_at, by_server)


async def undo_seat(session: AsyncSession, game_id: int) -> int | None:
    """The seat that may take back the last move of ``game_id`` now, or None."""
    last = await last_move(session, game_id)
    return last.undoable_by() if last is not None else None

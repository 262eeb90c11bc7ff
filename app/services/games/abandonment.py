"""Who abandoned a game: a person whose seat a bot still played when it ended (Board Game Arena
and Lichess count that as an abandonment, as we do).

When a game ends (the transaction that commits its last move, ``services/games/pipeline.py``), each person
whose seat a bot plays then (``takeover``: they resigned, left, ran out of time or stayed away) gets
``seats.abandoned_from``: the version of the bot's first move of that last stretch, that is, the
first bot move for the seat after the person's own last move (the final version when the bot made
none).  Someone who came back and finished the game themselves has no takeover then, and counts
by their place.  The mark is written once, with the end, so the rating (``ratings.rated_seats``),
``ratings recompute`` and the result (``views.result_payload``) all read the same thing however
the seats change later.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import MOVE_KIND, Move, Seat
from app.services.games.move_log import BOT_MOVE_ID_PREFIX, SERVER_MOVE_ID_PREFIXES
from app.services.tables.seating import SeatInfo

REASONS = {"resigned": "resigned", "left": "left", "timeout": "ran out of time", "away": "was away"}
"""The takeovers in words, as the result says them ("Ben: abandoned (left), ...")."""


async def record(session: AsyncSession, game_id: int, seats: tuple[SeatInfo, ...],
                 final_version: int) -> tuple[SeatInfo, ...]:
    """Mark, inside the caller's transaction, every person of the ending game ``game_id`` whose seat a
    bot plays now; returns ``seats`` with ``abandoned_from`` filled in."""
    marked = list(seats)
    for info in seats:
        if info.account_id is None or info.takeover is None:
            continue
        own_last = await session.scalar(select(func.max(Move.seq)).where(
            Move.table_id == game_id, Move.seat == info.seat, Move.kind == MOVE_KIND, ~_made_by_server()))
        first_bot = await session.scalar(select(func.min(Move.seq)).where(
            Move.table_id == game_id, Move.seat == info.seat, Move.kind == MOVE_KIND, Move.seq > (own_last or 0),
            Move.client_move_id.startswith(BOT_MOVE_ID_PREFIX)))
        since = first_bot or final_version
        await session.execute(update(Seat).where(Seat.table_id == game_id, Seat.seat == info.seat)
                              .values(abandoned_from=since))
        marked[info.seat] = replace(info, abandoned_from=since)
    return tuple(marked)


def _made_by_server():
    """The condition "the server made this move for its seat" (a bot's, a time-out's move id)."""
    return or_(*(Move.client_move_id.startswith(prefix) for prefix in SERVER_MOVE_ID_PREFIXES))


def described(info: SeatInfo) -> str:
    """``"Ben: abandoned (left), a bot played from move 31"`` for a seat with ``abandoned_from``: the
    English line for the API's readers; the table page says it in its reader's language from the
    entry's ``seat``, ``takeover`` and ``from_version`` (``static/js/table.js``, one msgid per takeover)."""
    reason = REASONS.get(info.takeover or "")
    return (f"{info.name or 'A player'}: abandoned{f' ({reason})' if reason else ''}, "
            f"a bot played from move {info.abandoned_from}")

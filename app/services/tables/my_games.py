""""My games": the home of a player whose games run for days.

Every table the account sits at or created, the ones where it is their move first, so a
turn-based player opens one page and sees what waits for them, how long ago each game last
moved, and each deadline.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Seat, Table, iso_utc
from app.rulesets.registry import Registry
from app.services.tables.changes import TableInfo, seats_of

ACTIVE = ("open", "running")
DONE = ("finished", "abandoned")
_NEVER = datetime.max.replace(tzinfo=timezone.utc)


async def my_games(session: AsyncSession, registry: Registry, account_id: int, done_limit: int = 50) -> list[dict[str, Any]]:
    """The account's tables as ``table`` dicts (``TableInfo.to_dict``) plus ``my_seat`` (or None
    for a table it created but left), ``my_turn`` (its person is to move now, no bot plays for it)
    and ``my_deadline`` (ISO 8601 UTC when its move is due, or None).

    Order: the tables where it is ``my_turn``, soonest deadline first (no deadline last); then open
    tables; then running games waiting for others; then abandoned and finished ones.  Within a
    group, newest table first.  Every open and running table is listed; of the finished and
    abandoned ones, the newest ``done_limit``.
    """
    seated = select(Seat.table_id).where(Seat.account_id == account_id)
    mine = (Table.id.in_(seated)) | (Table.creator_id == account_id)
    found = list(await session.scalars(select(Table).where(mine, Table.status.in_(ACTIVE)).order_by(Table.id.desc())))
    found += list(await session.scalars(select(Table).where(mine, Table.status.in_(DONE))
                                        .order_by(Table.id.desc()).limit(done_limit)))
    seats = await seats_of(session, [table.id for table in found])
    games = [_entry(registry, TableInfo(table, seats[table.id]), account_id) for table in found]
    return sorted(games, key=_order)


def _entry(registry: Registry, info: TableInfo, account_id: int) -> dict[str, Any]:
    game = info.to_dict(registry, account_id)
    seat = info.seat_of(account_id)
    mine = info.seats[seat] if seat is not None else None
    my_turn = mine is not None and mine.takeover is None and seat in game["to_act"]
    game.update(my_seat=seat, my_turn=my_turn, my_deadline=iso_utc(mine.deadline) if mine and my_turn else None)
    return game


def _order(game: dict[str, Any]) -> tuple:
    if game["my_turn"]:
        due = datetime.fromisoformat(game["my_deadline"]) if game["my_deadline"] else _NEVER
        return 0, due, -game["id"]
    group = {"open": 1, "running": 2, "abandoned": 3}.get(game["status"], 4)
    return group, _NEVER, -game["id"]

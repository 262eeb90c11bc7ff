"""A player's profile: their name and the games they played, with results.

Private tables are listed only to the player themself; open (not yet started) and closed tables
are not games and are left out; abandoned ones are listed as such.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Seat, Table
from app.rulesets.registry import Registry, UnknownRuleset
from app.services.accounts import ratings
from app.services.errors import AppError
from app.services.tables.changes import TableInfo, seats_of


async def profile(session: AsyncSession, registry: Registry, account_id: int, viewer_id: int | None,
                  limit: int = 100) -> dict[str, Any]:
    """``{id, name, guest, deleted, games: [table + {seat, outcome}], played, won, ratings}``, newest game first
(a deleted account is named "deleted player", ``guest`` false).

    ``outcome`` is ``null`` while a game runs, else ``{place, score, players, shared}``: the
    player's 1-based place (tied seats share it), final score and the number of seats.
    ``played`` and ``won`` count the finished games listed (a shared first place counts as won).
    ``ratings``: one per game the player was rated in (``ratings.player_ratings``); a change that a
    private game made keeps its numbers but not its table when someone else looks.
    Raises ``AppError(not_found)`` for an unknown account.
    """
    account = await session.get(Account, account_id)
    if account is None:
        raise AppError("not_found", "no player {account_id}", account_id=account_id)
    seated = select(Seat.table_id).where(Seat.account_id == account_id)
    query = select(Table).where(Table.id.in_(seated), Table.status.in_(("running", "finished", "abandoned")))
    if viewer_id != account_id:
        query = query.where(Table.private.is_(False))
    found = list(await session.scalars(query.order_by(Table.id.desc()).limit(limit)))
    seats = await seats_of(session, [table.id for table in found])
    games = []
    for table in found:
        info = TableInfo(table, seats[table.id])
        games.append({**info.to_dict(registry, viewer_id), "seat": info.seat_of(account_id),
                      "outcome": _outcome(registry, table, info.seat_of(account_id))})
    finished = [game["outcome"] for game in games if game["outcome"] is not None]
    deleted = account.deleted_at is not None
    return {"id": account.id, "name": account.name, "guest": account.login_name is None and not deleted,
            "deleted": deleted, "games": games,
            "played": len(finished), "won": sum(outcome["place"] == 1 for outcome in finished),
            "ratings": await ratings.player_ratings(session, registry, account_id, viewer_id == account_id)}


def _outcome(registry: Registry, table: Table, seat: int | None) -> dict[str, Any] | None:
    if table.status != "finished" or table.state is None or seat is None:
        return None
    try:
        result = registry.get(table.ruleset).result(table.state)
    except UnknownRuleset:
        return None
    if result is None:
        return None
    place = result.ranks[seat]
    return {"place": place, "score": result.scores[seat], "players": len(result.scores),
            "shared": result.ranks.count(place) > 1}

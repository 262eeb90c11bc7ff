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

    ``outcome`` is ``null`` while a game runs, else ``{place, score, players, shared, abandoned_from}``:
    the seat's 1-based place (tied seats share it), final score and the number of seats, and the
    move from which a bot played the seat to the end because the person resigned, left, ran out of
    time or was away (``seats.abandoned_from``; null when they finished it themselves).
    ``played`` counts the finished games listed; ``won`` those the person finished first
    themselves (a shared first place counts; a first place a bot reached for them does not, as
    their rating ranks them last for it: ``ratings.rated_seats``).
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
        seat = info.seat_of(account_id)
        abandoned_from = next((each.abandoned_from for each in seats[table.id] if each.seat == seat), None)
        games.append({**info.to_dict(registry, viewer_id), "seat": seat,
                      "outcome": _outcome(registry, table, seat, abandoned_from)})
    finished = [game["outcome"] for game in games if game["outcome"] is not None]
    deleted = account.deleted_at is not None
    return {"id": account.id, "name": account.name, "guest": account.login_name is None and not deleted,
            "deleted": deleted, "games": games,
            "played": len(finished),
            "won": sum(outcome["place"] == 1 and outcome["abandoned_from"] is None for outcome in finished),
            "ratings": await ratings.player_ratings(session, registry, account_id, viewer_id == account_id)}


def _outcome(registry: Registry, table: Table, seat: int | None, abandoned_from: int | None) -> dict[str, Any] | None:
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
            "shared": result.ranks.count(place) > 1, "abandoned_from": abandoned_from}

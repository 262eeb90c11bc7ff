"""Ratings: a table's people with their ratings and what the game did to them,
and a game's leaderboard.  A profile's ratings come with the profile (``/api/players/{id}``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from app.api.deps import Ctx, OptionalAccount, Session, TableId
from app.api.schemas import LeaderOut, TableRatingsOut, errors
from app.services.accounts import ratings
from app.services.tables import changes as tables

router = APIRouter(tags=["ratings"])


@router.get("/api/tables/{table_id}/ratings", response_model=TableRatingsOut, responses=errors(400, 404))
async def table_ratings(table_id: TableId, account: OptionalAccount, db: Session, invite_code: str | None = None) -> dict:
    """``{rated, seats: [{seat, account_id, rating, games, change}]}``: each seated person's current rating
    in this game, and once a rated game is over its ``change`` ``{before, after, delta, place, ...}``.
    A private table needs membership or the invite code (else ``not_found``)."""
    info = await tables.load_table(db, table_id)
    tables.check_access(info, account.id if account else None, invite_code)
    return await ratings.game_ratings(db, info.table, info.seats)


@router.get("/api/rulesets/{name}/leaderboard", response_model=list[LeaderOut], responses=errors(400, 404))
async def leaderboard(name: Annotated[str, Path(max_length=64)], ctx: Ctx, db: Session,
                      limit: int = Query(default=50, ge=1, le=200)) -> list[dict]:
    """``[{rank, account_id, name, rating, games}]``, best first; ``not_found`` for an unknown game."""
    return await ratings.leaderboard(db, ctx.registry, name, limit)

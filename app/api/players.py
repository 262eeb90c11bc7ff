"""``/api/players``: a player's profile page data (issue 10)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import MAX_ID, Ctx, OptionalAccount, Session
from app.api.schemas import ProfileOut, errors
from app.services import profiles

router = APIRouter(prefix="/api/players", tags=["players"])

PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="an account's id")]


@router.get("/{player_id}", response_model=ProfileOut, responses=errors(400, 404))
async def show(player_id: PlayerId, account: OptionalAccount, ctx: Ctx, db: Session) -> dict:
    """``{id, name, guest, games, played, won}`` (docs/api.md); private games only to the player."""
    return await profiles.profile(db, ctx.registry, player_id, account.id if account else None)

"""``/api/players``: a player's profile page data."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import MAX_ID, Ctx, OptionalAccount, Session
from app.api.schemas import ProfileOut, errors
from app.services.accounts import friends
from app.services.accounts import profiles

router = APIRouter(prefix="/api/players", tags=["players"])

PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="an account's id")]


@router.get("/{player_id}", response_model=ProfileOut, responses=errors(400, 404))
async def show(player_id: PlayerId, account: OptionalAccount, ctx: Ctx, db: Session) -> dict:
    """``{id, name, guest, games, played, won, ratings, following, blocked}`` (docs/api.md); private
    games only to the player; ``following``/``blocked``: the caller's relation to the player."""
    viewer = account.id if account else None
    return {**await profiles.profile(db, ctx.registry, player_id, viewer), **await friends.relation(db, viewer, player_id)}

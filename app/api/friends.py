"""Friends: follow and block players, the Friends list with invitations, and
inviting a friend to a table (``app/services/accounts/friends.py``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from app import i18n
from app.api.deps import MAX_ID, CurrentAccount, Ctx, Session, TableId
from app.api.guards import TablesLimit
from app.api.notifications import Kit
from app.api.players import PlayerId
from app.api.schemas import EmptyOut, FriendsOut, InvitationCreated, InvitationOut, RelationOut, errors
from app.services.accounts import friends
from app.services.attendance.presence import present_window

router = APIRouter(tags=["friends"])

InvitationId = Annotated[int, Path(ge=1, le=MAX_ID, description="an invitation's id")]


class InvitationIn(BaseModel):
    account_id: int = Field(ge=1, le=MAX_ID, description="the friend to invite")


@router.get("/api/friends", response_model=FriendsOut, responses=errors(401))
async def friends_list(account: CurrentAccount, ctx: Ctx, db: Session) -> dict:
    """``{friends, invitations, blocked}`` of the caller (docs/api.md, "Friends")."""
    return await friends.friends_list(db, ctx.registry, account, present_window(ctx))


@router.get("/api/invitations", response_model=list[InvitationOut], responses=errors(401))
async def my_invitations(request: Request, account: CurrentAccount, ctx: Ctx, db: Session) -> list[dict]:
    """The caller's invitations (rematch offers too), newest first, each with what its table's
    players agree to (in the caller's language): the page header's notice on every page (docs/api.md, "Friends")."""
    language = account.language or i18n.connection_language(request)
    return await friends.invitations(db, ctx.registry, account.id, language=language)


@router.post("/api/players/{player_id}/follow", status_code=201, response_model=RelationOut,
             responses=errors(400, 401, 403, 404, 409))
async def follow(player_id: PlayerId, account: CurrentAccount, db: Session) -> dict:
    """Follow a player: ``{following: true, blocked: false}``; ``bad_request`` for oneself, ``conflict`` twice."""
    await friends.follow(db, account, player_id)
    return await friends.relation(db, account.id, player_id)


@router.delete("/api/players/{player_id}/follow", response_model=RelationOut, responses=errors(400, 401, 403, 404))
async def unfollow(player_id: PlayerId, account: CurrentAccount, db: Session) -> dict:
    """Stop following: ``{following: false, blocked}``; ``not_found`` when not following."""
    await friends.unfollow(db, account, player_id)
    return await friends.relation(db, account.id, player_id)


@router.post("/api/players/{player_id}/block", status_code=201, response_model=RelationOut,
             responses=errors(400, 401, 403, 404, 409))
async def block(player_id: PlayerId, account: CurrentAccount, db: Session) -> dict:
    """Block a player (their chat hidden, their invitations refused): ``{following: false, blocked: true}``."""
    await friends.block(db, account, player_id)
    return await friends.relation(db, account.id, player_id)


@router.delete("/api/players/{player_id}/block", response_model=RelationOut, responses=errors(400, 401, 403, 404))
async def unblock(player_id: PlayerId, account: CurrentAccount, db: Session) -> dict:
    """Lift a block: ``{following, blocked: false}``; ``not_found`` when not blocked."""
    await friends.unblock(db, account, player_id)
    return await friends.relation(db, account.id, player_id)


@router.post("/api/tables/{table_id}/invitations", status_code=201, response_model=InvitationCreated,
             responses=errors(400, 401, 403, 404, 409, 429))
async def invite(table_id: TableId, body: InvitationIn, account: CurrentAccount, ctx: Ctx, db: Session,
                 notify: Kit, _: TablesLimit) -> dict:
    """Invite a friend to an open table with a free seat: ``{id, table_id, invitee: {id, name}}``.
    The friend is also told by push and e-mail, if they chose those (after the answer, never delaying it)."""
    invitation = await friends.invite(db, ctx.registry, account, table_id, body.account_id)
    notify.invitations.tell(invitation["id"])
    return invitation


@router.delete("/api/invitations/{invitation_id}", response_model=EmptyOut, responses=errors(400, 401, 403, 404))
async def drop_invitation(invitation_id: InvitationId, account: CurrentAccount, db: Session) -> dict:
    """Decline (the invitee) or withdraw (the inviter) an invitation: ``{}``."""
    await friends.drop_invitation(db, account, invitation_id)
    return {}

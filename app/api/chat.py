"""``/api/tables/{id}/chat``: a table's chat, read and written (live copies go out as ``chat`` frames)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.deps import Ctx, CurrentAccount, OptionalAccount, Session, TableId
from app.api.guards import ChatLimit
from app.api.schemas import ChatOut, errors
from app.i18n import connection_language, translate
from app.services.tables import chat

router = APIRouter(prefix="/api/tables", tags=["chat"])


class ChatIn(BaseModel):
    # Generous here (spaces around a message are trimmed); the service counts the trimmed text.
    text: str = Field(max_length=4 * chat.MAX_CHARACTERS)
    invite_code: str | None = Field(default=None, max_length=64)


@router.get("/{table_id}/chat", response_model=ChatOut, responses=errors(400, 403, 404))
async def read(table_id: TableId, request: Request, account: OptionalAccount, db: Session,
               invite_code: str | None = None) -> dict:
    """``{messages: [{id, seat, name, text, at}], can_post, reason}``: the latest 100 messages, oldest
    first, and whether the caller may write (``reason`` says why not, in the reader's language).  An
    admin reads any table's chat.

    Errors: ``not_found`` (no such table; a private one without the invite code), ``not_seated``
    (a spectator where the chat is for the players).
    """
    messages, access = await chat.read_chat(db, table_id, account.id if account else None, invite_code,
                                            admin=bool(account and account.admin))
    reason = translate(connection_language(request), access.reason) if access.reason else None
    return {"messages": messages, "can_post": access.can_post, "reason": reason}


@router.post("/{table_id}/chat", status_code=201, response_model=chat.ChatLine,
             responses=errors(400, 401, 403, 404, 429))
async def post(table_id: TableId, body: ChatIn, account: CurrentAccount, ctx: Ctx, db: Session, _: ChatLimit) -> dict:
    """Post one message; answers it as ``{id, seat, name, text, at}`` and pushes it to the table's sockets.

    Errors: ``unauthorized``, ``bad_request`` (empty after trimming, over 300 characters, control
    characters), ``not_seated``, ``not_found``, ``rate_limited``.
    """
    return await chat.post_message(ctx, db, account, table_id, body.text, body.invite_code)
